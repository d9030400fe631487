// first: on H5 the page waits for the rest of the dictionary (src/locales/full.h5.ts)
import '@/locales/full'
import { useRef, useState } from 'react'
import type { PropKind, PropShown, PropsState } from '~types/props'
import { useDidHide, useDidShow, useRouter } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { withPageError } from '@/components/PageError/wrap'
import type { CaseView, DesignInfo, SeriesDetail } from '~types/shop'
import PageShell from '@/components/PageShell'
import EmptyState from '@/components/EmptyState'
import Section from '@/components/Section'
import ActionBar from '@/components/ActionBar'
import RarityBadge from '@/components/RarityBadge'
import DesignPreview from '@/components/DesignPreview'
import PropSheet, { type PropSheetHandle } from '@/components/PropSheet'
import ShareBar from '@/components/ShareBar'
import type { LaunchEvent } from '~types/events'
import { eventsApi } from '@/services/events'
import { propsApi } from '@/services/props'
import { ApiError } from '@/services/errors'
import { callComponent } from './componentCall'
import { longPress, type LongPressHandlers } from './longPress'
import { useRequestKeys } from '@/utils/requestKey'
import { shopApi } from '@/services/shop'
import { errorMessage } from '@/services/request'
import { sessionStore } from '@/stores/session'
import { localeStore, t } from '@/stores/locale'
import { dialog, loading, toast } from '@/utils/feedback'
import { formatCents, formatPpm, formatTime, tr, a11yImage, designLabel, decorativeImage, a11yControl } from '@/utils/format'
import { mediaUrl } from '@/utils/media'
import { navigate } from '@/utils/navigation'
import { chinaClock } from '@/utils/travel'
import { clockText, useTimeLeft } from '@/utils/useTimeLeft'
import { loginToContinue } from '@/utils/loginReturn'
import { detailLink, parseSlots, restoreSelection } from '@/utils/slots'
import { useRemote } from '@/utils/useRemote'
import { knownKind, rememberKind } from '@/utils/seriesKind'
import BestPosts from './BestPosts'
import { caseGuarantee } from './guarantee'
import DropPanel from './DropPanel'
import KujiBoard from './KujiBoard'
import QueuePanel from './QueuePanel'
import RestockNotice from './RestockNotice'
import './index.scss'

/**
 * Blind box detail: designs with odds, value range, rules, the current case and its slots. The query
 * may carry a selection (caseId, slots: after a login, or back from a purchase that failed): it is
 * picked again if that case is still the one shown, and the user is told what could not be kept.
 */
/** A click this soon after a long press is the end of that press, not a tap. */
const LONG_PRESS_CLICK_GRACE_MS = 600
/**
 * Taro's lazyLoad on H5 watches each picture with an IntersectionObserver whose late answer, after the
 * page was left (back to the finder), sets the src of a picture that is gone: a page error seen in
 * test/e2e/finder.e2e.js (as SeriesCard's covers were). The mini-program keeps the platform's lazyLoad.
 */
const H5 = process.env.TARO_ENV === 'h5'

/** The boxes picked, with one more (in order; once). */
/**
 * The case request's answer when there is no case to show, which is not a failure: a sold-out series
 * (409 series.soldOut), or a drop whose sale has not started (409 drop.notStarted, with its start).
 */
const noCase = (e: unknown): { box: null; waitUntil: string | null; queued: boolean } => {
  const data = e instanceof ApiError && e.code === 409 ? e.data as { reason?: string; startsAt?: string } | null : null
  if (data?.reason === 'sold_out') return { box: null, waitUntil: null, queued: false }
  if (data?.reason === 'not_started' && data.startsAt) return { box: null, waitUntil: data.startsAt, queued: false }
  // a drop's waiting room that has not let the caller in (yet)
  if (data?.reason === 'queue') return { box: null, waitUntil: null, queued: true }
  // a raffle drop that has not drawn the caller (RafflePanel shows where they stand)
  if (data?.reason === 'raffle') return { box: null, waitUntil: null, queued: true }
  throw e
}
const withSlot = (picked: number[], slot: number) => picked.includes(slot) ? picked : [...picked, slot].sort((a, b) => a - b)

/**
 * How long the case stays held for the shopper (their case lease), by the server's clock: nobody else
 * is shown it meanwhile. Once over, a tap looks again (which holds it anew when it is still free).
 */
function CaseHold ({ until, onLapsed }: { until: string; onLapsed: () => void }) {
  const left = useTimeLeft(until)
  return left > 0
    ? <Text className='case-hold'>{t('detail.heldFor', { left: clockText(left) })}</Text>
    : <Text className='case-hold case-hold--over' {...a11yControl()} onClick={onLapsed}>{t('detail.heldOver')}</Text>
}

