/**
 * Home's refresh interval: kept out of the component module so that React Fast
 * Refresh can update that module in place (test/unit/fast-refresh-boundaries.test.ts).
 */

/** The live feed refreshes this often while the page is shown. */
export const FEED_REFRESH_MS = 30000
