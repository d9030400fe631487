// first: on H5 the page waits for the rest of the dictionary (src/locales/full.h5.ts)
import '@/locales/full'
import { useEffect, useRef, useState } from 'react'
import Taro, { useDidShow, useRouter } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { withPageError } from '@/components/PageError/wrap'
import { TOPUP_MAX_CENTS } from '~types/limits'
import type { KujiBoard } from '~types/kuji'
import type { AgeStatus, CaseView, PayChannel, PayMethod, PurchaseCheckRequest, PurchaseRequest, SeriesDetail, WalletBalance } from '~types/shop'
import { WITHDRAW_PAGE } from '@/constants'
import PageShell from '@/components/PageShell'
import EmptyState from '@/components/EmptyState'
import Section from '@/components/Section'
import ActionBar from '@/components/ActionBar'
import RarityBadge from '@/components/RarityBadge'
import PayMethods from '@/components/PayMethods'
import AgeGate from '@/components/AgeGate'
import TierBadge from '@/components/TierBadge'
import { ageGateState } from '@/components/AgeGate/state'
import { orderApi, shopApi } from '@/services/shop'
import { kujiApi } from '@/services/kuji'
import { topUp } from '@/services/payment'
import { errorMessage } from '@/services/request'
import { isApiError } from '@/services/errors'
import { announce, forgetPurchase, inFlightFor, ownBoxOf, sendPurchase } from '@/services/purchaseInFlight'
import { openingLink } from '@/stores/lateNotices'
import { drawStore } from '@/stores/draw'
import { sessionStore } from '@/stores/session'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { formatCents, formatPpm, tr, decorativeImage, a11yControl, A11Y_HIDDEN } from '@/utils/format'
import { mediaUrl } from '@/utils/media'
import { buildQuery, navigate, redirect } from '@/utils/navigation'
import { loginToContinue } from '@/utils/loginReturn'
import { randomString } from '@/utils/random'
import { detailLink, parseSlots } from '@/utils/slots'
import { useRemote } from '@/utils/useRemote'
import { tierSummaries } from '@/utils/kujiTier'
import { knownKind } from '@/utils/seriesKind'
import { clockText, useTimeLeft } from '@/utils/useTimeLeft'
import { usePagePresence } from './pagePresence'
import { channelSplit, splitPayment } from './money'
import { buyNow, runPurchase, topUpAmount, type PurchaseFlowDeps, type PurchaseOutcome } from './flow'
import './index.scss'

/** A purchase that did not go through, said plainly on the page. */
interface Notice {
  title: string
  lines: string[]
  /** Money arrived by a top-up and stays in the wallet. */
  afterTopUp: boolean
  /** The slot list no longer fits (a slot sold, the case sold out): pick again. */
  pickAgain: boolean
  /** No answer came: the same purchase may be sent again (same key). */
  retry: boolean
  /** The box is already the shopper's: a link to that purchase's opening. */
  openPurchaseId?: number
}

/** A 一番赏 draw's turn: the time left to pay, by the server's clock (the server refuses a draw after it). */
function KujiTurnLeft ({ until, most }: { until: string; most: number }) {
  const left = useTimeLeft(until, most)
  return (
    <Text className={`purchase-kuji-turn ${left > 0 ? '' : 'purchase-kuji-turn--over'}`}>
      {left > 0 ? t('kuji.purchaseTurn', { left: clockText(left) }) : t('kuji.purchaseTurnOver')}
    </Text>
  )
}

