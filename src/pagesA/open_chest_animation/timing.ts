/**
 * The opening's timing: kept out of the component module so that React Fast
 * Refresh can update that module in place (test/unit/fast-refresh-boundaries.test.ts).
 */

/** How long the box shakes before it opens. */
export const OPENING_MS = 900
