import { useEffect, useState } from 'react'
import { serverNow, syncServerClock } from './serverClock'

/**
 * Seconds until `until` (an ISO time the server set) by the server's clock, ticking each second; 0 once
 * past. `most`: the longest it can be (a turn's length): the device's estimate of the server's clock is
 * off by up to half a round trip, and counted up from it a one-minute turn read 1:01 in its first second.
 */
export function useTimeLeft (until: string | null | undefined, most = Infinity): number {
  const end = until ? Date.parse(until) : NaN
  const left = () => (Number.isFinite(end) ? Math.min(most, Math.max(0, Math.ceil((end - serverNow()) / 1000))) : 0)
  const [seconds, setSeconds] = useState(left)
  useEffect(() => {
    if (!Number.isFinite(end)) return
    let stopped = false
    // the first figure by the device's clock, corrected as soon as the server's time is known
    void syncServerClock().then(() => { if (!stopped) setSeconds(left()) })
    const timer = setInterval(() => {
      const s = left()
      setSeconds(s)
      if (s === 0) clearInterval(timer)
    }, 1000)
    return () => { stopped = true; clearInterval(timer) }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [end, most])
  return seconds
}

/** 272 -> "4:32"; 3725 -> "1:02:05". */
export function clockText (seconds: number): string {
  const h = Math.floor(seconds / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  const s = seconds % 60
  const two = (n: number) => String(n).padStart(2, '0')
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`
}
