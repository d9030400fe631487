import { useEffect, useRef, useState } from 'react'
import { View, Text } from '@tarojs/components'
import type { QueueView } from '~types/drop'
import Section from '@/components/Section'
import { dropsApi } from '@/services/drops'
import { ApiError } from '@/services/errors'
import { t } from '@/stores/locale'
import { clockText, useTimeLeft } from '@/utils/useTimeLeft'
import { useRemote } from '@/utils/useRemote'
import { countdownText } from './countdown'
import RestockNotice from './RestockNotice'

/** After a failure that is not a 429 (the network), ask again after this long. */
const RETRY_MS = 5000
/** While in line, the server holds each ask up to this long and answers at once when the turn comes. */
const HOLD_MS = 25000

function ShoppingLeft ({ until, most }: { until: string; most: number }) {
  const left = useTimeLeft(until, most)
  return <Text className='queue-panel__turn'>{t('queue.turn', { left: clockText(left) })}</Text>
}

/**
 * A drop's waiting room on the series page (POST /api/dropQueue, which joins it once per account): the
 * caller's place, how many are ahead and about how long, asked again as the server says (pollMs; while
 * early or in line each ask is held by the server until the order is drawn, the turn comes, the drop
 * sells out or HOLD_MS); a 429
 * is waited out as it says, never shown as an error. When their turn comes (or ends) the page loads
 * again, so the case shows (or goes). Sold out, or every box left held by someone shopping, it offers
 * "notify me when restocked".
 */
export default function QueuePanel ({ seriesId, dropId, hasCase, onTurn }: { seriesId: number; dropId: number; hasCase: boolean; onTurn: () => void }) {
  // when to ask again: each answer (or failure) sets the next turn, counted so that equal waits still re-arm
  const [poll, setPoll] = useState<{ ms: number; n: number } | null>(null)
  const latest = useRef({ hasCase, onTurn })
  latest.current = { hasCase, onTurn }
  // the first ask answers at once (the place shows); in line, or there before the order is drawn, the
  // next are held by the server
  const inLine = useRef(false)
  // the place last shown: the server holds the next ask only while it is still the caller's place
  const seen = useRef<number | null>(null)
  const queue = useRemote<QueueView>(() => dropsApi.queue(dropId, inLine.current ? HOLD_MS : 0, seen.current), [dropId], {
    onSuccess: v => {
      inLine.current = v.state === 'waiting' || v.state === 'early'
      seen.current = v.position
      setPoll(p => ({ ms: v.pollMs, n: (p?.n ?? 0) + 1 }))
      // let in, or out: the page shows (or takes away) the case
      if ((v.state === 'shopping') !== latest.current.hasCase && v.state !== 'sold_out') latest.current.onTurn()
    },
    // a 429 is waited out as it says; anything else (the network) is asked again a little later
    onError: e => setPoll(p => ({
      ms: e instanceof ApiError && e.code === 429 ? Math.max(1, Number((e.data as { retryAfter?: number } | null)?.retryAfter ?? 1)) * 1000 : RETRY_MS,
      n: (p?.n ?? 0) + 1
    }))
  })
  const { reload } = queue
  useEffect(() => {
    if (!poll) return
    const timer = setTimeout(() => { void reload() }, poll.ms)
    return () => clearTimeout(timer)
  }, [poll, reload])
  const view = queue.data ?? null
  if (!view) return <Section title={t('queue.title')} className='queue-panel'><Text className='queue-panel__line'>{t('queue.joining')}</Text></Section>
  return (
    <Section title={t('queue.title')} className={`queue-panel queue-panel--${view.state}`}>
      {view.state === 'early' && <Text className='queue-panel__line queue-panel__early'>{t('queue.early')}</Text>}
      {view.state === 'waiting' && view.position !== null && (
        <View className='queue-panel__place'>
          <Text className='queue-panel__position'>{t('queue.position', { n: view.position })}</Text>
          <Text className='queue-panel__line queue-panel__ahead'>{view.ahead ? t('queue.ahead', { n: view.ahead, wait: countdownText(view.waitSeconds ?? 0) }) : t('queue.next', { wait: countdownText(view.waitSeconds ?? 0) })}</Text>
        </View>
      )}
      {view.state === 'shopping' && view.shoppingUntil && <ShoppingLeft until={view.shoppingUntil} most={view.turnSeconds} />}
      {view.state === 'left' && <Text className='queue-panel__line queue-panel__left'>{t('queue.left')}</Text>}
      {view.state === 'sold_out' && <Text className='queue-panel__line queue-panel__sold-out'>{t('queue.soldOut')}</Text>}
      {view.state !== 'sold_out' && view.allHeld && <Text className='queue-panel__line queue-panel__held'>{t('queue.allHeld', { n: view.boxesLeft })}</Text>}
      {/* nothing left to wait for (or every box left with someone shopping): told of the next drop instead */}
      {(view.state === 'sold_out' || (view.allHeld && view.state !== 'shopping')) && <RestockNotice seriesId={seriesId} />}
      {view.state !== 'sold_out' && view.state !== 'shopping' && <Text className='queue-panel__hint'>{t('queue.fair')}</Text>}
      <Text className='queue-panel__lot'>{t('queue.lot')}: {view.lot.slice(0, 16)}…</Text>
    </Section>
  )
}