/** Buy: what is bought, the price, credit and cash used, the disclosure, the age gate, pay. */
function PurchasePage () {
  const { params } = useRouter()
  const seriesId = Number(params.seriesId)
  const caseId = Number(params.caseId)
  const whole = params.whole === '1'
  const slots = parseSlots(params.slots)
  // a 一番赏 draw: the tickets of the series' set (caseId), bought on the caller's turn (never asked for as a case)
  const kuji = params.kuji === '1' || knownKind(seriesId) === 'kuji'

  const [pickedChannel, setChannel] = useState<PayChannel | null>(null)
  const [acknowledged, setAcknowledged] = useState(false)
  const [busy, setBusy] = useState(false)
  const [notice, setNotice] = useState<Notice | null>(null)
  // a notice is the first thing on the page: scrolled to once it is shown, so it is seen
  useEffect(() => {
    if (notice) Taro.pageScrollTo({ scrollTop: 0, duration: 0 }).catch(() => undefined)
  }, [notice])
  const [needsLogin, setNeedsLogin] = useState(false)
  // one key per purchase on this page: a retry after a lost answer is not charged twice (and the key of a
  // purchase left unanswered by a reload or Back is kept on the device: services/purchaseInFlight)
  const idempotencyKey = useRef(randomString(24))
  // the page is gone (Back) while a purchase is on its way: its outcome is told on the page that shows
  const present = usePagePresence()
  // the purchase sent last, replayed as it was when its answer was lost
  const lastRequest = useRef<PurchaseRequest | null>(null)

  const valid = Number.isInteger(caseId) && caseId > 0 && Number.isInteger(seriesId) && (whole || slots.length > 0)

  const loginReason = () => whole ? t('login.requiredToBuy') : t('login.requiredToBuyPicked', { n: slots.length })
  /** Logged out (a shared link, an ended session): say why, and come back here after the login. */
  const askLogin = () => loginToContinue(loginReason(),
    `/pagesA/purchase/index${buildQuery({ seriesId, caseId, ...(whole ? { whole: 1 } : { slots: slots.join(',') }), kuji: kuji ? 1 : undefined })}`)

  // what the page shows, read each time it shows (when the link is whole and someone is logged in)
  const page = useRemote(async () => {
    const [series, box, board, balance, age, methods] = await Promise.all([
      shopApi.seriesDetail(seriesId), kuji ? null : shopApi.caseCurrent(seriesId), kuji ? kujiApi.board(seriesId) : null,
      shopApi.walletBalance(), shopApi.ageStatus(), orderApi.payMethods()
    ])
    return { series, box, board, balance, age, methods }
  }, [], { loadOnMount: false, onError: e => toast({ message: errorMessage(e) }) })
  const series: SeriesDetail | null = page.data?.series ?? null
  const box: CaseView | null = page.data?.box ?? null
  const board: KujiBoard | null = page.data?.board ?? null
  const balance: WalletBalance | null = page.data?.balance ?? null
  const age: AgeStatus | null = page.data?.age ?? null
  const methods: PayMethod[] = page.data?.methods ?? []
  const failed = page.failed
  const setAge = (next: AgeStatus | null) => { if (next) page.setData(d => d && { ...d, age: next }) }
  const channel = pickedChannel ?? methods[0]?.channel ?? null
  const channelMethod = methods.find(m => m.channel === channel)
  const channelLabel = channelMethod ? tr(channelMethod.label) : t('payment.method')

  const load = async () => {
    if (!valid) return
    if (!sessionStore.loggedIn) {
      setNeedsLogin(true)
      void askLogin()
      return
    }
    setNeedsLogin(false)
    await page.reload()
  }
  useDidShow(() => { void load() })

  if (needsLogin && valid) {
    return <PageShell><EmptyState icon='🔒' text={loginReason()} action={{ label: t('login.goLogin'), onClick: () => { void askLogin() } }} /></PageShell>
  }
  if (failed || !valid) {
    return <PageShell><EmptyState icon='🛒' text={t('purchase.nothing')} /></PageShell>
  }
  if (!series || !balance || !age || !(box || board)) return <PageShell><Text className='purchase-loading'>{t('feedback.loading')}</Text></PageShell>

  const count = whole ? (board ? board.ticketsLeft : box?.slots.filter(s => !s.sold).length ?? 0) : slots.length
  const total = count * series.priceCents
  const split = splitPayment(total, balance)
  // the birth date is recorded once; a minor's guardian consents afterwards, by a code (components/AgeGate)
  const { cleared, tooYoung } = ageGateState(age)

  const deps: PurchaseFlowDeps = {
    check: order => loading.wrap(shopApi.purchaseCheck(order)),
    topUp: async amount => {
      if (!channel) throw new Error(t('payment.method'))
      return (await loading.wrap(topUp(amount, channel))) === 'redirected' ? 'redirected' : 'paid'
    },
    purchase: (request, toppedUpCents) => {
      lastRequest.current = request
      return loading.wrap(sendPurchase(request, { seriesId, toppedUpCents }))
    }
  }

  /** The box is the shopper's already (bought by an attempt whose answer was lost): say so, and link to it. */
  const ownBoxNotice = (error: unknown): boolean => {
    const own = ownBoxOf(error)
    if (!own) return false
    setNotice({ title: t('late.ownBoxTitle'), lines: [t('late.ownBox', { caseId, slots: own.slot })], afterTopUp: false, pickAgain: false, retry: false, openPurchaseId: own.purchaseId })
    return true
  }

  /** What the page does with the end of a purchase. */
  const settle = async (outcome: PurchaseOutcome) => {
    // Back while the answer was on its way: whatever page shows now tells the outcome
    if (!present()) {
      if (outcome.kind === 'bought') drawStore.set(outcome.result)
      const request = lastRequest.current
      if (request && outcome.kind === 'bought') announce(request, { result: outcome.result })
      else if (request && outcome.kind === 'failed') announce(request, { error: outcome.error }, outcome.toppedUpCents)
      return
    }
    switch (outcome.kind) {
      case 'bought':
        drawStore.set(outcome.result)
        // the id in the address: the opening and the results survive a reload and open on another device
        await redirect(`/pages/open_chest_animation/index?purchaseId=${outcome.result.purchaseId}`)
        return
      case 'redirected':
        return
      case 'refused': {
        if (ownBoxNotice(outcome.error)) return
        const conflict = isApiError(outcome.error) && outcome.error.code === 409
        if (conflict) await load()
        setNotice({ title: t('purchase.refusedTitle'), lines: [errorMessage(outcome.error), t('purchase.nothingCharged')], afterTopUp: false, pickAgain: conflict, retry: false })
        return
      }
      case 'topUpTooLarge':
        setNotice({
          title: t('purchase.refusedTitle'),
          lines: [t('purchase.topUpTooLarge', { amount: formatCents(outcome.shortfallCents), max: formatCents(TOPUP_MAX_CENTS) })],
          afterTopUp: false, pickAgain: false, retry: false
        })
        return
      case 'topUpFailed':
        toast({ message: errorMessage(outcome.error), duration: 4000 })
        await load()
        return
      case 'failed': {
        // a definitive refusal frees the key for the next attempt (a refused request stores nothing)
        if (!outcome.retryable) idempotencyKey.current = randomString(24)
        if (ownBoxNotice(outcome.error)) { await load(); return }
        const reason = errorMessage(outcome.error)
        const pickAgain = isApiError(outcome.error) && outcome.error.code === 409
        await load()
        if (outcome.toppedUpCents > 0) {
          setNotice({
            title: t('purchase.failedAfterTopUpTitle'),
            lines: [t('purchase.failedAfterTopUp', { amount: formatCents(outcome.toppedUpCents), reason }), t('purchase.moneyKept')],
            afterTopUp: true, pickAgain: true, retry: outcome.retryable
          })
        } else {
          setNotice({ title: t('purchase.refusedTitle'), lines: [t('purchase.failed', { reason })], afterTopUp: false, pickAgain, retry: outcome.retryable })
        }
      }
    }
  }

  const pay = async () => {
    if (busy) return
    if (!cleared) { toast({ message: t(tooYoung ? 'purchase.tooYoung' : 'purchase.ageFirst') }); return }
    if (!acknowledged) { toast({ message: t('purchase.ackFirst') }); return }
    setBusy(true)
    setNotice(null)
    try {
      const order: PurchaseCheckRequest = { caseId, acknowledged: true, priceCents: series.priceCents, ...(whole ? { wholeCase: true } : { slots }) }
      // the same boxes were paid for before and no answer came (a reload, Back): that purchase again,
      // with its key, so the server answers what it did; only a refusal of it starts a new purchase
      const kept = inFlightFor(order, sessionStore.user?.id)
      if (kept) {
        const replayed = await buyNow(kept.request, deps, kept.toppedUpCents)
        const insufficient = replayed.kind === 'failed' && isApiError(replayed.error) && replayed.error.code === 422
        if (!insufficient) { await settle(replayed); return }
        forgetPurchase(kept.request.idempotencyKey)
      }
      await settle(await runPurchase(order, idempotencyKey.current, deps))
    } finally {
      setBusy(false)
    }
  }

  /** After a lost answer: the same purchase again, same body and key (applied at most once). */
  const retry = async () => {
    const request = lastRequest.current
    if (busy || !request) return
    setBusy(true)
    setNotice(null)
    try {
      await settle(await buyNow(request, deps))
    } finally {
      setBusy(false)
    }
  }

  const pickOther = () => {
    if (board) { void redirect(detailLink(seriesId)); return }
    const still = box ? slots.filter(n => box.slots.some(x => x.slot === n && !x.sold)) : []
    void redirect(detailLink(seriesId, box?.caseId, box?.caseId === caseId ? still : []))
  }

  return (
    <PageShell className='purchase-page'>
      {notice && (
        <Section className={`purchase-notice ${notice.afterTopUp ? 'purchase-notice--money' : ''}`} title={notice.title}>
          {notice.lines.map((line, i) => <Text key={i} className='purchase-notice__text'>{line}</Text>)}
          <View className='purchase-notice__actions'>
            {notice.openPurchaseId !== undefined && <View className='btn btn--primary purchase-notice__open' onClick={() => { void redirect(openingLink(notice.openPurchaseId!)) }}>{t('late.view')}</View>}
            {notice.retry && <View className='btn btn--ghost purchase-notice__retry' onClick={retry}>{t('purchase.retry')}</View>}
            {notice.pickAgain && <View className='btn btn--ghost purchase-notice__pick' onClick={pickOther}>{t(board ? 'kuji.backToBoard' : 'purchase.pickOther')}</View>}
            {notice.afterTopUp && <View className='btn btn--ghost purchase-notice__withdraw' onClick={() => { void navigate(WITHDRAW_PAGE) }}>{t('purchase.withdraw')}</View>}
          </View>
        </Section>
      )}

      <Section title={t('purchase.items')}>
        <View className='purchase-item'>
          <Image className='purchase-item__img' src={mediaUrl(series.cover, 120)} mode='aspectFit' {...decorativeImage()} />
          <View className='purchase-item__body'>
            <Text className='purchase-item__title'>{tr(series.title)}</Text>
            <Text className='purchase-item__sub'>{board
              ? `${board.setId === caseId ? t('kuji.purchaseSet', { n: board.setNumber }) : t('purchase.caseNo', { id: caseId })} · ${whole ? t('kuji.purchaseAll', { n: count }) : t('kuji.purchaseTickets', { n: slots.length, tickets: slots.join(', ') })}`
              : `${t('purchase.caseNo', { id: caseId })} · ${whole ? t('purchase.wholeCase', { n: count }) : t('purchase.slots', { n: slots.length, slots: slots.join(', ') })}`}</Text>
          </View>
          <Text className='purchase-item__count'>×{count}</Text>
        </View>
      </Section>

      {board?.turn.until && board.turn.state === 'drawing' && <KujiTurnLeft until={board.turn.until} most={board.turn.turnSeconds} />}

      <Section title={t('purchase.disclosureTitle')} className='disclosure'>
        {/* a kuji set: what is left of each tier now and its chance for a ticket, and the Last One */}
        {board && <Text className='disclosure__kuji'>{t('kuji.purchaseLeft')}</Text>}
        {board && tierSummaries(board).map(row => (
          <View key={row.tier} className={`odds-row odds-row--kuji odds-row-${row.tier}`}>
            <TierBadge tier={row.tier} />
            <Text className='odds-row__name'>{row.designs.map(d => tr(d.name)).join(' / ')}</Text>
            <Text className='odds-row__left'>{t('kuji.tierLeft', { left: row.left, total: row.tickets })}</Text>
            <Text className='odds-row__pct'>{formatPpm(row.oddsPpm)}</Text>
          </View>
        ))}
        {board && (
          <View className='odds-row odds-row--kuji odds-row-last'>
            <TierBadge tier={board.lastOne.tier ?? 'last_one'} />
            <Text className='odds-row__name'>{tr(board.lastOne.name)}</Text>
            <Text className='odds-row__left'>{t('kuji.lastOneHow')}</Text>
          </View>
        )}
        {!board && series.designs.map(d => (
          <View key={d.id} className='odds-row'>
            <Image className='odds-row__img' src={mediaUrl(d.image, 48)} mode='aspectFit' {...decorativeImage()} />
            <Text className='odds-row__name'>{tr(d.name)}</Text>
            <RarityBadge rarity={d.rarity} />
            <Text className='odds-row__pct'>{formatPpm(d.oddsPpm)}</Text>
          </View>
        ))}
        <Text className='disclosure__range'>{t('detail.valueRange')}: {formatCents(series.valueRange.minCents)} – {formatCents(series.valueRange.maxCents)}</Text>
        {/* a drop: its exact counts and the root commitment published before the sale (the series page checks it) */}
        {series.drop && (
          <View className='disclosure__drop'>
            <Text className='disclosure__drop-counts'>{t('drop.title')}: {t('drop.cases', { cases: series.drop.cases, boxes: series.drop.boxes, hidden: series.drop.hiddenCases })}</Text>
            <Text className='disclosure__drop-root'>{t('drop.root')}: {series.drop.root}</Text>
          </View>
        )}
        <Text className='disclosure__rules'>{tr(series.rules)}</Text>
        <View className='purchase-ack' {...a11yControl(undefined, 'checkbox')} aria-checked={acknowledged} onClick={() => setAcknowledged(!acknowledged)}>
          <View className={`purchase-ack__box ${acknowledged ? 'purchase-ack__box--on' : ''}`} {...A11Y_HIDDEN}>{acknowledged ? '✓' : ''}</View>
          <Text>{t('purchase.disclosure')}</Text>
        </View>
      </Section>

      <AgeGate age={age} onChange={setAge} />

      <Section>
        <View className='purchase-row'><Text className='purchase-row__label'>{t('purchase.price')}</Text><Text className='purchase-row__value total'>{formatCents(total)}</Text></View>
        <View className='purchase-row'><Text className='purchase-row__label'>{t('purchase.credit')}</Text><Text className='purchase-row__value'>-{formatCents(split.creditCents)}</Text></View>
        <View className='purchase-row'><Text className='purchase-row__label'>{t('purchase.cash')}</Text><Text className='purchase-row__value'>-{formatCents(split.cashCents)}</Text></View>
        {split.shortfallCents > 0 && (
          <View className='purchase-row shortfall'><Text className='purchase-row__label'>{t('purchase.payDirect')}</Text><Text className='purchase-row__value'>{formatCents(topUpAmount(split.shortfallCents))}</Text></View>
        )}
        {age.dailyCapCents !== null && <Text className='purchase-cap'>{t('purchase.cap', { cap: formatCents(age.dailyCapCents) })}</Text>}
      </Section>

      {split.shortfallCents > 0 && (
        <Section title={t('payment.method')}>
          <PayMethods methods={methods} value={channel} onChange={setChannel} />
        </Section>
      )}

      <ActionBar>
        <View className={`btn btn--primary purchase-pay ${split.shortfallCents > 0 ? 'purchase-pay--split' : ''} ${busy || !acknowledged || !cleared || count === 0 ? 'btn--disabled' : ''}`} onClick={pay}>
          {split.shortfallCents > 0
            ? <>
                <Text className='purchase-pay__total'>{t('purchase.payDirectButton', { amount: formatCents(total) })}</Text>
                <Text className='purchase-pay__split'>{channelSplit(total, split.shortfallCents, channelLabel)}</Text>
              </>
            : t('purchase.payBalance', { amount: formatCents(total) })}
        </View>
      </ActionBar>
    </PageShell>
  )
}

// a failure while rendering offers to reload or go back (components/PageError)
export default withPageError(observer(PurchasePage))
