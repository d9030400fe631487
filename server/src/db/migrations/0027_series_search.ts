import { sql, type Kysely, type Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'
import { writeSeriesSearchRows } from '../seriesSearchRows'

/**
 * Finding a series (issue 27 item 2): search, filters and sorts answered from indexes.
 *   series_search        one row per series: its shelf (0 on sale, 1 retired, 2 draft), price, which
 *                        rarities it offers, and boxes sold in the last 7 days (refreshed by the server,
 *                        domain/seriesSearch.ts); an index per sort
 *   series_search_terms  every suffix of the folded zh and en names (domain/searchText.ts): a name
 *                        contains a text when a suffix starts with it, one index range
 *   theme_tags           the operators' theme tags (both languages; key: the folded name)
 *   series_theme_tags    which series carry which tag
 *   purchases            (series_id, created_at): the boxes a series sold in the last 7 days
 * The suffixes compare byte by byte on both databases (collation "C" on PostgreSQL), so a prefix range
 * means the same on both. Existing series are indexed here.
 */
export function seriesSearch (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  const pg = dialect === 'postgres'
  const bytewise = pg ? sql`varchar(400) collate "C"` : sql`varchar(400)`
  return {
    async up (db: Kysely<any>) {
      await db.schema.createTable('series_search')
        .addColumn('series_id', 'bigint', c => c.primaryKey().references('series.id').onDelete('cascade'))
        .addColumn('shelf', 'smallint', c => c.notNull())
        .addColumn('price_cents', 'bigint', c => c.notNull())
        .addColumn('has_rare', 'smallint', c => c.notNull().defaultTo(0))
        .addColumn('has_hidden', 'smallint', c => c.notNull().defaultTo(0))
        .addColumn('sold_7d', 'integer', c => c.notNull().defaultTo(0))
        // SQLite: the rows live in their primary key's b-tree (a search's id set is checked there once)
        .$call(b => pg ? b : b.modifyEnd(sql`without rowid`))
        .execute()
      // one index per sort, each carrying the filter columns too: a page and its count read the index
      // alone (no row lookups), in the sort's order
      await sql`create index series_search_new_idx on series_search (shelf, series_id desc, price_cents, has_rare, has_hidden)`.execute(db)
      await sql`create index series_search_price_idx on series_search (shelf, price_cents, series_id, has_rare, has_hidden)`.execute(db)
      await sql`create index series_search_price_desc_idx on series_search (shelf, price_cents desc, series_id desc, has_rare, has_hidden)`.execute(db)
      await sql`create index series_search_popular_idx on series_search (shelf, sold_7d desc, series_id, price_cents, has_rare, has_hidden)`.execute(db)

      await db.schema.createTable('series_search_terms')
        .addColumn('suffix', bytewise, c => c.notNull())
        .addColumn('series_id', 'bigint', c => c.notNull().references('series.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('series_search_terms_pkey', ['suffix', 'series_id'])
        .$call(b => pg ? b : b.modifyEnd(sql`without rowid`))
        .execute()
      await db.schema.createIndex('series_search_terms_series_idx').on('series_search_terms').column('series_id').execute()

      await db.schema.createTable('theme_tags')
        .$call(t.id)
        .addColumn('key', 'varchar(200)', c => c.notNull().unique())
        .addColumn('name_zh', 'varchar(100)', c => c.notNull())
        .addColumn('name_en', 'varchar(100)', c => c.notNull())
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .execute()
      await db.schema.createTable('series_theme_tags')
        .addColumn('tag_id', 'bigint', c => c.notNull().references('theme_tags.id').onDelete('cascade'))
        .addColumn('series_id', 'bigint', c => c.notNull().references('series.id').onDelete('cascade'))
        .addColumn('sort', 'integer', c => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('series_theme_tags_pkey', ['tag_id', 'series_id'])
        .execute()
      await db.schema.createIndex('series_theme_tags_series_idx').on('series_theme_tags').column('series_id').execute()

      await db.schema.createIndex('purchases_series_time_idx').on('purchases').columns(['series_id', 'created_at']).execute()

      const ids = await db.selectFrom('series').select('id').execute()
      for (const { id } of ids) await writeSeriesSearchRows(db, Number(id))
    },
    async down (db: Kysely<any>) {
      await db.schema.dropIndex('purchases_series_time_idx').execute()
      for (const table of ['series_theme_tags', 'theme_tags', 'series_search_terms', 'series_search']) {
        await db.schema.dropTable(table).execute()
      }
    }
  }
}
