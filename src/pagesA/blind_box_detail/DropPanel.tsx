import { useEffect, useRef, useState } from 'react'
import { View, Text } from '@tarojs/components'
import type { DropInfo } from '~types/shop'
import { dropCheck, type DropCheck } from '~types/dropCheck'
import Section from '@/components/Section'
import { dropsApi } from '@/services/drops'
import { t } from '@/stores/locale'
import { chinaClock } from '@/utils/travel'
import { useTimeLeft } from '@/utils/useTimeLeft'
import { countdownText } from './countdown'
import RafflePanel from './RafflePanel'

/** The drop's limits per account in words ('' when it has none). */
function limitsText (drop: DropInfo): string {
  const l = drop.limits
  const parts = [
    l.boxesPerAccount !== null ? t('drop.limitBoxes', { n: l.boxesPerAccount }) : '',
    l.casesPerAccount !== null ? t('drop.limitCases', { n: l.casesPerAccount }) : '',
    l.verifiedPhone ? t('drop.limitPhone') : '',
    l.accountHoursMin !== null ? t('drop.limitAge', { n: l.accountHoursMin }) : ''
  ].filter(Boolean)
  return parts.length ? `${t('drop.limits')}${parts.join(t('drop.limitsJoin'))}` : ''
}

/** Looks again this often while the start has come here but the server still says it has not (clocks a second apart). */
const START_RETRY_MS = 2000

/** Counts down to the start by the server's clock; tells the page when it is reached (again every 2 s while still shown). */
function StartCountdown ({ startsAt, onStart }: { startsAt: string; onStart: () => void }) {
  const left = useTimeLeft(startsAt)
  const latest = useRef(onStart)
  latest.current = onStart
  useEffect(() => {
    if (left > 0) return
    latest.current()
    const timer = setInterval(() => latest.current(), START_RETRY_MS)
    return () => clearInterval(timer)
  }, [left])
  return (
    <View className='drop-countdown'>
      <Text className='drop-countdown__left'>{t('drop.countdown', { left: countdownText(left) })}</Text>
      <Text className='drop-countdown__at'>{t('drop.startsAt', { time: chinaClock(startsAt) })}</Text>
    </View>
  )
}

/** What this phone recomputed of the drop's proof, line by line. */
function CheckLines ({ check, cases, hidden }: { check: DropCheck; cases: number; hidden: number }) {
  const line = (ok: boolean, text: string, name: string) => (
    <Text className={`drop-check__line drop-check__${name} ${ok ? 'drop-check__line--ok' : 'drop-check__line--bad'}`}>{ok ? '✓' : '✗'} {text}</Text>
  )
  return (
    <View className='drop-check'>
      {line(check.rootMatches, check.rootMatches ? t('drop.rootOk', { n: cases }) : t('drop.rootBad'), 'root')}
      {!check.revealed && <Text className='drop-check__line drop-check__pending'>{t('drop.notRevealed')}</Text>}
      {check.revealed && line(check.casesMatching === check.casesRevealed,
        check.casesMatching === check.casesRevealed ? t('drop.casesOk', { n: check.casesRevealed }) : t('drop.casesBad', { n: check.casesRevealed, bad: check.casesRevealed - check.casesMatching }), 'cases')}
      {check.revealed && check.hiddenCounted !== null && line(check.hiddenCounted === hidden,
        check.hiddenCounted === hidden ? t('drop.hiddenOk', { n: check.hiddenCounted }) : t('drop.hiddenBad', { n: check.hiddenCounted, published: hidden }), 'hidden')}
    </View>
  )
}

/**
 * A series' drop on its page: the exact counts (H of N cases hold the hidden design), what is left, the
 * countdown to the start by the server's clock, and the root commitment with a check recomputed on this
 * phone (types/dropCheck.ts): the root from the cases' commitments, and once it has sold out, every case
 * and the hidden count.
 */
export default function DropPanel ({ drop, onStart }: { drop: DropInfo; onStart: () => void }) {
  const [check, setCheck] = useState<DropCheck | null>(null)
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle')
  const verify = async () => {
    if (state === 'busy') return
    setState('busy')
    try {
      setCheck(dropCheck(await dropsApi.proof(drop.dropId)))
      setState('idle')
    } catch {
      setState('failed')
    }
  }
  return (
    <>
    {/* a raffle drop: entering, the result and its check (the page loads again when the result changes) */}
    {drop.raffle && <RafflePanel drop={drop} raffle={drop.raffle} onChange={onStart} />}
    <Section title={t('drop.title')} className={`drop-panel drop-panel--${drop.status}`}
      extra={<Text className={`drop-status drop-status--${drop.status}`}>{t(`drop.status.${drop.status}`)}</Text>}>
      {drop.status === 'scheduled' && !drop.raffle && <StartCountdown startsAt={drop.startsAt} onStart={onStart} />}
      {drop.status === 'scheduled' && <Text className='drop-panel__text'>{t('drop.soonText')}</Text>}
      <Text className='drop-panel__counts'>{t('drop.cases', { cases: drop.cases, boxes: drop.boxes, hidden: drop.hiddenCases })}</Text>
      {limitsText(drop) && <Text className='drop-panel__limits'>{limitsText(drop)}</Text>}
      {drop.status !== 'scheduled' && <Text className='drop-panel__left'>{t('drop.left', { cases: drop.casesLeft, boxes: drop.boxesLeft })}</Text>}
      <View className='drop-root'>
        <Text className='drop-root__label'>{t('drop.root')}</Text>
        <Text className='drop-root__hash' userSelect>{drop.root}</Text>
        <Text className='drop-root__hint'>{t('drop.rootHint')}</Text>
      </View>
      <View className={`btn btn--ghost drop-verify ${state === 'busy' ? 'btn--disabled' : ''}`} onClick={() => { void verify() }}>
        {state === 'busy' ? t('drop.checking') : t('drop.verify')}
      </View>
      {state === 'failed' && <Text className='drop-check__line drop-check__line--bad drop-check__failed'>{t('drop.checkFailed')}</Text>}
      {check && <CheckLines check={check} cases={drop.cases} hidden={drop.hiddenCases} />}
    </Section>
    </>
  )
}
