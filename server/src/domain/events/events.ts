/**
 * Launch events (首发活动, issue 24; types/events.ts): operators announce them (each change audited);
 * shoppers read them and ask to be reminded; a sweep sends the reminders that are due, with the
 * restock reminders (restock.ts), claimed and sent once each by reminderSweep.ts.
 */
import type { Logger } from '../../core/logger'
import type { Kysely, Selectable } from 'kysely'
import { cityOf } from '../../../../types/cities'
import { EVENT_LIMITS } from '../../../../types/limits'
import type { EventDetail, EventListResult, EventSaveRequest, LaunchEvent, OperatorEvent, OperatorEventListResult, ReminderChannel, ReminderView } from '../../../../types/events'
import type { Database, EventRemindersTable, LaunchEventsTable } from '../../db/schema'
import type { Config, EventsConfig } from '../../config'
import { iso, type Clock } from '../../core/clock'
import { dialectOf, forUpdate } from '../../db/lock'
import { ApiFailure, fail } from '../../core/errors'
import type { Mailer } from '../../providers/mail'
import { subscribeValue, type WeChatClient } from '../../providers/wechat'
import { maskEmail } from '../account/users'
import { writeAudit } from '../ops/audit'
import { channelsFor, chinaTime, sweepReminders, type ClaimedReminder, type Outgoing, type ReminderSenders } from './reminderSweep'
import { deliverRestockReminders } from './restock'

type Db = Kysely<Database>
type EventRow = Selectable<LaunchEventsTable>
type ReminderRow = Selectable<EventRemindersTable>
type SeriesBits = { name: string; name_en: string; cover: string | null }

/** What the events need of the app (AppContext has it all): the database, the time, the senders and the settings. */
export interface EventsContext {
  db: Db
  clock: Clock
  mailer: Mailer | null
  wechat: WeChatClient
  juhe: { train: unknown; flight: unknown }
  config: Pick<Config, 'events' | 'wechat' | 'maps'>
}

export function eventView (r: EventRow, s: SeriesBits): LaunchEvent {
  const city = cityOf(r.city)
  return {
    id: Number(r.id),
    seriesId: Number(r.series_id),
    seriesTitle: { zh: s.name, en: s.name_en || s.name },
    seriesCover: s.cover,
    title: { zh: r.title, en: r.title_en },
    city: { zh: r.city, en: city?.en ?? r.city, station: city?.station ?? r.city, airport: city?.airport ?? null },
    venue: r.venue,
    address: r.address,
    latitude: Number(r.latitude),
    longitude: Number(r.longitude),
    startsAt: new Date(r.starts_at).toISOString(),
    endsAt: new Date(r.ends_at).toISOString(),
    status: r.status
  }
}

export function reminderView (r: ReminderRow): ReminderView {
  return {
    channel: r.channel,
    status: r.status,
    remindAt: new Date(r.remind_at).toISOString(),
    email: r.channel === 'mail' ? maskEmail(r.target) : null
  }
}

const seriesBits = (db: Db, ids: number[]) => ids.length
  ? db.selectFrom('series').select(['id', 'name', 'name_en', 'cover']).where('id', 'in', ids).execute()
  : Promise.resolve([])

async function withSeries (db: Db, rows: EventRow[]): Promise<LaunchEvent[]> {
  const series = new Map((await seriesBits(db, [...new Set(rows.map(r => Number(r.series_id)))])).map(s => [Number(s.id), s]))
  return rows.map(r => eventView(r, series.get(Number(r.series_id)) ?? { name: '', name_en: '', cover: null }))
}

/** Events to come (announced, not ended), soonest first. */
export async function listEvents (db: Db, clock: Clock, q: { seriesId?: number; page?: number }): Promise<EventListResult> {
  const now = iso(clock())
  let query = db.selectFrom('launch_events').where('status', '=', 'announced').where('ends_at', '>', now)
  if (q.seriesId !== undefined) query = query.where('series_id', '=', q.seriesId)
  const size = EVENT_LIMITS.pageSize
  const [{ n }, rows] = await Promise.all([
    query.select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    query.selectAll().orderBy('starts_at').orderBy('id').limit(size).offset(((q.page ?? 1) - 1) * size).execute()
  ])
  return { list: await withSeries(db, rows), total: Number(n) }
}

async function eventRow (db: Db, id: number): Promise<EventRow> {
  const row = await db.selectFrom('launch_events').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) throw new ApiFailure(404, 'event.notFound', {}, { field: 'eventId' })
  return row
}

