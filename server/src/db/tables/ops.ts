/** Row types of operations: the audit log, shop settings, launch events and reminders, AI usage (see ../schema.ts). */
import type { Generated } from 'kysely'
import type { Timestamp } from './columns'

export interface AuditLogTable {
  id: Generated<number>
  actor_id: number | null
  action: string
  entity: string
  entity_id: number | null
  /** JSON: what changed (before / after). */
  detail: string
  created_at: Timestamp
}

/** An operator setting (JSON value), e.g. the shipping rule or the withdrawal limits. */
export interface ShopSettingsTable {
  key: string
  value: string
  updated_by: number | null
  updated_at: Timestamp
}

/** A launch event (migration 0024, types/events.ts). */
export interface LaunchEventsTable {
  id: Generated<number>
  series_id: number
  title: string
  title_en: string
  city: string
  venue: string
  address: string
  latitude: number
  longitude: number
  starts_at: Timestamp
  ends_at: Timestamp
  status: 'announced' | 'cancelled'
  updated_by: number | null
  created_at: Timestamp
  updated_at: Timestamp
}

/**
 * The columns every table of reminders has: what the sweep claims, sends and records
 * (domain/events/reminderSweep.ts). `remind_at` is each table's own (an event's is known when the
 * reminder is made, a restock's only when the drop is created).
 */
export interface ReminderColumns {
  id: Generated<number>
  user_id: number
  channel: 'wechat' | 'mail'
  /** The openid (wechat) or the e-mail address (mail). */
  target: string
  lang: 'zh' | 'en'
  status: 'waiting' | 'sending' | 'sent' | 'failed' | 'cancelled'
  attempts: number
  claimed_at: Timestamp | null
  sent_at: Timestamp | null
  last_error: string | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** A shopper's reminder of a launch event (migration 0024). */
export interface EventRemindersTable extends ReminderColumns {
  event_id: number
  remind_at: Timestamp
}

/** A shopper's "notify me when restocked" of a series (migration 0042): due once a drop of it is created. */
export interface RestockRemindersTable extends ReminderColumns {
  series_id: number
  /** The drop it announces (set with remind_at when the drop is created). */
  drop_id: number | null
  /** null: waiting for a drop. */
  remind_at: Timestamp | null
}

/** Calls of the day that reached a paid AI provider, per subject ('shop' or 'user:<id>'): migration 0034. */
export interface AiUsageTable {
  subject: string
  day: string
  used: number
}
