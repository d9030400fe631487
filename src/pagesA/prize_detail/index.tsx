// first: on H5 the page waits for the rest of the dictionary (src/locales/full.h5.ts)
import '@/locales/full'
import { useRef, useState } from 'react'
import { useDidShow, useRouter } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { withPageError } from '@/components/PageError/wrap'
import type { PrizeDetail } from '~types/shop'
import type { Shipment } from '~types/afterDraw'
import PageShell from '@/components/PageShell'
import EmptyState from '@/components/EmptyState'
import Section from '@/components/Section'
import ActionBar from '@/components/ActionBar'
import RarityBadge from '@/components/RarityBadge'
import ShipSheet from '@/components/ShipSheet'
import ParcelCard from '@/components/ParcelCard'
import PrizeCheck from '@/components/PrizeCheck'
import CombineProofView from '@/components/CombineProof'
import MarketPrice from './MarketPrice'
import ProofSlots from './ProofSlots'
import { shopApi } from '@/services/shop'
import { afterDrawApi } from '@/services/afterDraw'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { prizeStatusKey } from '@/utils/prizeStatus'
import { capabilitiesStore } from '@/stores/capabilities'
import { dialog, loading, toast } from '@/utils/feedback'
import { formatCents, tr, a11yImage, designLabel } from '@/utils/format'
import { useRequestKeys } from '@/utils/requestKey'
import { navigate } from '@/utils/navigation'
import { mediaUrl } from '@/utils/media'
import { commitInput, sha256Hex } from '@/utils/sha256'
import './index.scss'
import { reveal } from '@/utils/reveal'
import { useRemote } from '@/utils/useRemote'

interface Check { hash: string; matches: boolean; holds: boolean }
interface Loaded { prize: PrizeDetail; shipment: Shipment | null }

