import { useState } from 'react'
import { View, Text } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { CombineProof } from '~types/shop'
import { fairMessage } from '~types/fair'
import { t } from '@/stores/locale'
import { CombineCheck, checkCombineProof } from './proof'
import './index.scss'

/**
 * The proof of a prize made by combining, where a prize from a case shows its case's commitment (the
 * prize page, the authenticity check): the server seed's hash (and the seed once revealed), the client
 * seed, the nonce, the HMAC message, the integer drawn; checked on the device once revealed.
 */
function CombineProofView ({ proof: p, designId }: { proof: CombineProof; designId: number }) {
  const [check, setCheck] = useState<CombineCheck | null>(null)
  const total = p.weights.reduce((s, w) => s + w, 0)
  return (
    <View className='combine-proof-view'>
      <Text className='combine-proof-view__label'>{t('combine.proofSeedHash')}</Text>
      <Text className='combine-proof-view__mono combine-proof-hash'>{p.serverSeedHash}</Text>
      <Text className='combine-proof-view__label'>{t('combine.proofClientSeed')}</Text>
      <Text className='combine-proof-view__mono combine-proof-client-seed'>{p.clientSeed}</Text>
      <Text className='combine-proof-view__label combine-proof-nonce'>{t('combine.drawNonce', { nonce: p.nonce })}</Text>
      <Text className='combine-proof-view__label'>{t('combine.hmac')}</Text>
      <Text className='combine-proof-view__mono combine-proof-message'>{fairMessage(p.clientSeed, p.nonce, p.round)}</Text>
      <Text className='combine-proof-view__label'>{t('combine.drawn', { value: p.value, total, round: p.round + 1, word: p.word + 1, index: p.index + 1 })}</Text>
      {p.serverSeed
        ? (
          <>
            <Text className='combine-proof-view__label'>{t('combine.serverSeed')}</Text>
            <Text className='combine-proof-view__mono combine-proof-server-seed'>{p.serverSeed}</Text>
            <View className='btn btn--ghost combine-proof-check' onClick={() => setCheck(checkCombineProof(p, designId))}>{t('combine.check')}</View>
          </>
          )
        : <Text className='combine-proof-view__pending combine-proof-pending'>{t('combine.notRevealedHere')}</Text>}
      {check && (
        <View className={`combine-proof-view__result ${check.hashOk && check.drawOk ? 'combine-proof-view__result--ok' : 'combine-proof-view__result--bad'}`}>
          <Text className='combine-proof-view__mono'>HMAC = {check.digest}</Text>
          <Text>{check.hashOk ? t('combine.hashOk') : t('combine.hashBad')}</Text>
          <Text>{check.drawOk ? t('combine.checkOk') : t('combine.checkBad')}</Text>
        </View>
      )}
    </View>
  )
}

export default observer(CombineProofView)
