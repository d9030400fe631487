import type { Kysely, Migration } from 'kysely'

/**
 * The daily AI budget (domain/aiBudget.ts): how many calls that reach a paid AI, picture, video or
 * music provider each account, and the whole shop ('shop'), made on a China day. One row per subject
 * and day, counted up by a conditional upsert (never past the budget, on SQLite and PostgreSQL alike);
 * rows of days long gone are deleted by the maintenance sweep.
 */
export function aiUsage (): Migration {
  return {
    async up (db: Kysely<any>) {
      await db.schema.createTable('ai_usage')
        /** 'shop', or 'user:<id>'. */
        .addColumn('subject', 'varchar(32)', c => c.notNull())
        /** YYYY-MM-DD, China time. */
        .addColumn('day', 'varchar(10)', c => c.notNull())
        .addColumn('used', 'integer', c => c.notNull())
        .addPrimaryKeyConstraint('ai_usage_pk', ['subject', 'day'])
        .execute()
      await db.schema.createIndex('ai_usage_day_idx').on('ai_usage').columns(['day', 'used']).execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.dropTable('ai_usage').execute()
    }
  }
}
