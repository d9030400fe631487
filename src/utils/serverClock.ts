/**
 * The server's clock on the device: countdowns to a time the server set (an X-ray card's hold) count by
 * it, not by the device's own clock, which may be minutes off. One POST /api/serverTime (the generic
 * call, spec 7) per app start measures the offset, halving the round trip; until it answers, or if it
 * fails, the device's clock stands in.
 */
import { callMethod } from '@/services/methods'

let offsetMs = 0
let synced: Promise<void> | null = null

/** How far the server's clock is ahead of the device's: its time less the middle of the round trip. */
export function offsetFrom (sentAt: number, receivedAt: number, serverIso: string): number {
  const server = Date.parse(serverIso)
  return Number.isFinite(server) ? Math.round(server - (sentAt + receivedAt) / 2) : 0
}

/** The server's time now (ms since the epoch), as well as the device can tell. */
export function serverNow (): number {
  return Date.now() + offsetMs
}

/** Measures the offset once (again after a failure); resolves when it is known or has failed. */
export function syncServerClock (): Promise<void> {
  if (!synced) {
    const sentAt = Date.now()
    // quiet: a failure is not the shopper's business (the device's clock stands in)
    synced = callMethod('serverTime', {}, { quiet: true }).then(
      r => { offsetMs = offsetFrom(sentAt, Date.now(), r.now) },
      () => { synced = null }
    )
  }
  return synced
}

/** For tests: forget the offset. */
export function resetServerClock (): void {
  offsetMs = 0
  synced = null
}
