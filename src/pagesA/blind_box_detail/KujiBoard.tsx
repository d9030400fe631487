import { useEffect, useRef, useState } from 'react'
import { View, Text, Image } from '@tarojs/components'
import type { KujiBoard as Board, KujiTurn } from '~types/kuji'
import type { DesignInfo, SeriesDetail } from '~types/shop'
import Section from '@/components/Section'
import ActionBar from '@/components/ActionBar'
import TierBadge from '@/components/TierBadge'
import { kujiApi } from '@/services/kuji'
import { ApiError } from '@/services/errors'
import { errorMessage } from '@/services/request'
import { sessionStore } from '@/stores/session'
import { t } from '@/stores/locale'
import { dialog, loading, toast } from '@/utils/feedback'
import { formatCents, formatPpm, formatTime, tr, a11yImage, a11yControl, designLabel } from '@/utils/format'
import { DOUBLE_CHANCE, tierName, tierSummaries, tierTone } from '@/utils/kujiTier'
import { mediaUrl } from '@/utils/media'
import { navigate } from '@/utils/navigation'
import { loginToContinue } from '@/utils/loginReturn'
import { detailLink } from '@/utils/slots'
import { useRemote } from '@/utils/useRemote'
import { kujiGuarantee } from './guarantee'
import { drawLink, isSoldOut, nextPollMs, pickAllowed, pickRandomTickets, placeInLine, stillUnsold, tierCountsText, togglePick } from './kuji'
import KujiTurnPanel from './KujiTurnPanel'
import KujiVerify from './KujiVerify'
import RestockNotice from './RestockNotice'

/** After a failure that is not "sold out" (the network), ask again after this long. */
const RETRY_MS = 5000
const H5 = process.env.TARO_ENV === 'h5'

/**
 * A 一番赏 (kuji) series on its page (types/kuji.ts; POST /api/kujiBoard): the set on sale, shared by
 * every shopper. The Last One prize first, the tiers with tickets left and the chance of each for the
 * next ticket, what a whole set holds; the line (join, place, wait; on the caller's turn its time left
 * and the draws); the tickets (a sold one shows the tier it held, the caller's marked); the recent draws;
 * the set's commitment and the check of the previous set. Asked again as the server says while the caller
 * is in line (pollMs), and now and then otherwise, so others' draws show.
 *
 * A draw is a purchase of the set's tickets (the purchase page, caseId = the set): picked by number,
 * at random on this phone (the arrangement was committed before the sale: which ticket is picked changes
 * no chance), or every ticket left (全收). The server refuses a draw outside the caller's turn.
 */