/**
 * An X-ray card's hold on one box, beside the case's: that box alone, for this shopper alone to buy,
 * until its time (nobody else can buy it meanwhile). Gone once over.
 */
function XrayHold ({ slot, until }: { slot: number; until: string }) {
  const left = useTimeLeft(until)
  if (left <= 0) return null
  return <Text className='case-hold case-hold--xray'>{t('detail.xrayHeldFor', { slot, left: clockText(left), time: formatTime(until) })}</Text>
}

function BlindBoxDetailPage () {
  const { params } = useRouter()
  const seriesId = Number(params.seriesId)
  const validId = Number.isInteger(seriesId) && seriesId > 0
  const [preview, setPreview] = useState<DesignInfo | null>(null)
  const [picked, setPicked] = useState<number[]>([])
  /** A prop picked in the props bar: the next tap on an unsold box uses it. */
  const [mode, setMode] = useState<PropKind | null>(null)
  const propSheet = useRef<PropSheetHandle>(null)
  const lastLongPress = useRef(0)
  const presses = useRef(new Map<number, LongPressHandlers>())
  const latest = useRef<{ box: CaseView | null }>({ box: null })
  const refs = { propSheet }
  // the selection of the query is applied once, to the first case loaded
  const pending = useRef<{ slots: number[]; caseId: number | null } | null>({
    slots: parseSlots(params.slots),
    caseId: Number(params.caseId) > 0 ? Number(params.caseId) : null
  })

  // its launch events to come (a failure hides the banner: the box is what the page is for)
  const launches = useRemote(() => eventsApi.list({ seriesId }), [seriesId], { loadOnMount: false })
  const events: LaunchEvent[] = launches.failed ? [] : launches.data?.list ?? []
  // the shopper's props and what they showed in this case (a failure keeps the bar as it was: buying still works)
  const propsCase = useRef(0)
  const propKeys = useRequestKeys()
  const props = useRemote<{ state: PropsState; hints: PropShown[] }>(async () => {
    const [state, hints] = await Promise.all([propsApi.state(), propsApi.caseHints(propsCase.current)])
    return { state, hints }
  }, [], { loadOnMount: false })
  const propState = props.data?.state ?? null
  const hints = props.data?.hints ?? []
  // the series and its current case, loaded each time the page shows
  // (a sold-out series has no case: the page shows it as sold out, with its designs and odds)
  // a kuji series has no case: its board loads its set (KujiBoard); a series whose kind this app has
  // not seen yet is asked for first (utils/seriesKind.ts: a kuji set is never asked for as a case)
  const shown = useRemote<{ series: SeriesDetail; box: CaseView | null; waitUntil: string | null; queued: boolean }>(async () => {
    const currentCase = () => shopApi.caseCurrent(seriesId).then(box => ({ box, waitUntil: null, queued: false }), noCase)
    const known = knownKind(seriesId)
    const [s, c] = await Promise.all([shopApi.seriesDetail(seriesId), known === 'case' ? currentCase() : null])
    rememberKind(s.id, s.kind)
    if (s.kind === 'kuji') return { series: s, box: null, waitUntil: null, queued: false }
    return { series: s, ...(c ?? await currentCase()) }
  }, [seriesId], {
    loadOnMount: false,
    onError: e => toast({ message: errorMessage(e) }),
    onSuccess: ({ box: c }) => {
      if (!c) { setPicked([]); return }
      if (sessionStore.loggedIn) { propsCase.current = c.caseId; void props.reload() }
      const asked = pending.current
      pending.current = null
      if (asked && asked.slots.length) {
        const restored = restoreSelection(asked.slots, asked.caseId, c)
        setPicked(restored.picked)
        if (restored.otherCase) toast({ message: t('detail.restoreOtherCase', { caseId: c.caseId }), duration: 4000 })
        else if (restored.gone.length) toast({ message: t('detail.restoredPartly', { slots: restored.gone.join(', ') }), duration: 4000 })
      } else {
        setPicked(p => p.filter(slot => c.slots.some(x => x.slot === slot && !x.sold)))
      }
    }
  })
  const series = shown.data?.series ?? null
  const box = shown.data?.box ?? null
  // a drop whose sale has not started: its countdown instead of a case
  const waitUntil = shown.data?.waitUntil ?? null
  const queued = shown.data?.queued ?? false
  // a wrong id or a failure shows "no such series"
  const missing = !validId || shown.failed
  // each showing of the page: a kuji board asks again too; hidden (the purchase on top), it asks nothing
  const [shows, setShows] = useState(0)
  const [hidden, setHidden] = useState(false)
  const load = () => {
    if (!validId) return
    void launches.reload()
    void shown.reload()
    setShows(n => n + 1)
  }
  useDidShow(() => { setHidden(false); load() })
  useDidHide(() => setHidden(true))

  /**
   * Uses a prop on an unsold box and says what it showed (always true: the reveal at sell-out proves it).
   * The same prop on the same box again after a lost answer is the same use (one card spent).
   */
  const applyProp = async (kind: PropKind, slot: number) => {
    setMode(null)
    if (!box) return
    try {
      const r = await loading.wrap(propsApi.use({ kind, caseId: box.caseId, slot, idempotencyKey: propKeys.keyFor(`${kind}:${box.caseId}:${slot}`) }))
      propKeys.done()
      props.setData(d => ({ state: r.state, hints: [...(d?.hints ?? []), r.shown] }))
      const what = t(r.shown.isNot ? 'props.isNot' : 'props.is', { slot, design: tr(r.shown.design.name) })
      await dialog({ message: r.shown.reservedUntil ? `${what}\n${t('detail.xrayHoldUntil', { slot, time: formatTime(r.shown.reservedUntil) })}` : what, showCancel: false })
      if (kind === 'xray') setPicked(p => withSlot(p, slot))
    } catch (e) {
      toast({ message: errorMessage(e) })
      if (e instanceof ApiError && e.code === 409) void load()
    }
  }

  const toggle = (slot: number) => {
    setPicked(p => (p.includes(slot) ? p.filter(x => x !== slot) : withSlot(p, slot)))
  }

  const switchCase = async () => {
    if (!sessionStore.loggedIn) { void loginToContinue(t('login.requiredToSwitch'), detailLink(seriesId, box?.caseId, picked)); return }
    try {
      const next = await shopApi.caseSwitch(seriesId)
      shown.setData(d => d && { ...d, box: next })
      setPicked([])
    } catch (e) {
      toast({ message: errorMessage(e) })
    }
  }

  const buy = (whole: boolean) => {
    if (!box || !series) return
    if (!whole && picked.length === 0) { toast({ message: t('detail.pickFirst') }); return }
    if (!sessionStore.loggedIn) {
      // say why, and keep the selection: after the login the user is back here with the same boxes picked
      const reason = whole ? t('login.requiredToBuy') : t('login.requiredToBuyPicked', { n: picked.length })
      void loginToContinue(reason, detailLink(series.id, box.caseId, whole ? [] : picked))
      return
    }
    const query = whole ? 'whole=1' : `slots=${picked.join(',')}`
    void navigate(`/pages/purchase/index?seriesId=${series.id}&caseId=${box.caseId}&${query}`)
  }

  if (missing) return <PageShell><EmptyState icon='🔍' text={t('detail.noSeries')} /></PageShell>
  if (!series) return <PageShell><Text className='detail-loading'>{t('feedback.loading')}</Text></PageShell>

  latest.current.box = box
  const unsold = box ? box.slots.filter(s => !s.sold).length : 0
  const tapSlot = (slot: number, sold: boolean) => {
    if (sold) return
    if (mode) void applyProp(mode, slot)
    else toggle(slot)
  }
  // a long press on an unsold box opens its props (spec 9: 350 ms, 10 px), through the component helper;
  // taps stay clicks (mice and tests send them too), and the click that ends a long press is ignored.
  // One set of handlers per slot for the page's life, so a re-render during a press keeps its timer.
  const pressOf = (slot: number): LongPressHandlers => {
    let h = presses.current.get(slot)
    if (!h) {
      h = longPress({
        onLongPress: () => {
          lastLongPress.current = Date.now()
          const sold = latest.current.box?.slots.find(x => x.slot === slot)?.sold ?? true
          if (!sold && sessionStore.loggedIn) callComponent(refs, 'propSheet', 'open', slot, true)
        },
        // the tap that ends the press is not the shopper's: neither on the sheet nor on the box
        onRelease: () => {
          lastLongPress.current = Date.now()
          if (refs.propSheet?.current) callComponent(refs, 'propSheet', 'released')
        }
      })
      presses.current.set(slot, h)
    }
    return h
  }
  const hintsOf = (slot: number) => hints.filter(h => h.slot === slot)
  const kuji = series.kind === 'kuji'
  return (
    <PageShell className='detail-page' title={kuji ? t('kuji.pageTitle') : undefined} share={{ title: tr(series.title), path: '/pages/blind_box_detail/index', query: { seriesId }, imageUrl: mediaUrl(series.cover) }}>
      <View className='detail-hero'>
        <Image className='detail-hero__img' src={mediaUrl(series.cover, 240)} mode='aspectFit' {...decorativeImage()} />
        <Text className='detail-hero__title'>{tr(series.title)}</Text>
        <Text className='detail-hero__desc'>{tr(series.description)}</Text>
        <Text className='detail-hero__price'>{formatCents(series.priceCents)} <Text className='detail-hero__unit'>{t(kuji ? 'kuji.perTicket' : 'detail.perBox')}</Text></Text>
      </View>
      <ShareBar title={tr(series.title)} />
      {events.slice(0, 3).map(e => (
        <View key={e.id} className={`event-banner event-banner-${e.id}`} onClick={() => navigate(`/pagesA/event/index?id=${e.id}`)}>
          <Text className='event-banner__title'>📍 {t('event.banner', { title: tr(e.title) })}</Text>
          {/* the venue is the operator's Chinese name of the place: the English banner names the city only
              (the event page shows the venue with its address, which is what a taxi or a map app needs) */}
          <Text className='event-banner__where'>{chinaClock(e.startsAt)} · {localeStore.locale === 'en' ? e.city.en : `${e.city.zh} ${e.venue}`} ›</Text>
        </View>
      ))}

      {/* a kuji series: its board (the set, the line, the draws) instead of cases */}
      {kuji && <KujiBoard series={series} shows={shows} hidden={hidden} />}
      {/* a drop's waiting room: joined on sight (before the start too: early arrivals are put in a random order) */}
      {!kuji && series.drop?.waitingRoom && (series.drop.status === 'scheduled' || series.drop.status === 'on_sale') && (
        sessionStore.loggedIn
          ? <QueuePanel seriesId={seriesId} dropId={series.drop.dropId} hasCase={box !== null} onTurn={() => { void load() }} />
          : (
            <Section title={t('queue.title')} className='queue-panel queue-panel--visitor'>
              <Text className='queue-panel__line'>{t('queue.logIn')}</Text>
              <View className='btn btn--primary queue-login' onClick={() => { void loginToContinue(t('queue.logInReason'), detailLink(seriesId)) }}>{t('queue.logInGo')}</View>
            </Section>
            )
      )}
      {!kuji && series.drop && <DropPanel drop={series.drop} onStart={() => { void load() }} />}
      {/* sold out: said first, above the designs and odds that stay for anyone to read */}
      {!kuji && !box && !waitUntil && !queued && (
        <Section title={t('detail.soldOutTitle')} className='detail-sold-out'>
          <Text className='detail-sold-out__text'>{t('detail.soldOutText')}</Text>
          <RestockNotice seriesId={seriesId} />
        </Section>
      )}
      {!kuji && <Section title={t('detail.designs')} extra={<Text>{t('detail.valueRange')}: {formatCents(series.valueRange.minCents)} – {formatCents(series.valueRange.maxCents)}</Text>}>
        <View className='design-grid'>
          {series.designs.map(d => (
            <View key={d.id} className={`design design--${d.rarity}`} onClick={() => setPreview(d)}>
              <Image className='design__img' src={mediaUrl(d.image, 120)} mode='aspectFit' lazyLoad={!H5} {...a11yImage(designLabel(d))} />
              <Text className='design__name'>{tr(d.name)}</Text>
              <RarityBadge rarity={d.rarity} />
              <Text className='design__odds'>{formatPpm(d.oddsPpm)}</Text>
            </View>
          ))}
        </View>
        <View className='odds-summary'>
          {(['regular', 'rare', 'hidden'] as const).map(r => (
            <Text key={r} className='odds-summary__item'>{t(`rarity.${r}`)} {formatPpm(series.oddsPpm[r])}</Text>
          ))}
        </View>
        <Text className='case-guarantee'>{(g => t(g.key, { size: g.size }))(caseGuarantee(series.designs, series.hiddenCasePpm))}</Text>
      </Section>}

      {box && <Section title={t('detail.currentCase')} extra={
        <Text className='detail-switch' onClick={switchCase}>{t('detail.switchCase')}{sessionStore.loggedIn ? ` (${box.switchesLeft})` : ''}</Text>
      }>
        <Text className='case-meta'>#{box.caseId} · {t('detail.left', { n: unsold, size: box.size })}</Text>
        {box.heldUntil && <CaseHold until={box.heldUntil} onLapsed={() => { void load() }} />}
        {hints.filter(h => h.reservedUntil && h.caseId === box.caseId).map(h => <XrayHold key={`${h.slot}-${h.at}`} slot={h.slot} until={h.reservedUntil!} />)}
        {sessionStore.loggedIn && propState && (
          <View className='props-bar'>
            {(['shake', 'hint', 'xray'] as const).map(k => {
              const left = k === 'shake' ? propState.shakesLeft : propState.cards[k]
              return (
                <View key={k} className={`props-bar__item props-bar-${k} ${mode === k ? 'props-bar__item--on' : ''} ${left ? '' : 'props-bar__item--off'}`}
                  onClick={() => { if (left) setMode(mode === k ? null : k); else toast({ message: k === 'shake' ? t('detail.propNone', { prop: t(`props.${k}`) }) : t('detail.cardNone', { prop: t(`props.${k}`) }) }) }}>
                  {t(`props.${k}`)} {left}
                </View>
              )
            })}
          </View>
        )}
        {mode && <Text className='props-mode'>{t('detail.propMode', { prop: t(`props.${mode}`) })}</Text>}
        <View className='slot-grid'>
          {box.slots.map(s => {
            const press = pressOf(s.slot)
            const known = hintsOf(s.slot)
            const seen = known.find(h => !h.isNot)
            return (
              <View key={s.slot}
                className={`slot slot-${s.slot} ${s.sold ? 'slot--sold' : ''} ${picked.includes(s.slot) ? 'slot--picked' : ''} ${mode && !s.sold ? 'slot--target' : ''}`}
                onTouchStart={press.onTouchStart} onTouchMove={press.onTouchMove} onTouchEnd={press.onTouchEnd} onTouchCancel={press.onTouchCancel}
                onClick={() => { if (Date.now() - lastLongPress.current > LONG_PRESS_CLICK_GRACE_MS) tapSlot(s.slot, s.sold) }}>
                {seen && !s.sold
                  ? <Image className='slot__seen' src={mediaUrl(seen.design.image, 56)} mode='aspectFit' {...a11yImage(designLabel(seen.design))} />
                  : <Text className='slot__icon'>{s.sold ? '✓' : '🎁'}</Text>}
                <Text className='slot__num'>{s.sold ? t('detail.sold') : s.slot}</Text>
                {!s.sold && known.some(h => h.isNot) && <Text className='slot__hints'>✗{known.filter(h => h.isNot).length}</Text>}
              </View>
            )
          })}
        </View>
        {sessionStore.loggedIn && <Text className='props-tip'>{t('detail.propsTip')}</Text>}
        <Text className='case-commit'>{t('prize.commit')}: {box.commit}</Text>
      </Section>}

      {/* a series without rules has no rules card (an empty card says nothing) */}
      {tr(series.rules).trim() && (
        <Section title={t('detail.rules')}>
          <Text className='detail-rules'>{tr(series.rules)}</Text>
        </Section>
      )}

      <BestPosts seriesId={series.id} />

      <PropSheet ref={propSheet} state={propState} hints={hints} onUse={(kind, slot) => { void applyProp(kind, slot) }} />
      {preview && <DesignPreview design={preview} onClose={() => setPreview(null)} />}
      {!kuji && !box && !waitUntil && !queued && (
        <ActionBar>
          <View className='btn btn--primary btn--disabled buy-sold-out'>{t('detail.soldOut')}</View>
        </ActionBar>
      )}
      {!kuji && !box && !waitUntil && queued && (
        <ActionBar>
          <View className='btn btn--primary btn--disabled buy-queue'>{series.drop?.raffle ? t('raffle.bar') : t('queue.waiting')}</View>
        </ActionBar>
      )}
      {!kuji && !box && waitUntil && (
        <ActionBar>
          <View className='btn btn--primary btn--disabled buy-soon'>{t('drop.soon')}</View>
        </ActionBar>
      )}
      {box && <ActionBar>
        <View className={`btn btn--ghost buy-whole ${unsold === 0 ? 'btn--disabled' : ''}`} onClick={() => { if (unsold) buy(true) }}>
          {unsold ? t('detail.wholeCaseN', { n: unsold, price: formatCents(unsold * series.priceCents) }) : t('detail.wholeCase')}
        </View>
        <View className={`btn btn--primary buy-picked ${picked.length === 0 ? 'btn--disabled' : ''}`} onClick={() => buy(false)}>
          {picked.length ? t('detail.buyN', { n: picked.length, price: formatCents(picked.length * series.priceCents) }) : t('detail.pickSlots')}
        </View>
      </ActionBar>}
    </PageShell>
  )
}

// a failure while rendering offers to reload or go back (components/PageError)
export default withPageError(observer(BlindBoxDetailPage))
