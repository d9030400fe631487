import { View, Text, Image } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { PrizeVerifyResult } from '~types/afterDraw'
import RarityBadge from '@/components/RarityBadge'
import CombineProofView from '@/components/CombineProof'
import { afterDrawApi } from '@/services/afterDraw'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { formatTime, tr, decorativeImage } from '@/utils/format'
import { mediaUrl } from '@/utils/media'
import { useRemote } from '@/utils/useRemote'
import type { PrizeCode } from '@/utils/scan'
import { ProofCheck, checkProof } from './proof'
import './index.scss'

type State = { kind: 'checking' } | { kind: 'ok', result: PrizeVerifyResult, proof: ProofCheck | null } | { kind: 'failed', message: string }

/**
 * The authenticity check of a prize in hand, from the code of its packing slip's QR: the server says
 * whether the code belongs to the prize, and the device recomputes the case's proof itself (for a prize
 * made by combining, which has no case, its combine's draw).
 */
function PrizeCheck ({ prizeId, code }: PrizeCode) {
  const answer = useRemote(async () => {
    const result = await afterDrawApi.prizeVerify({ prizeId, code })
    return { result, proof: checkProof(result) }
  }, [prizeId, code])
  // "checking" again while another code is checked
  const state: State = answer.loading || (!answer.data && !answer.failed)
    ? { kind: 'checking' }
    : answer.failed ? { kind: 'failed', message: errorMessage(answer.error) } : { kind: 'ok', ...answer.data! }

  if (state.kind === 'checking') return <View className='prize-check prize-check--checking'><Text className='prize-check__state'>{t('prizeCheck.checking')}</Text></View>
  if (state.kind === 'failed') {
    return (
      <View className='prize-check prize-check--failed'>
        <Text className='prize-check__verdict'>✗ {t('prizeCheck.failed')}</Text>
        <Text className='prize-check__message'>{state.message}</Text>
      </View>
    )
  }
  const { result: r, proof } = state
  const row = (k: string, v: string, cls = '') => (
    <View className='prize-check__row'><Text className='prize-check__k'>{k}</Text><Text className={`prize-check__v ${cls}`}>{v}</Text></View>
  )
  return (
    <View className='prize-check prize-check--ok'>
      <Text className='prize-check__verdict'>{t('prizeCheck.authentic')}</Text>
      <View className='prize-check__design'>
        <Image className='prize-check__img' src={mediaUrl(r.design.image, 120)} mode='aspectFit' {...decorativeImage()} />
        <View className='prize-check__names'>
          <Text className='prize-check__name'>{tr(r.design.name)}</Text>
          <RarityBadge rarity={r.design.rarity} />
        </View>
      </View>
      {row(t('prizeCheck.series'), tr(r.seriesTitle))}
      {r.origin === 'combine'
        ? row(t('prizeCheck.origin'), t('prize.fromCombineNo', { id: r.combineId ?? '' }))
        : row(t('prizeCheck.where'), t('chest.caseSlot', { case: r.caseId, slot: r.slot }))}
      {row(t('prizeCheck.drawnAt'), formatTime(r.drawnAt))}
      {row(t('prizeCheck.shippedAt'), r.shippedAt ? formatTime(r.shippedAt) : t('prizeCheck.notShipped'))}
      {r.combineProof && (
        <>
          <Text className='prize-check__k prize-check__proof-title'>{t('prizeCheck.combineProof')}</Text>
          <CombineProofView proof={r.combineProof} designId={r.design.id} />
        </>
      )}
      {r.proof && <Text className='prize-check__k prize-check__proof-title'>{t('prizeCheck.proof')}</Text>}
      {r.proof && <Text className='prize-check__mono'>{t('prize.commit')}: {r.proof.commit}</Text>}
      {!r.proof ? null : proof
        ? (
          <View className={`prize-check__proof ${proof.matches && proof.holds ? 'prize-check__proof--ok' : 'prize-check__proof--bad'}`}>
            <Text className='prize-check__mono'>sha256 = {proof.hash}</Text>
            <Text className='prize-check__line'>{proof.matches ? t('prize.hashMatches') : t('prize.hashDiffers')}</Text>
            <Text className='prize-check__line'>{proof.holds ? t('prize.slotHolds') : t('prize.slotDiffers')}</Text>
          </View>
          )
        : <Text className='prize-check__pending'>{t('prize.notRevealed')}</Text>}
    </View>
  )
}

export default observer(PrizeCheck)
