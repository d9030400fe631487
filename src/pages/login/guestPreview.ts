/**
 * How much the guest preview lists: kept out of the component module so that React Fast
 * Refresh can update that module in place (test/unit/fast-refresh-boundaries.test.ts).
 */

/** How many series the entry page lists (the rest are on home). */
export const GUEST_PREVIEW_SIZE = 3
