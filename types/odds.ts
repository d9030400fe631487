/**
 * Per-box odds of a series, computed exactly from the case model (PRODUCT.md):
 * a case holds every non-hidden design once (N = case size = regular + rare designs); with
 * probability p (hiddenCasePpm / 1e6) one regular slot, chosen uniformly among the R regular designs,
 * holds the hidden design instead. A box is a uniformly random slot of a uniformly shuffled case, so:
 *   hidden   p / N
 *   rare     1 / N                each
 *   regular  (1 / N)(1 - p / R)   each
 * Every chance is an exact fraction over the common denominator D = N * R * 1e6; ppm are rounded.
 * Shared by the server and the app (the editor previews the odds of a series as it is typed): plain
 * code, no schema, so the app may import it.
 */
import type { Rarity } from './shop'
import { CASE_SIZE_MAX, KUJI_DOUBLE_CHANCE_MAX, KUJI_TICKETS_MAX } from './limits'

export const PPM = 1_000_000

export interface DesignComposition { id: number; rarity: Rarity; referenceValueCents: number }

/** An exact chance: numerator / denominator. */
export interface Fraction { num: number; den: number }

export interface SeriesOdds {
  /** Exact chance per box of each design (by id). */
  perDesign: Map<number, Fraction>
  perRarity: Record<Rarity, Fraction>
  perDesignPpm: Map<number, number>
  perRarityPpm: Record<Rarity, number>
  valueRange: { minCents: number; maxCents: number }
}

/** What is wrong with a composition (the app and the server name it in the user's language). */
export type CompositionProblem = 'hiddenRange' | 'oneHidden' | 'needRegular' | 'hiddenNeedsDesign' | 'designNeedsHidden' | 'tooMany'
  | 'kujiTier' | 'kujiLastOne' | 'kujiTickets' | 'kujiHidden' | 'kujiDoubleChance'

export class CompositionError extends Error {
  constructor (message: string, readonly problem: CompositionProblem) {
    super(message)
    this.name = 'CompositionError'
  }
}

export function toPpm (f: Fraction): number {
  return Math.round((f.num * PPM) / f.den)
}

/** Checks the composition rules; answers the case size (regular + rare designs). */
export function validateComposition (designs: readonly DesignComposition[], hiddenCasePpm: number): number {
  if (!Number.isInteger(hiddenCasePpm) || hiddenCasePpm < 0 || hiddenCasePpm > PPM) {
    throw new CompositionError('hidden chance must be an integer from 0 to 1,000,000 ppm', 'hiddenRange')
  }
  const regular = designs.filter(d => d.rarity === 'regular').length
  const rare = designs.filter(d => d.rarity === 'rare').length
  const hidden = designs.filter(d => d.rarity === 'hidden').length
  if (hidden > 1) throw new CompositionError('a series has at most one hidden design', 'oneHidden')
  if (regular < 1) throw new CompositionError('a series needs at least one regular design', 'needRegular')
  if (hiddenCasePpm > 0 && hidden === 0) throw new CompositionError('a hidden chance needs a hidden design', 'hiddenNeedsDesign')
  if (hidden === 1 && hiddenCasePpm === 0) throw new CompositionError('a hidden design needs a hidden chance above 0', 'designNeedsHidden')
  if (regular + rare > CASE_SIZE_MAX) throw new CompositionError(`a case holds at most ${CASE_SIZE_MAX} boxes`, 'tooMany')
  return regular + rare
}

export function seriesOdds (designs: readonly DesignComposition[], hiddenCasePpm: number): SeriesOdds {
  const n = validateComposition(designs, hiddenCasePpm)
  const r = designs.filter(d => d.rarity === 'regular').length
  const den = n * r * PPM
  const perDesign = new Map<number, Fraction>()
  const sums: Record<Rarity, number> = { regular: 0, rare: 0, hidden: 0 }
  for (const d of designs) {
    const num = d.rarity === 'hidden' ? hiddenCasePpm * r
      : d.rarity === 'rare' ? PPM * r
        : PPM * r - hiddenCasePpm
    perDesign.set(d.id, { num, den })
    sums[d.rarity] += num
  }
  return oddsOfFractions(designs, perDesign, sums, den)
}

