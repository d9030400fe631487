/**
 * The prop sheet's timing: kept out of the component module so that React Fast
 * Refresh can update that module in place (test/unit/fast-refresh-boundaries.test.ts).
 */

/**
 * After the finger that opened the sheet lifts, the tap or click it ends with lands on whatever is now
 * under it: the backdrop (which would close the sheet at once) or a prop button (which would use a card
 * nobody chose). The sheet takes a tap only when its touch began on the sheet, or, for a mouse, once the
 * opening finger has been up this long.
 */
export const RELEASE_GUARD_MS = 400