export default function KujiBoard ({ series, shows, hidden = false }: { series: SeriesDetail; shows: number; hidden?: boolean }) {
  const seriesId = series.id
  const [picked, setPicked] = useState<number[]>([])
  const [poll, setPoll] = useState<{ ms: number; n: number } | null>(null)
  const lastState = useRef<KujiTurn['state'] | null>(null)
  // the page under another (the purchase): no asking, and nothing said over the other page
  const away = useRef(hidden)
  away.current = hidden
  const schedule = (ms: number) => setPoll(p => ({ ms, n: (p?.n ?? 0) + 1 }))
  const turnChanged = (turn: KujiTurn) => {
    if (away.current) { lastState.current = turn.state; return }
    if (turn.state === 'drawing' && lastState.current !== 'drawing' && lastState.current !== null) {
      toast({ message: t('kuji.turnStarted'), duration: 3000 })
    }
    if (turn.state !== 'drawing' && lastState.current === 'drawing') toast({ message: t('kuji.turnOver') })
    lastState.current = turn.state
  }
  const board = useRemote<Board>(() => kujiApi.board(seriesId), [seriesId, shows], {
    onSuccess: b => {
      setPicked(p => stillUnsold(p, b.tickets))
      if (sessionStore.loggedIn) turnChanged(b.turn)
      schedule(nextPollMs(b.turn))
    },
    onError: e => { if (!isSoldOut(e)) schedule(e instanceof ApiError && e.code === 429 ? Math.max(1, Number((e.data as { retryAfter?: number } | null)?.retryAfter ?? 1)) * 1000 : RETRY_MS) }
  })
  const { reload } = board
  useEffect(() => {
    if (!poll || hidden) return
    const timer = setTimeout(() => { void reload() }, poll.ms)
    return () => clearTimeout(timer)
  }, [poll, reload, hidden])

  const soldOut = board.failed && isSoldOut(board.error)
  const b = board.data && !soldOut ? board.data : null
  const loggedIn = sessionStore.loggedIn
  const turn = b && loggedIn ? b.turn : null

  const login = () => { void loginToContinue(t('kuji.logInReason'), detailLink(seriesId)) }
  const setTurn = (next: KujiTurn) => {
    board.setData(d => d && { ...d, turn: next })
    turnChanged(next)
    schedule(nextPollMs(next))
  }
  const join = async () => {
    if (!loggedIn) { login(); return }
    try {
      const next = await loading.wrap(kujiApi.turn(seriesId, 'join'))
      if (next.state === 'waiting') toast({ message: t('kuji.joined'), level: 'success' })
      setTurn(next)
    } catch (e) {
      toast({ message: errorMessage(e) })
    }
  }
  const leave = async () => {
    if (!turn) return
    if (turn.state === 'drawing' && !await dialog({ title: t('kuji.endTurn'), message: t('kuji.endTurnAsk'), confirmText: t('kuji.endTurnGo'), cancelText: t('kuji.endTurnStay') })) return
    try {
      setTurn(await loading.wrap(kujiApi.turn(seriesId, 'leave')))
      setPicked([])
      toast({ message: t('kuji.left') })
    } catch (e) {
      toast({ message: errorMessage(e) })
    }
  }
  const draw = (pick: number[] | 'all') => {
    if (!b) return
    if (!loggedIn) { login(); return }
    if (turn?.state !== 'drawing') { toast({ message: t('kuji.drawOnTurn') }); return }
    void navigate(drawLink(seriesId, b.setId, pick))
  }
  const tap = (ticket: number) => {
    if (!b) return
    const next = togglePick(picked, ticket, b.tickets)
    if (next.full) toast({ message: t('kuji.pickMax') })
    setPicked(next.picked)
  }

  if (soldOut) {
    return (
      <>
        <Section title={t('detail.soldOutTitle')} className='detail-sold-out kuji-sold-out'>
          <Text className='detail-sold-out__text'>{t('kuji.soldOutText')}</Text>
          <RestockNotice seriesId={seriesId} />
        </Section>
        <KujiPrizes series={series} />
        <ActionBar><View className='btn btn--primary btn--disabled buy-sold-out'>{t('detail.soldOut')}</View></ActionBar>
      </>
    )
  }
  if (!b) {
    return board.failed && !board.loading
      ? <Section className='kuji-failed'><Text className='kuji-failed__text'>{t('kuji.failed')}</Text><View className='btn btn--ghost kuji-retry' onClick={board.retry}>{t('kuji.retry')}</View></Section>
      : <Text className='detail-loading kuji-loading'>{t('kuji.loading')}</Text>
  }

  const tiers = tierSummaries(b)
  const g = kujiGuarantee(series.designs)
  const drawing = turn?.state === 'drawing'
  const pickOk = pickAllowed(picked.length, b.ticketsLeft)
  return (
    <>
      <KujiTurnPanel turn={turn} ticketsLeft={b.ticketsLeft} onLogin={login} onLeave={() => { void leave() }}
        onRandom={n => draw(pickRandomTickets(b.tickets, n))} onOver={() => { void reload() }} />

      <Section title={t('kuji.prizes')} className='kuji-prizes' extra={<Text className='kuji-set'>{t('kuji.setMeta', { n: b.setNumber, left: b.ticketsLeft, total: b.ticketCount })}</Text>}>
        <View className='kuji-last'>
          <Image className='kuji-last__img' src={mediaUrl(b.lastOne.image, 120)} mode='aspectFit' {...a11yImage(designLabel(b.lastOne))} />
          <View className='kuji-last__body'>
            <TierBadge tier={b.lastOne.tier ?? 'last_one'} />
            <Text className='kuji-last__name'>{tr(b.lastOne.name)}</Text>
            <Text className='kuji-last__how'>{t('kuji.lastOneHow')}</Text>
          </View>
        </View>
        {b.doubleChance && (
          <View className='kuji-double'>
            <Image className='kuji-double__img' src={mediaUrl(b.doubleChance.prize.image, 100)} mode='aspectFit' {...a11yImage(designLabel(b.doubleChance.prize))} />
            <View className='kuji-double__body'>
              <TierBadge tier={DOUBLE_CHANCE} />
              <Text className='kuji-double__name'>{tr(b.doubleChance.prize.name)}</Text>
              <Text className='kuji-double__how'>{t('kuji.doubleChanceHow', { n: b.doubleChance.winners })}</Text>
              <Text className='kuji-double__seed'>{t('kuji.doubleChanceSeed')}: {b.doubleChance.seedHash}</Text>
            </View>
          </View>
        )}
        {tiers.map(row => (
          <View key={row.tier} className={`kuji-tier kuji-tier-${row.tier} ${row.left === 0 ? 'kuji-tier--gone' : ''}`}>
            <View className='kuji-tier__head'>
              <TierBadge tier={row.tier} />
              <Text className='kuji-tier__left'>{t('kuji.tierLeft', { left: row.left, total: row.tickets })}</Text>
              <Text className='kuji-tier__odds'>{row.left ? t('kuji.oddsNow', { pct: formatPpm(row.oddsPpm) }) : t('kuji.tierGone')}</Text>
            </View>
            <TierDesigns designs={row.designs} />
          </View>
        ))}
        <Text className='case-guarantee kuji-guarantee'>{t(g.key, { n: g.tickets, tiers: tierCountsText(g.tiers) })}</Text>
      </Section>

      <Section title={t('kuji.tickets')} className='kuji-tickets'>
        <Text className='kuji-tickets__hint'>{t('kuji.ticketsHint')}</Text>
        <View className='kuji-grid'>
          {b.tickets.map(x => {
            const on = picked.includes(x.ticket)
            const label = x.sold && x.tier ? t(x.mine ? 'kuji.ticketMine' : 'kuji.ticketSold', { n: x.ticket, tier: tierName(x.tier) }) : t('kuji.ticket', { n: x.ticket })
            return (
              <View key={x.ticket}
                className={`kuji-ticket kuji-ticket-${x.ticket} ${x.sold ? `kuji-ticket--sold kuji-tone--${tierTone(x.tier ?? 'E')}` : ''} ${x.mine ? 'kuji-ticket--mine' : ''} ${on ? 'kuji-ticket--picked' : ''}`}
                {...(x.sold ? { 'aria-label': label } : a11yControl(label))}
                onClick={() => { if (!x.sold) tap(x.ticket) }}>
                <Text className='kuji-ticket__num'>{x.ticket}</Text>
                {x.sold && <Text className='kuji-ticket__tier'>{x.mine ? '★' : ''}{x.tier}</Text>}
              </View>
            )
          })}
        </View>
        {picked.length > 0 && <Text className='kuji-picked'>{t('kuji.picked', { n: picked.length, tickets: picked.join(', ') })}</Text>}
        {picked.length > 0 && !pickOk && <Text className='kuji-picked kuji-picked--bad'>{t('kuji.pickCount')}</Text>}
      </Section>

      <Section title={t('kuji.recent')} className='kuji-recent'>
        {b.recent.length === 0 && <Text className='kuji-recent__none'>{t('kuji.recentNone')}</Text>}
        {b.recent.map((r, i) => (
          <View key={`${r.at}-${r.ticket}-${i}`} className='kuji-draw'>
            <TierBadge tier={r.tier} />
            <View className='kuji-draw__body'>
              <Text className='kuji-draw__design'>{tr(r.design)}</Text>
              <Text className='kuji-draw__who'>{r.name} · {t('kuji.recentTicket', { n: r.ticket })} · {formatTime(r.at).slice(11)}</Text>
            </View>
          </View>
        ))}
      </Section>

      <Section title={t('kuji.fairness')} className='kuji-fair'>
        <Text className='kuji-fair__label'>{t('kuji.commit')}</Text>
        <Text className='kuji-fair__commit' userSelect>{b.commit}</Text>
        <Text className='kuji-fair__hint'>{t('kuji.commitHint')}</Text>
        <KujiVerify setId={b.previousSetId} published={b.tiers} />
      </Section>

      <ActionBar>
        {!loggedIn && <View className='btn btn--primary kuji-login-go' onClick={login}>{t('kuji.logInGo')}</View>}
        {turn?.state === 'none' && <View className='btn btn--primary kuji-join' onClick={() => { void join() }}>{t('kuji.join')}</View>}
        {turn?.state === 'waiting' && <View className='btn btn--primary btn--disabled kuji-waiting'>{t('kuji.waiting', { n: placeInLine(turn) })}</View>}
        {drawing && (
          <>
            <View className='btn btn--ghost kuji-all' onClick={() => draw('all')}>{t('kuji.all', { n: b.ticketsLeft, price: formatCents(b.ticketsLeft * b.priceCents) })}</View>
            <View className={`btn btn--primary kuji-draw-picked ${pickOk ? '' : 'btn--disabled'}`}
              onClick={() => { if (pickOk) draw(picked.length === b.ticketsLeft ? 'all' : picked); else toast({ message: t('kuji.pickCount') }) }}>
              {picked.length ? t('kuji.drawPicked', { n: picked.length, price: formatCents(picked.length * b.priceCents) }) : t('kuji.pickTickets')}
            </View>
          </>
        )}
      </ActionBar>
    </>
  )
}

