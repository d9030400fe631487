/**
 * The collection's page size: kept out of the component module so that React Fast
 * Refresh can update that module in place (test/unit/fast-refresh-boundaries.test.ts).
 */

/** Prizes and parcels per page. */
export const COLLECTION_PAGE_SIZE = 20
