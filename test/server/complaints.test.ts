/**
 * The complaint channel (issue 10, part 5) on SQLite and PostgreSQL, with a local SMTP server and local
 * Feishu and WeCom webhooks: a shopper files complaints (checked, idempotent, 3 an hour), reads their
 * status and the reply; operators list them by status, reply (optionally mailed), close (audited; two
 * operators at once); POST /common/mail/send is not a relay; the operators' robots and mailbox hear of
 * every new complaint, shipment request and withdrawal request, masked, after the commit, once, and a
 * robot that is down fails nothing.
 */
import { COMPLAINT_LIMITS, MAIL_SEND_LIMITS } from '../../types/limits'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import { testDialects } from './support/db'
import { startSmtp, type FakeSmtp } from './support/fakes'
import { invariantViolations } from './support/invariants'
import { buy, currentCaseId, makeSeries, makeShopper, newKey, topUp, type Shopper } from './support/shop'
import * as feishuFake from '../support/providers/feishu'
import * as wecomFake from '../support/providers/wecom'
import { deleteAccount } from '../../server/src/domain/account/accountDeletion'
import { excerpt, maskFreeText } from '../../server/src/domain/ops/alerts'

const MAILBOX = 'support@shop.example.test'

/** Waits until `check` holds (alerts are sent after the answer, on their own). */
async function until (check: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise(r => setTimeout(r, 20))
  }
}
const settle = () => new Promise(r => setTimeout(r, 300))

test('alert texts: long digit runs and e-mail addresses masked; excerpts one line and cut with …', () => {
  expect(maskFreeText('call 13800138000 or mail li.lei@example.com, ID 11010119900307777X, box 12')).toBe('call 138****00 or mail l***i@example.com, ID 110****7X, box 12')
  expect(excerpt('a\n\nb   c')).toBe('a b c')
  expect(excerpt('字'.repeat(61))).toBe(`${'字'.repeat(60)}…`)
  expect(excerpt('😀'.repeat(60))).toBe('😀'.repeat(60))
})

