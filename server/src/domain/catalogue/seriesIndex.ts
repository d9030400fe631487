/**
 * Keeping the series search true (issue 27): every write of a series or its designs (catalogue.ts,
 * editor.ts) calls indexSeries in its transaction, which rewrites the series' search rows and makes the
 * cached theme tags of seriesSearch.ts be read again.
 */
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'
import { writeSeriesSearchRows } from '../../db/seriesSearchRows'

/** Bumped by every change of a series' tags or status in this process (a transaction is not its database's key). */
let generation = 0
export const tagsGeneration = (): number => generation
export const forgetTags = (): void => { generation++ }

/** Writes the search rows of one series from its current state (and forgets the cached tags). */
export async function indexSeries (db: Kysely<Database>, seriesId: number): Promise<void> {
  forgetTags()
  await writeSeriesSearchRows(db, seriesId)
}
