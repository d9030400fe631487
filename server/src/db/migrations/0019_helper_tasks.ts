import { sql, type Kysely, type Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

/**
 * The long-running helper tasks (issue 11, types/tasks.ts): a PDF drawn into page images by the local
 * engine, a video or a music clip made by a provider. Each row belongs to the account that created it
 * (only it may ask about it). The id is ours and random (a provider's own id stays in provider_id, never
 * shown); a finished task keeps its result, so asking again costs the provider nothing.
 */
export function helperTasks (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      await db.schema.createTable('helper_tasks')
        .addColumn('id', 'varchar(64)', c => c.primaryKey())
        .addColumn('kind', 'varchar(8)', c => c.notNull())
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id'))
        .addColumn('status', 'varchar(12)', c => c.notNull())
        .addColumn('provider_id', 'varchar(128)')
        /** The PDF's media sha256 (kind pdf). */
        .addColumn('source', 'varchar(64)')
        .addColumn('page_count', 'integer')
        /** JSON: the pages (pdf), the video and cover URLs, a clip's audio. */
        .addColumn('result', 'text')
        .addColumn('error', 'varchar(64)')
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('helper_tasks_kind_check', sql`kind in ('pdf', 'video', 'music')`)
        .addCheckConstraint('helper_tasks_status_check', sql`status in ('pending', 'running', 'succeeded', 'failed')`)
        .execute()
      await db.schema.createIndex('helper_tasks_user_idx').on('helper_tasks').columns(['user_id', 'created_at']).execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.dropTable('helper_tasks').execute()
    }
  }
}
