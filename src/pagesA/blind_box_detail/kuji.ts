/**
 * The 一番赏 (kuji) board's rules on the phone (types/kuji.ts): which tickets a draw takes, what the
 * board sums up, when to ask again, and what the check of a sold-out set says. No component here (React
 * Fast Refresh), and no value of types/ but the plain ones (the schema code stays out of the bundles).
 */
import type { KujiSetProof, KujiTicket, KujiTierRow, KujiTurn } from '~types/kuji'
import type { KujiCheck } from '~types/kujiCheck'
import { ApiError } from '@/services/errors'
import { t } from '@/stores/locale'
import { isLastOne, tierName } from '@/utils/kujiTier'
import { randomNumber } from '@/utils/random'

/**
 * The tickets a shopper may draw in one go (types/kuji.ts KUJI_DRAW_COUNTS; a test holds them equal), or
 * every ticket left (全收).
 */
export const DRAW_COUNTS: readonly number[] = [1, 3, 5, 10]
/** The most tickets picked by number for one draw. */
export const PICK_MAX = 10
/** Never asked again sooner than this, whatever an answer says (a 0 would spin). */
export const MIN_POLL_MS = 1000

/** The unsold tickets' numbers, in order. */
export const unsoldTickets = (tickets: readonly KujiTicket[]): number[] => tickets.filter(x => !x.sold).map(x => x.ticket)

/**
 * `n` unsold tickets at random, none twice (fewer when fewer are left), in ascending order: a partial
 * Fisher-Yates shuffle of the unsold numbers. `below(k)` answers an integer in [0, k); by default an
 * unbiased one from the device's crypto (utils/random.ts). Fairness does not rest on it: which prize each
 * ticket holds was committed before the sale.
 */
export function pickRandomTickets (tickets: readonly KujiTicket[], n: number, below: (k: number) => number = k => randomNumber(0, k - 1)): number[] {
  const pool = unsoldTickets(tickets)
  const take = Math.max(0, Math.min(Math.floor(n), pool.length))
  for (let i = 0; i < take; i++) {
    const j = i + below(pool.length - i)
    const held = pool[i]
    pool[i] = pool[j]
    pool[j] = held
  }
  return pool.slice(0, take).sort((a, b) => a - b)
}

/** The draw counts offered with `left` tickets left (1, 3, 5, 10 up to what is left). */
export const drawCounts = (left: number): number[] => DRAW_COUNTS.filter(n => n <= left)

/** Tickets picked by number may be drawn: one of the counts, or every ticket left. */
export const pickAllowed = (n: number, left: number): boolean => n > 0 && n <= left && (DRAW_COUNTS.includes(n) || n === left)

/**
 * A tap on a ticket of the board: an unsold one is picked (or unpicked); a sold one changes nothing;
 * `full` when an eleventh was asked for (the pick stays).
 */
export function togglePick (picked: readonly number[], ticket: number, tickets: readonly KujiTicket[]): { picked: number[]; full: boolean } {
  if (picked.includes(ticket)) return { picked: picked.filter(x => x !== ticket), full: false }
  const row = tickets.find(x => x.ticket === ticket)
  if (!row || row.sold) return { picked: [...picked], full: false }
  if (picked.length >= PICK_MAX) return { picked: [...picked], full: true }
  return { picked: [...picked, ticket].sort((a, b) => a - b), full: false }
}

/** The picks still unsold on a newer board (others drew meanwhile). */
export const stillUnsold = (picked: readonly number[], tickets: readonly KujiTicket[]): number[] =>
  picked.filter(n => tickets.some(x => x.ticket === n && !x.sold))

/** Tickets per tier in words: "A赏 1 张、B赏 2 张" / "1 × Prize A, 2 × Prize B" (tiers A first). */
export function tierCountsText (counts: ReadonlyArray<{ tier: string; n: number }>): string {
  return [...counts].sort((a, b) => a.tier.localeCompare(b.tier))
    .map(c => t('kuji.guaranteeTier', { tier: tierName(c.tier), n: c.n }))
    .join(t('kuji.guaranteeJoin'))
}

