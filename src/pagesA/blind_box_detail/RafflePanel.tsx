import { useEffect, useRef, useState } from 'react'
import { useDidShow } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import type { DropInfo } from '~types/shop'
import type { RaffleView } from '~types/raffle'
import { raffleCheck } from '~types/raffleCheck'
import Section from '@/components/Section'
import { raffleApi } from '@/services/raffle'
import { errorMessage } from '@/services/request'
import { observer } from '@/stores/mobx'
import { sessionStore } from '@/stores/session'
import { t } from '@/stores/locale'
import { toast } from '@/utils/feedback'
import { loginToContinue } from '@/utils/loginReturn'
import { detailLink } from '@/utils/slots'
import { chinaClock } from '@/utils/travel'
import { useRemote } from '@/utils/useRemote'
import { useTimeLeft } from '@/utils/useTimeLeft'
import { countdownText } from './countdown'
import { RAFFLE_RETRY_MS, raffleCheckLines, raffleNextPoll, raffleStage, shortHash, type RaffleCheckLine } from './raffle'
import './RafflePanel.scss'

type Raffle = NonNullable<DropInfo['raffle']>

const claimText = (minutes: number) => minutes < 60
  ? t('raffle.minutes', { n: minutes })
  : minutes % 60 === 0 ? t('raffle.hoursOnly', { h: minutes / 60 }) : t('raffle.hours', { h: Math.floor(minutes / 60), m: minutes % 60 })

/**
 * Counts down to a moment by the server's clock; `most` (seconds) caps it: a winner's time never shows
 * more than the drop gives, whatever the estimate of the server's clock.
 */
function Left ({ until, keyName, className, most }: { until: string; keyName: 'raffle.opensIn' | 'raffle.closesIn' | 'raffle.wonLeft'; className: string; most?: number }) {
  const left = useTimeLeft(until, most)
  return <Text className={`raffle-panel__left ${className}`}>{t(keyName, { left: countdownText(left) })}</Text>
}

/** The seed's hash, short, with its whole on a tap (and selectable to copy). */
function SeedHash ({ hash }: { hash: string }) {
  const [open, setOpen] = useState(false)
  return (
    <View className='raffle-seed'>
      <Text className='raffle-seed__label'>{t('raffle.seedHash')}</Text>
      <Text className='raffle-seed__hash' userSelect>{open ? hash : shortHash(hash, 12)}</Text>
      <Text className='raffle-seed__toggle' onClick={() => setOpen(o => !o)}>{open ? t('raffle.collapse') : t('raffle.expand')}</Text>
      <Text className='raffle-seed__hint'>{t('raffle.seedHint')}</Text>
    </View>
  )
}

/** The check recomputed on this phone, a line each, green or red. */
export function RaffleCheckView ({ lines }: { lines: RaffleCheckLine[] }) {
  const ok = lines.every(l => l.ok)
  return (
    <View className={`raffle-check ${ok ? 'raffle-check--ok' : 'raffle-check--bad'}`}>
      <Text className={`raffle-check__sum ${ok ? 'raffle-check__line--ok' : 'raffle-check__line--bad'}`}>{ok ? '✓ ' : '✗ '}{t(ok ? 'raffle.allOk' : 'raffle.allBad')}</Text>
      {lines.map(l => (
        <Text key={l.name} className={`raffle-check__line raffle-check__${l.name} ${l.ok ? 'raffle-check__line--ok' : 'raffle-check__line--bad'}`}>{l.ok ? '✓' : '✗'} {t(l.key, l.params)}</Text>
      ))}
    </View>
  )
}

/**
 * A raffle drop on the series page (types/raffle.ts): before entries open, when they do and the places;
 * while open, "enter" (a login first), then the entry's code; after the close, the result (won: the
 * time left to buy, and the page loads its case; lost; expired; waiting for the next round) and the
 * draw recomputed on this phone (types/raffleCheck.ts). The seed's hash shows throughout.
 * `onChange`: the page loads again (the case shows for a winner, goes when their time is over).
 */
