/**
 * "Notify me when restocked" (issue 50 item 6, types/restock.ts) on both databases: a shopper asks on a
 * sold-out series (refused while boxes can be bought or a drop is announced), sees their request and
 * cancels it; when an operator creates a drop of the series the reminders' sweep tells each one once (two
 * sweeps at once, as two servers), by mail through the local SMTP server or by the mini-program's
 * subscription message through the local WeChat (which refuses a message the user did not allow), and
 * tells nobody who asked about another series. A series that sells without drops is restocked on the
 * stock screen: those waiting are told it is on sale again once a case can be filled, not before.
 */
import { deliverDueReminders, type ReminderSenders } from '../../server/src/domain/events/events'
import { HttpWeChatClient } from '../../server/src/providers/wechat'
import { SmtpMailer } from '../../server/src/providers/mail'
import * as wechat from '../support/providers/wechat'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import { testDialects } from './support/db'
import { startSmtp, type FakeSmtp } from './support/fakes'
import { buy, makeSeries, makeShopper, topUp } from './support/shop'

const HOUR = 3_600_000

describe.each(testDialects())('notify me when restocked on %s', (dialect) => {
  let t: TestApp
  let smtp: FakeSmtp
  let mini: Awaited<ReturnType<typeof wechat.startMiniProgram>>
  let op: string
  let senders: ReminderSenders

  const as = (token: string | undefined, url: string, body: unknown, lang = 'en') => post(t.app, url, body, { token, lang, ip: nextIp() })
  const shopperToken = async (email?: string) => {
    const u = await makeUser(t.db, t.clock, email ? { email } : {})
    return loginToken(t.app, u.user_name!, u.password)
  }
  const weappToken = async (openid: string) => (await as(undefined, '/login/weapp', { code: mini.mint({ openid }) })).body.data.token as string
  const drop = (seriesId: number, startsAt = t.clock.now()) =>
    as(op, '/api/operator/dropCreate', { seriesId, cases: 1, hiddenCases: 0, startsAt: new Date(startsAt).toISOString() })
  /** A series of cases of 2 with 2 figures of each design: one drop of 1 case, bought whole, so it is sold out. */
  const soldOutSeries = async () => {
    const seriesId = await makeSeries(t.db, t.clock, { regular: 2, rare: 0, stock: 2 })
    expect((await drop(seriesId)).body.code).toBe(200)
    const buyer = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, buyer, 10_000)
    const c = await as(buyer.token, '/api/caseCurrent', { seriesId })
    expect((await buy(t.app, buyer, { caseId: c.body.data.caseId, wholeCase: true })).body.code).toBe(200)
    expect((await as(undefined, '/api/seriesDetail', { seriesId })).body.data.soldOut).toBe(true)
    return seriesId
  }

  beforeAll(async () => {
    smtp = await startSmtp()
    mini = await wechat.startMiniProgram()
    t = await createTestApp(dialect, {
      env: {
        SMTP_URL: smtp.url, MAIL_FROM: 'Shop <shop@example.test>',
        WECHAT_API_BASE: mini.url, WECHAT_APPID: wechat.MINI_APPID, WECHAT_SECRET: wechat.MINI_SECRET,
        WECHAT_RESTOCK_TEMPLATE_ID: wechat.RESTOCK_TEMPLATE_ID
      }
    })
    const u = await makeUser(t.db, t.clock, { role: 'operator' })
    op = await loginToken(t.app, u.user_name!, u.password)
    senders = {
      db: t.db,
      clock: t.clock.now,
      mailer: new SmtpMailer(smtp.url, 'Shop <shop@example.test>'),
      wechat: new HttpWeChatClient({ appId: wechat.MINI_APPID, secret: wechat.MINI_SECRET, apiBase: mini.url, authorizeUrl: 'https://open.weixin.qq.com/connect/oauth2/authorize' }, t.clock.now),
      events: { wechatTemplateKeys: ['thing1', 'time2', 'thing3', 'thing4'], restockTemplateId: wechat.RESTOCK_TEMPLATE_ID, restockTemplateKeys: ['thing1', 'time2', 'thing3'], miniProgramState: 'formal', sweepMs: 60000 }
    }
  })
  afterAll(async () => {
    await t?.close()
    await smtp?.close()
    await mini?.close()
  })

  test('ask on a sold-out series, see it, cancel it; refused while boxes can be bought or a drop is announced', async () => {
    // who may: a logged-in shopper, before the body is looked at
    expect((await as(undefined, '/api/restockRemind', { seriesId: 'x' })).body.code).toBe(401)
    expect((await as(undefined, '/api/restockReminder', {})).body.code).toBe(401)
    const a = await shopperToken('amy@example.test')
    expect((await as(a, '/api/restockRemind', { seriesId: 1, channel: 'fax' })).body).toMatchObject({ code: 400, data: { field: 'channel' } })
    expect((await as(a, '/api/restockReminder', { seriesId: 999999 })).body).toMatchObject({ code: 404, data: { field: 'seriesId' } })

    // a series that sells on demand with stock left: nothing to wait for
    const open = await makeSeries(t.db, t.clock, { regular: 2, rare: 0, stock: 5 })
    expect((await as(a, '/api/restockRemind', { seriesId: open, channel: 'mail' }, 'zh')).body).toMatchObject({ code: 409, message: '这个系列现在就能买，不用等补货', data: { reason: 'on_sale' } })

    const seriesId = await soldOutSeries()
    expect((await as(a, '/api/restockReminder', { seriesId })).body.data).toEqual({ channels: ['mail'], wechatTemplateId: null, accountEmail: true, mine: null })
    // WeChat is not open to an account without a mini-program login
    expect((await as(a, '/api/restockRemind', { seriesId, channel: 'wechat' })).body).toMatchObject({ code: 422, data: { field: 'channel' } })
    // asking twice at once keeps one request
    const [r1, r2] = await Promise.all([as(a, '/api/restockRemind', { seriesId, channel: 'mail' }), as(a, '/api/restockRemind', { seriesId, channel: 'mail' })])
    expect([r1.body.code, r2.body.code]).toEqual([200, 200])
    expect(r1.body.data).toEqual({ channel: 'mail', status: 'waiting', email: 'a***y@example.test', dropStartsAt: null })
    expect(await t.db.selectFrom('restock_reminders').select('id').where('series_id', '=', seriesId).execute()).toHaveLength(1)
    expect((await as(a, '/api/restockReminder', { seriesId })).body.data.mine).toMatchObject({ channel: 'mail', status: 'waiting' })
    // without an address on the account one must be given
    const b = await shopperToken()
    expect((await as(b, '/api/restockRemind', { seriesId, channel: 'mail' }, 'zh')).body).toMatchObject({ code: 400, message: '请填写接收补货通知的邮箱', data: { field: 'email' } })
    expect((await as(b, '/api/restockRemind', { seriesId, channel: 'mail', email: 'bob@example.test' })).body.data.email).toBe('b***b@example.test')

    // cancelled: gone from the page, and nothing to cancel a second time
    expect((await as(b, '/api/restockRemindCancel', { seriesId })).body.data).toMatchObject({ status: 'cancelled' })
    expect((await as(b, '/api/restockRemindCancel', { seriesId })).body.data).toBeNull()
    expect((await as(b, '/api/restockReminder', { seriesId })).body.data.mine).toBeNull()

    // a drop announced: asking now is refused with its start; the waiting request is due for it
    const next = (await drop(seriesId, t.clock.now() + 2 * HOUR)).body.data
    const refused = (await as(b, '/api/restockRemind', { seriesId, channel: 'mail', email: 'bob@example.test' })).body
    expect(refused).toMatchObject({ code: 409, data: { reason: 'drop_announced', startsAt: next.startsAt } })
    expect(refused.message).toMatch(/^A new drop is already announced: it goes on sale \d{4}-\d\d-\d\d \d\d:\d\d \(China time\)$/)
    expect((await as(a, '/api/restockReminder', { seriesId })).body.data.mine).toMatchObject({ status: 'waiting', dropStartsAt: next.startsAt })
    const rows = await t.db.selectFrom('restock_reminders').select(['status', 'drop_id']).where('series_id', '=', seriesId).orderBy('id').execute()
    expect(rows.map(r => [r.status, r.drop_id === null ? null : Number(r.drop_id)])).toEqual([['waiting', next.dropId], ['cancelled', null]])
    expect(await deliverDueReminders(senders)).toBe(1)
  })

  test('a new drop tells each shopper once (two sweeps at once), by mail or WeChat as they allowed, and nobody who asked about another series', async () => {
    const wanted = await soldOutSeries()
    const other = await soldOutSeries()
    const a = await shopperToken('ann@example.test')
    const b = await shopperToken('ben@example.test')
    const c = await weappToken('o_restock_shopper_01')
    const d = await weappToken('o_restock_shopper_02')
    expect((await as(c, '/api/restockReminder', { seriesId: wanted })).body.data).toMatchObject({ channels: ['wechat', 'mail'], wechatTemplateId: wechat.RESTOCK_TEMPLATE_ID })
    expect((await as(a, '/api/restockRemind', { seriesId: wanted, channel: 'mail' }, 'zh')).body.code).toBe(200)
    expect((await as(b, '/api/restockRemind', { seriesId: other, channel: 'mail' })).body.code).toBe(200)
    // c allowed one message (wx.requestSubscribeMessage); d did not: WeChat refuses it (43101)
    mini.subscribe('o_restock_shopper_01', wechat.RESTOCK_TEMPLATE_ID)
    expect((await as(c, '/api/restockRemind', { seriesId: wanted, channel: 'wechat' })).body.data).toMatchObject({ channel: 'wechat', email: null })
    expect((await as(d, '/api/restockRemind', { seriesId: wanted, channel: 'wechat' })).body.code).toBe(200)

    // no drop yet: nothing goes, however long
    t.clock.advance(24 * HOUR)
    expect(await deliverDueReminders(senders)).toBe(0)
    const made = (await drop(wanted, t.clock.now() + 3 * HOUR)).body.data
    const mailsBefore = smtp.mails.length
    const [n1, n2] = await Promise.all([deliverDueReminders(senders), deliverDueReminders(senders)])
    expect(n1 + n2).toBe(2)
    expect(await deliverDueReminders(senders)).toBe(0)

    const mails = smtp.mails.slice(mailsBefore)
    expect(mails.map(m => m.to[0])).toEqual(['ann@example.test'])
    const series = await t.db.selectFrom('series').select(['name', 'name_en']).where('id', '=', wanted).executeTakeFirstOrThrow()
    expect(mails[0].subject).toBe(`补货通知：${series.name}`)
    const china = new Date(Date.parse(made.startsAt) + 8 * HOUR).toISOString()
    expect(mails[0].text).toContain(`开售：${china.slice(0, 10)} ${china.slice(11, 16)}（北京时间）`)
    expect(mails[0].text).toContain('共 1 箱 2 盒，其中恰好 0 箱含隐藏款')
    const sent = mini.messages.filter((m: { touser: string }) => m.touser === 'o_restock_shopper_01')
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatchObject({ templateId: wechat.RESTOCK_TEMPLATE_ID, page: `pagesA/blind_box_detail/index?seriesId=${wanted}`, lang: 'en_US' })
    expect(sent[0].data).toEqual({ thing1: series.name_en, time2: expect.stringMatching(/^\d{4}年\d{1,2}月\d{1,2}日 \d\d:\d\d$/), thing3: 'New drop announced' })
    const rows = await t.db.selectFrom('restock_reminders').select(['series_id', 'status', 'last_error']).orderBy('id').execute()
    const of = (id: number) => rows.filter(r => Number(r.series_id) === id)
    expect(of(wanted).map(r => r.status)).toEqual(['sent', 'sent', 'failed'])
    expect(of(wanted)[2].last_error).toContain('43101')
    expect(of(other).map(r => r.status)).toEqual(['waiting'])
    // once told, the request is done: the page offers the button again when the series sells out again
    expect((await as(a, '/api/restockReminder', { seriesId: wanted })).body.data.mine).toBeNull()
  })

  test('a series without drops, restocked on the stock screen: told once it can sell a case again, not before', async () => {
    // cases of 2 (one of each design), one figure of each: one case, bought whole, and it is sold out
    const seriesId = await makeSeries(t.db, t.clock, { regular: 2, rare: 0, stock: 1 })
    const buyer = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, buyer, 10_000)
    const c = await as(buyer.token, '/api/caseCurrent', { seriesId })
    expect((await buy(t.app, buyer, { caseId: c.body.data.caseId, wholeCase: true })).body.code).toBe(200)
    expect((await as(undefined, '/api/seriesDetail', { seriesId })).body.data.soldOut).toBe(true)
    const a = await shopperToken('cai@example.test')
    expect((await as(a, '/api/restockRemind', { seriesId, channel: 'mail' }, 'zh')).body.code).toBe(200)
    const e = await weappToken('o_restock_shopper_03')
    mini.subscribe('o_restock_shopper_03', wechat.RESTOCK_TEMPLATE_ID)
    expect((await as(e, '/api/restockRemind', { seriesId, channel: 'wechat' })).body.code).toBe(200)

    const stock = async () => (await as(op, '/api/operator/stock', { seriesId })).body.data
    const save = async (more: (i: number) => number) => {
      const view = await stock()
      const r = await as(op, '/api/operator/stockSave', { seriesId, designs: view.designs.map((d: { designId: number; stock: number }, i: number) => ({ designId: d.designId, stock: d.stock + more(i), was: d.stock })) })
      expect(r.body.code).toBe(200)
      return r.body.data
    }
    // one design restocked: still no case can be filled, nobody is told
    expect(await save(i => (i === 0 ? 3 : 0))).toMatchObject({ soldOut: true })
    expect(await deliverDueReminders(senders)).toBe(0)
    // both: on sale again, and each is told once
    const mailsBefore = smtp.mails.length
    expect(await save(i => (i === 0 ? 0 : 3))).toMatchObject({ soldOut: false, openCases: 1 })
    const [n1, n2] = await Promise.all([deliverDueReminders(senders), deliverDueReminders(senders)])
    expect(n1 + n2).toBe(2)
    expect(await deliverDueReminders(senders)).toBe(0)
    const series = await t.db.selectFrom('series').select(['name', 'name_en']).where('id', '=', seriesId).executeTakeFirstOrThrow()
    const mails = smtp.mails.slice(mailsBefore)
    expect(mails.map(m => [m.to[0], m.subject])).toEqual([['cai@example.test', `补货通知：${series.name}`]])
    expect(mails[0].text).toMatch(/^你关注的系列补货了，现在就能买。/)
    expect(mails[0].text).toContain(`系列：${series.name}`)
    const sent = mini.messages.filter((m: { touser: string }) => m.touser === 'o_restock_shopper_03')
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatchObject({ templateId: wechat.RESTOCK_TEMPLATE_ID, page: `pagesA/blind_box_detail/index?seriesId=${seriesId}` })
    expect(sent[0].data).toEqual({ thing1: series.name_en, time2: expect.stringMatching(/^\d{4}年\d{1,2}月\d{1,2}日 \d\d:\d\d$/), thing3: 'Back in stock now' })
    // on sale: nothing to ask for now
    expect((await as(a, '/api/restockRemind', { seriesId, channel: 'mail' })).body).toMatchObject({ code: 409, data: { reason: 'on_sale' } })
  })
})
