/**
 * "Notify me when restocked" (issue 50 item 6; types/restock.ts): on a sold-out series a shopper asks to
 * be told when it is restocked. The request waits until an operator creates a drop of the series
 * (createDrop) or, for a series that sells without drops, raises its stock so that a case can be filled
 * again (saveStock); either makes every waiting request of the series due at once, in its own
 * transaction. The reminders' sweep (reminderSweep.ts) then claims and sends each once, by mail or by the
 * mini-program's subscription message, as it sends the launch events' reminders: the new drop's start
 * and counts, or that boxes are on sale again now.
 *
 * Asking and creating a drop both lock the series row first, so a request is either seen by the drop
 * (and told of it) or made after it (and refused: the drop is announced, 409 with its start).
 */
import type { Kysely } from 'kysely'
import type { ReminderChannel } from '../../../../types/events'
import type { RestockReminderState, RestockReminderView } from '../../../../types/restock'
import type { Config } from '../../config'
import type { Database } from '../../db/schema'
import { iso, type Clock } from '../../core/clock'
import { dialectOf, forUpdate } from '../../db/lock'
import { ApiFailure, fail } from '../../core/errors'
import type { Mailer } from '../../providers/mail'
import { subscribeValue } from '../../providers/wechat'
import { maskEmail } from '../account/users'
import { openDueDrops, sellsByDrop } from '../catalogue/drops'
import { lockSeriesForStock, soldOutSeries } from '../catalogue/stock'
import { channelsFor, chinaTime, sweepReminders, type ClaimedReminder, type Outgoing, type ReminderSenders } from './reminderSweep'

type Db = Kysely<Database>

export interface RestockContext {
  db: Db
  clock: Clock
  mailer: Mailer | null
  config: Pick<Config, 'events' | 'wechat'>
}

interface Row { channel: ReminderChannel; status: RestockReminderView['status']; target: string; drop_id: number | null }

async function viewOf (db: Db, r: Row): Promise<RestockReminderView> {
  const drop = r.drop_id === null ? undefined : await db.selectFrom('drops').select('starts_at').where('id', '=', Number(r.drop_id)).executeTakeFirst()
  return {
    channel: r.channel,
    status: r.status,
    email: r.channel === 'mail' ? maskEmail(r.target) : null,
    dropStartsAt: drop ? new Date(drop.starts_at).toISOString() : null
  }
}

const mineOf = (db: Db, seriesId: number, userId: number) =>
  db.selectFrom('restock_reminders').selectAll().where('series_id', '=', seriesId).where('user_id', '=', userId)

async function seriesOnSale (db: Db, seriesId: number): Promise<void> {
  const s = await db.selectFrom('series').select('status').where('id', '=', seriesId).executeTakeFirst()
  if (s?.status !== 'on_sale') throw new ApiFailure(404, 'restock.seriesNotFound', {}, { field: 'seriesId' })
}

/** POST /api/restockReminder: the channels open to the caller and their request still to be sent. */
export async function restockState (ctx: RestockContext, seriesId: number, userId: number): Promise<RestockReminderState> {
  await seriesOnSale(ctx.db, seriesId)
  const open = await channelsFor(ctx, userId, ctx.config.events.restockTemplateId)
  const mine = await mineOf(ctx.db, seriesId, userId).executeTakeFirst()
  return {
    channels: open.channels,
    wechatTemplateId: open.channels.includes('wechat') ? ctx.config.events.restockTemplateId ?? null : null,
    accountEmail: !!open.email,
    mine: mine && (mine.status === 'waiting' || mine.status === 'sending') ? await viewOf(ctx.db, mine) : null
  }
}

/**
 * Whether the series may be asked about now (the series row locked): not when a drop is announced and
 * not started (409 with its start), nor when boxes can be bought without a drop (409). A drop on sale is
 * allowed: every box left may be held by shoppers in its waiting room.
 */
