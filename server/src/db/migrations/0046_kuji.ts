import { sql, type Kysely, type Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

/**
 * 一番赏 (ichiban kuji) series (issue 51; domain/catalogue/kuji.ts, docs/decisions/kuji.md).
 *
 *  series.kind          'case' (the blind-box case model) or 'kuji' (a set of tickets in prize tiers,
 *                       shared by every shopper, one drawing at a time)
 *  series.turn_s        how long one shopper's turn at a kuji set lasts
 *  series.turn_next     the next place in the series' line (a counter: places in order of arrival)
 *  series.dc_winners    a kuji series' Double Chance winners per set (0: none)
 *  designs.tier         a kuji design's tier: 'A'..'Z', 'last_one' for the Last One prize, or
 *                       'double_chance' for the Double Chance prize
 *  designs.tickets      how many tickets of each set hold the design (0: the Last One and the Double
 *                       Chance, won not drawn)
 *  cases.dc_*           a kuji set's Double Chance: the seed (its hash published with the set), and at
 *                       sell-out the hash of the list of its tickets' purchases and the winning tickets
 *  kuji_turns           one row per account and kuji series: its place in the line, and whether it is
 *                       waiting, drawing (until when) or has left
 */
export function kuji (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      await db.schema.alterTable('series').addColumn('kind', 'varchar(8)', c => c.notNull().defaultTo('case')).execute()
      await db.schema.alterTable('series').addColumn('turn_s', 'integer', c => c.notNull().defaultTo(60)).execute()
      await db.schema.alterTable('series').addColumn('turn_next', 'integer', c => c.notNull().defaultTo(0)).execute()
      await db.schema.alterTable('series').addColumn('dc_winners', 'integer', c => c.notNull().defaultTo(0)).execute()
      await db.schema.alterTable('cases').addColumn('dc_seed', 'varchar(64)').execute()
      await db.schema.alterTable('cases').addColumn('dc_seed_hash', 'varchar(64)').execute()
      await db.schema.alterTable('cases').addColumn('dc_list_hash', 'varchar(64)').execute()
      await db.schema.alterTable('cases').addColumn('dc_winning', 'text').execute()
      await db.schema.alterTable('designs').addColumn('tier', 'varchar(16)').execute()
      await db.schema.alterTable('designs').addColumn('tickets', 'integer', c => c.notNull().defaultTo(0)).execute()
      await db.schema.createTable('kuji_turns')
        .addColumn('series_id', 'bigint', c => c.notNull().references('series.id').onDelete('cascade'))
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('position', 'integer', c => c.notNull())
        .addColumn('state', 'varchar(12)', c => c.notNull().defaultTo('waiting'))
        .addColumn('until', t.timestamp)
        .addColumn('joined_at', t.timestamp, c => c.notNull())
        .addPrimaryKeyConstraint('kuji_turns_pkey', ['series_id', 'user_id'])
        .addCheckConstraint('kuji_turns_state_check', sql`state in ('waiting', 'drawing', 'left')`)
        .execute()
      await db.schema.createIndex('kuji_turns_line_idx').on('kuji_turns').columns(['series_id', 'state', 'position']).execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.dropTable('kuji_turns').execute()
      await db.schema.alterTable('designs').dropColumn('tickets').execute()
      await db.schema.alterTable('designs').dropColumn('tier').execute()
      for (const c of ['dc_winning', 'dc_list_hash', 'dc_seed_hash', 'dc_seed']) await db.schema.alterTable('cases').dropColumn(c).execute()
      for (const c of ['dc_winners', 'turn_next', 'turn_s', 'kind']) await db.schema.alterTable('series').dropColumn(c).execute()
    }
  }
}
