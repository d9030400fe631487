import { useState } from 'react'
import { View, Text, Input, Textarea } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { OperatorShipment, ShipmentStatus } from '~types/afterDraw'
import EmptyState from '@/components/EmptyState'
import RarityBadge from '@/components/RarityBadge'
import { operatorApi } from '@/services/afterDraw'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { ScanError, scanPrizeCode } from '@/utils/scan'
import { formatCents, formatTime, tr } from '@/utils/format'
import { COMMON_CARRIERS, carrierKey, checkCarrier, checkTrackingNo, normaliseCarrier, normaliseTrackingNo } from './shipping'
import { visionApi } from '@/services/vision'
import { notifyApi } from '@/services/complaints'
import { trackingCandidates, type TrackingCandidate } from './trackingNumber'
import { useRemote } from '@/utils/useRemote'
import PackingSlip from './PackingSlip'
import PhotoButton from '@/components/PhotoButton'
import { notConfigured, useHelpers } from '@/utils/useHelpers'
import { SHIPMENTS_PAGE_SIZE, carrierName } from './shipmentList'
import { mailSentToast } from './mailOutcome'
import './shipments.scss'

const FILTERS = ['all', 'requested', 'shipping', 'received'] as const
type Filter = typeof FILTERS[number]

/** The operator's shipment queue: requested parcels first, then the rest; carrier and tracking number in. */
function ShipmentsTab () {
  const [filter, setFilter] = useState<Filter>('all')
  const [page, setPage] = useState(1)
  const [slipFor, setSlipFor] = useState<number | null>(null)
  // "read from a photo of the label" (spec 7 /api/ocr): shown once the server says it has the engine
  const [helpers, helperOff] = useHelpers()
  const ocr = { on: !!helpers?.ocr, off: () => helperOff('ocr') }

  const answer = useRemote(() => {
    const status: ShipmentStatus | undefined = filter === 'all' ? undefined : filter
    return operatorApi.shipments({ page, size: SHIPMENTS_PAGE_SIZE, ...(status ? { status } : {}) })
  }, [filter, page])
  // the last page stays while the next loads; a failure shows none, with its message and a retry
  const rows = answer.failed ? [] : answer.data?.list ?? null
  const failed = answer.failed && !answer.loading ? errorMessage(answer.error) : ''
  const total = answer.data?.total ?? 0

  const pages = Math.max(1, Math.ceil(total / SHIPMENTS_PAGE_SIZE))
  const replace = (s: OperatorShipment) => answer.setData(d => d && { ...d, list: d.list.map(x => (x.id === s.id ? s : x)) })

  return (
    <View className='shipments'>
      <View className='shipments__filters'>
        {FILTERS.map(f => (
          <Text key={f} className={`chip shipments-filter-${f} ${f === filter ? 'chip--on' : ''}`}
            onClick={() => { setFilter(f); setPage(1) }}>{t(`shipments.${f}`)}</Text>
        ))}
      </View>
      {rows === null && <Text className='shipments__loading'>{t('feedback.loading')}</Text>}
      {rows && rows.length === 0 && (
        <EmptyState icon='📦' text={failed || t('shipments.empty')} action={failed ? { label: t('feedback.retry'), onClick: answer.retry } : undefined} />
      )}
      {rows?.map(s => <ShipmentCard key={s.id} shipment={s} ocr={ocr} onDelivered={replace} onPrint={() => setSlipFor(s.id)} />)}
      {total > SHIPMENTS_PAGE_SIZE && (
        <View className='shipments__pager'>
          <Text className={`chip shipments-prev ${page <= 1 ? 'chip--off' : ''}`} onClick={() => page > 1 && setPage(page - 1)}>{t('shipments.prev')}</Text>
          <Text className='shipments__page'>{t('shipments.page', { page, pages, total })}</Text>
          <Text className={`chip shipments-next ${page >= pages ? 'chip--off' : ''}`} onClick={() => page < pages && setPage(page + 1)}>{t('shipments.next')}</Text>
        </View>
      )}
      {slipFor !== null && <PackingSlip shipmentId={slipFor} onClose={() => setSlipFor(null)} />}
    </View>
  )
}
export default observer(ShipmentsTab)

