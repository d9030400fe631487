import type { Kysely, Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

/**
 * Files whose row went (a deleted account's photos, domain/show.ts eraseShowContent) and whose bytes may
 * still be in the object store (MEDIA_STORE=s3): written in the transaction that deletes the row, taken
 * off once the bucket's copy is deleted (domain/mediaStore.ts eraseMediaObjects, right after the
 * deletion and again by the maintenance pass until the bucket answers). claimed_at marks the one pass
 * deleting the object now, so that an upload of the same file waits for it instead of losing its object.
 */
export function mediaErasures (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      await db.schema.createTable('media_erasures')
        .addColumn('sha256', 'varchar(64)', c => c.primaryKey())
        .addColumn('ext', 'varchar(8)', c => c.notNull())
        .addColumn('created_at', t.timestamp, c => c.notNull())
        // set by the pass deleting the object right now; an upload of the same file waits for it
        .addColumn('claimed_at', t.timestamp)
        .execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.dropTable('media_erasures').execute()
    }
  }
}