/** The odds from each design's exact chance: by rarity, in ppm, and the values a box can hold. */
function oddsOfFractions (designs: readonly DesignComposition[], perDesign: Map<number, Fraction>, sums: Record<Rarity, number>, den: number): SeriesOdds {
  const perRarity: Record<Rarity, Fraction> = {
    regular: { num: sums.regular, den },
    rare: { num: sums.rare, den },
    hidden: { num: sums.hidden, den }
  }
  // a box can hold any design whose chance is above zero
  const possible = designs.filter(d => (perDesign.get(d.id)?.num ?? 0) > 0).map(d => d.referenceValueCents)
  return {
    perDesign,
    perRarity,
    perDesignPpm: new Map([...perDesign].map(([id, f]) => [id, toPpm(f)])),
    perRarityPpm: { regular: toPpm(perRarity.regular), rare: toPpm(perRarity.rare), hidden: toPpm(perRarity.hidden) },
    valueRange: possible.length ? { minCents: Math.min(...possible), maxCents: Math.max(...possible) } : { minCents: 0, maxCents: 0 }
  }
}

// ---- 一番赏 (kuji, types/kuji.ts) ----------------------------------------------------------------------

/** A kuji design: its tier ('A'..'Z', or 'last_one') and its tickets in a set. */
export interface KujiComposition extends DesignComposition { tier: string | null; tickets: number }

const TIER = /^[A-Z]$/

/**
 * Checks a kuji series' composition; answers the tickets in a set. Every design is in a tier A..Z with at
 * least one ticket, but one: the Last One (tier last_one, no ticket: it is won by the final ticket's
 * buyer). A kuji set has no hidden chance: every ticket's tier is counted in the open.
 */
export function validateKuji (designs: readonly KujiComposition[], hiddenCasePpm: number, doubleChanceWinners = 0): number {
  if (hiddenCasePpm !== 0) throw new CompositionError('a kuji series has no hidden chance', 'kujiHidden')
  const lastOnes = designs.filter(d => d.tier === 'last_one')
  if (lastOnes.length !== 1 || lastOnes[0].tickets !== 0) throw new CompositionError('a kuji series has exactly one Last One prize, with no ticket', 'kujiLastOne')
  // the Double Chance prize: one design, with winners per set, or neither
  const chances = designs.filter(d => d.tier === 'double_chance')
  if (chances.length > 1 || chances.some(d => d.tickets !== 0) || (chances.length === 1) !== (doubleChanceWinners > 0) ||
    !Number.isInteger(doubleChanceWinners) || doubleChanceWinners < 0 || doubleChanceWinners > KUJI_DOUBLE_CHANCE_MAX) {
    throw new CompositionError(`a Double Chance is one prize, with no ticket, and 1 to ${KUJI_DOUBLE_CHANCE_MAX} winners a set`, 'kujiDoubleChance')
  }
  const tiers = designs.filter(d => d.tier !== 'last_one' && d.tier !== 'double_chance')
  if (!tiers.length || tiers.some(d => d.tier === null || !TIER.test(d.tier) || !Number.isInteger(d.tickets) || d.tickets < 1)) {
    throw new CompositionError('every prize but the Last One is in a tier A to Z with at least one ticket', 'kujiTier')
  }
  const tickets = tiers.reduce((a, d) => a + d.tickets, 0)
  if (tickets > KUJI_TICKETS_MAX) throw new CompositionError(`a set holds at most ${KUJI_TICKETS_MAX} tickets`, 'kujiTickets')
  return tickets
}

/**
 * Per-ticket odds of a kuji series at a full set: a design's tickets over the set's tickets (exact). The
 * Last One is never drawn (0); the odds by rarity sum the designs of each rarity.
 */
export function kujiOdds (designs: readonly KujiComposition[]): SeriesOdds {
  const drawn = (d: KujiComposition) => d.tier !== 'last_one' && d.tier !== 'double_chance'
  const den = Math.max(1, designs.reduce((a, d) => a + (drawn(d) ? d.tickets : 0), 0))
  const perDesign = new Map<number, Fraction>()
  const sums: Record<Rarity, number> = { regular: 0, rare: 0, hidden: 0 }
  for (const d of designs) {
    const num = drawn(d) ? d.tickets : 0
    perDesign.set(d.id, { num, den })
    sums[d.rarity] += num
  }
  return oddsOfFractions(designs, perDesign, sums, den)
}

/** The tiers of a kuji series in order (A first) with their tickets, and each tier's chance per ticket (ppm). */
export function kujiTierOdds (designs: ReadonlyArray<{ tier: string | null; tickets: number }>): Array<{ tier: string; tickets: number; ppm: number }> {
  const drawn = (tier: string | null): tier is string => tier !== null && /^[A-Z]$/.test(tier)
  const total = designs.reduce((a, d) => a + (drawn(d.tier) ? d.tickets : 0), 0)
  const byTier = new Map<string, number>()
  for (const d of designs) if (drawn(d.tier)) byTier.set(d.tier, (byTier.get(d.tier) ?? 0) + d.tickets)
  return [...byTier].sort(([a], [b]) => a.localeCompare(b)).map(([tier, tickets]) => ({ tier, tickets, ppm: total ? Math.round(tickets * PPM / total) : 0 }))
}
