import { sql, type Kysely, type Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

/**
 * Launch events (首发活动, issue 24; types/events.ts):
 *   launch_events     announced by operators (each change audited): a series' launch in a city, at a
 *                     venue with its location, from starts_at to ends_at; cancelled, never deleted
 *   event_reminders   a shopper's "remind me": one per event and shopper (unique), by the mini-program's
 *                     subscription message (target: the openid) or by mail (target: the address), due at
 *                     remind_at; status waiting -> sending -> sent | failed, or cancelled. A reminder is
 *                     claimed by a conditional UPDATE (waiting -> sending) before it is sent, so two
 *                     servers never send it twice; lang is the language it was asked in.
 */
export function launchEvents (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      await db.schema.createTable('launch_events')
        .$call(t.id)
        .addColumn('series_id', 'bigint', c => c.notNull().references('series.id'))
        .addColumn('title', 'varchar(40)', c => c.notNull())
        .addColumn('title_en', 'varchar(40)', c => c.notNull())
        .addColumn('city', 'varchar(10)', c => c.notNull())
        .addColumn('venue', 'varchar(50)', c => c.notNull())
        .addColumn('address', 'varchar(200)', c => c.notNull())
        .addColumn('latitude', 'double precision', c => c.notNull())
        .addColumn('longitude', 'double precision', c => c.notNull())
        .addColumn('starts_at', t.timestamp, c => c.notNull())
        .addColumn('ends_at', t.timestamp, c => c.notNull())
        .addColumn('status', 'varchar(12)', c => c.notNull().defaultTo('announced'))
        .addColumn('updated_by', 'bigint', c => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('launch_events_status_check', sql`status in ('announced', 'cancelled')`)
        .addCheckConstraint('launch_events_point_check', sql`latitude between -90 and 90 and longitude between -180 and 180`)
        .execute()
      await db.schema.createIndex('launch_events_starts_idx').on('launch_events').columns(['status', 'ends_at']).execute()
      await db.schema.createTable('event_reminders')
        .$call(t.id)
        .addColumn('event_id', 'bigint', c => c.notNull().references('launch_events.id'))
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('channel', 'varchar(8)', c => c.notNull())
        .addColumn('target', 'varchar(254)', c => c.notNull())
        .addColumn('lang', 'varchar(2)', c => c.notNull())
        .addColumn('remind_at', t.timestamp, c => c.notNull())
        .addColumn('status', 'varchar(10)', c => c.notNull().defaultTo('waiting'))
        .addColumn('attempts', 'integer', c => c.notNull().defaultTo(0))
        .addColumn('claimed_at', t.timestamp)
        .addColumn('sent_at', t.timestamp)
        .addColumn('last_error', 'varchar(200)')
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .addUniqueConstraint('event_reminders_one_per_user', ['event_id', 'user_id'])
        .addCheckConstraint('event_reminders_channel_check', sql`channel in ('wechat', 'mail')`)
        .addCheckConstraint('event_reminders_status_check', sql`status in ('waiting', 'sending', 'sent', 'failed', 'cancelled')`)
        .execute()
      await db.schema.createIndex('event_reminders_due_idx').on('event_reminders').columns(['status', 'remind_at']).execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.dropTable('event_reminders').execute()
      await db.schema.dropTable('launch_events').execute()
    }
  }
}