/** One prize: the design, its rarity and values, and the proof of its case (or of its combine), checked on the device. */
function PrizeDetailPage () {
  const { params } = useRouter()
  const prizeId = Number(params.prizeId)
  // opened from a packing slip's QR: anyone holding the figure checks it by its code
  const verifyCode = params.verify ? decodeURIComponent(params.verify) : ''
  const validId = Number.isInteger(prizeId) && prizeId > 0
  const [check, setCheck] = useState<Check | null>(null)
  const recycleKeys = useRequestKeys()
  const [shipping, setShipping] = useState(false)

  // the prize shows as soon as it lands; a prize on its way then finds its parcel (the newest come first)
  const heldShipment = useRef<Shipment | null>(null)
  const detail = useRemote<Loaded>(async step => {
    const p = await shopApi.prizeDetail(prizeId)
    if (p.status !== 'shipping' && p.status !== 'received') return { prize: p, shipment: heldShipment.current }
    step.partial({ prize: p, shipment: heldShipment.current })
    const parcels = await afterDrawApi.shipmentList({ page: 1, size: 100 })
    return { prize: p, shipment: parcels.list.find(s => s.items.some(i => i.prizeId === prizeId)) ?? null }
  }, [prizeId], { loadOnMount: false, onError: e => toast({ message: errorMessage(e) }) })
  heldShipment.current = detail.data?.shipment ?? null
  const load = () => verifyCode || !validId ? Promise.resolve() : detail.reload()
  useDidShow(() => {
    void load()
    capabilitiesStore.ensure().catch(() => undefined)
  })
  // a failure shows "not found" (as does a wrong id); opened to check a code, the page asks for nothing
  const missing = !verifyCode && (!validId || detail.failed)
  const prize = detail.data?.prize ?? null
  const shipment = detail.data?.shipment ?? null

  if (verifyCode && Number.isInteger(prizeId) && prizeId > 0) {
    return <PageShell className='prize-detail-page'><PrizeCheck prizeId={prizeId} code={verifyCode} /></PageShell>
  }
  if (missing) return <PageShell><EmptyState icon='🔍' text={t('prize.notFound')} /></PageShell>
  if (!prize) return <PageShell><Text className='prize-loading'>{t('feedback.loading')}</Text></PageShell>

  const { proof, design } = prize
  const recycle = async () => {
    const ok = await dialog({ title: t('collection.recycleTitle'), message: t('collection.recycleBody', { n: 1, credit: formatCents(design.recycleValueCents) }), confirmText: t('collection.recycle') })
    if (!ok) return
    try {
      // a tap again after a lost answer is the same recycling: it answers the first result
      const res = await loading.wrap(afterDrawApi.recycle({ prizeIds: [prize.prizeId], idempotencyKey: recycleKeys.keyFor(String(prize.prizeId)) }))
      recycleKeys.done()
      toast({ message: t('collection.recycled_done', { credit: formatCents(res.creditCents) }), level: 'success' })
      await load()
    } catch (e) { toast({ message: errorMessage(e) }) }
  }
  const recheck = async () => {
    if (!proof) return
    try {
      const fresh = await loading.wrap(shopApi.caseProof(proof.caseId))
      if (!fresh.revealed) { toast({ message: t('prize.stillOnSale') }); return }
      detail.setData(d => d && { ...d, prize: { ...d.prize, proof: { ...proof, revealed: true, arrangement: fresh.arrangement, salt: fresh.salt } } })
      toast({ message: t('prize.nowRevealed'), level: 'success' })
    } catch (e) { toast({ message: errorMessage(e) }) }
  }
  const verify = () => {
    if (!proof || !proof.revealed || !proof.arrangement || !proof.salt) return
    const hash = sha256Hex(commitInput(proof.caseId, proof.arrangement, proof.salt))
    setCheck({ hash, matches: hash === proof.commit.toLowerCase(), holds: proof.arrangement[prize.slot - 1] === design.id })
    // the result renders below the button, under the fold on a phone
    reveal('.proof-result')
  }

  return (
    <PageShell className='prize-detail-page'>
      <View className={`prize-card prize-card--${design.rarity}`}>
        <Image className='prize-card__img' src={mediaUrl(design.image, 280)} mode='aspectFit' {...a11yImage(designLabel(design))} />
        <Text className='prize-card__name'>{tr(design.name)}</Text>
        <RarityBadge rarity={design.rarity} />
        <Text className='prize-card__series'>{tr(prize.seriesTitle)}</Text>
      </View>
      <Section>
        {/* the reference value sits beside the market price when the shop has one, else here */}
        {!capabilitiesStore.has('priceCompare') && <View className='kv-row'><Text className='kv-row__k'>{t('prize.value')}</Text><Text className='kv-row__v prize-reference'>{formatCents(design.referenceValueCents)}</Text></View>}
        <View className='kv-row'><Text className='kv-row__k'>{t('prize.recycleValue')}</Text><Text className='kv-row__v'>{formatCents(design.recycleValueCents)}</Text></View>
        {prize.origin === 'case'
          ? <View className='kv-row'><Text className='kv-row__k'>{t('prize.where')}</Text><Text className='kv-row__v'>{t('chest.caseSlot', { case: prize.caseId, slot: prize.slot })}</Text></View>
          : <View className='kv-row'><Text className='kv-row__k'>{t('prize.where')}</Text><Text className='kv-row__v'>{prize.combineId !== null ? t('prize.fromCombineNo', { id: prize.combineId }) : t('prize.fromCombine')}</Text></View>}
        <View className='kv-row'><Text className='kv-row__k'>{t('prize.status')}</Text><Text className='kv-row__v prize-status'>{t(prizeStatusKey(prize))}</Text></View>
      </Section>
      {/* the market price next to the reference value (JD Union; only when the shop has it) */}
      {capabilitiesStore.has('priceCompare') && <MarketPrice keyword={design.name.zh || design.name.en} referenceCents={design.referenceValueCents} />}
      {!proof && prize.combineId !== null && (
        <Section title={t('prize.combineProofTitle')} className='proof'>
          {prize.combineProof
            ? <CombineProofView proof={prize.combineProof} designId={design.id} />
            : <Text className='proof__pending'>{t('prize.combineProof')}</Text>}
          <View className='btn btn--ghost proof-combine' onClick={() => navigate(`/pagesA/combine_result/index?combineId=${prize.combineId}`)}>{t('prize.openCombine')}</View>
        </Section>
      )}
      {proof && <Section title={t('prize.proof')} className='proof'>
        <Text className='proof__label'>{t('prize.commit')}</Text>
        <Text className='proof__mono proof-commit'>{proof.commit}</Text>
        {proof.revealed && proof.arrangement && proof.salt
          ? (
            <>
              <Text className='proof__label'>{t('prize.arrangement')}</Text>
              <ProofSlots seriesId={prize.seriesId} arrangement={proof.arrangement} mine={prize.slot} />
              <Text className='proof__label'>{t('prize.salt')}</Text>
              <Text className='proof__mono proof-salt'>{proof.salt}</Text>
              <Text className='proof__label'>{t('prize.hashInput')}</Text>
              <Text className='proof__mono'>{commitInput(proof.caseId, proof.arrangement, proof.salt)}</Text>
              <View className='btn btn--ghost proof-verify' onClick={verify}>{t('prize.verify')}</View>
              {check && (
                <View className={`proof-result ${check.matches && check.holds ? 'proof-result--ok' : 'proof-result--bad'}`}>
                  <Text className='proof__mono'>{check.hash}</Text>
                  <Text className='proof-result__text'>{check.matches ? t('prize.hashMatches') : t('prize.hashDiffers')}</Text>
                  <Text className='proof-result__text'>{check.holds ? t('prize.slotHolds') : t('prize.slotDiffers')}</Text>
                </View>
              )}
            </>
            )
          : (
            <>
              <Text className='proof__pending'>{t('prize.notRevealed')}</Text>
              {/* the case may have sold out since the page opened: ask for its proof again */}
              <View className='btn btn--ghost proof-recheck' onClick={recheck}>{t('prize.recheck')}</View>
            </>
            )}
      </Section>}
      {shipment && <ParcelCard shipment={shipment} onChanged={() => { void load() }} />}
      {/* a prize still held can be shown off, with its proof (the player show) */}
      {(prize.status === 'warehouse' || prize.status === 'shipping' || prize.status === 'received') && (
        <View className='btn btn--ghost prize-to-show' onClick={() => navigate(`/pages/show/index?compose=1&prizeId=${prize.prizeId}`)}>{t('show.shareToShow')}</View>
      )}
      {prize.status === 'warehouse' && (
        <ActionBar>
          <View className='btn btn--ghost prize-recycle' onClick={recycle}>{t('collection.recycle')} +{formatCents(design.recycleValueCents)}</View>
          <View className='btn btn--primary prize-ship' onClick={() => setShipping(true)}>{t('collection.ship')}</View>
        </ActionBar>
      )}
      {shipping && <ShipSheet prizeIds={[prize.prizeId]} onClose={() => setShipping(false)} onShipped={() => { setShipping(false); void load() }} />}
    </PageShell>
  )
}

// a failure while rendering offers to reload or go back (components/PageError)
export default withPageError(observer(PrizeDetailPage))