export async function eventDetail (ctx: EventsContext, eventId: number, userId: number | null): Promise<EventDetail> {
  const [event] = await withSeries(ctx.db, [await eventRow(ctx.db, eventId)])
  const open = await channelsFor(ctx, userId, ctx.config.events.wechatTemplateId)
  const mine = userId === null
    ? undefined
    : await ctx.db.selectFrom('event_reminders').selectAll().where('event_id', '=', eventId).where('user_id', '=', userId).executeTakeFirst()
  const maps = ctx.config.maps
  return {
    event,
    webMap: maps.webMap ? { provider: 'tencentMap', script: maps.webMap.script } : null,
    routeProvider: maps.routeProvider,
    travel: { trains: !!ctx.juhe.train, flights: !!ctx.juhe.flight },
    reminder: {
      channels: open.channels,
      wechatTemplateId: open.channels.includes('wechat') ? ctx.config.events.wechatTemplateId ?? null : null,
      accountEmail: !!open.email,
      mine: mine && mine.status !== 'cancelled' ? reminderView(mine) : null
    }
  }
}

/** When a reminder of an event starting at `startsAt` goes: remindBeforeMs ahead, or at once when that is past. */
export function remindAtFor (startsAtMs: number, nowMs: number): number {
  return Math.max(nowMs, startsAtMs - EVENT_LIMITS.remindBeforeMs)
}

export async function remind (ctx: EventsContext, userId: number, lang: 'zh' | 'en', req: { eventId: number; channel: ReminderChannel; email?: string }): Promise<ReminderView> {
  const { db, clock } = ctx
  const event = await eventRow(db, req.eventId)
  const nowMs = clock()
  if (event.status === 'cancelled') throw fail.unprocessable('event.cancelled', {}, { field: 'eventId' })
  if (Date.parse(event.starts_at) <= nowMs) throw fail.unprocessable('event.started', {}, { field: 'eventId' })
  const open = await channelsFor(ctx, userId, ctx.config.events.wechatTemplateId)
  if (!open.channels.includes(req.channel)) throw fail.unprocessable('event.channelClosed', {}, { field: 'channel' })
  const target = req.channel === 'wechat' ? open.openid! : (req.email ?? open.email)
  if (!target) throw fail.field('email', 'event.noEmail')
  const now = iso(nowMs)
  const values = {
    channel: req.channel, target, lang, remind_at: iso(remindAtFor(Date.parse(event.starts_at), nowMs)),
    status: 'waiting' as const, attempts: 0, claimed_at: null, sent_at: null, last_error: null, updated_at: now
  }
  return db.transaction().execute(async trx => {
    const before = await forUpdate(dialectOf(trx), trx.selectFrom('event_reminders').selectAll()
      .where('event_id', '=', req.eventId).where('user_id', '=', userId)).executeTakeFirst()
    // one being sent or already sent stays as it is (asking again does not remind twice)
    if (before && (before.status === 'sending' || before.status === 'sent')) return reminderView(before)
    const row = before
      ? await trx.updateTable('event_reminders').set(values).where('id', '=', Number(before.id)).returningAll().executeTakeFirstOrThrow()
      : await trx.insertInto('event_reminders').values({ ...values, event_id: req.eventId, user_id: userId, created_at: now })
        .onConflict(oc => oc.columns(['event_id', 'user_id']).doNothing()).returningAll().executeTakeFirst()
    // a twin request inserted first: answer what it stored
    return reminderView(row ?? await trx.selectFrom('event_reminders').selectAll().where('event_id', '=', req.eventId).where('user_id', '=', userId).executeTakeFirstOrThrow())
  })
}

export async function cancelReminder (db: Db, clock: Clock, userId: number, eventId: number): Promise<ReminderView | null> {
  await eventRow(db, eventId)
  const row = await db.updateTable('event_reminders').set({ status: 'cancelled', updated_at: iso(clock()) })
    .where('event_id', '=', eventId).where('user_id', '=', userId).where('status', '=', 'waiting')
    .returningAll().executeTakeFirst()
  return row ? reminderView(row) : null
}

// ---- the operator's side --------------------------------------------------------------------------