describe.each(testDialects())('complaints on %s', (dialect) => {
  let t: TestApp
  let smtp: FakeSmtp
  let feishu: feishuFake.FakeFeishu
  let wecom: wecomFake.FakeWeCom
  let operator: string
  let operatorId: number
  let operator2: string

  beforeAll(async () => {
    ;[smtp, feishu, wecom] = await Promise.all([startSmtp(), feishuFake.start(), wecomFake.start()])
    t = await createTestApp(dialect, { fakes: { smtp }, env: { ...feishu.env, ...wecom.env, COMPLAINT_MAILBOX: `${MAILBOX}, Boss@Shop.example.test` } })
    feishu.now = t.clock.now
    // the robots' own per-minute limits are not what these tests are about (robots.test.ts tests them)
    feishu.perMinute = wecom.perMinute = 100000
    const op = await makeUser(t.db, t.clock, { role: 'operator' })
    operatorId = Number(op.id)
    operator = await loginToken(t.app, op.user_name!, op.password)
    const op2 = await makeUser(t.db, t.clock, { role: 'operator' })
    operator2 = await loginToken(t.app, op2.user_name!, op2.password)
  })
  afterAll(async () => {
    await t.close()
    await Promise.all([smtp.close(), feishu.close(), wecom.close()])
  })
  afterEach(async () => { expect(await invariantViolations(t.db)).toEqual([]) })

  const call = (token: string | null, path: string, body: unknown, lang?: string) =>
    post(t.app, path, body, { ...(token ? { token } : {}), ip: nextIp(), ...(lang ? { lang } : {}) })
  const complaint = (over: Record<string, unknown> = {}) => ({
    topic: 'shipping', text: '我的包裹已经十天没有更新物流了，请帮忙查一下。', idempotencyKey: newKey('c'), ...over
  })
  const file = (s: Shopper, over: Record<string, unknown> = {}, lang?: string) => call(s.token, '/api/complaintCreate', complaint(over), lang)
  const rows = () => t.db.selectFrom('complaints').selectAll().orderBy('id').execute()
  /** A new shopper with a fresh hourly budget. */
  const shopper = () => makeShopper(t.app, t.db, t.clock)

  test('every route: anonymous 401; the operator routes 403 to a shopper, before the body is looked at', async () => {
    const s = await shopper()
    for (const path of ['/api/complaintCreate', '/api/complaintList', '/common/mail/send']) {
      for (const body of [complaint(), {}, { bad: true }]) expect((await call(null, path, body)).body.code).toBe(401)
    }
    for (const path of ['/api/operator/complaintList', '/api/operator/complaintReply', '/api/operator/complaintClose']) {
      for (const body of [{ page: 1, size: 10 }, { complaintId: 1, reply: 'x' }, {}, { bad: true }]) {
        expect((await call(null, path, body)).body.code).toBe(401)
        expect((await call(s.token, path, body)).body.code).toBe(403)
      }
    }
    expect(await rows()).toHaveLength(0)
  })

  test('a shopper files one: stored open, listed newest first with no one else\'s; robots and mailbox alerted, masked', async () => {
    const s = await shopper()
    const other = await shopper()
    const [f0, w0, m0] = [feishu.messages.length, wecom.messages.length, smtp.mails.length]
    const text = '快递员说我不在家，但我一直在。电话 13800138000，邮箱 li.lei@example.com\n请尽快处理'
    const r = await file(s, { text, contact: 'Li.Lei@Example.com', orderNo: 'SF1234567890123', topic: 'shipping' })
    expect(r.body.code).toBe(200)
    expect(r.body.data).toEqual({
      id: expect.any(Number), topic: 'shipping', text, contact: 'li.lei@example.com', orderNo: 'SF1234567890123',
      status: 'open', reply: null, createdAt: '2026-03-01T08:00:00.000Z', repliedAt: null, closedAt: null
    })
    const id = r.body.data.id
    expect((await rows()).find(x => Number(x.id) === id)).toMatchObject({ user_id: s.id, status: 'open', contact: 'li.lei@example.com', reference: 'SF1234567890123' })
    t.clock.advance(1000)
    const second = (await file(s, { topic: 'other', text: 'Second message, about something else.' })).body.data
    await file(other)
    const mine = (await call(s.token, '/api/complaintList', { page: 1, size: 10 })).body.data
    expect(mine.total).toBe(2)
    expect(mine.list.map((c: { id: number }) => c.id)).toEqual([second.id, id])

    // s's second complaint within ten minutes goes into a digest (alert-floods.test.ts), not out on its own
    await until(() => feishu.messages.length >= f0 + 2 && wecom.messages.length >= w0 + 2 && smtp.mails.length >= m0 + 4, 'the alerts')
    await settle()
    expect([feishu.messages.length, wecom.messages.length, smtp.mails.length]).toEqual([f0 + 2, w0 + 2, m0 + 4])
    expect(feishu.messages.some(m => m.includes(`#${second.id}`))).toBe(false)
    const alert = feishu.messages.find(m => m.includes(`#${id}`))!
    expect(alert).toBe(`【新留言】#${id}（发货物流）用户 #${s.id} T***r，单号 SF1234567890123：快递员说我不在家，但我一直在。电话 138****00，邮箱 l***i@example.com 请尽快处理`)
    expect(wecom.messages).toContain(alert)
    // the mailboxes get the whole (masked) text, through the same code as /common/mail/send
    const mails = smtp.mails.filter(m => m.subject === `[客服留言 #${id}] 发货物流 · 用户 #${s.id}`)
    expect(mails.map(m => m.to[0]).sort()).toEqual(['boss@shop.example.test', MAILBOX])
    expect(mails[0].text).toContain('快递员说我不在家，但我一直在。电话 138****00，邮箱 l***i@example.com\n请尽快处理')
    expect(mails[0].text).toContain('联系邮箱：l***i@example.com')
    for (const sent of [...feishu.messages, ...wecom.messages, ...mails.map(m => m.text)]) {
      expect(sent).not.toContain('13800138000')
      expect(sent).not.toContain('li.lei@example.com')
      expect(sent).not.toContain('Tester')
    }
  })

  test('bad input is a 400 naming the field, in the caller\'s language; nothing is stored or sent', async () => {
    const s = await shopper()
    const before = [(await rows()).length, feishu.calls.length]
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ topic: 'refund' }, 'topic'],
      [{ text: 'too short' }, 'text'],
      [{ text: 'x'.repeat(COMPLAINT_LIMITS.textMax + 1) }, 'text'],
      [{ text: 'bell \u0007 ringing here' }, 'text'],
      [{ contact: 'not an address' }, 'contact'],
      [{ orderNo: 'no spaces allowed' }, 'orderNo'],
      [{ idempotencyKey: 'x' }, 'idempotencyKey'],
      [{ userId: 1 }, 'userId']
    ]
    for (const [over, field] of cases) {
      const r = await file(s, over, 'en')
      expect([field, r.body.code, r.body.data?.field]).toEqual([field, 400, field])
    }
    expect((await file(s, { text: 'too short' }, 'en')).body.message).toBe(`text must be at least ${COMPLAINT_LIMITS.textMin} characters`)
    expect((await file(s, { text: 'too short' }, 'zh')).body.message).toBe(`text 长度不能少于 ${COMPLAINT_LIMITS.textMin} 个字符`)
    const { text: _text, ...noText } = complaint()
    expect((await call(s.token, '/api/complaintCreate', noText, 'en')).body).toMatchObject({ code: 400, message: 'text is required', data: { field: 'text' } })
    await settle()
    expect([(await rows()).length, feishu.calls.length]).toEqual(before)
  })

  test('a retry with the same key is the same complaint (one row, one alert); the key with another body is a 409', async () => {
    const s = await shopper()
    const body = complaint({ topic: 'payment', text: '充值 100 元没有到账，订单号见下。' })
    const first = await call(s.token, '/api/complaintCreate', body)
    const again = await call(s.token, '/api/complaintCreate', body)
    expect(again.body).toEqual(first.body)
    expect((await rows()).filter(r => Number(r.user_id) === s.id)).toHaveLength(1)
    expect((await call(s.token, '/api/complaintCreate', { ...body, text: '另一件事情，和上面的不一样。' })).body).toMatchObject({ code: 409, data: { field: 'idempotencyKey' } })
    await until(() => feishu.messages.some(m => m.includes(`#${first.body.data.id}（`)), 'the alert')
    await settle()
    expect(feishu.messages.filter(m => m.includes(`#${first.body.data.id}（`))).toHaveLength(1)
    // the retry cost nothing: two more fit into the hour
    expect((await file(s)).body.code).toBe(200)
    expect((await file(s)).body.code).toBe(200)
  })

  test(`at most ${COMPLAINT_LIMITS.perHour} an hour per account: a clear 429 saying when; then one every 20 minutes`, async () => {
    const s = await shopper()
    for (let i = 0; i < COMPLAINT_LIMITS.perHour; i++) expect((await file(s)).body.code).toBe(200)
    const over = await file(s, {}, 'en')
    expect(over.body).toEqual({ code: 429, message: 'You can send at most 3 messages an hour; try again in 20 min', data: { retryAfter: 1200 } })
    expect((await file(s, {}, 'zh')).body.message).toBe('每小时最多提交 3 条留言，请 20 分钟后再试')
    // another shopper is not held back
    expect((await file(await shopper())).body.code).toBe(200)
    t.clock.advance(20 * 60 * 1000)
    expect((await file(s)).body.code).toBe(200)
    expect((await file(s)).body.code).toBe(429)
  })

  test('operators: by status with counts, newest first; reply (the shopper sees it, mailed on request), close; audited', async () => {
    const s = await shopper()
    const a = (await file(s, { contact: 'reader@example.test', topic: 'prize', text: '收到的款式和抽到的不一样，能帮忙看看吗？' })).body.data
    t.clock.advance(1000)
    const b = (await file(s, { topic: 'account', text: 'I cannot bind my phone number.' })).body.data
    const list = async (status?: string) => (await call(operator, '/api/operator/complaintList', { page: 1, size: 50, ...(status ? { status } : {}) })).body.data
    const open = await list('open')
    expect(open.list.slice(0, 2).map((c: { id: number }) => c.id)).toEqual([b.id, a.id])
    expect(open.list[0]).toMatchObject({ userId: s.id, userLabel: `Tester (${s.userName})`, status: 'open' })
    const counts = open.counts
    expect(open.total).toBe(counts.open)

    const mails = smtp.mails.length
    const replied = await call(operator, '/api/operator/complaintReply', { complaintId: a.id, reply: '您好，已核实是发错了款式，\n我们会补发正确的款式。', mailContact: true })
    expect(replied.body.code).toBe(200)
    expect(replied.body.data).toMatchObject({ mailed: 'sent', complaint: { id: a.id, status: 'answered', reply: '您好，已核实是发错了款式，\n我们会补发正确的款式。', repliedAt: expect.any(String) } })
    const mail = smtp.mails.slice(mails).find(m => m.to.includes('reader@example.test'))!
    expect(mail.subject).toBe(`拾盒回复了你的留言 #${a.id} / Pickbox replied to your message #${a.id}`)
    expect(mail.text).toContain('我们会补发正确的款式。')
    expect(mail.text).toContain('收到的款式和抽到的不一样')
    // the shopper sees the reply and the status
    const mine = (await call(s.token, '/api/complaintList', { page: 1, size: 10 })).body.data.list
    expect(mine.find((c: { id: number }) => c.id === a.id)).toMatchObject({ status: 'answered', reply: '您好，已核实是发错了款式，\n我们会补发正确的款式。' })
    // a second reply replaces the first; then closed
    expect((await call(operator2, '/api/operator/complaintReply', { complaintId: a.id, reply: '补发已寄出。' })).body.data).toMatchObject({ mailed: 'not_asked', complaint: { reply: '补发已寄出。' } })
    const closed = await call(operator, '/api/operator/complaintClose', { complaintId: a.id })
    expect(closed.body.data).toMatchObject({ id: a.id, status: 'closed', closedAt: expect.any(String), reply: '补发已寄出。' })
    expect((await list()).counts).toEqual({ open: counts.open - 1, answered: counts.answered, closed: counts.closed + 1 })
    expect((await list('closed')).list.map((c: { id: number }) => c.id)).toContain(a.id)

    const audit = await t.db.selectFrom('audit_log').selectAll().where('entity', '=', 'complaint').where('entity_id', '=', a.id).orderBy('id').execute()
    expect(audit.map(x => [x.action, Number(x.actor_id)])).toEqual([['complaint.reply', operatorId], ['complaint.reply', expect.any(Number)], ['complaint.close', operatorId]])
    expect(audit.map(x => JSON.parse(x.detail))).toEqual([
      { before: { status: 'open', reply: null }, after: { status: 'answered', reply: '您好，已核实是发错了款式，\n我们会补发正确的款式。' }, userId: s.id },
      { before: { status: 'answered', reply: '您好，已核实是发错了款式，\n我们会补发正确的款式。' }, after: { status: 'answered', reply: '补发已寄出。' }, userId: s.id },
      { before: { status: 'answered' }, after: { status: 'closed' }, userId: s.id }
    ])

    // closed is final; unknown is a 404; a mail asked for without a contact is refused and changes nothing
    expect((await call(operator, '/api/operator/complaintReply', { complaintId: a.id, reply: 'late' }, 'en')).body).toEqual({ code: 409, message: 'This message is closed', data: { status: 'closed' } })
    expect((await call(operator, '/api/operator/complaintClose', { complaintId: a.id })).body).toMatchObject({ code: 409, data: { status: 'closed' } })
    expect((await call(operator, '/api/operator/complaintClose', { complaintId: 99999999 }, 'en')).body).toEqual({ code: 404, message: 'No such message', data: null })
    const noContact = await call(operator, '/api/operator/complaintReply', { complaintId: b.id, reply: 'Try again please.', mailContact: true }, 'en')
    expect(noContact.body).toEqual({ code: 422, message: 'This message left no contact address, so the reply cannot be mailed', data: { field: 'mailContact', reason: 'no_contact' } })
    expect((await rows()).find(r => Number(r.id) === b.id)).toMatchObject({ status: 'open', reply: null })
    // bad input
    expect((await call(operator, '/api/operator/complaintReply', { complaintId: b.id, reply: '' })).body).toMatchObject({ code: 400, data: { field: 'reply' } })
    expect((await call(operator, '/api/operator/complaintReply', { complaintId: b.id, reply: 'x'.repeat(COMPLAINT_LIMITS.replyMax + 1) })).body).toMatchObject({ code: 400, data: { field: 'reply' } })
    expect((await call(operator, '/api/operator/complaintList', { page: 1, size: 10, status: 'pending' })).body).toMatchObject({ code: 400, data: { field: 'status' } })
  })

  test('two operators at once: closing twice closes once (one 409, one audit row); two replies apply one after the other', async () => {
    for (let round = 0; round < 3; round++) {
      const s = await shopper()
      const c = (await file(s)).body.data
      const closes = await Promise.all([operator, operator2].map(tok => call(tok, '/api/operator/complaintClose', { complaintId: c.id })))
      expect(closes.map(r => r.body.code).sort()).toEqual([200, 409])
      expect(await t.db.selectFrom('audit_log').select('id').where('entity', '=', 'complaint').where('entity_id', '=', c.id).execute()).toHaveLength(1)
      const d = (await file(s)).body.data
      const replies = await Promise.all(['first', 'second'].map((text, i) => call(i ? operator2 : operator, '/api/operator/complaintReply', { complaintId: d.id, reply: text })))
      expect(replies.map(r => r.body.code)).toEqual([200, 200])
      const audit = (await t.db.selectFrom('audit_log').select('detail').where('entity', '=', 'complaint').where('entity_id', '=', d.id).orderBy('id').execute()).map(x => JSON.parse(x.detail))
      expect(audit).toHaveLength(2)
      // each replaced what was really there: the second saw the first's reply
      expect(audit[0].before.reply).toBeNull()
      expect(audit[1].before.reply).toBe(audit[0].after.reply)
      expect((await rows()).find(r => Number(r.id) === d.id)!.reply).toBe(audit[1].after.reply)
    }
  })

  test('/common/mail/send is not a relay: a shopper writes only to the shop\'s mailbox (and says who); an operator to anyone', async () => {
    const s = await shopper()
    const outside = await call(s.token, '/common/mail/send', { title: 'Hello', content: 'Buy cheap watches', mail: 'victim@example.org' }, 'en')
    expect(outside.body).toEqual({ code: 422, message: `You can only write to the shop's mailbox: ${MAILBOX}, boss@shop.example.test`, data: { field: 'mail', reason: 'recipient' } })
    // in every language, however the address is written
    expect((await call(s.token, '/common/mail/send', { title: 'Hello', content: 'Hi', mail: 'VICTIM@example.org' }, 'zh')).body.message).toBe(`只能发送到店铺的客服邮箱：${MAILBOX}, boss@shop.example.test`)
    await settle()
    expect(smtp.mails.filter(m => m.to.includes('victim@example.org'))).toHaveLength(0)

    const ok = await call(s.token, '/common/mail/send', { title: 'Order {order}: {what}', content: 'Hello,\n{what} in order {order}.\nUser {user}', mail: 'SUPPORT@shop.example.test', params: { order: 'BB2026', what: 'a broken box', user: 7 } })
    expect(ok.body).toEqual({ code: 200, message: 'OK', data: { mail: MAILBOX, title: 'Order BB2026: a broken box', channel: 'mail' } })
    const mail = smtp.mails[smtp.mails.length - 1]
    expect(mail.to).toEqual([MAILBOX])
    expect(mail.subject).toBe('Order BB2026: a broken box')
    expect(mail.text.replace(/\r\n/g, '\n').trim()).toBe(`[这封邮件由店铺用户 #${s.id}（T***r）通过 /common/mail/send 发送]\n\nHello,\na broken box in order BB2026.\nUser 7`)

    const op = await call(operator, '/common/mail/send', { title: 'Your parcel', content: 'It left today. {x}', mail: 'buyer@example.org', params: { x: '{y} stays' } })
    expect(op.body.data).toEqual({ mail: 'buyer@example.org', title: 'Your parcel', channel: 'mail' })
    const opMail = smtp.mails[smtp.mails.length - 1]
    expect(opMail.to).toEqual(['buyer@example.org'])
    // a value is not read for placeholders again; the operator's mail has no sender line
    expect(opMail.text.replace(/\r\n/g, '\n').trim()).toBe('It left today. {y} stays')
  })

  test('/common/mail/send: bad input is a 400 naming the field; a shopper 5 an hour, an operator 60', async () => {
    const s = await shopper()
    const send = (token: string, body: Record<string, unknown>, lang = 'en') => call(token, '/common/mail/send', { title: 'T', content: 'C', mail: MAILBOX, ...body }, lang)
    const before = smtp.mails.length
    expect((await send(s.token, { title: 'Order {order}' })).body)
      .toEqual({ code: 400, message: 'The placeholder {order} of title has no value in params', data: { field: 'params.order', rule: 'placeholder' } })
    expect((await send(s.token, { content: 'x {a}', params: { b: 1 } }, 'zh')).body)
      .toEqual({ code: 400, message: 'content 中的占位符 {a} 没有对应的值', data: { field: 'params.a', rule: 'placeholder' } })
    expect((await send(s.token, { params: { 'bad-name': 'x' } })).body).toMatchObject({ code: 400, data: { field: 'params.bad-name' } })
    expect((await send(s.token, { params: { a: { nested: true } } })).body).toMatchObject({ code: 400, data: { field: 'params.a' } })
    expect((await send(s.token, { params: { a: 'line\nbreak' } })).body).toMatchObject({ code: 400, data: { field: 'params.a' } })
    expect((await send(s.token, { title: 'two\nlines' })).body).toMatchObject({ code: 400, data: { field: 'title' } })
    expect((await send(s.token, { mail: 'nope' })).body).toMatchObject({ code: 400, data: { field: 'mail' } })
    expect((await send(s.token, { content: '' })).body).toMatchObject({ code: 400, data: { field: 'content' } })
    expect((await send(s.token, { cc: 'x@example.org' })).body).toMatchObject({ code: 400, data: { field: 'cc' } })
    const long = 'x'.repeat(MAIL_SEND_LIMITS.paramValueMax)
    expect((await send(s.token, { title: '{a}', params: { a: long } })).body)
      .toEqual({ code: 400, message: `title is longer than ${MAIL_SEND_LIMITS.titleMax} characters once params are filled in`, data: { field: 'title' } })
    await settle()
    expect(smtp.mails.slice(before).filter(m => m.subject === 'T' || m.subject.startsWith('Order') || m.subject.startsWith('two'))).toHaveLength(0)

    for (let i = 0; i < MAIL_SEND_LIMITS.shopperPerHour; i++) expect((await send(s.token, {})).body.code).toBe(200)
    expect((await send(s.token, {}, 'en')).body).toMatchObject({ code: 429, message: expect.stringMatching(/^Too many requests, try again in \d+ s$/) })
    // the refused ones did not count: the shopper's five all went out
    await until(() => smtp.mails.filter(m => m.subject === 'T').length === MAIL_SEND_LIMITS.shopperPerHour, 'the five mails')
  })

  test('shipment and withdrawal requests alert the robots once (masked), after the commit; a replay alerts nobody', async () => {
    const s = await shopper()
    await topUp(t.app, s, 20000)
    const seriesId = await makeSeries(t.db, t.clock, { priceCents: 1000 })
    const caseId = await currentCaseId(t.app, seriesId, s.token)
    const bought = await buy(t.app, s, { caseId, slots: [1, 2] })
    expect(bought.body.code).toBe(200)
    const address = (await call(s.token, '/api/addressSave', { name: '张三丰', phone: '13912345678', region: '上海市 浦东新区', detail: '世纪大道 100 号 8 楼' })).body.data
    const key = newKey('ship')
    const body = { prizeIds: bought.body.data.prizes.map((p: { prizeId: number }) => p.prizeId), addressId: address.id, idempotencyKey: key }
    const shipped = await call(s.token, '/api/shipmentCreate', body)
    expect(shipped.body.code).toBe(200)
    const id = shipped.body.data.shipment.id
    const text = `【新发货申请】#${id}：2 件，上海市 浦东新区，收件人 张***丰 139****5678，运费 12.00 元`
    await until(() => feishu.messages.includes(text) && wecom.messages.includes(text), 'the shipment alert')
    expect((await call(s.token, '/api/shipmentCreate', body)).body).toEqual(shipped.body)

    const w = await call(s.token, '/api/withdrawRequest', { amountCents: 5000, idempotencyKey: 'wd-alert-' + s.id })
    expect(w.body.code).toBe(200)
    const wText = `【新提现申请】#${w.body.data.id}：50.00 元，用户 #${s.id} T***r，请在编辑器的“提现审核”页处理`
    await until(() => feishu.messages.includes(wText) && wecom.messages.includes(wText), `the withdrawal alert ${wText} in ${JSON.stringify(feishu.messages.slice(-3))}`)
    expect((await call(s.token, '/api/withdrawRequest', { amountCents: 5000, idempotencyKey: 'wd-alert-' + s.id })).body).toEqual(w.body)
    await settle()
    for (const m of [feishu.messages, wecom.messages]) {
      expect(m.filter(x => x === text)).toHaveLength(1)
      expect(m.filter(x => x === wText)).toHaveLength(1)
      expect(m.join('\n')).not.toMatch(/13912345678|世纪大道|张三丰/)
    }
  })

  test('robots and mailbox down: the shopper\'s complaint, shipment and withdrawal still succeed; the failures are logged', async () => {
    const s = await shopper()
    feishu.next = 'http500'
    wecom.next = { json: { errcode: 93000, errmsg: 'invalid webhook url' } }
    const r = await file(s)
    expect(r.body.code).toBe(200)
    await until(() => t.logs.filter(l => l.includes('operator alert not delivered') && l.includes('"alert":"complaint (')).length >= 2, 'the logged failures')
    const logged = t.logs.filter(l => l.includes('operator alert not delivered'))
    expect(logged.some(l => l.includes('"level":40'))).toBe(true)
    expect(logged.join('\n')).not.toContain(feishuFake.TOKEN)
    expect((await rows()).some(x => Number(x.id) === r.body.data.id)).toBe(true)
  })

  test('a hung robot does not hold the shopper\'s answer', async () => {
    const s = await shopper()
    feishu.next = 'hang'
    const started = Date.now()
    expect((await file(s)).body.code).toBe(200)
    expect(Date.now() - started).toBeLessThan(2000)
    feishu.next = null
  })

  test('deleting the account erases its complaints', async () => {
    const s = await shopper()
    await file(s, { contact: 'gone@example.test' })
    await deleteAccount(t.db, t.clock.now, dialect, s.id, true)
    expect((await rows()).filter(r => Number(r.user_id) === s.id)).toHaveLength(0)
  })
})

