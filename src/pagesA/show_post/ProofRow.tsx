import { useState, type ReactNode } from 'react'
import { View, Text } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { ShowPrize } from '~types/show'
import CombineProofView from '@/components/CombineProof'
import { t } from '@/stores/locale'
import { a11yControl, tr } from '@/utils/format'
import { verifyCommit } from '@/utils/sha256'

/**
 * The proof that one prize of a post was really drawn: its case's commitment (recomputed on the phone
 * once the case is revealed: the hash and the design in the prize's slot) or its combine's draw.
 */
function ProofRow ({ prize, badge }: { prize: ShowPrize; badge?: ReactNode }) {
  const [result, setResult] = useState<boolean | null>(null)
  const { proof } = prize
  const verify = () => {
    if (!proof?.revealed || !proof.arrangement || !proof.salt) return
    setResult(verifyCommit(proof.caseId, proof.arrangement, proof.salt, proof.commit) && proof.arrangement[prize.slot - 1] === prize.design.id)
  }
  return (
    <View className={`show-proof show-proof-${prize.prizeId}`}>
      <View className='show-proof__head'><Text className='show-proof__name'>{tr(prize.design.name)}</Text>{badge}</View>
      {prize.origin === 'case' && proof
        ? (
          <>
            <Text className='show-proof__line'>{t('chest.caseSlot', { case: prize.caseId, slot: prize.slot })}</Text>
            <Text className='show-proof__label'>{t('show.commit')}</Text>
            <Text className='show-proof__mono'>{proof.commit}</Text>
            {proof.revealed
              ? <View className='btn btn--ghost show-proof-verify' {...a11yControl()} onClick={verify}>{t('show.verify')}</View>
              : <Text className='show-proof__line'>{t('show.notRevealed')}</Text>}
            {result !== null && (
              <Text className={`show-proof__result ${result ? 'show-proof__result--ok' : 'show-proof__result--bad'}`}>
                {result ? t('show.verifiedOk') : t('show.verifiedBad')}
              </Text>
            )}
          </>
          )
        : prize.combineProof
          ? <><Text className='show-proof__line'>{t('show.fromCombine')}</Text><CombineProofView proof={prize.combineProof} designId={prize.design.id} /></>
          : <Text className='show-proof__line'>{t('show.fromCombine')}</Text>}
    </View>
  )
}

export default observer(ProofRow)
