import { useEffect, useRef } from 'react'
import { View, Text } from '@tarojs/components'
import type { KujiTurn } from '~types/kuji'
import Section from '@/components/Section'
import { t } from '@/stores/locale'
import { a11yControl } from '@/utils/format'
import { clockText, useTimeLeft } from '@/utils/useTimeLeft'
import { countdownText } from './countdown'
import { DRAW_COUNTS, drawCounts, placeInLine } from './kuji'

/** The turn's time left by the server's clock; tells once when it is over (the board is asked again). */
function TurnCountdown ({ until, most, onOver }: { until: string; most: number; onOver: () => void }) {
  const left = useTimeLeft(until, most)
  const latest = useRef(onOver)
  latest.current = onOver
  const told = useRef(false)
  useEffect(() => {
    if (left > 0) { told.current = false; return }
    if (!told.current) { told.current = true; latest.current() }
  }, [left])
  return (
    <View className='kuji-turn__clock'>
      <Text className='kuji-turn__now'>{t('kuji.yourTurn')}</Text>
      <Text className={`kuji-turn__left ${left <= 10 ? 'kuji-turn__left--low' : ''}`}>{t('kuji.turnLeft', { left: clockText(left) })}</Text>
    </View>
  )
}

export interface KujiTurnPanelProps {
  /** null: nobody logged in. */
  turn: KujiTurn | null
  ticketsLeft: number
  onLogin: () => void
  onLeave: () => void
  onRandom: (n: number) => void
  onOver: () => void
}

/**
 * The line at the set (types/kuji.ts KujiTurn): how it works and how many wait; in line, the caller's
 * place, how many are ahead and at most how long; on their turn, the time left (by the server's clock)
 * and the draws at random (1, 3, 5, 10), with "end my turn". Joining, and drawing by number or every
 * ticket left, are the action bar's.
 */
export default function KujiTurnPanel ({ turn, ticketsLeft, onLogin, onLeave, onRandom, onOver }: KujiTurnPanelProps) {
  if (!turn) {
    return (
      <Section title={t('kuji.line')} className='kuji-turn kuji-turn--visitor'>
        <Text className='kuji-turn__line kuji-turn__link' {...a11yControl(undefined, 'link')} onClick={onLogin}>{t('kuji.logIn')}</Text>
      </Section>
    )
  }
  const counts = drawCounts(ticketsLeft)
  return (
    <Section title={t('kuji.line')} className={`kuji-turn kuji-turn--${turn.state}`}
      extra={<Text className='kuji-turn__count'>{turn.inLine > 0 ? t('kuji.inLine', { n: turn.inLine }) : t('kuji.nobodyInLine')}</Text>}>
      {turn.state === 'waiting' && (
        <View className='kuji-turn__place'>
          <Text className='kuji-turn__position'>{t('kuji.position', { n: placeInLine(turn) })}</Text>
          <Text className='kuji-turn__line kuji-turn__ahead'>{(turn.ahead ?? 0) > 1
            ? t('kuji.ahead', { n: turn.ahead ?? 0, wait: countdownText(turn.waitSeconds ?? 0) })
            : t('kuji.next', { wait: countdownText(turn.waitSeconds ?? 0) })}</Text>
          <Text className='kuji-turn__link kuji-leave' {...a11yControl()} onClick={onLeave}>{t('kuji.leave')}</Text>
        </View>
      )}
      {turn.state === 'drawing' && turn.until && (
        <View className='kuji-turn__draw'>
          <TurnCountdown until={turn.until} most={turn.turnSeconds} onOver={onOver} />
          <Text className='kuji-turn__label'>{t('kuji.random')}</Text>
          <View className='kuji-random'>
            {DRAW_COUNTS.map(n => (
              <View key={n} className={`btn btn--ghost kuji-random__btn kuji-random-${n} ${counts.includes(n) ? '' : 'btn--disabled'}`}
                onClick={() => { if (counts.includes(n)) onRandom(n) }}>{t('kuji.randomN', { n })}</View>
            ))}
          </View>
          <Text className='kuji-turn__hint'>{t('kuji.pickHint')}</Text>
          <Text className='kuji-turn__link kuji-end' {...a11yControl()} onClick={onLeave}>{t('kuji.endTurn')}</Text>
        </View>
      )}
      {turn.state !== 'drawing' && <Text className='kuji-turn__hint'>{t('kuji.lineHow', { seconds: turn.turnSeconds })}</Text>}
    </Section>
  )
}