describe.each(testDialects())('complaints without mailbox, mail or robots on %s', (dialect) => {
  let t: TestApp
  let quick: TestApp
  const sent: string[] = []
  beforeAll(async () => {
    t = await createTestApp(dialect, { build: { mailer: null } })
    // a mailer that only counts, for the operators' hourly budget
    quick = await createTestApp(dialect, { build: { mailer: { send: async m => { sent.push(m.to) } } } })
  })
  afterAll(async () => {
    await t.close()
    await quick.close()
  })

  test(`an operator may write to anyone, ${MAIL_SEND_LIMITS.operatorPerHour} an hour`, async () => {
    const op = await makeUser(quick.db, quick.clock, { role: 'operator' })
    const token = await loginToken(quick.app, op.user_name!, op.password)
    const send = (mail: string) => post(quick.app, '/common/mail/send', { title: 'T', content: 'C', mail }, { token, lang: 'en' })
    for (let i = 0; i < MAIL_SEND_LIMITS.operatorPerHour; i++) expect((await send(`someone${i}@example.org`)).body.code).toBe(200)
    expect((await send('one.more@example.org')).body).toMatchObject({ code: 429 })
    expect(sent).toHaveLength(MAIL_SEND_LIMITS.operatorPerHour)
    quick.clock.advance(60 * 60 * 1000)
    expect((await send('an.hour.later@example.org')).body.code).toBe(200)
  })

  test('filing still works; /common/mail/send says what is missing', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    expect((await post(t.app, '/api/complaintCreate', { topic: 'other', text: 'Hello, is anyone there?', idempotencyKey: newKey() }, { token: s.token })).body.code).toBe(200)
    expect((await post(t.app, '/common/mail/send', { title: 'T', content: 'C', mail: MAILBOX }, { token: s.token, lang: 'en' })).body)
      .toEqual({ code: 422, message: 'The shop has no support mailbox set up; mail cannot be sent', data: { field: 'mail', reason: 'no_mailbox' } })
    const op = await makeUser(t.db, t.clock, { role: 'operator' })
    const token = await loginToken(t.app, op.user_name!, op.password)
    expect((await post(t.app, '/common/mail/send', { title: 'T', content: 'C', mail: 'a@example.org' }, { token, lang: 'en' })).body)
      .toEqual({ code: 422, message: 'Mail is not available in this shop', data: { provider: 'mail' } })
  })
})