async function withCounts (db: Db, events: LaunchEvent[]): Promise<OperatorEvent[]> {
  const ids = events.map(e => e.id)
  const counts = ids.length
    ? await db.selectFrom('event_reminders').select(['event_id', 'status', eb => eb.fn.countAll<number>().as('n')])
      .where('event_id', 'in', ids).groupBy(['event_id', 'status']).execute()
    : []
  return events.map(e => {
    const of = (s: string) => Number(counts.find(c => Number(c.event_id) === e.id && c.status === s)?.n ?? 0)
    return { ...e, reminders: { waiting: of('waiting') + of('sending'), sent: of('sent'), failed: of('failed') } }
  })
}

export async function operatorEvents (db: Db, page = 1): Promise<OperatorEventListResult> {
  const size = EVENT_LIMITS.pageSize
  const [{ n }, rows] = await Promise.all([
    db.selectFrom('launch_events').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    db.selectFrom('launch_events').selectAll().orderBy('starts_at', 'desc').orderBy('id', 'desc').limit(size).offset((page - 1) * size).execute()
  ])
  return { list: await withCounts(db, await withSeries(db, rows)), total: Number(n) }
}

/** Announces, changes or cancels an event; one audit row with what changed. */
export async function saveEvent (db: Db, clock: Clock, actorId: number, r: EventSaveRequest): Promise<OperatorEvent> {
  const nowMs = clock()
  const now = iso(nowMs)
  const startsMs = Date.parse(r.startsAt)
  const endsMs = Date.parse(r.endsAt)
  const fields = {
    series_id: r.seriesId,
    title: r.title.zh.trim(),
    title_en: r.title.en.trim(),
    city: r.city,
    venue: r.venue.trim(),
    address: r.address.trim(),
    latitude: r.latitude,
    longitude: r.longitude,
    starts_at: iso(startsMs),
    ends_at: iso(endsMs)
  }
  for (const [f, v] of [['title.zh', fields.title], ['title.en', fields.title_en], ['venue', fields.venue], ['address', fields.address]] as const) {
    if (!v) throw fail.field(f, 'address.blank', {})
  }
  if (!(endsMs > startsMs)) throw fail.field('endsAt', 'event.endBeforeStart')
  if (endsMs - startsMs > EVENT_LIMITS.durationMaxMs) throw fail.field('endsAt', 'event.tooLong', { days: EVENT_LIMITS.durationMaxMs / 86_400_000 })
  return db.transaction().execute(async trx => {
    const before = r.id === undefined ? null : await forUpdate(dialectOf(trx), trx.selectFrom('launch_events').selectAll().where('id', '=', r.id)).executeTakeFirst()
    if (r.id !== undefined && !before) throw new ApiFailure(404, 'event.notFound', {}, { field: 'id' })
    const status = r.status ?? before?.status ?? 'announced'
    if (before?.status === 'cancelled' && status !== 'cancelled') throw fail.unprocessable('event.cannotReopen', {}, { field: 'status' })
    const moved = !before || Date.parse(before.starts_at) !== startsMs
    if (status === 'announced' && moved) {
      if (startsMs <= nowMs) throw fail.field('startsAt', 'event.pastStart')
      if (startsMs - nowMs > EVENT_LIMITS.aheadMaxDays * 86_400_000) throw fail.field('startsAt', 'event.tooFar', { days: EVENT_LIMITS.aheadMaxDays })
    }
    const series = await trx.selectFrom('series').select(['id', 'name', 'name_en', 'cover', 'status']).where('id', '=', r.seriesId).executeTakeFirst()
    if (!series) throw new ApiFailure(404, 'event.seriesNotFound', {}, { field: 'seriesId' })
    if (series.status !== 'on_sale' && (!before || Number(before.series_id) !== r.seriesId)) throw fail.unprocessable('event.seriesNotOnSale', {}, { field: 'seriesId' })
    const values = { ...fields, status, updated_by: actorId, updated_at: now }
    const row = before
      ? await trx.updateTable('launch_events').set(values).where('id', '=', Number(before.id)).returningAll().executeTakeFirstOrThrow()
      : await trx.insertInto('launch_events').values({ ...values, created_at: now }).returningAll().executeTakeFirstOrThrow()
    const id = Number(row.id)
    if (status === 'cancelled') {
      await trx.updateTable('event_reminders').set({ status: 'cancelled', updated_at: now }).where('event_id', '=', id).where('status', '=', 'waiting').execute()
    } else if (before && moved) {
      // the start moved: each waiting reminder goes remindBeforeMs before the new start
      const waiting = await trx.selectFrom('event_reminders').select('id').where('event_id', '=', id).where('status', '=', 'waiting').execute()
      if (waiting.length) {
        await trx.updateTable('event_reminders').set({ remind_at: iso(remindAtFor(startsMs, nowMs)), updated_at: now })
          .where('id', 'in', waiting.map(w => Number(w.id))).where('status', '=', 'waiting').execute()
      }
    }
    const after = eventView(row, series)
    await writeAudit(trx, clock, {
      actorId,
      action: !before ? 'event.create' : status === 'cancelled' && before.status !== 'cancelled' ? 'event.cancel' : 'event.update',
      entity: 'launch_event',
      entityId: id,
      detail: { before: before ? eventView(before, series) : null, after }
    })
    const [withCount] = await withCounts(trx, [after])
    return withCount
  })
}