interface OcrSwitch { on: boolean; off: () => void }

interface CardProps {
  shipment: OperatorShipment
  ocr: OcrSwitch
  onDelivered: (s: OperatorShipment) => void
  onPrint: () => void
}

const ShipmentCard = observer(function ShipmentCard ({ shipment: s, ocr, onDelivered, onPrint }: CardProps) {
  const a = s.address
  return (
    <View className={`shipment shipment--${s.status} shipment-${s.id}`}>
      <View className='shipment__head'>
        <Text className='shipment__no'>{t('shipments.number', { id: s.id })}</Text>
        <Text className={`shipment__status shipment__status--${s.status}`}>{t(`shipments.${s.status}`)}</Text>
      </View>
      <Text className='shipment__meta'>{t('shipments.user', { id: s.userId })} · {t('shipments.createdAt', { time: formatTime(s.createdAt) })}</Text>
      <View className='shipment__address'>
        {/* the full number: the operator writes it on the carrier's waybill (operators only; shoppers see it masked) */}
        <Text className='shipment__receiver'>{a.name}  {a.phone}</Text>
        <Text className='shipment__where'>{s.pickup ? t('shipments.pickupAt', { name: s.pickup.name }) : `${a.region} ${a.detail}`}</Text>
      </View>
      <View className='shipment__items'>
        <Text className='shipment__label'>{t('shipments.items', { n: s.items.length })}</Text>
        {s.items.map(item => (
          <View key={item.prizeId} className='shipment-item'>
            <View className='shipment-item__main'>
              <Text className='shipment-item__name'>{tr(item.design.name)}</Text>
              <RarityBadge rarity={item.design.rarity} />
            </View>
            <Text className='shipment-item__sub'>{tr(item.seriesTitle)} · {item.combineId !== null ? t('shipments.combined', { id: item.combineId }) : t('chest.caseSlot', { case: item.caseId, slot: item.slot })}{item.handedAt ? ` · ${t('shipments.handedItem')}` : ''}</Text>
          </View>
        ))}
      </View>
      <View className='shipment__row'>
        <Text className='shipment__label'>{t('shipments.fee')}</Text>
        <Text className='shipment__fee'>{s.feeCents > 0 ? formatCents(s.feeCents) : t('shipments.free')}</Text>
      </View>
      {s.pickup
        ? <HandOver shipment={s} onHanded={onDelivered} />
        : s.status === 'requested'
          ? <DeliverForm shipmentId={s.id} ocr={ocr} onDelivered={onDelivered} />
          : (
          <View className='shipment__tracking'>
            <Text className='shipment-delivered'>{t('shipments.delivered', { carrier: carrierName(s.carrier ?? ''), no: s.trackingNo ?? '' })}</Text>
            {s.shippedAt && <Text className='shipment__meta'>{t('shipments.shippedAt', { time: formatTime(s.shippedAt) })}</Text>}
            {s.receivedAt
              ? <Text className='shipment__meta'>{t('shipments.receivedAt', { time: formatTime(s.receivedAt) })}</Text>
              : s.autoReceiveAt && <Text className='shipment__meta'>{t('shipments.autoReceiveAt', { time: formatTime(s.autoReceiveAt) })}</Text>}
          </View>
            )}
      {s.userEmail && <MailShopper shipment={s} email={s.userEmail} />}
      <View className='btn btn--ghost shipment-print' onClick={onPrint}>{t('shipments.printSlip')}</View>
    </View>
  )
})

/** What a mail about the parcel says by default: where it is, in the shopper's words (the operator may change it). */
function parcelMail (s: OperatorShipment): { title: string; content: string } {
  if (s.pickup) {
    return {
      title: t('notify.pickupTitle', { id: s.id }),
      content: t('notify.pickupBody', { name: s.address.name, point: s.pickup.name, address: s.pickup.address, hours: s.pickup.hours, n: s.items.length })
    }
  }
  if (s.carrier && s.trackingNo) {
    return { title: t('notify.shippedTitle', { id: s.id }), content: t('notify.shippedBody', { name: s.address.name, carrier: carrierName(s.carrier), no: s.trackingNo, n: s.items.length }) }
  }
  return { title: t('notify.waitingTitle', { id: s.id }), content: t('notify.waitingBody', { name: s.address.name, n: s.items.length }) }
}