function RafflePanel ({ drop, raffle, onChange }: { drop: DropInfo; raffle: Raffle; onChange: () => void }) {
  const loggedIn = sessionStore.loggedIn
  const [poll, setPoll] = useState<{ ms: number; n: number } | null>(null)
  const lastMine = useRef<string | null>(null)
  const latest = useRef(onChange)
  latest.current = onChange
  const status = useRemote<RaffleView>(() => raffleApi.status(drop.dropId), [drop.dropId, loggedIn], {
    onSuccess: v => {
      const stage = raffleStage(v)
      const ms = raffleNextPoll(v, stage, Date.now())
      setPoll(p => (ms === null ? null : { ms, n: (p?.n ?? 0) + 1 }))
      // won, or no longer: the page shows (or takes away) the case
      const before = lastMine.current
      lastMine.current = `${v.state}:${v.mine}`
      const was = before?.split(':') ?? null
      // entries opened (the drop started), or won, or no longer
      if (was && was[0] === 'before' && v.state !== 'before') latest.current()
      else if (before !== lastMine.current && (v.mine === 'won' || was?.[1] === 'won')) latest.current()
    },
    onError: () => setPoll(p => ({ ms: RAFFLE_RETRY_MS, n: (p?.n ?? 0) + 1 }))
  })
  const { reload } = status
  useDidShow(() => { void reload() })
  useEffect(() => {
    if (!poll) return
    const timer = setTimeout(() => { void reload() }, poll.ms)
    return () => clearTimeout(timer)
  }, [poll, reload])

  const [busy, setBusy] = useState(false)
  const enter = async () => {
    if (busy) return
    if (!loggedIn) { void loginToContinue(t('raffle.loginReason'), detailLink(drop.seriesId)); return }
    setBusy(true)
    try {
      const v = await raffleApi.enter(drop.dropId)
      status.setData(() => v)
    } catch (e) {
      toast({ message: errorMessage(e) })
      void reload()
    } finally {
      setBusy(false)
    }
  }

  const [check, setCheck] = useState<{ lines: RaffleCheckLine[] } | 'busy' | 'failed' | 'none' | null>(null)
  const view = status.data ?? null
  const verify = async () => {
    if (check === 'busy') return
    setCheck('busy')
    try {
      const proof = await raffleApi.proof(drop.dropId)
      const myCode = view?.myCode ?? null
      const c = raffleCheck(proof, myCode)
      setCheck(c ? { lines: raffleCheckLines(c, proof, myCode) } : 'none')
    } catch {
      setCheck('failed')
    }
  }

  const stage = view ? raffleStage(view) : null
  const places = <Text className='raffle-panel__places'>{t('raffle.places', { n: raffle.places, boxes: drop.limits.boxesPerAccount ?? 1 })}</Text>
  return (
    <Section title={t('raffle.title')} className={`raffle-panel raffle-panel--${stage ?? 'loading'}`}
      extra={stage && <Text className={`raffle-stage raffle-stage--${stage}`}>{t(`raffle.stage.${stage}`)}</Text>}>
      {!view && <Text className='raffle-panel__line'>{status.failed ? t('raffle.loadFailed') : t('feedback.loading')}</Text>}
      {stage === 'before' && view && (
        <View className='raffle-panel__block'>
          <Left until={view.opensAt} keyName='raffle.opensIn' className='raffle-panel__opens-in' />
          <Text className='raffle-panel__line'>{t('raffle.opensAt', { time: chinaClock(view.opensAt) })}</Text>
        </View>
      )}
      {(stage === 'open' || stage === 'entered') && view && <Left until={view.closesAt} keyName='raffle.closesIn' className='raffle-panel__closes-in' />}
      {stage === 'entered' && view && (
        <View className='raffle-entered'>
          <Text className='raffle-entered__title'>✓ {t('raffle.entered')}</Text>
          {view.myCode && <Text className='raffle-entered__code' userSelect>{t('raffle.myCode', { code: view.myCode })}</Text>}
        </View>
      )}
      {stage === 'drawing' && <Text className='raffle-panel__line raffle-panel__drawing'>{t('raffle.drawing')}</Text>}
      {stage === 'won' && view && (
        <View className='raffle-result raffle-result--won'>
          <Text className='raffle-result__title'>🎉 {t('raffle.won')}</Text>
          {view.wonRound !== null && view.wonRound > 1 && <Text className='raffle-result__line'>{t('raffle.wonRound', { n: view.wonRound })}</Text>}
          {view.claimUntil && <Left until={view.claimUntil} keyName='raffle.wonLeft' className='raffle-result__left' most={view.claimMinutes * 60} />}
          {view.claimUntil && <Text className='raffle-result__line'>{t('raffle.wonUntil', { time: chinaClock(view.claimUntil) })}</Text>}
          <Text className='raffle-result__line'>{t('raffle.buyBelow')}</Text>
        </View>
      )}
      {(stage === 'lost' || stage === 'expired' || stage === 'waiting' || stage === 'missed') && (
        <View className={`raffle-result raffle-result--${stage}`}>
          <Text className='raffle-result__text'>{t(`raffle.${stage}`)}</Text>
        </View>
      )}
      {view && view.myCode && stage !== 'entered' && <Text className='raffle-panel__code' userSelect>{t('raffle.myCode', { code: view.myCode })}</Text>}
      <Text className='raffle-panel__intro'>{t('raffle.intro')}</Text>
      {places}
      <Text className='raffle-panel__line'>{t('raffle.claimTime', { time: claimText(raffle.claimMinutes) })}</Text>
      {view && view.state !== 'before' && <Text className='raffle-panel__line raffle-panel__entries'>{t('raffle.entries', { n: view.entries })}</Text>}
      {(stage === 'before' || stage === 'open' || stage === 'entered') && <Text className='raffle-panel__line'>{t('raffle.drawAt', { time: chinaClock(raffle.closesAt) })}</Text>}
      <SeedHash hash={raffle.seedHash} />
      {stage === 'open' && (
        <View className={`btn btn--primary raffle-enter ${busy ? 'btn--disabled' : ''}`} onClick={() => { void enter() }}>
          {busy ? t('raffle.entering') : t('raffle.enter')}
        </View>
      )}
      {view && view.state === 'drawn' && (
        <View className={`btn btn--ghost raffle-verify ${check === 'busy' ? 'btn--disabled' : ''}`} onClick={() => { void verify() }}>
          {check === 'busy' ? t('raffle.checking') : t('raffle.verify')}
        </View>
      )}
      {check === 'failed' && <Text className='raffle-check__line raffle-check__line--bad raffle-check__failed'>{t('raffle.checkFailed')}</Text>}
      {check === 'none' && <Text className='raffle-check__line'>{t('raffle.notDrawn')}</Text>}
      {check && typeof check === 'object' && <RaffleCheckView lines={check.lines} />}
    </Section>
  )
}

export default observer(RafflePanel)