// ---- sending (reminderSweep.ts) ----------------------------------------------------------------------

export type { EventsConfig, ReminderSenders }
export { chinaTime }

const TEXT = {
  zh: {
    subject: (title: string) => `首发活动提醒：${title}`,
    body: (e: LaunchEvent, when: string) => `你关注的首发活动快开始了。\n\n活动：${e.title.zh}（${e.seriesTitle.zh}）\n时间：${when}（北京时间）\n地点：${e.city.zh} ${e.venue}\n地址：${e.address}\n\n在拾盒打开活动页，可查看地图、路线和车次航班。`,
    note: '活动即将开始，欢迎到场'
  },
  en: {
    subject: (title: string) => `Launch event reminder: ${title}`,
    body: (e: LaunchEvent, when: string) => `A launch event you follow starts soon.\n\nEvent: ${e.title.en} (${e.seriesTitle.en})\nWhen: ${when} (China time)\nWhere: ${e.venue}, ${e.city.en}\nAddress: ${e.address}\n\nOpen the event in the shop's app for the map, the route, trains and flights.`,
    note: 'Starting soon: see you there'
  }
}

/** What an event's reminder says; nothing once the event was cancelled or has started. */
async function eventMessage (s: ReminderSenders, r: ClaimedReminder): Promise<Outgoing> {
  const row = await s.db.selectFrom('launch_events').selectAll().where('id', '=', Number(r.row.event_id)).executeTakeFirstOrThrow()
  const [e] = await withSeries(s.db, [row])
  if (e.status !== 'announced' || Date.parse(e.startsAt) <= s.clock()) return { skip: 'the event was cancelled or has started' }
  const lang = r.lang
  const [kTitle, kTime, kVenue, kNote] = s.events.wechatTemplateKeys
  return {
    mail: { subject: TEXT[lang].subject(e.title[lang]), text: TEXT[lang].body(e, chinaTime(e.startsAt, 'plain')) },
    wechat: {
      templateId: s.events.wechatTemplateId,
      page: `pagesA/event/index?id=${e.id}`,
      data: {
        [kTitle]: subscribeValue(kTitle, e.title[lang]),
        [kTime]: subscribeValue(kTime, chinaTime(e.startsAt, 'wechat')),
        [kVenue]: subscribeValue(kVenue, `${e.city.zh} ${e.venue}`),
        [kNote]: subscribeValue(kNote, TEXT[lang].note)
      }
    }
  }
}

/**
 * Sends the reminders that are due, of events and of restocks (at most `batch` of each); answers how
 * many went. Each is claimed first; only the server that claimed it sends it.
 */
export async function deliverDueReminders (s: ReminderSenders, batch = 50): Promise<number> {
  const events = await sweepReminders(s, 'event_reminders', r => eventMessage(s, r), batch)
  return events + await deliverRestockReminders(s, batch)
}

/** The sweep, every EVENT_REMINDER_SWEEP_MS; answers its stop. */
export function startEventReminders (ctx: EventsContext, log: Logger): () => void {
  let running = false
  const senders: ReminderSenders = { db: ctx.db, clock: ctx.clock, mailer: ctx.mailer, wechat: ctx.wechat, events: ctx.config.events }
  const timer = setInterval(() => {
    if (running) return
    running = true
    deliverDueReminders(senders)
      .then(n => { if (n) log.info({ sent: n }, 'event reminders sent') })
      .catch(err => log.error({ err }, 'event reminders failed'))
      .finally(() => { running = false })
  }, ctx.config.events.sweepMs)
  timer.unref()
  return () => clearInterval(timer)
}