async function mayAsk (trx: Db, clock: Clock, seriesId: number, lang: 'zh' | 'en'): Promise<void> {
  await seriesOnSale(trx, seriesId)
  const startsAt = await openDueDrops(trx, clock, seriesId)
  if (startsAt) throw new ApiFailure(409, 'restock.dropAnnounced', { time: chinaTime(startsAt, lang === 'en' ? 'plain' : 'wechat') }, { reason: 'drop_announced', startsAt })
  if (!(await soldOutSeries(trx, [seriesId])).has(seriesId) && !(await sellsByDrop(trx, seriesId))) {
    throw new ApiFailure(409, 'restock.onSale', {}, { reason: 'on_sale' })
  }
}

/** POST /api/restockRemind (see the header). Asking again replaces the channel; one being sent is kept. */
export async function remindRestock (ctx: RestockContext, userId: number, lang: 'zh' | 'en', req: { seriesId: number; channel: ReminderChannel; email?: string }): Promise<RestockReminderView> {
  const open = await channelsFor(ctx, userId, ctx.config.events.restockTemplateId)
  if (!open.channels.includes(req.channel)) throw fail.unprocessable('restock.channelClosed', {}, { field: 'channel' })
  const target = req.channel === 'wechat' ? open.openid! : (req.email ?? open.email)
  if (!target) throw fail.field('email', 'restock.noEmail')
  const now = iso(ctx.clock())
  return ctx.db.transaction().execute(async trx => {
    await lockSeriesForStock(trx, req.seriesId)
    await mayAsk(trx, ctx.clock, req.seriesId, lang)
    const before = await forUpdate(dialectOf(trx), mineOf(trx, req.seriesId, userId)).executeTakeFirst()
    // one being sent, or due for a drop already made, stays as it is (asking again does not tell twice)
    if (before && (before.status === 'sending' || (before.status === 'waiting' && before.drop_id !== null))) return viewOf(trx, before)
    const values = {
      channel: req.channel, target, lang, drop_id: null, remind_at: null,
      status: 'waiting' as const, attempts: 0, claimed_at: null, sent_at: null, last_error: null, updated_at: now
    }
    const row = before
      ? await trx.updateTable('restock_reminders').set(values).where('id', '=', Number(before.id)).returningAll().executeTakeFirstOrThrow()
      : await trx.insertInto('restock_reminders').values({ ...values, series_id: req.seriesId, user_id: userId, created_at: now })
        .onConflict(oc => oc.columns(['series_id', 'user_id']).doNothing()).returningAll().executeTakeFirst()
    // a twin request inserted first: answer what it stored
    return viewOf(trx, row ?? await mineOf(trx, req.seriesId, userId).executeTakeFirstOrThrow())
  })
}

/** POST /api/restockRemindCancel: the request, cancelled while it waits (null: none waiting). */
export async function cancelRestock (db: Db, clock: Clock, userId: number, seriesId: number): Promise<RestockReminderView | null> {
  const row = await db.updateTable('restock_reminders').set({ status: 'cancelled', updated_at: iso(clock()) })
    .where('series_id', '=', seriesId).where('user_id', '=', userId).where('status', '=', 'waiting')
    .returningAll().executeTakeFirst()
  return row ? viewOf(db, row) : null
}

// ---- what it says -----------------------------------------------------------------------------------

interface DropNews { name: string; startsAt: string; cases: number; boxes: number; hidden: number }

const TEXT = {
  zh: {
    subject: (name: string) => `补货通知：${name}`,
    body: (n: DropNews, when: string) => `你关注的系列有新一批限量发售了。\n\n系列：${n.name}\n开售：${when}（北京时间）\n数量：共 ${n.cases} 箱 ${n.boxes} 盒，其中恰好 ${n.hidden} 箱含隐藏款\n\n在拾盒打开这个系列，开售时就能买。`,
    note: '新一批已公布，准时开售',
    backBody: (name: string, when: string) => `你关注的系列补货了，现在就能买。\n\n系列：${name}\n补货：${when}（北京时间）\n\n在拾盒打开这个系列就能买。`,
    backNote: '已补货，现在就能买'
  },
  en: {
    subject: (name: string) => `Back in stock: ${name}`,
    body: (n: DropNews, when: string) => `A series you asked about has a new drop.\n\nSeries: ${n.name}\nOn sale from: ${when} (China time)\nHow many: ${n.cases} cases, ${n.boxes} boxes; exactly ${n.hidden} of them with the hidden design\n\nOpen the series in the shop's app to buy at the start.`,
    note: 'New drop announced',
    backBody: (name: string, when: string) => `A series you asked about is back in stock and on sale now.\n\nSeries: ${name}\nRestocked: ${when} (China time)\n\nOpen the series in the shop's app to buy.`,
    backNote: 'Back in stock now'
  }
}