/**
 * How long until the board is asked again: as the server says (more often in line and drawing than out
 * of it, where it is asked now and then so that others' draws show), never sooner than MIN_POLL_MS.
 */
export const nextPollMs = (turn: Pick<KujiTurn, 'pollMs'>): number => Math.max(MIN_POLL_MS, turn.pollMs)

/** The caller's place in line (1 for the one drawing now, 2 for the next...). */
export const placeInLine = (turn: Pick<KujiTurn, 'ahead'>): number => (turn.ahead ?? 0) + 1

/** The board's answer when no set is left (409 series.soldOut, reason sold_out). */
export function isSoldOut (e: unknown): boolean {
  return e instanceof ApiError && e.code === 409 && (e.data as { reason?: string } | null)?.reason === 'sold_out'
}

/** The purchase page for a draw: the set's tickets by number, or every ticket left (全收). */
export function drawLink (seriesId: number, setId: number, pick: readonly number[] | 'all'): string {
  const what = pick === 'all' ? 'whole=1' : `slots=${pick.join(',')}`
  return `/pages/purchase/index?seriesId=${seriesId}&caseId=${setId}&${what}&kuji=1`
}

export interface VerifyLine {
  ok: boolean
  /** Its class name (kuji-check__<name>). */
  name: 'hash' | 'lastOne' | 'counts' | 'dcSeed' | 'dcWinners'
  text: string
}

export interface VerifyView {
  lines: VerifyLine[]
  /** Every ticket of the set and the tier it held, ticket 1 first. */
  tickets: Array<{ ticket: number; tier: string }>
  /** The commitment as published, and as recomputed here. */
  commit: string
  hash: string
  winner: string | null
  /** The Double Chance's winning tickets, as recomputed here (none without a Double Chance). */
  doubleChanceTickets: number[]
  /** Matches, holds the Last One after the last ticket, and counts as published. */
  holds: boolean
}

/**
 * What the phone's check of a sold-out set says (types/kujiCheck.ts), line by line: the commitment
 * recomputed, the Last One after the last ticket, the tickets per tier against those published (the
 * series' tiers); and which ticket held which tier. Null while the set is not revealed.
 */
export function verifyView (proof: KujiSetProof, check: KujiCheck | null, published: ReadonlyArray<Pick<KujiTierRow, 'tier' | 'tickets'>>): VerifyView | null {
  if (!check) return null
  const counted = Object.entries(check.perTier).map(([tier, n]) => ({ tier, n }))
  const expected = published.filter(p => !isLastOne(p.tier))
  const countsMatch = counted.length === expected.length && expected.every(p => check.perTier[p.tier] === p.tickets)
  const countsText = tierCountsText(counted.map(c => ({ tier: c.tier === '?' ? '?' : c.tier, n: c.n })))
  const lines: VerifyLine[] = [
    { ok: check.matches, name: 'hash', text: t(check.matches ? 'kuji.hashOk' : 'kuji.hashBad') },
    { ok: check.lastOneHeld, name: 'lastOne', text: t(check.lastOneHeld ? 'kuji.lastOneOk' : 'kuji.lastOneBad') },
    { ok: countsMatch, name: 'counts', text: t(countsMatch ? 'kuji.countsOk' : 'kuji.countsBad', { counts: countsText }) }
  ]
  // the Double Chance: its seed against the hash published with the set, and its winners drawn again here
  const dc = check.doubleChance
  if (dc) {
    const winners = dc.listMatches && dc.winnersMatch
    lines.push(
      { ok: dc.seedMatches, name: 'dcSeed', text: t(dc.seedMatches ? 'kuji.dcSeedOk' : 'kuji.dcSeedBad') },
      { ok: winners, name: 'dcWinners', text: t(winners ? 'kuji.dcWinnersOk' : 'kuji.dcWinnersBad', { tickets: dc.winningTickets.join(', ') }) }
    )
  }
  return {
    lines,
    tickets: check.tickets.map((tier, i) => ({ ticket: i + 1, tier })),
    commit: proof.commit,
    hash: check.hash,
    winner: proof.lastOneWinner,
    doubleChanceTickets: dc?.winningTickets ?? [],
    holds: check.holds && countsMatch && lines.every(l => l.ok)
  }
}
