import { type Kysely, type Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

/**
 * Uploaded images (issue 10, the series editor): kept in the database itself, so that every server of
 * the shop serves them and a backup of the database holds them. Keyed by the SHA-256 of the bytes: the
 * same image uploaded twice is stored once and keeps its URL (/media/u/<sha256>.<ext>).
 */
export function media (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      await db.schema.createTable('media')
        .addColumn('sha256', 'varchar(64)', c => c.primaryKey())
        .addColumn('content_type', 'varchar(32)', c => c.notNull())
        .addColumn('ext', 'varchar(8)', c => c.notNull())
        .addColumn('data', dialect === 'postgres' ? 'bytea' : 'blob', c => c.notNull())
        .addColumn('size', 'integer', c => c.notNull())
        .addColumn('width', 'integer', c => c.notNull())
        .addColumn('height', 'integer', c => c.notNull())
        .addColumn('uploaded_by', 'bigint', c => c.references('users.id'))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.dropTable('media').execute()
    }
  }
}
