/**
 * The reminders' sweep (launch events, issue 24; "notify me when restocked", issue 50 item 6): each kind
 * of reminder is a table with the same lifecycle (event_reminders, restock_reminders) and its own words;
 * this file claims, sends and settles them, by mail or by the mini-program's subscription message.
 *
 * A reminder is sent at most once: the sweep claims it by one conditional UPDATE (waiting -> sending,
 * attempts + 1) and only the claimer sends; a provider that is down puts it back to waiting a little
 * later (at most EVENT_LIMITS.sendAttempts tries); a claim left behind by a server that stopped
 * mid-send is given up after EVENT_LIMITS.staleSendingMs (failed, "interrupted"), never sent again,
 * since it cannot be known whether it went.
 */
import type { Kysely } from 'kysely'
import { EVENT_LIMITS } from '../../../../types/limits'
import type { ReminderChannel } from '../../../../types/events'
import type { Database, ReminderColumns, Timestamp } from '../../db/schema'
import type { Config, EventsConfig } from '../../config'
import { deliveringMailer } from '../../providers/devOutbox'
import { PROVIDERS } from '../account/identities'
import { iso, type Clock } from '../../core/clock'
import type { Mailer } from '../../providers/mail'
import { WeChatError, type WeChatClient } from '../../providers/wechat'
import { ProviderUnavailableError } from '../../providers/errors'
import { observedCall } from '../../providers/calls'

type Db = Kysely<Database>

export interface ReminderSenders {
  db: Db
  clock: Clock
  mailer: Mailer | null
  wechat: WeChatClient
  events: EventsConfig
}

/**
 * The channels open to a user for a reminder sent with `templateId`: the subscription message needs that
 * template and a mini-program login; mail needs a mailer that reaches people (not development's log: a
 * reminder there would go nowhere).
 */
export async function channelsFor (ctx: { db: Db; mailer: Mailer | null; config: Pick<Config, 'wechat'> }, userId: number | null, templateId: string | undefined): Promise<{ channels: ReminderChannel[]; openid: string | null; email: string | null }> {
  if (userId === null) return { channels: [], openid: null, email: null }
  const identity = templateId && ctx.config.wechat.appId
    ? await ctx.db.selectFrom('identities').select('subject').where('user_id', '=', userId).where('provider', '=', PROVIDERS.weapp).orderBy('id', 'desc').executeTakeFirst()
    : undefined
  const user = await ctx.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst()
  const channels: ReminderChannel[] = []
  if (identity) channels.push('wechat')
  if (deliveringMailer(ctx.mailer)) channels.push('mail')
  return { channels, openid: identity?.subject ?? null, email: user?.email ?? null }
}

/** The tables of reminders, each with the columns the sweep uses (id, channel, target, lang, remind_at, status, attempts, claimed_at, sent_at, last_error, updated_at). */
export type ReminderTable = 'event_reminders' | 'restock_reminders'

/** The columns every table of reminders has, as the sweep reads and writes them. */
type SweptColumns = ReminderColumns & { remind_at: Timestamp | null }

/** A claimed reminder, as the sweep reads it (each kind reads its own columns from `row`). */
export interface ClaimedReminder { id: number; channel: 'wechat' | 'mail'; target: string; lang: 'zh' | 'en'; attempts: number; row: Record<string, unknown> }

/** What one reminder says: both ways, in its language; or why it is no longer sent (cancelled). */
export type Outgoing =
  | { skip: string }
  | { mail: { subject: string; text: string }; wechat: { templateId: string | undefined; page: string; data: Record<string, string> } }

/** A time in China (UTC+8): `2026-12-12 14:00`, or WeChat's `2026年12月12日 14:00`. */
export function chinaTime (isoTime: string, style: 'plain' | 'wechat'): string {
  const d = new Date(Date.parse(isoTime) + 8 * 3_600_000).toISOString()
  const [y, m, day, hm] = [d.slice(0, 4), d.slice(5, 7), d.slice(8, 10), d.slice(11, 16)]
  return style === 'wechat' ? `${y}年${Number(m)}月${Number(day)}日 ${hm}` : `${y}-${m}-${day} ${hm}`
}

