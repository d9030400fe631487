import { sql, type Kysely, type Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

/**
 * Combine (issue 9, PRODUCT.md "Combine"): per-user seeds of the provably fair draw (types/fair.ts),
 * the recipes a series publishes, and every combine with what it drew; a prize made by combining
 * says so (origin) and points at its combine.
 */
export function combine (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      await db.schema.createTable('fair_seeds')
        .$call(t.id)
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id').onDelete('cascade'))
        // 64 hex digits; secret until the seed is rotated (revealed)
        .addColumn('server_seed', 'varchar(64)', c => c.notNull())
        .addColumn('server_seed_hash', 'varchar(64)', c => c.notNull())
        .addColumn('client_seed', 'varchar(64)', c => c.notNull())
        // the nonce of the next draw
        .addColumn('nonce', 'integer', c => c.notNull().defaultTo(0))
        .addColumn('status', 'varchar(8)', c => c.notNull().defaultTo('active'))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addColumn('revealed_at', t.timestamp)
        .addCheckConstraint('fair_seeds_status_check', sql`status in ('active', 'revealed')`)
        .addCheckConstraint('fair_seeds_nonce_check', sql`nonce >= 0`)
        .execute()
      await db.schema.createIndex('fair_seeds_one_active_key').unique().on('fair_seeds').column('user_id')
        .where(sql.ref('status'), '=', 'active').execute()
      await db.schema.createIndex('fair_seeds_user_id_idx').on('fair_seeds').columns(['user_id', 'id']).execute()

      await db.schema.createTable('combine_recipes')
        .$call(t.id)
        .addColumn('series_id', 'bigint', c => c.notNull().references('series.id'))
        .addColumn('name', 'varchar(100)', c => c.notNull())
        .addColumn('name_en', 'varchar(100)', c => c.notNull())
        // 'rarity': input_count items of input_rarity; 'same_design': input_count of one design
        .addColumn('input_kind', 'varchar(16)', c => c.notNull())
        .addColumn('input_rarity', 'varchar(16)')
        .addColumn('input_count', 'integer', c => c.notNull())
        // JSON [{designId, weight}] in the published order
        .addColumn('pool', 'text', c => c.notNull())
        .addColumn('status', 'varchar(16)', c => c.notNull().defaultTo('on'))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('combine_recipes_kind_check', sql`input_kind in ('rarity', 'same_design') and (input_kind = 'same_design' or input_rarity in ('regular', 'rare', 'hidden'))`)
        .addCheckConstraint('combine_recipes_count_check', sql`input_count between 2 and 20`)
        .addCheckConstraint('combine_recipes_status_check', sql`status in ('on', 'off')`)
        .execute()
      await db.schema.createIndex('combine_recipes_series_id_idx').on('combine_recipes').column('series_id').execute()

      await db.schema.createTable('combines')
        .$call(t.id)
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id'))
        .addColumn('recipe_id', 'bigint', c => c.notNull().references('combine_recipes.id'))
        .addColumn('seed_id', 'bigint', c => c.notNull().references('fair_seeds.id'))
        .addColumn('client_seed', 'varchar(64)', c => c.notNull())
        .addColumn('nonce', 'integer', c => c.notNull())
        // JSON: the prizes used, the pool drawn from ([{designId, weight}]) and the draw (value, round, word, index)
        .addColumn('inputs', 'text', c => c.notNull())
        .addColumn('pool', 'text', c => c.notNull())
        .addColumn('draw', 'text', c => c.notNull())
        .addColumn('output_prize_id', 'bigint', c => c.notNull().references('prizes.id'))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .execute()
      await db.schema.createIndex('combines_seed_nonce_key').unique().on('combines').columns(['seed_id', 'nonce']).execute()
      await db.schema.createIndex('combines_user_id_idx').on('combines').columns(['user_id', 'id']).execute()

      await db.schema.alterTable('prizes').addColumn('origin', 'varchar(8)', c => c.notNull().defaultTo('case')).execute()
      await db.schema.alterTable('prizes').addColumn('combine_id', 'bigint').execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.alterTable('prizes').dropColumn('combine_id').execute()
      await db.schema.alterTable('prizes').dropColumn('origin').execute()
      for (const table of ['combines', 'combine_recipes', 'fair_seeds']) await db.schema.dropTable(table).execute()
    }
  }
}
