import type { Kysely, Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

/**
 * The complaint channel (issue 10), after 0014: who closed a complaint and when, so that the shopper
 * and the operators see it and the audit log is not the only record.
 */
export function complaintClosing (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      await db.schema.alterTable('complaints').addColumn('closed_by', 'bigint', c => c.references('users.id')).execute()
      await db.schema.alterTable('complaints').addColumn('closed_at', t.timestamp).execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.alterTable('complaints').dropColumn('closed_at').execute()
      await db.schema.alterTable('complaints').dropColumn('closed_by').execute()
    }
  }
}