async function send (s: ReminderSenders, r: ClaimedReminder, out: Exclude<Outgoing, { skip: string }>): Promise<void> {
  if (r.channel === 'mail') {
    if (!s.mailer) throw new ProviderUnavailableError('mail', 'no mailer')
    const mailer = s.mailer
    await observedCall('mail', () => mailer.send({ to: r.target, ...out.mail }))
    return
  }
  const templateId = out.wechat.templateId
  if (!templateId) throw new WeChatError(40037, 'no template configured')
  await observedCall('wechat', () => s.wechat.sendSubscribeMessage({
    touser: r.target,
    templateId,
    page: out.wechat.page,
    lang: r.lang === 'en' ? 'en_US' : 'zh_CN',
    state: s.events.miniProgramState,
    data: out.wechat.data
  }), err => err instanceof WeChatError)
}

/**
 * Sends the table's reminders that are due (at most `batch` of them); answers how many went. Each is
 * claimed first; only the server that claimed it sends it. `compose` says what a claimed one says.
 */
export async function sweepReminders (s: ReminderSenders, table: ReminderTable, compose: (r: ClaimedReminder) => Promise<Outgoing>, batch = 50): Promise<number> {
  // the tables share the columns the sweep uses: seen as one shape
  const db = s.db as unknown as Kysely<Record<ReminderTable, SweptColumns>>
  const nowMs = s.clock()
  const now = iso(nowMs)
  // a claim nobody finished: given up, never sent twice
  await db.updateTable(table).set({ status: 'failed', last_error: 'interrupted while sending', updated_at: now })
    .where('status', '=', 'sending').where('claimed_at', '<', iso(nowMs - EVENT_LIMITS.staleSendingMs)).execute()
  const due = await db.selectFrom(table).select('id').where('status', '=', 'waiting').where('remind_at', '<=', now)
    .orderBy('remind_at').orderBy('id').limit(batch).execute()
  let sent = 0
  for (const { id } of due) {
    const claimed = await db.updateTable(table)
      .set(eb => ({ status: 'sending', claimed_at: now, attempts: eb('attempts', '+', 1), updated_at: now }))
      .where('id', '=', Number(id)).where('status', '=', 'waiting').returningAll().executeTakeFirst()
    if (!claimed) continue
    const r: ClaimedReminder = { id: Number(id), channel: claimed.channel, target: claimed.target, lang: claimed.lang === 'en' ? 'en' : 'zh', attempts: Number(claimed.attempts), row: claimed }
    const out = await compose(r)
    const done = iso(s.clock())
    if ('skip' in out) {
      await db.updateTable(table).set({ status: 'cancelled', last_error: out.skip.slice(0, 200), updated_at: done }).where('id', '=', r.id).execute()
      continue
    }
    try {
      await send(s, r, out)
      await db.updateTable(table).set({ status: 'sent', sent_at: done, last_error: null, updated_at: done }).where('id', '=', r.id).execute()
      sent++
    } catch (err) {
      // a provider that is down (or a mail server that did not take it) is tried again; WeChat's refusal is final
      const outage = err instanceof ProviderUnavailableError || (r.channel === 'mail' && !(err instanceof WeChatError))
      const retry = outage && r.attempts < EVENT_LIMITS.sendAttempts
      const why = err instanceof WeChatError ? `WeChat ${err.errcode}: ${err.errmsg}` : (err as Error).message
      await db.updateTable(table).set(retry
        ? { status: 'waiting', remind_at: iso(nowMs + EVENT_LIMITS.retryMs * 2 ** (r.attempts - 1)), last_error: why.slice(0, 200), updated_at: done }
        : { status: 'failed', last_error: why.slice(0, 200), updated_at: done })
        .where('id', '=', r.id).execute()
    }
  }
  return sent
}
