/**
 * Whether a selection fits a recipe: kept out of the component module so that React Fast
 * Refresh can update that module in place (test/unit/fast-refresh-boundaries.test.ts).
 */
import type { Recipe } from '~types/combine'
import type { PrizeItem } from '~types/shop'

/** Whether a prize can go into a recipe (series and rarity; one design is checked on the picked set). */
export const fits = (r: Recipe, p: PrizeItem) =>
  p.status === 'warehouse' && p.seriesId === r.seriesId && (r.input.kind === 'same_design' || p.design.rarity === r.input.rarity)
