/**
 * A kuji set's proof recomputed (types/kuji.ts): pure TypeScript, so the phone runs the same code as the
 * server's tests.
 *
 *   commit = sha256_hex(`${setId}:${design ids of tickets 1..N, the Last One's, then the Double Chance
 *                        prize's once a winner, joined by ','}:${salt}`)
 *   Double Chance list hash = sha256_hex(`kuji-dc:${setId}:${ticket}:${purchaseId} of every ticket, joined by ','`)
 *   winning tickets = fairPicks(seed, list hash, tickets, winners) (types/fair.ts)
 */
import { sha256Hex } from './crypto'
import { fairPicks, serverSeedHash } from './fair'
import type { KujiSetProof } from './kuji'

/** The Last One's tier (types/kuji.ts KUJI_LAST_ONE: that module holds schemas, which the app does not import). */
const KUJI_LAST_ONE = 'last_one'

/** One ticket of a sold-out set and the purchase that bought it: the Double Chance's list, in ticket order. */
export interface DoubleChanceEntry { ticket: number; purchaseId: number }

/** The hash of a set's Double Chance list, published when the set sells out. */
export const doubleChanceListHash = (setId: number, entries: readonly DoubleChanceEntry[]) =>
  sha256Hex(`kuji-dc:${setId}:${entries.map(e => `${e.ticket}:${e.purchaseId}`).join(',')}`)

/** The winning tickets: `winners` distinct entries picked by fairPicks(seed, listHash) (types/fair.ts), in the order drawn. */
export const doubleChanceTickets = (seed: string, listHash: string, entries: readonly DoubleChanceEntry[], winners: number) =>
  fairPicks(seed, listHash, entries.length, winners).map(i => entries[i].ticket)

export interface KujiCheck {
  /** The commitment recomputed from the revealed arrangement and salt. */
  hash: string
  matches: boolean
  /** Every ticket's tier, in ticket order (ticket 1 first). */
  tickets: string[]
  /** The slot after the last ticket holds a design of the Last One tier. */
  lastOneHeld: boolean
  /** Tickets per tier, as recomputed. */
  perTier: Record<string, number>
  /**
   * The Double Chance recomputed (null: the set has none): the seed against its published hash, the
   * list's hash, the winners drawn from them, and that the arrangement holds a prize for each winner.
   */
  doubleChance: { seedMatches: boolean; listMatches: boolean; winningTickets: number[]; winnersMatch: boolean; holds: boolean } | null
  holds: boolean
}

/** Null until the set is revealed (sold out, or retired). */
export function kujiCheck (p: KujiSetProof): KujiCheck | null {
  if (!p.revealed || !p.arrangement || !p.salt) return null
  const hash = sha256Hex(`${p.caseId}:${p.arrangement.join(',')}:${p.salt}`)
  const tierOf = new Map(p.tiers.map(t => [t.designId, t.tier]))
  const tickets = p.arrangement.slice(0, p.ticketCount).map(id => tierOf.get(id) ?? '?')
  const perTier: Record<string, number> = {}
  for (const t of tickets) perTier[t] = (perTier[t] ?? 0) + 1
  const lastOneHeld = tierOf.get(p.arrangement[p.ticketCount]) === KUJI_LAST_ONE
  const matches = hash === p.commit.toLowerCase()
  const dc = p.doubleChance
  let doubleChance: KujiCheck['doubleChance'] = null
  if (dc) {
    const entries = dc.entries ?? []
    const seedMatches = dc.seed !== null && serverSeedHash(dc.seed) === dc.seedHash.toLowerCase()
    const listHash = doubleChanceListHash(p.caseId, entries)
    // every ticket of the set is on the list once, in order
    const listMatches = listHash === (dc.listHash ?? '').toLowerCase() && entries.length === p.ticketCount && entries.every((e, i) => e.ticket === i + 1)
    const winningTickets = dc.seed === null ? [] : doubleChanceTickets(dc.seed, listHash, entries, dc.winners)
    const winnersMatch = JSON.stringify(winningTickets) === JSON.stringify(dc.winningTickets ?? null)
    const prizesHeld = p.arrangement.length === p.ticketCount + 1 + dc.winners
    doubleChance = { seedMatches, listMatches, winningTickets, winnersMatch, holds: seedMatches && listMatches && winnersMatch && prizesHeld }
  }
  const ticketsHold = !tickets.includes('?') && !tickets.includes(KUJI_LAST_ONE) && !tickets.includes('double_chance')
  const sizeHolds = p.arrangement.length === p.ticketCount + 1 + (dc ? dc.winners : 0)
  return { hash, matches, tickets, lastOneHeld, perTier, doubleChance, holds: matches && lastOneHeld && ticketsHold && sizeHolds && (doubleChance?.holds ?? true) }
}
