/**
 * The mathematics of the case model, without a database: exact odds, an unbiased shuffle (chi-square),
 * the hidden-case rate, and commit / reveal.
 */
import { createHash } from 'node:crypto'
import { PPM, seriesOdds, toPpm, type DesignComposition } from '../../server/src/domain/catalogue/odds'
import { commitOf, composeCase, newSalt, shuffle } from '../../server/src/domain/catalogue/arrangement'

function designs (regular: number, rare: number, hidden: boolean): DesignComposition[] {
  const out: DesignComposition[] = []
  let id = 1
  for (let i = 0; i < regular; i++) out.push({ id: id++, rarity: 'regular', referenceValueCents: 1000 + i })
  for (let i = 0; i < rare; i++) out.push({ id: id++, rarity: 'rare', referenceValueCents: 5000 + i })
  if (hidden) out.push({ id: id++, rarity: 'hidden', referenceValueCents: 90000 })
  return out
}

/** Chi-square critical value for df degrees of freedom at z = 5, p about 3e-7 (Wilson-Hilferty approximation). */
function chiSquareCritical (df: number): number {
  // z = 5: a fair generator fails one check with p ~ 3e-7 (z = 3.09, p = 0.001, failed about one
  // CI run in 80 across the 13 checks of a test); a biased one still fails by orders of magnitude
  const z = 5
  return df * Math.pow(1 - 2 / (9 * df) + z * Math.sqrt(2 / (9 * df)), 3)
}

describe('odds', () => {
  test('the formulas: hidden p/N, rare 1/N, regular (1/N)(1 - p/R)', () => {
    const ds = designs(9, 3, true)
    const p = 83333
    const odds = seriesOdds(ds, p)
    const N = 12
    const R = 9
    const chance = (id: number) => { const f = odds.perDesign.get(id)!; return f.num / f.den }
    expect(chance(13)).toBeCloseTo((p / PPM) / N, 12)
    for (const id of [10, 11, 12]) expect(chance(id)).toBeCloseTo(1 / N, 12)
    for (let id = 1; id <= 9; id++) expect(chance(id)).toBeCloseTo((1 / N) * (1 - (p / PPM) / R), 12)
    expect(odds.perDesignPpm.get(13)).toBe(Math.round(p / N))
    expect(odds.perDesignPpm.get(10)).toBe(83333)
    expect(odds.perRarityPpm).toEqual({ regular: Math.round(PPM * (R - p / PPM) / N), rare: 250000, hidden: Math.round(p / N) })
  })

  test.each([
    [9, 3, true, 83333], [9, 3, true, 13889], [7, 0, true, 1_000_000], [5, 5, true, 1], [12, 0, false, 0], [1, 4, true, 500000], [60, 0, false, 0]
  ])('exact sums are 1; rounded ppm sum to 1,000,000 within rounding (%i regular, %i rare, hidden %s, p %i)', (regular, rare, hidden, p) => {
    const ds = designs(regular, rare, hidden)
    const odds = seriesOdds(ds, p)
    const den = odds.perDesign.get(1)!.den
    let exact = 0
    for (const f of odds.perDesign.values()) { expect(f.den).toBe(den); exact += f.num }
    expect(exact).toBe(den)
    const rarity = odds.perRarity
    expect(rarity.regular.num + rarity.rare.num + rarity.hidden.num).toBe(den)
    const ppmSum = [...odds.perDesignPpm.values()].reduce((a, b) => a + b, 0)
    expect(Math.abs(ppmSum - PPM)).toBeLessThanOrEqual(Math.ceil(ds.length / 2))
    const raritySum = odds.perRarityPpm.regular + odds.perRarityPpm.rare + odds.perRarityPpm.hidden
    expect(Math.abs(raritySum - PPM)).toBeLessThanOrEqual(2)
    for (const [id, f] of odds.perDesign) expect(odds.perDesignPpm.get(id)).toBe(toPpm(f))
  })

  test('the value range covers the designs a box can hold', () => {
    expect(seriesOdds(designs(9, 3, true), 1000).valueRange).toEqual({ minCents: 1000, maxCents: 90000 })
    expect(seriesOdds(designs(9, 3, false), 0).valueRange).toEqual({ minCents: 1000, maxCents: 5002 })
  })

  test('bad compositions are refused', () => {
    expect(() => seriesOdds(designs(0, 3, false), 0)).toThrow(/regular/)
    expect(() => seriesOdds(designs(3, 0, false), 10)).toThrow(/hidden design/)
    expect(() => seriesOdds(designs(3, 0, true), 0)).toThrow(/hidden chance/)
    expect(() => seriesOdds([...designs(3, 0, true), { id: 99, rarity: 'hidden', referenceValueCents: 1 }], 10)).toThrow(/at most one/)
    expect(() => seriesOdds(designs(3, 0, true), 1_000_001)).toThrow(/ppm/)
  })

  test('Monte Carlo agrees with the formulas (compose + shuffle, one slot)', () => {
    const ds = designs(4, 2, true)
    const p = 300000
    const odds = seriesOdds(ds, p)
    const draws = 60000
    const counts = new Map<number, number>()
    for (let i = 0; i < draws; i++) {
      const { designIds } = composeCase(ds, p)
      shuffle(designIds)
      counts.set(designIds[0], (counts.get(designIds[0]) ?? 0) + 1)
    }
    let chi = 0
    for (const d of ds) {
      const f = odds.perDesign.get(d.id)!
      const expected = draws * f.num / f.den
      chi += ((counts.get(d.id) ?? 0) - expected) ** 2 / expected
    }
    expect(chi).toBeLessThan(chiSquareCritical(ds.length - 1))
  })
})

