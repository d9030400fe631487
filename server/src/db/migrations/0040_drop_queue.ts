import { sql, type Kysely, type Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

/**
 * The waiting room of a drop (issue 50 item 4; domain/catalogue/dropQueue.ts).
 *
 *  drops.queue_*        the room's settings (null size: the drop has none, first come first served):
 *                       the fair window after the start, how many shop at once, how long each may; the
 *                       seed whose hash is published with the drop (every arrival's lot is an HMAC of it),
 *                       when the window's arrivals were put in order, the next place for a later arrival,
 *                       the highest place let in, and when the room last let people in
 *  drop_queue           one row per account and drop: its lot, when it arrived, its place (given when
 *                       the window closes for early arrivals, on arrival after), and whether it is waiting,
 *                       shopping (until when) or has left
 */
export function dropQueue (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      await db.schema.alterTable('drops').addColumn('queue_size', 'integer').execute()
      await db.schema.alterTable('drops').addColumn('queue_window_s', 'integer').execute()
      await db.schema.alterTable('drops').addColumn('queue_shop_s', 'integer').execute()
      await db.schema.alterTable('drops').addColumn('queue_seed', 'varchar(64)').execute()
      await db.schema.alterTable('drops').addColumn('queue_seed_hash', 'varchar(64)').execute()
      await db.schema.alterTable('drops').addColumn('queue_ordered_at', t.timestamp).execute()
      await db.schema.alterTable('drops').addColumn('queue_next', 'integer', c => c.notNull().defaultTo(0)).execute()
      await db.schema.alterTable('drops').addColumn('queue_frontier', 'integer', c => c.notNull().defaultTo(0)).execute()
      await db.schema.alterTable('drops').addColumn('queue_advanced_at', t.timestamp).execute()
      await db.schema.createTable('drop_queue')
        .addColumn('drop_id', 'bigint', c => c.notNull().references('drops.id').onDelete('cascade'))
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('lot', 'varchar(64)', c => c.notNull())
        .addColumn('arrived_at', t.timestamp, c => c.notNull())
        .addColumn('position', 'integer')
        .addColumn('state', 'varchar(12)', c => c.notNull().defaultTo('waiting'))
        .addColumn('until', t.timestamp)
        .addPrimaryKeyConstraint('drop_queue_pkey', ['drop_id', 'user_id'])
        .addCheckConstraint('drop_queue_state_check', sql`state in ('waiting', 'shopping', 'left')`)
        .execute()
      await db.schema.createIndex('drop_queue_position_idx').on('drop_queue').columns(['drop_id', 'position']).execute()
      await db.schema.createIndex('drop_queue_state_idx').on('drop_queue').columns(['drop_id', 'state', 'until']).execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.dropTable('drop_queue').execute()
      for (const c of ['queue_advanced_at', 'queue_frontier', 'queue_next', 'queue_ordered_at', 'queue_seed_hash', 'queue_seed', 'queue_shop_s', 'queue_window_s', 'queue_size']) {
        await db.schema.alterTable('drops').dropColumn(c).execute()
      }
    }
  }
}
