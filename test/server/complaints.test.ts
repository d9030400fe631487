/**
 * The complaint channel on both databases (types/complaints.ts), against local servers that speak the
 * providers' APIs: SMTP, a Feishu custom bot (signature checked as Feishu checks it) and a WeCom group
 * robot. A complaint is stored, mailed to the complaint mailbox and posted to both robots (line breaks
 * become spaces; no name, phone or street in a robot text); the same robots hear of new shipments and
 * withdrawal requests (once, not on a replay); operators answer and close (audited, mailed to the
 * contact); /common/mail/send is no relay; the robot calls map the providers' refusals; a robot that is
 * down loses no complaint. Plus the adapters' contract with each fake.
 */
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import { buy, currentCaseId, makeSeries, makeShopper, newKey, topUp, type Shopper } from './support/shop'
import { startSmtp, type FakeSmtp } from './support/fakes'
import { startFeishu, startWeCom, envFor as robotEnv, FEISHU_SECRET } from '../support/providers/robots'
import type { FakeProvider } from '../support/providers/http'
import type { RobotCall } from '../support/providers/robots'
import { FeishuRobot, WeComRobot, feishuSign, robotText } from '../../server/src/providers/robots'
import { ProviderRefusedError, ProviderUnavailableError } from '../../server/src/providers/errors'
import { alertsOf } from '../../server/src/services/alerts'

const MAILBOX = 'care@pickbox.example'

describe('the robot adapters against the fakes', () => {
  let feishu: FakeProvider<RobotCall>
  let wecom: FakeProvider<RobotCall>
  beforeAll(async () => { feishu = await startFeishu(); wecom = await startWeCom() })
  afterAll(async () => { await feishu.close(); await wecom.close() })

  test('Feishu: signed as documented, one line; a wrong secret, a refusal and an outage are told apart', async () => {
    const now = Date.now()
    await new FeishuRobot(feishu.url, FEISHU_SECRET, () => now).send('第一行\n第二行\r\nthird')
    expect(feishu.calls.at(-1)).toEqual({ text: '第一行 第二行 third', timestamp: String(Math.floor(now / 1000)), sign: feishuSign(Math.floor(now / 1000), FEISHU_SECRET) })
    await expect(new FeishuRobot(feishu.url, 'wrong-secret', () => now).send('x')).rejects.toMatchObject({ provider: 'feishu', status: '19021' })
    await expect(new FeishuRobot(feishu.url, FEISHU_SECRET, () => now - 2 * 3600 * 1000).send('x')).rejects.toBeInstanceOf(ProviderRefusedError)
    feishu.next = 'http500'
    await expect(new FeishuRobot(feishu.url, FEISHU_SECRET, () => now).send('x')).rejects.toBeInstanceOf(ProviderUnavailableError)
    feishu.next = { json: { StatusCode: 0, StatusMessage: 'success' } }
    await expect(new FeishuRobot(feishu.url, FEISHU_SECRET, () => now).send('old style answer')).resolves.toBeUndefined()
  })

  test('WeCom: the documented body; a wrong key is refused with its code', async () => {
    await new WeComRobot(wecom.url).send('a\nb')
    expect(wecom.calls.at(-1)).toEqual({ text: 'a b' })
    await expect(new WeComRobot(wecom.url.replace(/key=[^&]+/, 'key=nope')).send('x')).rejects.toMatchObject({ provider: 'wecom', status: '93000' })
    wecom.next = 'garbage'
    await expect(new WeComRobot(wecom.url).send('x')).rejects.toBeInstanceOf(ProviderUnavailableError)
    expect(robotText('x'.repeat(5000))).toHaveLength(4000)
  })
})

