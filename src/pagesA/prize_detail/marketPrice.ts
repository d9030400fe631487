/**
 * How a price compares with the market's median: kept out of the component module so that React Fast
 * Refresh can update that module in place (test/unit/fast-refresh-boundaries.test.ts).
 */

/** How the reference value stands against the market median, in whole percent. */
export function versusMedian (referenceCents: number, medianCents: number): { dir: 'above' | 'below' | 'same'; pct: number } {
  if (medianCents <= 0 || referenceCents === medianCents) return { dir: 'same', pct: 0 }
  const pct = Math.round(Math.abs(referenceCents - medianCents) / medianCents * 100)
  if (pct === 0) return { dir: 'same', pct: 0 }
  return { dir: referenceCents > medianCents ? 'above' : 'below', pct }
}
