import { useState } from 'react'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import type { CombineProof } from '~types/shop'
import { fairDigest, fairDraw, fairMessage, serverSeedHash } from '~types/fair'
import { toHex } from '~types/crypto'
import { t } from '@/stores/locale'
import './index.scss'

export interface CombineCheck { hashOk: boolean; drawOk: boolean; digest: string }

/**
 * A combine's proof recomputed on this device with the shared HMAC-SHA256 (types/fair.ts), no server
 * involved: the revealed server seed against its published hash, and the draw against the design
 * (null while the server seed is not revealed).
 */
export function checkCombineProof (p: CombineProof, designId: number): CombineCheck | null {
  if (!p.serverSeed) return null
  const d = fairDraw(p.serverSeed, p.clientSeed, p.nonce, p.weights)
  return {
    hashOk: serverSeedHash(p.serverSeed) === p.serverSeedHash,
    drawOk: d.value === p.value && d.index === p.index && d.round === p.round && d.word === p.word && p.designIds[d.index] === designId,
    digest: toHex(fairDigest(p.serverSeed, p.clientSeed, p.nonce, p.round))
  }
}

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
