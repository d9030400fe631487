import { useState } from 'react'
import { View, Text } from '@tarojs/components'
import type { KujiTierRow } from '~types/kuji'
import { kujiCheck } from '~types/kujiCheck'
import { kujiApi } from '@/services/kuji'
import { t } from '@/stores/locale'
import { tierName, tierTone } from '@/utils/kujiTier'
import { useRemote } from '@/utils/useRemote'
import { verifyView } from './kuji'

/**
 * The check of the series' previous set, sold out and revealed (POST /api/kujiProof): recomputed on this
 * phone (types/kujiCheck.ts), line by line (the commitment, the Last One after the last ticket, the
 * tickets per tier against those published), then which ticket held which tier and who won the Last One.
 * Asked for on a tap, not on sight.
 */
export default function KujiVerify ({ setId, published }: { setId: number | null; published: ReadonlyArray<Pick<KujiTierRow, 'tier' | 'tickets'>> }) {
  // loaded once asked for (and again on each tap, or for the next set sold out meanwhile)
  const [asked, setAsked] = useState(false)
  const proof = useRemote(() => kujiApi.proof(setId ?? 0), [setId], { enabled: asked && setId !== null })
  if (setId === null) return <Text className='kuji-check__none'>{t('kuji.noPrevious')}</Text>
  const view = proof.data ? verifyView(proof.data, kujiCheck(proof.data), published) : null
  return (
    <View className='kuji-check'>
      <View className={`btn btn--ghost kuji-verify ${proof.loading ? 'btn--disabled' : ''}`} onClick={() => { if (!asked) setAsked(true); else if (!proof.loading) void proof.reload() }}>
        {proof.loading ? t('kuji.verifying') : t('kuji.verify')}
      </View>
      {!proof.loading && proof.failed && <Text className='kuji-check__line kuji-check__line--bad kuji-check__failed'>{t('kuji.verifyFailed')}</Text>}
      {proof.data && !view && <Text className='kuji-check__line kuji-check__pending'>{t('kuji.notRevealed')}</Text>}
      {view && (
        <View className={`kuji-check__result ${view.holds ? 'kuji-check__result--ok' : 'kuji-check__result--bad'}`}>
          {view.lines.map(l => (
            <Text key={l.name} className={`kuji-check__line kuji-check__${l.name} ${l.ok ? 'kuji-check__line--ok' : 'kuji-check__line--bad'}`}>{l.ok ? '✓' : '✗'} {l.text}</Text>
          ))}
          {view.winner && <Text className='kuji-check__winner'>{t('kuji.winner', { name: view.winner })}</Text>}
          <Text className='kuji-check__label'>{t('kuji.ticketsHeld')}</Text>
          <View className='kuji-check__tickets'>
            {view.tickets.map(x => (
              <View key={x.ticket} className={`kuji-check__ticket kuji-check__ticket-${x.ticket} kuji-tone--${tierTone(x.tier)} ${view.doubleChanceTickets.includes(x.ticket) ? 'kuji-check__ticket--dc' : ''}`} aria-label={t('kuji.ticketSold', { n: x.ticket, tier: tierName(x.tier) })}>
                <Text className='kuji-check__num'>{x.ticket}</Text>
                <Text className='kuji-check__tier'>{x.tier}</Text>
              </View>
            ))}
          </View>
          <Text className='kuji-check__commit'>{t('prize.commit')}: {view.commit}</Text>
        </View>
      )}
    </View>
  )
}
