import { sql, type Kysely, type Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

/**
 * Props (issue 9, PRODUCT.md "Props"): cards held per user, every use (what it showed, for which slot),
 * and the 10-minute reservations an X-ray card makes.
 */
export function props (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      await db.schema.createTable('prop_inventory')
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'varchar(8)', c => c.notNull())
        .addColumn('count', 'integer', c => c.notNull().defaultTo(0))
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .addPrimaryKeyConstraint('prop_inventory_pkey', ['user_id', 'kind'])
        .addCheckConstraint('prop_inventory_kind_check', sql`kind in ('hint', 'xray')`)
        .addCheckConstraint('prop_inventory_count_check', sql`count >= 0`)
        .execute()

      await db.schema.createTable('prop_uses')
        .$call(t.id)
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id').onDelete('cascade'))
        // shake and hint: a design the slot is not; xray: the design it is
        .addColumn('kind', 'varchar(8)', c => c.notNull())
        .addColumn('case_id', 'bigint', c => c.notNull().references('cases.id'))
        .addColumn('slot', 'integer', c => c.notNull())
        .addColumn('design_id', 'bigint', c => c.notNull().references('designs.id'))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('prop_uses_kind_check', sql`kind in ('shake', 'hint', 'xray')`)
        .execute()
      await db.schema.createIndex('prop_uses_user_id_idx').on('prop_uses').columns(['user_id', 'id']).execute()
      // at most one hint card per slot per user (shakes are not limited per slot)
      await db.schema.createIndex('prop_uses_one_hint_key').unique().on('prop_uses').columns(['user_id', 'case_id', 'slot'])
        .where(sql.ref('kind'), '=', 'hint').execute()

      await db.schema.createTable('slot_reservations')
        .addColumn('case_id', 'bigint', c => c.notNull().references('cases.id').onDelete('cascade'))
        .addColumn('slot', 'integer', c => c.notNull())
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('expires_at', t.timestamp, c => c.notNull())
        .addPrimaryKeyConstraint('slot_reservations_pkey', ['case_id', 'slot'])
        .execute()
    },
    async down (db: Kysely<any>) {
      for (const table of ['slot_reservations', 'prop_uses', 'prop_inventory']) await db.schema.dropTable(table).execute()
    }
  }
}