/** The prizes of a sold-out kuji series, from its designs (no set to show). */
/** A tier's designs: picture and name. */
function TierDesigns ({ designs }: { designs: DesignInfo[] }) {
  return (
    <View className='kuji-tier__designs'>
      {designs.map(d => (
        <View key={d.id} className='kuji-design'>
          <Image className='kuji-design__img' src={mediaUrl(d.image, 80)} mode='aspectFit' lazyLoad={!H5} {...a11yImage(designLabel(d))} />
          <Text className='kuji-design__name'>{tr(d.name)}</Text>
        </View>
      ))}
    </View>
  )
}

function KujiPrizes ({ series }: { series: SeriesDetail }) {
  const g = kujiGuarantee(series.designs)
  const lastOne = series.designs.find(d => d.tier === 'last_one')
  return (
    <Section title={t('kuji.prizes')} className='kuji-prizes'>
      {lastOne && (
        <View className='kuji-last'>
          <Image className='kuji-last__img' src={mediaUrl(lastOne.image, 120)} mode='aspectFit' {...a11yImage(designLabel(lastOne))} />
          <View className='kuji-last__body'>
            <TierBadge tier='last_one' />
            <Text className='kuji-last__name'>{tr(lastOne.name)}</Text>
            <Text className='kuji-last__how'>{t('kuji.lastOneHow')}</Text>
          </View>
        </View>
      )}
      {g.tiers.map(row => (
        <View key={row.tier} className={`kuji-tier kuji-tier-${row.tier}`}>
          <View className='kuji-tier__head'><TierBadge tier={row.tier} /></View>
          <TierDesigns designs={series.designs.filter(d => d.tier === row.tier)} />
        </View>
      ))}
      <Text className='case-guarantee kuji-guarantee'>{t(g.key, { n: g.tickets, tiers: tierCountsText(g.tiers) })}</Text>
    </Section>
  )
}