/** The operator's "mail the shopper" about this parcel (POST /common/mail/send), editable before it goes. */
const MailShopper = observer(function MailShopper ({ shipment: s, email }: { shipment: OperatorShipment; email: string }) {
  const [draft, setDraft] = useState<{ title: string; content: string } | null>(null)
  const send = async () => {
    if (!draft) return
    if (!draft.title.trim() || !draft.content.trim()) { toast({ message: t('notify.empty') }); return }
    try {
      const sent = await loading.wrap(notifyApi.mailSend({ mail: email, title: draft.title.trim(), content: draft.content.trim() }))
      toast(mailSentToast(sent))
      setDraft(null)
    } catch (e) { toast({ message: errorMessage(e) }) }
  }
  if (!draft) return <View className='btn btn--ghost shipment-mail' onClick={() => setDraft(parcelMail(s))}>{t('notify.mailShopper')}</View>
  return (
    <View className='shipment-mail-form'>
      <Text className='shipment__label'>{t('notify.to', { mail: email })}</Text>
      <Input className='editor-input shipment-mail-title' value={draft.title} maxlength={120} onInput={e => { const v = e.detail.value; setDraft(d => d && { ...d, title: v }) }} />
      <Textarea className='editor-textarea shipment-mail-content' value={draft.content} maxlength={2000} onInput={e => { const v = e.detail.value; setDraft(d => d && { ...d, content: v }) }} />
      <View className='shipment-mail-form__buttons'>
        <View className='btn btn--ghost shipment-mail-cancel' onClick={() => setDraft(null)}>{t('notify.cancel')}</View>
        <View className='btn btn--primary shipment-mail-send' onClick={send}>{t('notify.send')}</View>
      </View>
    </View>
  )
})

/**
 * A pickup at the counter: scan each prize's authenticity QR (its packing slip's) to hand it over; the
 * last one completes the pickup. The server refuses a code of another shipment or prize.
 */
const HandOver = observer(function HandOver ({ shipment: s, onHanded }: { shipment: OperatorShipment; onHanded: (s: OperatorShipment) => void }) {
  const handed = s.items.filter(i => i.handedAt).length
  const scan = async () => {
    try {
      const code = await scanPrizeCode()
      const after = await loading.wrap(operatorApi.pickupHand(code))
      onHanded(after)
      const item = after.items.find(i => i.prizeId === code.prizeId)
      toast({ message: after.status === 'received' ? t('shipments.handDone') : t('shipments.handOne', { name: item ? tr(item.design.name) : `#${code.prizeId}` }), level: 'success' })
    } catch (e) {
      if (e instanceof ScanError && e.kind === 'canceled') return
      toast({ message: e instanceof ScanError ? e.message : errorMessage(e) })
    }
  }
  return (
    <View className='shipment__tracking shipment-handover'>
      <Text className='shipment-handed'>{t('shipments.handed', { handed, n: s.items.length })}</Text>
      {s.receivedAt && <Text className='shipment__meta'>{t('shipments.receivedAt', { time: formatTime(s.receivedAt) })}</Text>}
      {s.status === 'requested' && <View className='btn btn--primary shipment-hand' onClick={scan}>{t('shipments.handScan')}</View>}
    </View>
  )
})

const OTHER = COMMON_CARRIERS.length

