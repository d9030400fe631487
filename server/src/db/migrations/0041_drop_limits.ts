import type { Kysely, Migration } from 'kysely'

/**
 * Limits per drop (issue 50 item 5; domain/catalogue/dropLimits.ts): the most boxes and whole cases an
 * account may buy in a drop, whether it needs a verified phone, and how old it must be; and what each
 * account has bought (or is buying right now) in each drop, counted by conditional upserts so that the
 * limits hold under races and across processes.
 */
export function dropLimits (): Migration {
  return {
    async up (db: Kysely<any>) {
      await db.schema.alterTable('drops').addColumn('limit_boxes', 'integer').execute()
      await db.schema.alterTable('drops').addColumn('limit_cases', 'integer').execute()
      await db.schema.alterTable('drops').addColumn('need_phone', 'integer', c => c.notNull().defaultTo(0)).execute()
      await db.schema.alterTable('drops').addColumn('min_account_hours', 'integer').execute()
      await db.schema.createTable('drop_buys')
        .addColumn('drop_id', 'bigint', c => c.notNull().references('drops.id').onDelete('cascade'))
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('boxes', 'integer', c => c.notNull().defaultTo(0))
        .addColumn('cases', 'integer', c => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('drop_buys_pkey', ['drop_id', 'user_id'])
        .execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.dropTable('drop_buys').execute()
      for (const c of ['min_account_hours', 'need_phone', 'limit_cases', 'limit_boxes']) await db.schema.alterTable('drops').dropColumn(c).execute()
    }
  }
}