/** What a restock reminder says: the series, when its new drop starts, and a link to the series; nothing once the series was retired. */
async function restockMessage (s: ReminderSenders, r: ClaimedReminder): Promise<Outgoing> {
  const seriesId = Number(r.row.series_id)
  if (r.row.drop_id === null) return backInStockMessage(s, r, seriesId)
  const drop = r.row.drop_id === null ? undefined
    : await s.db.selectFrom('drops').innerJoin('series', 'series.id', 'drops.series_id')
      .select(['drops.starts_at', 'drops.case_count', 'drops.case_size', 'drops.hidden_cases', 'series.name', 'series.name_en', 'series.status'])
      .where('drops.id', '=', Number(r.row.drop_id)).executeTakeFirst()
  if (!drop || drop.status !== 'on_sale') return { skip: 'the drop is gone or the series was retired' }
  const lang = r.lang
  const news: DropNews = {
    name: lang === 'en' ? drop.name_en || drop.name : drop.name,
    startsAt: new Date(drop.starts_at).toISOString(),
    cases: Number(drop.case_count),
    boxes: Number(drop.case_count) * Number(drop.case_size),
    hidden: Number(drop.hidden_cases)
  }
  const [kName, kTime, kNote] = s.events.restockTemplateKeys ?? ['thing1', 'time2', 'thing3']
  return {
    mail: { subject: TEXT[lang].subject(news.name), text: TEXT[lang].body(news, chinaTime(news.startsAt, 'plain')) },
    wechat: {
      templateId: s.events.restockTemplateId,
      page: `pagesA/blind_box_detail/index?seriesId=${seriesId}`,
      data: {
        [kName]: subscribeValue(kName, news.name),
        [kTime]: subscribeValue(kTime, chinaTime(news.startsAt, 'wechat')),
        [kNote]: subscribeValue(kNote, TEXT[lang].note)
      }
    }
  }
}

/** A series without drops restocked (saveStock): boxes on sale again now, since remind_at. */
async function backInStockMessage (s: ReminderSenders, r: ClaimedReminder, seriesId: number): Promise<Outgoing> {
  const series = await s.db.selectFrom('series').select(['name', 'name_en', 'status']).where('id', '=', seriesId).executeTakeFirst()
  if (!series || series.status !== 'on_sale') return { skip: 'the series was retired' }
  const lang = r.lang
  const name = lang === 'en' ? series.name_en || series.name : series.name
  // when it was restocked: the request fell due then (a retry moves it on by minutes at most)
  const due = r.row.remind_at
  const at = new Date(due instanceof Date ? due : typeof due === 'string' ? due : s.clock()).toISOString()
  const [kName, kTime, kNote] = s.events.restockTemplateKeys ?? ['thing1', 'time2', 'thing3']
  return {
    mail: { subject: TEXT[lang].subject(name), text: TEXT[lang].backBody(name, chinaTime(at, 'plain')) },
    wechat: {
      templateId: s.events.restockTemplateId,
      page: `pagesA/blind_box_detail/index?seriesId=${seriesId}`,
      data: {
        [kName]: subscribeValue(kName, name),
        [kTime]: subscribeValue(kTime, chinaTime(at, 'wechat')),
        [kNote]: subscribeValue(kNote, TEXT[lang].backNote)
      }
    }
  }
}

/** The sweep's turn for restock reminders (called by deliverDueReminders, events.ts). */
export function deliverRestockReminders (s: ReminderSenders, batch = 50): Promise<number> {
  return sweepReminders(s, 'restock_reminders', r => restockMessage(s, r), batch)
}