const DeliverForm = observer(function DeliverForm ({ shipmentId, ocr, onDelivered }: { shipmentId: number; ocr: OcrSwitch; onDelivered: (s: OperatorShipment) => void }) {
  const [choice, setChoice] = useState<number | null>(null)
  const [otherCode, setOtherCode] = useState('')
  const [trackingNo, setTrackingNo] = useState('')
  const [errors, setErrors] = useState<{ carrier?: string; trackingNo?: string }>({})
  const [busy, setBusy] = useState(false)
  const options = [...COMMON_CARRIERS.map(c => t(carrierKey(c))), t('shipments.otherCarrier')]
  // what the label's photo gave: the number filled in for the operator to check, and the other numbers
  const [read, setRead] = useState<TrackingCandidate[] | null>(null)
  const fill = (c: TrackingCandidate) => {
    setTrackingNo(c.no)
    setErrors(x => ({ ...x, trackingNo: undefined }))
    const i = c.carrier ? COMMON_CARRIERS.indexOf(c.carrier) : -1
    if (i >= 0) setChoice(prev => prev ?? i)
  }
  const onRead = ({ text }: { text: string }) => {
    const found = trackingCandidates(text)
    setRead(found)
    if (found.length) { fill(found[0]); toast({ message: t('shipments.ocrCheck') }) } else toast({ message: t('shipments.ocrNone') })
  }
  const onReadFailed = (e: unknown) => {
    if (notConfigured(e, 'ocr')) { ocr.off(); toast({ message: t('vision.ocrOff') }) } else toast({ message: errorMessage(e) })
  }

  const submit = async () => {
    if (busy) return
    const carrier = choice === null ? '' : choice === OTHER ? normaliseCarrier(otherCode) : COMMON_CARRIERS[choice]
    const no = normaliseTrackingNo(trackingNo)
    const carrierError = checkCarrier(carrier)
    const trackingError = checkTrackingNo(no)
    setErrors({ carrier: carrierError ? t(carrierError) : undefined, trackingNo: trackingError ? t(trackingError) : undefined })
    // shown under their fields (a toast would cover them)
    if (carrierError || trackingError) return
    setBusy(true)
    try {
      onDelivered(await operatorApi.deliver({ shipmentId, carrier, trackingNo: no }))
      toast({ message: t('feedback.done') })
    } catch (e) {
      toast({ message: errorMessage(e) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <View className='deliver'>
      <Text className='deliver__label'>{t('shipments.carrier')}</Text>
      <View className={`deliver__carriers ${errors.carrier ? 'deliver__carriers--error' : ''}`}>
        {options.map((label, i) => (
          <Text key={i} className={`chip deliver-carrier deliver-carrier-${i === OTHER ? 'other' : COMMON_CARRIERS[i]} ${i === choice ? 'chip--on' : ''}`}
            onClick={() => { setChoice(i); setErrors(x => ({ ...x, carrier: undefined })) }}>{label}</Text>
        ))}
      </View>
      {choice === OTHER && (
        <Input className={`deliver__field deliver-carrier-code ${errors.carrier ? 'deliver__field--error' : ''}`} value={otherCode} maxlength={32}
          placeholder={t('shipments.carrierCode')} onInput={e => setOtherCode(e.detail.value)} />
      )}
      {errors.carrier && <Text className='deliver__error deliver-carrier-error'>{errors.carrier}</Text>}
      <Text className='deliver__label'>{t('shipments.trackingNo')}</Text>
      <Input className={`deliver__field deliver-tracking ${errors.trackingNo ? 'deliver__field--error' : ''}`} value={trackingNo} maxlength={40}
        placeholder={t('shipments.trackingPlaceholder')} onInput={e => { setTrackingNo(e.detail.value); setErrors(x => ({ ...x, trackingNo: undefined })) }} />
      {errors.trackingNo && <Text className='deliver__error deliver-tracking-error'>{errors.trackingNo}</Text>}
      {ocr.on && (
        <PhotoButton className='deliver-ocr' label={t('shipments.ocr')} pick={() => visionApi.ocrPick()} file={f => visionApi.ocrFile(f)} onDone={onRead} onError={onReadFailed} />
      )}
      {read && read.length > 0 && (
        <View className='deliver__read'>
          <Text className='deliver__hint deliver-ocr-check'>{t('shipments.ocrCheck')}</Text>
          {read.length > 1 && (
            <View className='deliver__carriers'>
              <Text className='deliver__hint'>{t('shipments.ocrOthers')}</Text>
              {read.map(c => (
                <Text key={c.no} className={`chip deliver-ocr-pick ${c.no === normaliseTrackingNo(trackingNo) ? 'chip--on' : ''}`} onClick={() => fill(c)}>{c.no}</Text>
              ))}
            </View>
          )}
        </View>
      )}
      <View className={`btn btn--primary deliver-submit ${busy ? 'btn--disabled' : ''}`} onClick={submit}>{t('shipments.deliver')}</View>
    </View>
  )
})
