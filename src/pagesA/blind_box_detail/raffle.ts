/**
 * A raffle drop on the series page (types/raffle.ts; docs/decisions/raffle.md): which view the shopper
 * sees, when to ask the server again, and the lines of the check recomputed on this phone
 * (types/raffleCheck.ts). Plain logic: RafflePanel renders it.
 */
import type { RaffleProof, RaffleView } from '~types/raffle'
import type { RaffleCheck } from '~types/raffleCheck'
import type { MessageKey } from '@/locales/types'

/**
 * What the shopper is shown:
 *  before   entries not open yet              open      entries open, not entered
 *  entered  entered, entries still open       drawing   entries closed, the draw not made yet
 *  won      may buy until claimUntil          lost      no round left for them
 *  expired  won, and the time ran out         waiting   entered, not drawn in the rounds so far (a later round may come)
 *  missed   entries closed without an entry from them
 */
export type RaffleStage = 'before' | 'open' | 'entered' | 'drawing' | 'won' | 'lost' | 'expired' | 'waiting' | 'missed'

export function raffleStage (v: RaffleView): RaffleStage {
  if (v.state === 'before') return 'before'
  if (v.state === 'open') return v.mine === 'none' ? 'open' : 'entered'
  if (v.state === 'closed') return v.mine === 'none' ? 'missed' : 'drawing'
  // drawn
  if (v.mine === 'won') return 'won'
  if (v.mine === 'lost') return 'lost'
  if (v.mine === 'expired') return 'expired'
  if (v.mine === 'entered') return 'waiting'
  return 'missed'
}

/** After a failure (the network), ask again after this long. */
export const RAFFLE_RETRY_MS = 10_000
/** While the draw or a later round is awaited, ask this often. */
export const RAFFLE_WAIT_MS = 15_000
/** A second past the moment, so that the server's clock has passed it too. */
const PAST_MS = 1500
/** Timers longer than this are not armed (a browser tab fires them early or never); the page's next showing asks again. */
const LONGEST_MS = 6 * 3600_000

/**
 * When to ask the server again (ms from now), or null: at the opening, at the close (the draw), at the
 * end of a winner's time; every RAFFLE_WAIT_MS while a draw or a later round is awaited.
 */
export function raffleNextPoll (v: RaffleView, stage: RaffleStage, now: number): number | null {
  const at = (iso: string | null) => iso === null ? null : Math.max(0, Date.parse(iso) - now) + PAST_MS
  let ms: number | null = null
  if (stage === 'before') ms = at(v.opensAt)
  else if (stage === 'open' || stage === 'entered') ms = at(v.closesAt)
  else if (stage === 'drawing' || stage === 'waiting') ms = RAFFLE_WAIT_MS
  else if (stage === 'won') ms = at(v.claimUntil)
  return ms !== null && ms <= LONGEST_MS ? ms : null
}

/** A hash or a code shortened for the screen: its first and last characters. */
export const shortHash = (hex: string, each = 8) => (hex.length <= each * 2 + 1 ? hex : `${hex.slice(0, each)}…${hex.slice(-each)}`)

/** One line of the check: its name (a class), whether it holds, a dictionary key and its words. */
export interface RaffleCheckLine {
  name: string
  ok: boolean
  key: MessageKey
  params: Record<string, string | number>
}

/**
 * The check's lines, in order: the seed against its published hash, the list's hash, the list's order,
 * each round recomputed (a line per round), and the shopper's own code on the list (when they have one).
 */
export function raffleCheckLines (check: RaffleCheck, proof: RaffleProof, myCode: string | null): RaffleCheckLine[] {
  const n = proof.codes?.length ?? 0
  const sorted = (codes: readonly string[]) => JSON.stringify([...codes].sort())
  const lines: RaffleCheckLine[] = [
    { name: 'seed', ok: check.seedMatches, key: check.seedMatches ? 'raffle.seedOk' : 'raffle.seedBad', params: {} },
    { name: 'list', ok: check.listMatches, key: check.listMatches ? 'raffle.listOk' : 'raffle.listBad', params: { n } },
    { name: 'order', ok: check.listOrdered, key: check.listOrdered ? 'raffle.orderOk' : 'raffle.orderBad', params: {} }
  ]
  proof.rounds.forEach((r, i) => {
    const mine = check.winners[i] ?? []
    const ok = check.winnersMatch && mine.length === r.places && sorted(mine) === sorted(r.winners)
    lines.push({ name: `round-${r.round}`, ok, key: ok ? 'raffle.roundOk' : 'raffle.roundBad', params: { round: r.round, n: r.winners.length } })
  })
  if (proof.rounds.length === 0) lines.push({ name: 'round-none', ok: false, key: 'raffle.roundNone', params: {} })
  if (myCode !== null) {
    lines.push({ name: 'mine', ok: check.included === true, key: check.included ? 'raffle.mineOk' : 'raffle.mineBad', params: { code: myCode } })
  }
  return lines
}