describe.each(testDialects())('the complaint channel on %s', (dialect) => {
  let t: TestApp
  let smtp: FakeSmtp
  let feishu: FakeProvider<RobotCall>
  let wecom: FakeProvider<RobotCall>
  let op: { id: number; token: string }
  let alerts: { flush: () => Promise<void> }

  const as = (token: string, url: string, body: unknown, lang = 'en') => post(t.app, url, body, { token, lang, ip: nextIp() })
  const settle = async () => alerts.flush()

  // Feishu checks the timestamp against its own clock: the fake's clock is the app's
  let appNow = () => Date.now()
  beforeAll(async () => {
    smtp = await startSmtp()
    feishu = await startFeishu({ now: () => appNow() })
    wecom = await startWeCom()
    t = await createTestApp(dialect, { fakes: { smtp }, env: { ...robotEnv(feishu, wecom), COMPLAINT_MAILBOX: MAILBOX } })
    alerts = alertsOf(t.app)!
    appNow = t.clock.now
    const u = await makeUser(t.db, t.clock, { role: 'operator' })
    op = { id: Number(u.id), token: await loginToken(t.app, u.user_name!, u.password) }
  })
  afterAll(async () => {
    await t?.close()
    await smtp.close()
    await feishu.close()
    await wecom.close()
  })

  test('a complaint is stored, mailed whole to the mailbox and posted to both robots without personal data', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    smtp.mails.length = 0
    const r = await as(s.token, '/api/complaintCreate', { topic: 'shipping', text: '包裹三天没有动静\n请帮忙查一下 13812345678', contact: 'me@example.com', reference: 'SF123' }, 'zh')
    expect(r.body).toMatchObject({ code: 200, data: { topic: 'shipping', status: 'open', reply: null, contact: 'me@example.com', reference: 'SF123' } })
    await settle()
    const id = r.body.data.id
    expect(feishu.calls.at(-1)!.text).toBe(`[拾盒 Pickbox] 新投诉 #${id}（发货，用户 #${s.id}）· New complaint #${id} (Shipping, user #${s.id})`)
    expect(wecom.calls.at(-1)!.text).toBe(feishu.calls.at(-1)!.text)
    expect(feishu.calls.at(-1)!.text).not.toContain('1381234')
    expect(smtp.mails).toHaveLength(1)
    expect(smtp.mails[0].to).toEqual([MAILBOX])
    expect(smtp.mails[0].subject).toContain(`#${id}`)
    expect(smtp.mails[0].text).toContain('包裹三天没有动静')
    expect(smtp.mails[0].text).toContain('Contact: me@example.com')
    const mine = await as(s.token, '/api/complaintList', { page: 1, size: 10 })
    expect(mine.body.data).toMatchObject({ total: 1, list: [{ id, status: 'open' }] })
    // another shopper sees none of it
    const other = await makeShopper(t.app, t.db, t.clock)
    expect((await as(other.token, '/api/complaintList', { page: 1, size: 10 })).body.data).toEqual({ list: [], total: 0 })
  })

  test('bad input is refused by field and stores nothing; at most 3 an hour', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    const count = async () => Number((await t.db.selectFrom('complaints').select(eb => eb.fn.countAll<number>().as('n')).where('user_id', '=', s.id).executeTakeFirstOrThrow()).n)
    for (const [body, field] of [
      [{ topic: 'price', text: 'x'.repeat(20) }, 'topic'],
      [{ topic: 'order', text: 'too short' }, 'text'],
      [{ topic: 'order', text: 'x'.repeat(1001) }, 'text'],
      [{ topic: 'order', text: 'long enough text', contact: 'not an address' }, 'contact'],
      [{ topic: 'order', text: 'long enough text', reference: 'a\nb' }, 'reference']
    ] as const) {
      const r = await as(s.token, '/api/complaintCreate', body, 'zh')
      expect([field, r.body.code, r.body.data?.field]).toEqual([field, 400, field])
    }
    expect(await count()).toBe(0)
    for (let i = 0; i < 3; i++) expect((await as(s.token, '/api/complaintCreate', { topic: 'other', text: `complaint number ${i}` })).body.code).toBe(200)
    const fourth = await as(s.token, '/api/complaintCreate', { topic: 'other', text: 'complaint number 4' })
    expect(fourth.body.code).toBe(429)
    expect(await count()).toBe(3)
    t.clock.advance(61 * 60 * 1000)
    expect((await as(s.token, '/api/complaintCreate', { topic: 'other', text: 'an hour later, again' })).body.code).toBe(200)
    await settle()
    // anonymous 401, a shopper on the operators' list 403, before anything is read
    expect((await post(t.app, '/api/complaintCreate', { topic: 'x' })).body.code).toBe(401)
    expect((await as(s.token, '/api/operator/complaints', { page: 'x' })).body.code).toBe(403)
  })

  test('operators list by status, answer (mailed to the contact) and close; audited; a closed one stays closed', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    const c = (await as(s.token, '/api/complaintCreate', { topic: 'payment', text: 'I was charged twice for one box', contact: 'payer@example.com' })).body.data
    await settle()
    const open = (await as(op.token, '/api/operator/complaints', { page: 1, size: 50, status: 'open' })).body.data
    expect(open.list.find((x: { id: number }) => x.id === c.id)).toMatchObject({ status: 'open', user: { id: s.id } })
    expect(open.counts.open).toBeGreaterThanOrEqual(1)
    smtp.mails.length = 0
    expect((await as(op.token, '/api/operator/complaintReply', { id: c.id, close: false })).body).toMatchObject({ code: 400, data: { field: 'reply' } })
    expect((await as(op.token, '/api/operator/complaintReply', { id: c.id, reply: '   ', close: false })).body).toMatchObject({ code: 400, data: { field: 'reply' } })
    const answered = await as(op.token, '/api/operator/complaintReply', { id: c.id, reply: 'Refunded the second charge today.', close: false })
    expect(answered.body).toMatchObject({ code: 200, data: { status: 'answered', reply: 'Refunded the second charge today.' } })
    for (let i = 0; i < 50 && !smtp.mails.length; i++) await new Promise(r => setTimeout(r, 20))
    expect(smtp.mails[0]).toMatchObject({ to: ['payer@example.com'] })
    expect(smtp.mails[0].text).toContain('Refunded the second charge today.')
    expect((await as(s.token, '/api/complaintList', { page: 1, size: 5 })).body.data.list[0]).toMatchObject({ id: c.id, status: 'answered', reply: 'Refunded the second charge today.' })
    expect((await as(op.token, '/api/operator/complaintReply', { id: c.id, close: true })).body.data.status).toBe('closed')
    expect((await as(op.token, '/api/operator/complaintReply', { id: c.id, reply: 'more', close: false })).body.code).toBe(422)
    expect((await as(op.token, '/api/operator/complaintReply', { id: 99999999, close: true })).body.code).toBe(404)
    const audit = await t.db.selectFrom('audit_log').selectAll().where('entity', '=', 'complaint').where('entity_id', '=', c.id).orderBy('id').execute()
    expect(audit.map(a => a.action)).toEqual(['complaint.reply', 'complaint.close'])
    expect(JSON.parse(audit[0].detail)).toMatchObject({ before: { status: 'open', reply: null }, after: { status: 'answered' } })
  })

  test('new shipments and withdrawal requests reach the robots once (not on a replay), with no name, phone or street', async () => {
    const s: Shopper = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 10000)
    const seriesId = await makeSeries(t.db, t.clock, { priceCents: 1000 })
    const caseId = await currentCaseId(t.app, seriesId, s.token)
    const prizes = (await buy(t.app, s, { caseId, slots: [1, 2, 3] })).body.data.prizes
    const addressId = (await as(s.token, '/api/addressSave', { name: '李四', phone: '13900139000', region: '北京市 海淀区', detail: '中关村大街 1 号' })).body.data.id
    const before = feishu.calls.length
    const body = { prizeIds: prizes.map((p: { prizeId: number }) => p.prizeId), addressId, idempotencyKey: newKey('ship') }
    const made = await as(s.token, '/api/shipmentCreate', body)
    expect(made.body.code).toBe(200)
    expect((await as(s.token, '/api/shipmentCreate', body)).body).toEqual(made.body)
    await settle()
    const shipTexts = feishu.calls.slice(before).map(c => c.text)
    expect(shipTexts).toEqual([`[拾盒 Pickbox] 新发货申请 #${made.body.data.shipment.id}：3 件，北京市 海淀区 · New shipment #${made.body.data.shipment.id}: 3 item(s) to 北京市 海淀区`])
    expect(shipTexts[0]).not.toMatch(/李四|13900139000|中关村/)
    const w = { amountCents: 500, idempotencyKey: newKey('wd') }
    const asked = await as(s.token, '/api/withdrawRequest', w)
    expect(asked.body.code).toBe(200)
    await as(s.token, '/api/withdrawRequest', w)
    await settle()
    expect(wecom.calls.filter(c => c.text.includes(`New withdrawal #${asked.body.data.id}:`)).map(c => c.text))
      .toEqual([`[拾盒 Pickbox] 新提现申请 #${asked.body.data.id}：¥5.00（用户 #${s.id}）· New withdrawal #${asked.body.data.id}: ¥5.00 (user #${s.id})`])
  })

  test('a robot that is down loses no complaint, and the call still succeeds', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    feishu.next = 'http500'
    wecom.next = 'garbage'
    const r = await as(s.token, '/api/complaintCreate', { topic: 'account', text: 'cannot change my phone number' })
    expect(r.body.code).toBe(200)
    expect(await t.db.selectFrom('complaints').select('id').where('id', '=', r.body.data.id).executeTakeFirst()).toBeTruthy()
  })

  test('/common/mail/send: a shopper only to the complaint mailbox, an operator anywhere, params filled', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    await settle()
    smtp.mails.length = 0
    const relay = await as(s.token, '/common/mail/send', { title: 'hi', content: 'spam', mail: 'victim@example.org' })
    expect(relay.body.code).toBe(403)
    expect(smtp.mails).toHaveLength(0)
    const ok = await as(s.token, '/common/mail/send', { title: 'Order {no}', content: 'Dear shop,\nabout {no}: {what}', mail: MAILBOX.toUpperCase(), params: { no: 'BB123', what: 'missing box' } })
    expect(ok.body).toEqual({ code: 200, message: 'OK', data: { sent: true } })
    expect(smtp.mails[0]).toMatchObject({ to: [MAILBOX], subject: 'Order BB123' })
    expect(smtp.mails[0].text).toContain('about BB123: missing box')
    const opMail = await as(op.token, '/common/mail/send', { title: 'Your parcel', content: 'It left today.', mail: 'buyer@example.org' })
    expect(opMail.body.code).toBe(200)
    expect(smtp.mails.at(-1)).toMatchObject({ to: ['buyer@example.org'] })
    for (const [body, field] of [[{ title: '', content: 'x', mail: MAILBOX }, 'title'], [{ title: 'x', content: 'x', mail: 'nope' }, 'mail'], [{ title: 'x', content: 'x', mail: MAILBOX, params: { 'a-b': 1 } }, 'params']] as const) {
      const r = await as(s.token, '/common/mail/send', body)
      expect([field, r.body.code]).toEqual([field, 400])
    }
    expect((await post(t.app, '/common/mail/send', { title: 'x' })).body.code).toBe(401)
  })

  test('the robot calls: operators only; sent as one line; a refusal carries the provider\'s message', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    expect((await as(s.token, '/api/feishuRobotText', { text: 'hi' })).body.code).toBe(403)
    const f = await as(op.token, '/api/feishuRobotText', { text: '上新啦\n星际旅人' })
    expect(f.body).toMatchObject({ code: 200, data: { sent: true } })
    expect(feishu.calls.at(-1)!.text).toBe('上新啦 星际旅人')
    expect((await as(op.token, '/api/wechatRobotText', { text: 'line one\nline two' })).body.code).toBe(200)
    expect(wecom.calls.at(-1)!.text).toBe('line one line two')
    wecom.next = { json: { errcode: 45009, errmsg: 'api freq out of limit' } }
    const refused = await as(op.token, '/api/wechatRobotText', { text: 'again' })
    expect(refused.body).toMatchObject({ code: 422, data: { provider: 'wecom', status: '45009' } })
    expect(refused.body.message).toContain('api freq out of limit')
    expect((await as(op.token, '/api/feishuRobotText', { text: '' })).body).toMatchObject({ code: 400, data: { field: 'text' } })
  })
})

describe('without robots or a mailbox configured', () => {
  test('the robot calls say the robot is not configured; a complaint is still stored', async () => {
    const t = await createTestApp('sqlite')
    try {
      const u = await makeUser(t.db, t.clock, { role: 'operator' })
      const token = await loginToken(t.app, u.user_name!, u.password)
      const r = await post(t.app, '/api/feishuRobotText', { text: 'hi' }, { token, lang: 'zh' })
      expect(r.body).toMatchObject({ code: 422, data: { provider: 'feishu' }, message: '飞书机器人未配置' })
      const s = await makeShopper(t.app, t.db, t.clock)
      expect((await post(t.app, '/api/complaintCreate', { topic: 'order', text: 'a complaint with no robots' }, { token: s.token })).body.code).toBe(200)
    } finally {
      await t.close()
    }
  })
})

