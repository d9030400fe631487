import { sql, type Kysely, type Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

/** The most a single box may cost, in cents (PRODUCT.md: 200 yuan), enforced by the database too. */
export const MAX_BOX_PRICE_CENTS = 20000

/**
 * The catalogue (series, designs, cases) and the first shopper-owned tables (addresses, prizes).
 * Orders, wallets and the ledger come with the issues that use them.
 */
export function catalogue (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      await db.schema.createTable('series')
        .$call(t.id)
        .addColumn('name', 'varchar(100)', c => c.notNull())
        .addColumn('description', 'text', c => c.notNull().defaultTo(''))
        .addColumn('cover', 'varchar(500)')
        .addColumn('price_cents', 'bigint', c => c.notNull())
        .addColumn('case_size', 'integer', c => c.notNull())
        .addColumn('hidden_ppm', 'integer', c => c.notNull().defaultTo(0))
        .addColumn('status', 'varchar(16)', c => c.notNull().defaultTo('draft'))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('series_price_check', sql`price_cents > 0 and price_cents <= ${sql.lit(MAX_BOX_PRICE_CENTS)}`)
        .addCheckConstraint('series_case_size_check', sql`case_size between 1 and 100`)
        .addCheckConstraint('series_hidden_ppm_check', sql`hidden_ppm between 0 and 1000000`)
        .addCheckConstraint('series_status_check', sql`status in ('draft', 'on_sale', 'retired')`)
        .execute()

      await db.schema.createTable('designs')
        .$call(t.id)
        .addColumn('series_id', 'bigint', c => c.notNull().references('series.id').onDelete('cascade'))
        .addColumn('name', 'varchar(100)', c => c.notNull())
        .addColumn('rarity', 'varchar(16)', c => c.notNull())
        .addColumn('image', 'varchar(500)')
        .addColumn('reference_value_cents', 'bigint', c => c.notNull().defaultTo(0))
        .addColumn('recycle_value_cents', 'bigint', c => c.notNull().defaultTo(0))
        .addColumn('sort', 'integer', c => c.notNull().defaultTo(0))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('designs_rarity_check', sql`rarity in ('regular', 'rare', 'hidden')`)
        .addCheckConstraint('designs_values_check', sql`reference_value_cents >= 0 and recycle_value_cents >= 0`)
        .execute()
      await db.schema.createIndex('designs_series_id_idx').on('designs').column('series_id').execute()

      await db.schema.createTable('cases')
        .$call(t.id)
        .addColumn('series_id', 'bigint', c => c.notNull().references('series.id').onDelete('cascade'))
        .addColumn('size', 'integer', c => c.notNull())
        .addColumn('commit_hash', 'varchar(64)', c => c.notNull())
        .addColumn('arrangement', 'text', c => c.notNull())
        .addColumn('salt', 'varchar(64)', c => c.notNull())
        .addColumn('status', 'varchar(16)', c => c.notNull().defaultTo('on_sale'))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addColumn('revealed_at', t.timestamp)
        .addCheckConstraint('cases_status_check', sql`status in ('on_sale', 'sold_out', 'retired')`)
        .execute()
      await db.schema.createIndex('cases_series_id_idx').on('cases').columns(['series_id', 'status']).execute()

      await db.schema.createTable('addresses')
        .$call(t.id)
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'varchar(50)', c => c.notNull())
        .addColumn('phone', 'varchar(20)', c => c.notNull())
        .addColumn('region', 'varchar(100)', c => c.notNull())
        .addColumn('detail', 'varchar(200)', c => c.notNull())
        .addColumn('is_default', 'integer', c => c.notNull().defaultTo(0))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('addresses_is_default_check', sql`is_default in (0, 1)`)
        .execute()
      await db.schema.createIndex('addresses_user_id_idx').on('addresses').column('user_id').execute()

      await db.schema.createTable('prizes')
        .$call(t.id)
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('series_id', 'bigint', c => c.notNull().references('series.id'))
        .addColumn('design_id', 'bigint', c => c.notNull().references('designs.id'))
        .addColumn('case_id', 'bigint', c => c.references('cases.id'))
        .addColumn('slot', 'integer')
        .addColumn('status', 'varchar(16)', c => c.notNull().defaultTo('warehouse'))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('prizes_status_check',
          sql`status in ('warehouse', 'shipping', 'received', 'combined', 'recycled')`)
        .execute()
      await db.schema.createIndex('prizes_user_id_idx').on('prizes').columns(['user_id', 'status']).execute()
    },
    async down (db: Kysely<any>) {
      for (const table of ['prizes', 'addresses', 'cases', 'designs', 'series']) {
        await db.schema.dropTable(table).execute()
      }
    }
  }
}
