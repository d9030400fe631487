import type { Kysely, Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

/**
 * Case leases (issue 12, launch day): a shopper shown a case holds it for a short while, so the shop
 * shows the next shopper another case with free slots (opening one when every open case is held)
 * instead of sending everyone to the same oldest case. One row per case at most; a lease is taken by a
 * conditional upsert (free, expired, or already the shopper's), so two shoppers never both get it.
 * (0014 and 0015 are the complaints and the media tables.)
 */
export function caseLeases (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      await db.schema.createTable('case_leases')
        .addColumn('case_id', 'bigint', c => c.primaryKey().references('cases.id').onDelete('cascade'))
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('until', t.timestamp, c => c.notNull())
        .execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.dropTable('case_leases').execute()
    }
  }
}
