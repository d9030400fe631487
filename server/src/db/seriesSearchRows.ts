/**
 * The search rows of a series (migration 0027: series_search and series_search_terms), written from the
 * series' current state. domain/seriesIndex.ts calls this on every write of a series; migrations that
 * re-key the index call it too, so it lives down here with the tables.
 */
import type { Kysely } from 'kysely'
import type { Database } from './schema'
import { keySuffixes, searchKey } from './searchText'

type Db = Kysely<Database>
// the migrations index with a schema-less Kysely
type AnyDb = Kysely<any> // eslint-disable-line @typescript-eslint/no-explicit-any

/** Where a series stands in the index: below `draft` it is listed. */
export const SHELF = { on_sale: 0, retired: 1, draft: 2 } as const

/** Writes the search rows of one series (its shelf, price, rarities, name suffixes) from its current state. */
export async function writeSeriesSearchRows (db: Db | AnyDb, seriesId: number): Promise<void> {
  const d = db as Db
  const row = await d.selectFrom('series').select(['name', 'name_en', 'price_cents', 'hidden_ppm', 'status']).where('id', '=', seriesId).executeTakeFirst()
  await d.deleteFrom('series_search_terms').where('series_id', '=', seriesId).execute()
  if (!row) {
    await d.deleteFrom('series_search').where('series_id', '=', seriesId).execute()
    return
  }
  const rarities = await d.selectFrom('designs').select('rarity').distinct().where('series_id', '=', seriesId).execute()
  const has = (r: string) => rarities.some(x => x.rarity === r)
  const values = {
    shelf: SHELF[row.status],
    price_cents: Number(row.price_cents),
    has_rare: has('rare') ? 1 : 0,
    has_hidden: has('hidden') && row.hidden_ppm > 0 ? 1 : 0
  }
  await d.insertInto('series_search').values({ series_id: seriesId, ...values })
    .onConflict(oc => oc.column('series_id').doUpdateSet(values)).execute()
  const suffixes = new Set([...keySuffixes(searchKey(row.name)), ...keySuffixes(searchKey(row.name_en))])
  if (suffixes.size) {
    await d.insertInto('series_search_terms').values([...suffixes].map(suffix => ({ suffix, series_id: seriesId }))).execute()
  }
}
