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
import { CASE_SIZE_MAX } from './limits'

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
  const perRarity: Record<Rarity, Fraction> = {
    regular: { num: sums.regular, den },
    rare: { num: sums.rare, den },
    hidden: { num: sums.hidden, den }
  }
  const perDesignPpm = new Map([...perDesign].map(([id, f]) => [id, toPpm(f)]))
  const perRarityPpm = { regular: toPpm(perRarity.regular), rare: toPpm(perRarity.rare), hidden: toPpm(perRarity.hidden) }
  // a box can hold any design whose chance is above zero
  const possible = designs.filter(d => (perDesign.get(d.id)?.num ?? 0) > 0).map(d => d.referenceValueCents)
  return {
    perDesign,
    perRarity,
    perDesignPpm,
    perRarityPpm,
    valueRange: { minCents: Math.min(...possible), maxCents: Math.max(...possible) }
  }
}
