import { sql, type Kysely, type Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

/**
 * "Notify me when restocked" (issue 50 item 6; domain/events/restock.ts): a shopper's request to be told
 * when a new drop of a sold-out series is announced. One per series and shopper (unique), by the
 * mini-program's subscription message (target: the openid) or by mail (target: the address), in the
 * language it was asked in. It waits with no drop and no remind_at until an operator creates a drop of the
 * series; that drop's transaction sets drop_id and remind_at (due at once), and the event reminders' sweep
 * sends it as it sends theirs: waiting -> sending (one conditional UPDATE) -> sent | failed, or cancelled.
 */
export function restockReminders (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      await db.schema.createTable('restock_reminders')
        .$call(t.id)
        .addColumn('series_id', 'bigint', c => c.notNull().references('series.id'))
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('channel', 'varchar(8)', c => c.notNull())
        .addColumn('target', 'varchar(254)', c => c.notNull())
        .addColumn('lang', 'varchar(2)', c => c.notNull())
        .addColumn('drop_id', 'bigint', c => c.references('drops.id').onDelete('set null'))
        .addColumn('remind_at', t.timestamp)
        .addColumn('status', 'varchar(10)', c => c.notNull().defaultTo('waiting'))
        .addColumn('attempts', 'integer', c => c.notNull().defaultTo(0))
        .addColumn('claimed_at', t.timestamp)
        .addColumn('sent_at', t.timestamp)
        .addColumn('last_error', 'varchar(200)')
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .addUniqueConstraint('restock_reminders_one_per_user', ['series_id', 'user_id'])
        .addCheckConstraint('restock_reminders_channel_check', sql`channel in ('wechat', 'mail')`)
        .addCheckConstraint('restock_reminders_status_check', sql`status in ('waiting', 'sending', 'sent', 'failed', 'cancelled')`)
        .execute()
      await db.schema.createIndex('restock_reminders_due_idx').on('restock_reminders').columns(['status', 'remind_at']).execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.dropTable('restock_reminders').execute()
    }
  }
}