describe('shuffle', () => {
  test('every item lands in every slot uniformly (chi-square over 120,000 shuffles, bounded time)', () => {
    const n = 12
    const rounds = 120000
    const counts = Array.from({ length: n }, () => new Array<number>(n).fill(0))
    for (let r = 0; r < rounds; r++) {
      const items = Array.from({ length: n }, (_, i) => i)
      shuffle(items)
      for (let slot = 0; slot < n; slot++) counts[items[slot]][slot]++
    }
    const expected = rounds / n
    for (let item = 0; item < n; item++) {
      const chi = counts[item].reduce((s, c) => s + (c - expected) ** 2 / expected, 0)
      expect(chi).toBeLessThan(chiSquareCritical(n - 1))
    }
    // the whole item x slot table too
    const total = counts.flat().reduce((s, c) => s + (c - expected) ** 2 / expected, 0)
    expect(total).toBeLessThan(chiSquareCritical((n - 1) * (n - 1)))
  })

  test('a shuffle is a permutation', () => {
    const items = Array.from({ length: 100 }, (_, i) => i)
    expect([...shuffle([...items])].sort((a, b) => a - b)).toEqual(items)
  })

  test('the chi-square check catches a biased shuffle (sanity of the test itself)', () => {
    const n = 12
    const rounds = 40000
    const counts = Array.from({ length: n }, () => new Array<number>(n).fill(0))
    for (let r = 0; r < rounds; r++) {
      const items = Array.from({ length: n }, (_, i) => i)
      shuffle(items, () => 0) // degenerate generator
      for (let slot = 0; slot < n; slot++) counts[items[slot]][slot]++
    }
    const expected = rounds / n
    const chi = counts[0].reduce((s, c) => s + (c - expected) ** 2 / expected, 0)
    expect(chi).toBeGreaterThan(chiSquareCritical(n - 1))
  })
})

describe('case composition', () => {
  test('a case holds every regular and rare design once; a hidden case swaps one regular for the hidden', () => {
    const ds = designs(9, 3, true)
    let hiddenCases = 0
    const swapped = new Map<number, number>()
    const cases = 24000
    const problems: string[] = []
    for (let i = 0; i < cases; i++) {
      const { designIds, hidden } = composeCase(ds, 250000)
      if (designIds.length !== 12 || new Set(designIds).size !== 12) problems.push(`size ${designIds}`)
      if (![10, 11, 12].every(rare => designIds.includes(rare))) problems.push(`rare missing ${designIds}`)
      if (hidden) {
        hiddenCases++
        if (!designIds.includes(13)) problems.push(`hidden missing ${designIds}`)
        const missing = [1, 2, 3, 4, 5, 6, 7, 8, 9].filter(id => !designIds.includes(id))
        if (missing.length !== 1) problems.push(`not one regular swapped ${designIds}`)
        swapped.set(missing[0], (swapped.get(missing[0]) ?? 0) + 1)
      } else if (designIds.includes(13)) {
        problems.push(`unexpected hidden ${designIds}`)
      }
    }
    expect(problems.slice(0, 5)).toEqual([])
    // 25 % hidden cases: 6,000 expected, sd about 67
    expect(Math.abs(hiddenCases - cases / 4)).toBeLessThan(400)
    const expected = hiddenCases / 9
    const chi = [...Array(9).keys()].reduce((s, i) => s + ((swapped.get(i + 1) ?? 0) - expected) ** 2 / expected, 0)
    expect(chi).toBeLessThan(chiSquareCritical(8))
  })

  test('no hidden chance: never hidden; chance 1: always', () => {
    for (let i = 0; i < 200; i++) expect(composeCase(designs(3, 1, false), 0).hidden).toBe(false)
    for (let i = 0; i < 200; i++) expect(composeCase(designs(3, 1, true), PPM).hidden).toBe(true)
  })
})

describe('commit and reveal', () => {
  test('the commitment is sha256 of "caseId:ids:salt"; recomputed from the reveal it matches', () => {
    const arrangement = [13, 2, 9, 4, 5, 11, 1, 10, 7, 6, 12, 8]
    const salt = newSalt()
    expect(salt).toMatch(/^[0-9a-f]{32}$/)
    const commit = commitOf(42, arrangement, salt)
    const recomputed = createHash('sha256').update(`42:${arrangement.join(',')}:${salt}`, 'utf8').digest('hex')
    expect(commit).toBe(recomputed)
    expect(commit).toMatch(/^[0-9a-f]{64}$/)
  })

  test('moving or changing one design, another salt or another case id breaks it', () => {
    const arrangement = [13, 2, 9, 4, 5, 11, 1, 10, 7, 6, 12, 8]
    const salt = newSalt()
    const commit = commitOf(7, arrangement, salt)
    const changed = [...arrangement]
    changed[3] = 3
    expect(commitOf(7, changed, salt)).not.toBe(commit)
    const swapped = [...arrangement]
    ;[swapped[0], swapped[1]] = [swapped[1], swapped[0]]
    expect(commitOf(7, swapped, salt)).not.toBe(commit)
    expect(commitOf(7, arrangement, newSalt())).not.toBe(commit)
    expect(commitOf(8, arrangement, salt)).not.toBe(commit)
  })
})
