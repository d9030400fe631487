/**
 * Launch events (issue 24, types/events.ts): the operator announces, moves and cancels them (audited,
 * refused by field); shoppers list them and ask to be reminded by mail or by the mini-program's
 * subscription message; the sweep sends each due reminder once, against the local SMTP server and the
 * local WeChat (which refuses a message the user did not allow, as WeChat does).
 */
import { deliverDueReminders, type ReminderSenders } from '../../server/src/domain/events/events'
import { HttpWeChatClient } from '../../server/src/providers/wechat'
import { SmtpMailer } from '../../server/src/providers/mail'
import * as wechat from '../support/providers/wechat'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import { testDialects } from './support/db'
import { startSmtp, type FakeSmtp } from './support/fakes'
import { makeSeries } from './support/shop'

const HOUR = 3_600_000
const DAY = 24 * HOUR

describe.each(testDialects())('launch events on %s', (dialect) => {
  let t: TestApp
  let smtp: FakeSmtp
  let mini: Awaited<ReturnType<typeof wechat.startMiniProgram>>
  let op: string
  let opUser: { user_name: string | null; password: string }
  /** The clock moves days ahead here: sessions time out, so the operator logs in again. */
  const relogin = async () => { op = await loginToken(t.app, opUser.user_name!, opUser.password) }
  let seriesId: number
  let senders: ReminderSenders

  const as = (token: string | undefined, url: string, body: unknown, lang = 'en') => post(t.app, url, body, { token, lang, ip: nextIp() })
  const event = (over: Record<string, unknown> = {}) => ({
    seriesId,
    title: { zh: '星际旅人上海首发', en: 'Star Travellers launch in Shanghai' },
    city: '上海',
    venue: '静安嘉里中心 B1 中庭',
    address: '上海市静安区南京西路 1515 号',
    latitude: 31.224361,
    longitude: 121.446235,
    startsAt: new Date(t.clock.now() + 10 * DAY).toISOString(),
    endsAt: new Date(t.clock.now() + 10 * DAY + 6 * HOUR).toISOString(),
    ...over
  })

  beforeAll(async () => {
    smtp = await startSmtp()
    mini = await wechat.startMiniProgram()
    t = await createTestApp(dialect, {
      env: {
        SMTP_URL: smtp.url, MAIL_FROM: 'Shop <shop@example.test>',
        WECHAT_API_BASE: mini.url, WECHAT_APPID: wechat.MINI_APPID, WECHAT_SECRET: wechat.MINI_SECRET,
        WECHAT_EVENT_TEMPLATE_ID: wechat.EVENT_TEMPLATE_ID
      }
    })
    opUser = await makeUser(t.db, t.clock, { role: 'operator' })
    await relogin()
    seriesId = await makeSeries(t.db, t.clock)
    senders = {
      db: t.db,
      clock: t.clock.now,
      mailer: new SmtpMailer(smtp.url, 'Shop <shop@example.test>'),
      wechat: new HttpWeChatClient({ appId: wechat.MINI_APPID, secret: wechat.MINI_SECRET, apiBase: mini.url, authorizeUrl: 'https://open.weixin.qq.com/connect/oauth2/authorize' }, t.clock.now),
      events: { wechatTemplateId: wechat.EVENT_TEMPLATE_ID, wechatTemplateKeys: ['thing1', 'time2', 'thing3', 'thing4'], miniProgramState: 'formal', sweepMs: 60000 }
    }
  })
  afterAll(async () => {
    await t?.close()
    await smtp?.close()
    await mini?.close()
  })

  test('announce: refused by field and nothing stored; then saved, audited, listed soonest first', async () => {
    for (const [over, field, code] of [
      [{ endsAt: new Date(t.clock.now() + 9 * DAY).toISOString() }, 'endsAt', 400],
      [{ endsAt: new Date(t.clock.now() + 18 * DAY).toISOString() }, 'endsAt', 400],
      [{ startsAt: new Date(t.clock.now() - HOUR).toISOString(), endsAt: new Date(t.clock.now() + HOUR).toISOString() }, 'startsAt', 400],
      [{ startsAt: new Date(t.clock.now() + 400 * DAY).toISOString(), endsAt: new Date(t.clock.now() + 400 * DAY + HOUR).toISOString() }, 'startsAt', 400],
      [{ city: '纽约' }, 'city', 400],
      [{ venue: '  ' }, 'venue', 400],
      [{ seriesId: 999999 }, 'seriesId', 404]
    ] as const) {
      const r = await as(op, '/api/operator/eventSave', event(over), 'zh')
      expect([field, r.body.code, r.body.data?.field]).toEqual([field, code, field])
      expect(r.body.message).not.toMatch(/endsAt|startsAt|seriesId/)
    }
    expect((await as(undefined, '/api/events', {})).body.data.total).toBe(0)
    // a shopper may not announce
    const shopper = await makeUser(t.db, t.clock)
    expect((await as(await loginToken(t.app, shopper.user_name!, shopper.password), '/api/operator/eventSave', event())).body.code).toBe(403)

    const later = (await as(op, '/api/operator/eventSave', event({ city: '北京', startsAt: new Date(t.clock.now() + 20 * DAY).toISOString(), endsAt: new Date(t.clock.now() + 20 * DAY + HOUR).toISOString() }))).body
    expect(later.code).toBe(200)
    const saved = (await as(op, '/api/operator/eventSave', event())).body.data
    expect(saved).toMatchObject({ city: { zh: '上海', en: 'Shanghai', station: '上海', airport: 'SHA' }, status: 'announced', reminders: { waiting: 0, sent: 0, failed: 0 } })
    const list = (await as(undefined, '/api/events', { seriesId })).body.data
    expect(list.list.map((e: { id: number }) => e.id)).toEqual([saved.id, later.data.id])
    const audit = await t.db.selectFrom('audit_log').selectAll().where('entity', '=', 'launch_event').where('entity_id', '=', saved.id).execute()
    expect(audit.map(a => a.action)).toEqual(['event.create'])
  })

  test('reminders: by mail to the account or a given address, by WeChat only where the shopper allowed it; each sent once, at its time', async () => {
    const e = (await as(op, '/api/operator/eventSave', event({ title: { zh: '提醒测试', en: 'Reminder test' } }))).body.data
    // a shopper with an e-mail address
    const a = await makeUser(t.db, t.clock, { email: 'amy@example.test' })
    const aToken = await loginToken(t.app, a.user_name!, a.password)
    const detailA = (await as(aToken, '/api/eventDetail', { eventId: e.id })).body.data
    expect(detailA.reminder).toEqual({ channels: ['mail'], wechatTemplateId: null, accountEmail: true, mine: null })
    // WeChat is not open to an account without a mini-program login
    expect((await as(aToken, '/api/eventRemind', { eventId: e.id, channel: 'wechat' })).body).toMatchObject({ code: 422, data: { field: 'channel' } })
    const mine = (await as(aToken, '/api/eventRemind', { eventId: e.id, channel: 'mail' })).body.data
    expect(mine).toMatchObject({ channel: 'mail', status: 'waiting', email: 'a***y@example.test', remindAt: new Date(Date.parse(e.startsAt) - DAY).toISOString() })
    // asking twice at once keeps one reminder
    await Promise.all([as(aToken, '/api/eventRemind', { eventId: e.id, channel: 'mail' }), as(aToken, '/api/eventRemind', { eventId: e.id, channel: 'mail' })])

    // a shopper without an address must give one; a bad one is refused by field
    const b = await makeUser(t.db, t.clock)
    const bToken = await loginToken(t.app, b.user_name!, b.password)
    expect((await as(bToken, '/api/eventRemind', { eventId: e.id, channel: 'mail' }, 'zh')).body).toMatchObject({ code: 400, data: { field: 'email' } })
    expect((await as(bToken, '/api/eventRemind', { eventId: e.id, channel: 'mail', email: 'not an address' })).body).toMatchObject({ code: 400, data: { field: 'email' } })
    expect((await as(bToken, '/api/eventRemind', { eventId: e.id, channel: 'mail', email: 'bob@example.test' })).body.code).toBe(200)

    // a mini-program shopper (logged in through WeChat) who allowed one message
    const code = mini.mint({ openid: 'o_event_shopper_01' })
    const c = (await as(undefined, '/login/weapp', { code })).body
    expect(c.code).toBe(200)
    const cToken = c.data.token
    const detailC = (await as(cToken, '/api/eventDetail', { eventId: e.id })).body.data
    expect(detailC.reminder.channels).toEqual(['wechat', 'mail'])
    expect(detailC.reminder.wechatTemplateId).toBe(wechat.EVENT_TEMPLATE_ID)
    expect((await as(cToken, '/api/eventRemind', { eventId: e.id, channel: 'wechat' })).body.data).toMatchObject({ channel: 'wechat', email: null })
    mini.subscribe('o_event_shopper_01', wechat.EVENT_TEMPLATE_ID)
    // one who did not allow it: WeChat refuses (43101), the reminder fails, nothing else is sent for it
    const d = (await as(undefined, '/login/weapp', { code: mini.mint({ openid: 'o_event_shopper_02' }) })).body.data.token
    expect((await as(d, '/api/eventRemind', { eventId: e.id, channel: 'wechat' })).body.code).toBe(200)

    // not yet due: nothing goes
    expect(await deliverDueReminders(senders)).toBe(0)
    t.clock.advance(9 * DAY + HOUR)
    // two sweeps at once (two servers): each reminder goes once
    const [n1, n2] = await Promise.all([deliverDueReminders(senders), deliverDueReminders(senders)])
    expect(n1 + n2).toBe(3)
    expect(await deliverDueReminders(senders)).toBe(0)
    const mails = smtp.mails.filter(m => m.subject.includes('Reminder test') || m.subject.includes('提醒测试'))
    expect(mails.map(m => m.to[0]).sort()).toEqual(['amy@example.test', 'bob@example.test'])
    expect(mails[0].text).toContain('静安嘉里中心 B1 中庭')
    const sent = mini.messages.filter((m: { touser: string }) => m.touser === 'o_event_shopper_01')
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatchObject({ templateId: wechat.EVENT_TEMPLATE_ID, page: `pagesA/event/index?id=${e.id}`, lang: 'en_US' })
    expect(sent[0].data.thing1.length).toBeLessThanOrEqual(20)
    const rows = await t.db.selectFrom('event_reminders').selectAll().where('event_id', '=', e.id).orderBy('id').execute()
    expect(rows.map(r => r.status)).toEqual(['sent', 'sent', 'sent', 'failed'])
    expect(rows[3].last_error).toContain('43101')
    await relogin()
    const counted = (await as(op, '/api/operator/events', {})).body.data.list.find((x: { id: number }) => x.id === e.id)
    expect(counted.reminders).toEqual({ waiting: 0, sent: 3, failed: 1 })
    // once sent, asking again does not remind twice
    expect((await as(await loginToken(t.app, a.user_name!, a.password), '/api/eventRemind', { eventId: e.id, channel: 'mail' })).body.data.status).toBe('sent')
  })

  test('moving the start moves the waiting reminders; cancelling cancels them and the event leaves the list; a mail server that is down is tried again', async () => {
    await relogin()
    const e = (await as(op, '/api/operator/eventSave', event({ title: { zh: '改期测试', en: 'Moved' } }))).body.data
    const a = await makeUser(t.db, t.clock, { email: 'cara@example.test' })
    const token = await loginToken(t.app, a.user_name!, a.password)
    await as(token, '/api/eventRemind', { eventId: e.id, channel: 'mail' })
    const moved = new Date(Date.parse(e.startsAt) + 2 * DAY).toISOString()
    const saved = (await as(op, '/api/operator/eventSave', { ...event(), id: e.id, title: e.title, startsAt: moved, endsAt: new Date(Date.parse(moved) + HOUR).toISOString() })).body
    expect(saved.code).toBe(200)
    expect((await as(token, '/api/eventDetail', { eventId: e.id })).body.data.reminder.mine.remindAt).toBe(new Date(Date.parse(moved) - DAY).toISOString())

    // the mail server is down when it is due: tried again later, sent once it is back
    t.clock.advance(Date.parse(moved) - DAY - t.clock.now() + 1000)
    const down = { ...senders, mailer: { send: async () => { throw new Error('connect ECONNREFUSED') } } }
    expect(await deliverDueReminders(down)).toBe(0)
    const row = await t.db.selectFrom('event_reminders').selectAll().where('event_id', '=', e.id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ status: 'waiting', attempts: 1 })
    expect(await deliverDueReminders(senders)).toBe(0) // not before its retry time
    t.clock.advance(5 * 60_000)
    expect(await deliverDueReminders(senders)).toBe(1)

    await relogin()
    const token2 = await loginToken(t.app, a.user_name!, a.password)
    const other = (await as(op, '/api/operator/eventSave', event({ title: { zh: '取消测试', en: 'Called off' } }))).body.data
    expect((await as(token2, '/api/eventRemind', { eventId: other.id, channel: 'mail' })).body.code).toBe(200)
    const cancelled = (await as(op, '/api/operator/eventSave', { ...event(), id: other.id, title: other.title, startsAt: other.startsAt, endsAt: other.endsAt, status: 'cancelled' })).body.data
    expect(cancelled.status).toBe('cancelled')
    expect((await as(undefined, '/api/events', {})).body.data.list.map((x: { id: number }) => x.id)).not.toContain(other.id)
    expect((await as(token2, '/api/eventRemind', { eventId: other.id, channel: 'mail' }, 'zh')).body).toMatchObject({ code: 422, message: '活动已取消' })
    const r = await t.db.selectFrom('event_reminders').selectAll().where('event_id', '=', other.id).executeTakeFirstOrThrow()
    expect(r.status).toBe('cancelled')
    // and cannot be announced again
    expect((await as(op, '/api/operator/eventSave', { ...event(), id: other.id, title: other.title, startsAt: other.startsAt, endsAt: other.endsAt, status: 'announced' })).body.code).toBe(422)
    const audit = await t.db.selectFrom('audit_log').select('action').where('entity', '=', 'launch_event').where('entity_id', '=', other.id).execute()
    expect(audit.map(x => x.action)).toEqual(['event.create', 'event.cancel'])
  })
})
