import { useRef, useState } from 'react'
import { useDidShow, useRouter } from '@tarojs/taro'
import { View, Text, Image, Picker } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { TOPUP_MIN_CENTS } from '~types/limits'
import type { AgeStatus, CaseView, PayChannel, PayMethod, SeriesDetail, WalletBalance } from '~types/shop'
import PageShell from '@/components/PageShell'
import Section from '@/components/Section'
import EmptyState from '@/components/EmptyState'
import ActionBar from '@/components/ActionBar'
import RarityBadge from '@/components/RarityBadge'
import PayMethods from '@/components/PayMethods'
import { orderApi, shopApi } from '@/services/shop'
import { topUp } from '@/services/payment'
import { errorMessage } from '@/services/request'
import { isApiError } from '@/services/errors'
import { drawStore } from '@/stores/draw'
import { sessionStore } from '@/stores/session'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { formatCents, formatPpm, tr } from '@/utils/format'
import { mediaUrl } from '@/utils/media'
import { redirect } from '@/utils/navigation'
import { randomString } from '@/utils/random'
import { ageOn, splitPayment } from './money'
import './index.scss'

/** Buy: what is bought, the price, credit and cash used, the disclosure, the age gate, pay. */
function PurchasePage () {
  const { params } = useRouter()
  const seriesId = Number(params.seriesId)
  const caseId = Number(params.caseId)
  const whole = params.whole === '1'
  const slots = (params.slots ? decodeURIComponent(params.slots) : '').split(',').map(Number).filter(n => Number.isInteger(n) && n > 0)

  const [series, setSeries] = useState<SeriesDetail | null>(null)
  const [box, setBox] = useState<CaseView | null>(null)
  const [balance, setBalance] = useState<WalletBalance | null>(null)
  const [age, setAge] = useState<AgeStatus | null>(null)
  const [methods, setMethods] = useState<PayMethod[]>([])
  const [channel, setChannel] = useState<PayChannel | null>(null)
  const [acknowledged, setAcknowledged] = useState(false)
  const [birthDate, setBirthDate] = useState('')
  const [guardian, setGuardian] = useState(false)
  const [busy, setBusy] = useState(false)
  const [failed, setFailed] = useState(false)
  // one key per purchase on this page: a retry after a lost answer is not charged twice
  const idempotencyKey = useRef(randomString(24))

  const valid = Number.isInteger(caseId) && caseId > 0 && Number.isInteger(seriesId) && (whole || slots.length > 0)

  const load = async () => {
    if (!valid) return
    if (!sessionStore.loggedIn) { void redirect('/pages/login/index'); return }
    try {
      const [s, c, b, a, m] = await Promise.all([
        shopApi.seriesDetail(seriesId), shopApi.caseCurrent(seriesId), shopApi.walletBalance(),
        shopApi.ageStatus(), orderApi.payMethods()
      ])
      setSeries(s); setBox(c); setBalance(b); setAge(a); setMethods(m)
      setChannel(ch => ch ?? m[0]?.channel ?? null)
    } catch (e) {
      setFailed(true)
      toast({ message: errorMessage(e) })
    }
  }
  useDidShow(() => { void load() })

  if (failed || !valid) {
    return <PageShell><EmptyState icon='🛒' text={t('purchase.nothing')} /></PageShell>
  }
  if (!series || !balance || !age || !box) return <PageShell><Text className='purchase-loading'>{t('feedback.loading')}</Text></PageShell>

  const count = whole ? box.slots.filter(s => !s.sold).length : slots.length
  const total = count * series.priceCents
  const split = splitPayment(total, balance)
  // the birth date is recorded once; a minor may add the guardian's consent later
  const knownBirthDate = age.birthDate
  const chosenDate = knownBirthDate ?? birthDate
  const minor = chosenDate ? ageOn(chosenDate, new Date()) < 18 : false
  const tooYoung = age.verified && (age.age ?? 0) < 8
  const needsConsent = age.verified && age.minor && !tooYoung && !age.guardianConsent
  const cleared = age.verified && !tooYoung && !needsConsent

  const verifyAge = async () => {
    if (!chosenDate) { toast({ message: t('purchase.birthDateRequired') }); return }
    try {
      setAge(await shopApi.ageVerify(minor ? { birthDate: chosenDate, guardianConsent: guardian } : { birthDate: chosenDate }))
    } catch (e) {
      toast({ message: errorMessage(e) })
      setAge(await shopApi.ageStatus().catch(() => age))
    }
  }

  const pay = async () => {
    if (busy) return
    if (!cleared) { toast({ message: t(tooYoung ? 'purchase.tooYoung' : 'purchase.ageFirst') }); return }
    if (!acknowledged) { toast({ message: t('purchase.ackFirst') }); return }
    setBusy(true)
    try {
      if (split.shortfallCents > 0) {
        if (!channel) throw new Error(t('payment.method'))
        const paid = await loading.wrap(topUp(Math.max(split.shortfallCents, TOPUP_MIN_CENTS), channel))
        if (paid === 'redirected') return
      }
      const result = await loading.wrap(shopApi.casePurchase({
        caseId, acknowledged: true, idempotencyKey: idempotencyKey.current, ...(whole ? { wholeCase: true } : { slots })
      }))
      drawStore.set(result)
      await redirect('/pages/open_chest_animation/index')
    } catch (e) {
      toast({ message: errorMessage(e), duration: 4000 })
      if (isApiError(e) && e.code === 409) await load()
    } finally {
      setBusy(false)
    }
  }

  return (
    <PageShell className='purchase-page'>
      <Section title={t('purchase.items')}>
        <View className='purchase-item'>
          <Image className='purchase-item__img' src={mediaUrl(series.cover)} mode='aspectFit' />
          <View className='purchase-item__body'>
            <Text className='purchase-item__title'>{tr(series.title)}</Text>
            <Text className='purchase-item__sub'>#{caseId} · {whole ? t('purchase.wholeCase', { n: count }) : t('purchase.slots', { slots: slots.join(', ') })}</Text>
          </View>
          <Text className='purchase-item__count'>×{count}</Text>
        </View>
      </Section>

      <Section title={t('purchase.disclosureTitle')} className='disclosure'>
        {series.designs.map(d => (
          <View key={d.id} className='odds-row'>
            <Image className='odds-row__img' src={mediaUrl(d.image)} mode='aspectFit' />
            <Text className='odds-row__name'>{tr(d.name)}</Text>
            <RarityBadge rarity={d.rarity} />
            <Text className='odds-row__pct'>{formatPpm(d.oddsPpm)}</Text>
          </View>
        ))}
        <Text className='disclosure__range'>{t('detail.valueRange')}: {formatCents(series.valueRange.minCents)} – {formatCents(series.valueRange.maxCents)}</Text>
        <Text className='disclosure__rules'>{tr(series.rules)}</Text>
        <View className='purchase-ack' onClick={() => setAcknowledged(!acknowledged)}>
          <View className={`purchase-ack__box ${acknowledged ? 'purchase-ack__box--on' : ''}`}>{acknowledged ? '✓' : ''}</View>
          <Text>{t('purchase.disclosure')}</Text>
        </View>
      </Section>

      {!cleared && (
        <Section title={t('purchase.ageTitle')} className='age-gate'>
          <Text className='age-gate__text'>{tooYoung ? t('purchase.tooYoung') : t('purchase.ageText')}</Text>
          {!age.verified && (
            <Picker mode='date' value={birthDate || '2000-01-01'} start='1900-01-01' end={new Date().toISOString().slice(0, 10)}
              onChange={e => setBirthDate(String(e.detail.value))}>
              <View className='age-gate__date'>{birthDate || t('purchase.birthDate')}</View>
            </Picker>
          )}
          {knownBirthDate && <View className='age-gate__date age-gate__date--fixed'>{knownBirthDate}</View>}
          {minor && !tooYoung && (
            <View className='purchase-ack guardian' onClick={() => setGuardian(!guardian)}>
              <View className={`purchase-ack__box ${guardian ? 'purchase-ack__box--on' : ''}`}>{guardian ? '✓' : ''}</View>
              <Text>{t('purchase.guardian')}</Text>
            </View>
          )}
          {!tooYoung && <View className='btn btn--ghost age-gate__submit' onClick={verifyAge}>{t('purchase.ageSubmit')}</View>}
        </Section>
      )}

      <Section>
        <View className='purchase-row'><Text className='purchase-row__label'>{t('purchase.price')}</Text><Text className='purchase-row__value total'>{formatCents(total)}</Text></View>
        <View className='purchase-row'><Text className='purchase-row__label'>{t('purchase.credit')}</Text><Text className='purchase-row__value'>-{formatCents(split.creditCents)}</Text></View>
        <View className='purchase-row'><Text className='purchase-row__label'>{t('purchase.cash')}</Text><Text className='purchase-row__value'>-{formatCents(split.cashCents)}</Text></View>
        {split.shortfallCents > 0 && (
          <View className='purchase-row shortfall'><Text className='purchase-row__label'>{t('purchase.payDirect')}</Text><Text className='purchase-row__value'>{formatCents(Math.max(split.shortfallCents, TOPUP_MIN_CENTS))}</Text></View>
        )}
        {age.dailyCapCents !== null && <Text className='purchase-cap'>{t('purchase.cap', { cap: formatCents(age.dailyCapCents) })}</Text>}
      </Section>

      {split.shortfallCents > 0 && (
        <Section title={t('payment.method')}>
          <PayMethods methods={methods} value={channel} onChange={setChannel} />
        </Section>
      )}

      <ActionBar>
        <View className={`btn btn--primary purchase-pay ${busy || !acknowledged || !cleared || count === 0 ? 'btn--disabled' : ''}`} onClick={pay}>
          {split.shortfallCents > 0 ? t('purchase.payDirectButton', { amount: formatCents(total) }) : t('purchase.payBalance', { amount: formatCents(total) })}
        </View>
      </ActionBar>
    </PageShell>
  )
}

export default observer(PurchasePage)
