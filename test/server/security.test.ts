/**
 * Account security (issue 10) on SQLite and PostgreSQL: the sessions list (app type, masked IP, this
 * device), ending one, the others or all; a password change that needs the current password and ends
 * the other sessions; spending limits (lowering at once, raising after 24 hours, enforced in the check
 * and the purchase with nothing charged, and under parallel purchases); the birth-date correction
 * (once, reviewed by an operator, audited) that unlocks a shopper locked out by a mistyped date.
 */
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import { startSms, startSmtp, type FakeSms, type FakeSmtp } from './support/fakes'
import { buy, currentCaseId, makeSeries, makeShopper, newKey, topUp } from './support/shop'
import { invariantViolations } from './support/invariants'
import { maskIp, deviceOf, shopMonthStart } from '../../server/src/domain/security'
import { postTransaction } from '../../server/src/domain/ledger'

const HOUR = 60 * 60 * 1000

test('masked addresses, device names and the China month', () => {
  expect(maskIp('203.0.113.7')).toBe('203.0.113.x')
  expect(maskIp('::ffff:198.51.100.23')).toBe('198.51.100.x')
  expect(maskIp('2001:db8:85a3::8a2e:370:7334')).toBe('2001:db8:85a3:x')
  expect(maskIp(null)).toBe('?')
  expect(deviceOf('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.40')).toBe('WeChat · iOS')
  expect(deviceOf('Mozilla/5.0 (Linux; Android 13) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36')).toBe('Chrome · Android')
  // 2026-11-30 20:00 UTC is already 1 December in China
  expect(new Date(shopMonthStart(Date.parse('2026-11-30T20:00:00Z'))).toISOString()).toBe('2026-11-30T16:00:00.000Z')
  expect(new Date(shopMonthStart(Date.parse('2026-11-15T00:00:00Z'))).toISOString()).toBe('2026-10-31T16:00:00.000Z')
})

describe.each(testDialects())('account security on %s', (dialect) => {
  let t: TestApp
  let seriesId: number
  beforeAll(async () => {
    t = await createTestApp(dialect)
    seriesId = await makeSeries(t.db, t.clock, { priceCents: 1000 })
  })
  afterAll(async () => {
    expect(await invariantViolations(t.db)).toEqual([])
    await t.close()
  })

  const overview = async (token: string) => {
    const r = await post(t.app, '/api/security/overview', {}, { token })
    expect(r.body.code).toBe(200)
    return r.body.data
  }

  test('every call needs a login (401); the review calls are 403 for a shopper, before validation', async () => {
    for (const url of ['/api/security/overview', '/api/security/password', '/api/security/sessionEnd', '/api/security/sessionsEndOthers',
      '/api/security/logoutAll', '/api/security/limits', '/api/security/birthDateCorrection', '/api/operator/birthDateCorrections', '/api/operator/birthDateReview']) {
      expect([url, (await post(t.app, url, { junk: 1 })).body.code]).toEqual([url, 401])
    }
    const s = await makeShopper(t.app, t.db, t.clock)
    for (const url of ['/api/operator/birthDateCorrections', '/api/operator/birthDateReview']) {
      expect([url, (await post(t.app, url, { correctionId: 'x' }, { token: s.token })).body.code]).toEqual([url, 403])
    }
  })

  test('sessions: app type, device and masked address; end one, the others, then everywhere', async () => {
    const u = await makeUser(t.db, t.clock)
    const login = (appType: string, ip: string, ua: string) => post(t.app, '/login/passwd', { user_name: u.user_name, password: u.password }, { ip, headers: { APP_TYPE: appType, 'user-agent': ua } })
      .then(r => r.body.data.token as string)
    const phone = await login('weapp', '203.0.113.7', 'Mozilla/5.0 (iPhone) MicroMessenger/8.0')
    const laptop = await login('h5', '198.51.100.9', 'Mozilla/5.0 (Windows NT 10.0) Chrome/120.0')
    const tablet = await login('h5', '192.0.2.33', 'Mozilla/5.0 (Linux; Android 13) Chrome/120.0')
    const mine = await overview(phone)
    expect(mine.sessions).toHaveLength(3)
    const me = mine.sessions.find((s: { current: boolean }) => s.current)
    expect(me).toMatchObject({ appType: 'weapp', device: 'WeChat · iOS', maskedIp: '203.0.113.x', current: true })
    expect(JSON.stringify(mine.sessions)).not.toMatch(/203\.0\.113\.7|198\.51\.100\.9/)
    const laptopRow = mine.sessions.find((s: { maskedIp: string }) => s.maskedIp === '198.51.100.x')

    // another user's session id is not found, and nothing ends
    const other = await makeShopper(t.app, t.db, t.clock)
    expect((await post(t.app, '/api/security/sessionEnd', { sessionId: laptopRow.id }, { token: other.token })).body.code).toBe(404)
    expect((await post(t.app, '/api/walletBalance', {}, { token: laptop })).body.code).toBe(200)

    expect((await post(t.app, '/api/security/sessionEnd', { sessionId: laptopRow.id }, { token: phone })).body.data).toEqual({ ended: 1 })
    expect((await post(t.app, '/api/walletBalance', {}, { token: laptop })).body.code).toBe(401)
    expect((await post(t.app, '/api/security/sessionsEndOthers', {}, { token: phone })).body.data).toEqual({ ended: 1 })
    expect((await post(t.app, '/api/walletBalance', {}, { token: tablet })).body.code).toBe(401)
    expect((await overview(phone)).sessions).toHaveLength(1)
    expect((await post(t.app, '/api/security/logoutAll', {}, { token: phone })).body.data).toEqual({ ended: 1 })
    expect((await post(t.app, '/api/walletBalance', {}, { token: phone })).body.code).toBe(401)
  })

  test('password: the current one is required and checked; the change ends the other sessions and keeps this one', async () => {
    const u = await makeUser(t.db, t.clock)
    const a = await loginToken(t.app, u.user_name!, u.password)
    const b = await loginToken(t.app, u.user_name!, u.password)
    const missing = await post(t.app, '/api/security/password', { newPassword: 'brand-new1' }, { token: a, lang: 'en' })
    expect([missing.body.code, missing.body.data]).toEqual([400, expect.objectContaining({ field: 'currentPassword' })])
    const wrong = await post(t.app, '/api/security/password', { currentPassword: 'nope-nope', newPassword: 'brand-new1' }, { token: a, lang: 'zh' })
    expect([wrong.body.code, wrong.body.message]).toEqual([422, '当前密码不正确'])
    const short = await post(t.app, '/api/security/password', { currentPassword: u.password, newPassword: 'ab' }, { token: a })
    expect(short.body.code).toBe(400)
    // nothing changed so far
    expect(await loginToken(t.app, u.user_name!, u.password)).toBeTruthy()

    const ok = await post(t.app, '/api/security/password', { currentPassword: u.password, newPassword: 'brand-new1' }, { token: a })
    expect(ok.body.data.ended).toBeGreaterThanOrEqual(2) // b and the check login above
    expect((await post(t.app, '/api/walletBalance', {}, { token: b })).body.code).toBe(401)
    expect((await post(t.app, '/api/walletBalance', {}, { token: a })).body.code).toBe(200)
    expect((await post(t.app, '/login/passwd', { user_name: u.user_name, password: u.password })).body.code).toBe(401)
    expect((await post(t.app, '/login/passwd', { user_name: u.user_name, password: 'brand-new1' })).body.code).toBe(200)
  })

  test('a first password for an account without one needs no current password', async () => {
    const u = await makeUser(t.db, t.clock)
    const token = await loginToken(t.app, u.user_name!, u.password)
    await t.db.updateTable('users').set({ password_hash: null }).where('id', '=', Number(u.id)).execute()
    expect((await overview(token)).hasPassword).toBe(false)
    expect((await post(t.app, '/api/security/password', { newPassword: 'first-one' }, { token })).body.code).toBe(200)
    expect((await overview(token)).hasPassword).toBe(true)
  })

  test('limits: lowering applies at once, raising and removing after 24 hours, shown as pending', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    const set = (body: object) => post(t.app, '/api/security/limits', body, { token: s.token }).then(r => { expect(r.body.code).toBe(200); return r.body.data })
    let v = await set({ daily: 5000, monthly: 20000 })
    expect(v.daily).toMatchObject({ cents: 5000, pending: null, spentCents: 0 })
    expect(v.monthly).toMatchObject({ cents: 20000, pending: null })
    v = await set({ daily: 3000 })
    expect(v.daily).toMatchObject({ cents: 3000, pending: null })
    expect(v.monthly.cents).toBe(20000) // left out: unchanged
    v = await set({ daily: 8000, monthly: null })
    expect(v.daily.cents).toBe(3000)
    expect(v.daily.pending).toEqual({ cents: 8000, appliesAt: new Date(t.clock.now() + 24 * HOUR).toISOString() })
    expect(v.monthly).toMatchObject({ cents: 20000, pending: { cents: null } })
    // lowering again cancels the waiting raise
    v = await set({ daily: 2000 })
    expect(v.daily).toMatchObject({ cents: 2000, pending: null })
    v = await set({ daily: 6000 })
    t.clock.advance(23 * HOUR)
    expect((await overview(s.token)).limits.daily).toMatchObject({ cents: 2000, pending: { cents: 6000 } })
    t.clock.advance(HOUR + 1000)
    expect((await overview(s.token)).limits.daily).toMatchObject({ cents: 6000, pending: null })
    expect((await overview(s.token)).limits.monthly).toMatchObject({ cents: null, pending: null })
  })

  test('limits are enforced in the check and the purchase with nothing charged; a removal waits its day; the month counts', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 10000)
    expect((await post(t.app, '/api/security/limits', { daily: 1500 }, { token: s.token })).body.code).toBe(200)
    const caseId = await currentCaseId(t.app, seriesId, s.token)
    expect((await buy(t.app, s, { caseId, slots: [1] })).body.code).toBe(200)
    const check = await post(t.app, '/api/purchaseCheck', { caseId, slots: [2], acknowledged: true }, { token: s.token, lang: 'en' })
    expect([check.body.code, check.body.data]).toEqual([422, { reason: 'spending_limit', kind: 'daily', limitCents: 1500, leftCents: 500 }])
    expect(check.body.message).toBe('This is over the daily spending limit you set (15.00 yuan); 5.00 yuan left today')
    const before = (await post(t.app, '/api/walletBalance', {}, { token: s.token })).body.data
    const refused = await buy(t.app, s, { caseId, slots: [2] }, 'zh')
    expect([refused.body.code, refused.body.message]).toEqual([422, '已超出你设置的每日消费限额 15.00 元，今天还可消费 5.00 元'])
    expect((await post(t.app, '/api/walletBalance', {}, { token: s.token })).body.data).toEqual(before)
    // removing the daily limit waits 24 hours (it still refuses now); a monthly limit applies at once
    expect((await post(t.app, '/api/security/limits', { daily: null, monthly: 1000 }, { token: s.token })).body.code).toBe(200)
    const stillDaily = await post(t.app, '/api/purchaseCheck', { caseId, slots: [2], acknowledged: true }, { token: s.token })
    expect(stillDaily.body.data).toMatchObject({ kind: 'daily' })
    // a day later the daily limit is gone, and the month's 10 yuan are spent
    t.clock.advance(25 * HOUR)
    const monthly = await post(t.app, '/api/purchaseCheck', { caseId, slots: [2], acknowledged: true }, { token: s.token })
    expect(monthly.body.data).toEqual({ reason: 'spending_limit', kind: 'monthly', limitCents: 1000, leftCents: 0 })
  })

  test('parallel purchases cannot pass a limit together', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 20000)
    expect((await post(t.app, '/api/security/limits', { daily: 3000 }, { token: s.token })).body.code).toBe(200)
    const caseId = await currentCaseId(t.app, seriesId, s.token)
    const view = (await post(t.app, '/api/caseCurrent', { seriesId }, { token: s.token })).body.data
    const free = view.slots.filter((x: { sold: boolean }) => !x.sold).map((x: { slot: number }) => x.slot).slice(0, 6)
    const results = await Promise.all(free.map((slot: number) => buy(t.app, s, { caseId, slots: [slot] })))
    const codes = results.map(r => r.body.code)
    expect(codes.filter(c => c === 200)).toHaveLength(3)
    expect(codes.filter(c => c !== 200).every(c => c === 422 || c === 409)).toBe(true)
    const spent = await t.db.selectFrom('purchases').select(eb => eb.fn.sum<number>('total_cents').as('s')).where('user_id', '=', s.id).executeTakeFirst()
    expect(Number(spent?.s)).toBe(3000)
  })

  test('a mistyped birth date: one correction request, reviewed by an operator, audited, and buying works again', async () => {
    // typed 2021 instead of 2012: a child of 5 cannot buy
    const s = await makeShopper(t.app, t.db, t.clock, null)
    const typo = await post(t.app, '/api/ageVerify', { birthDate: '2021-04-09' }, { token: s.token })
    expect(typo.body.code).toBe(422)
    const caseId = await currentCaseId(t.app, seriesId, s.token)
    expect((await post(t.app, '/api/purchaseCheck', { caseId, slots: [1], acknowledged: true }, { token: s.token })).body.data).toMatchObject({ reason: 'too_young' })

    const bad = await post(t.app, '/api/security/birthDateCorrection', { birthDate: '2021-04-09', reason: 'typo' }, { token: s.token })
    expect([bad.body.code, bad.body.data]).toEqual([400, expect.objectContaining({ field: 'birthDate' })])
    const future = await post(t.app, '/api/security/birthDateCorrection', { birthDate: '2099-01-01', reason: 'typo' }, { token: s.token })
    expect(future.body.code).toBe(400)
    const asked = await post(t.app, '/api/security/birthDateCorrection', { birthDate: '1992-04-09', reason: 'typed 2021 for 1992' }, { token: s.token })
    expect(asked.body.data).toMatchObject({ oldBirthDate: '2021-04-09', newBirthDate: '1992-04-09', status: 'pending' })
    const again = await post(t.app, '/api/security/birthDateCorrection', { birthDate: '1993-04-09', reason: 'another' }, { token: s.token, lang: 'en' })
    expect([again.body.code, again.body.message]).toEqual([409, 'A birth-date correction can be asked for once per account'])
    expect((await overview(s.token)).correction).toMatchObject({ status: 'pending' })

    const op = await makeUser(t.db, t.clock, { role: 'operator' })
    const opToken = await loginToken(t.app, op.user_name!, op.password)
    const queue = (await post(t.app, '/api/operator/birthDateCorrections', { page: 1, size: 20, status: 'pending' }, { token: opToken })).body.data
    const mine = queue.list.find((c: { userId: number }) => c.userId === s.id)
    expect(mine).toMatchObject({ newBirthDate: '1992-04-09', status: 'pending' })
    const noNote = await post(t.app, '/api/operator/birthDateReview', { correctionId: mine.id, approve: false }, { token: opToken })
    expect([noNote.body.code, noNote.body.data]).toEqual([400, expect.objectContaining({ field: 'note' })])
    const approved = await post(t.app, '/api/operator/birthDateReview', { correctionId: mine.id, approve: true }, { token: opToken })
    expect(approved.body.data).toMatchObject({ status: 'approved' })
    expect((await post(t.app, '/api/operator/birthDateReview', { correctionId: mine.id, approve: false, note: 'late' }, { token: opToken })).body.code).toBe(409)

    const audit = await t.db.selectFrom('audit_log').select(['actor_id', 'action', 'detail']).where('entity', '=', 'user').where('entity_id', '=', s.id).execute()
    expect(audit.map(a => [Number(a.actor_id), a.action, JSON.parse(a.detail).before, JSON.parse(a.detail).after]))
      .toEqual([[Number(op.id), 'birth_date.correct', { birthDate: '2021-04-09' }, { birthDate: '1992-04-09' }]])
    expect((await overview(s.token)).age).toMatchObject({ birthDate: '1992-04-09', minor: false })
    await topUp(t.app, s, 2000)
    expect((await buy(t.app, s, { caseId, slots: [await freeSlot(s.token)] })).body.code).toBe(200)
  })

  async function freeSlot (token: string): Promise<number> {
    const view = (await post(t.app, '/api/caseCurrent', { seriesId }, { token })).body.data
    return view.slots.find((x: { sold: boolean }) => !x.sold).slot
  }

  test('deleting the account: the password, no cash, no parcel; credit and prizes lapse only when agreed; personal data erased, orders kept', async () => {
    const u = await makeUser(t.db, t.clock, { phone: `136${String(Date.now()).slice(-8)}`, email: `del${Date.now().toString(36)}@example.com` })
    const token = await loginToken(t.app, u.user_name!, u.password)
    const other = await loginToken(t.app, u.user_name!, u.password)
    const s = { id: Number(u.id), token, userName: u.user_name! }
    expect((await post(t.app, '/api/ageVerify', { birthDate: '1988-08-08' }, { token })).body.code).toBe(200)
    await t.db.insertInto('addresses').values({ user_id: s.id, name: 'Li', phone: u.phone!, region: 'Beijing', detail: 'Road 1', is_default: 1, created_at: new Date(t.clock.now()).toISOString(), updated_at: new Date(t.clock.now()).toISOString() }).execute()
    await topUp(t.app, s, 1500)
    const del = (body: object, lang?: string) => post(t.app, '/api/security/deleteAccount', body, { token, lang })

    expect((await del({ password: 'wrong-one' })).body).toMatchObject({ code: 422, data: { field: 'password' } })
    const cash = await del({ password: u.password }, 'en')
    expect([cash.body.code, cash.body.data, cash.body.message]).toEqual([422, { reason: 'cash', cashCents: 1500 }, 'The account still holds 15.00 yuan of cash: withdraw it before deleting'])
    // one box (10 yuan) goes to the warehouse; the 5 yuan of cash left are turned into credit below
    const caseId = await currentCaseId(t.app, seriesId, token)
    expect((await buy(t.app, s, { caseId, slots: [await freeSlot(token)] })).body.code).toBe(200)
    await t.db.updateTable('wallets').set({ cash_cents: 0, credit_cents: 500 }).where('user_id', '=', s.id).execute()
    await t.db.transaction().execute(async trx => {
      // the books follow the wallet: 5 yuan leave the user's cash and arrive as the user's credit
      await postTransaction(trx, t.clock.now, { kind: 'reward', reference: 'test move', idempotencyKey: null, userId: s.id, lines: [{ account: 'user_cash', userId: s.id, amountCents: -500 }, { account: 'house_credit', amountCents: 500 }, { account: 'house_credit', amountCents: -500 }, { account: 'user_credit', userId: s.id, amountCents: 500 }] })
    })
    const lapse = await del({ password: u.password })
    expect([lapse.body.code, lapse.body.data]).toEqual([422, { reason: 'forfeit', creditCents: 500, prizes: 1 }])
    expect((await post(t.app, '/api/walletBalance', {}, { token })).body.code).toBe(200) // nothing happened yet

    const done = await del({ password: u.password, forfeit: true })
    expect(done.body).toMatchObject({ code: 200, data: { ended: 2 } })
    for (const tk of [token, other]) expect((await post(t.app, '/api/walletBalance', {}, { token: tk })).body.code).toBe(401)
    expect((await post(t.app, '/login/passwd', { user_name: u.user_name, password: u.password })).body.code).toBe(401)
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', s.id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ user_name: null, phone: null, email: null, avatar: null, password_hash: null, nickname: '—' })
    expect(row.deleted_at).toBeTruthy()
    for (const table of ['addresses', 'identities', 'age_checks', 'spending_limits'] as const) {
      expect([table, (await t.db.selectFrom(table).select('user_id').where('user_id', '=', s.id).execute()).length]).toEqual([table, 0])
    }
    expect((await t.db.selectFrom('sessions').select(['ip', 'user_agent']).where('user_id', '=', s.id).execute()).every(x => x.ip === null && x.user_agent === null)).toBe(true)
    // the orders and purchases stay, owned by the anonymous row
    expect((await t.db.selectFrom('purchases').select('id').where('user_id', '=', s.id).execute()).length).toBe(1)
    expect((await t.db.selectFrom('orders').select('id').where('user_id', '=', s.id).execute()).length).toBe(1)
    const audit = await t.db.selectFrom('audit_log').select(['action', 'detail']).where('entity', '=', 'user').where('entity_id', '=', s.id).execute()
    expect(audit.map(a => a.action)).toContain('account.delete')
    // the phone, address and user name are free again
    const again = await post(t.app, '/login/register?table=user', { user_name: u.user_name, password: 'new-person' })
    expect(again.body.code).toBe(200)
    expect(again.body.data.user.id).not.toBe(s.id)
  })

  test('deleting needs a password on the account, and is refused while a withdrawal is under way', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    await t.db.updateTable('users').set({ password_hash: null }).where('id', '=', s.id).execute()
    expect((await post(t.app, '/api/security/deleteAccount', { password: 'anything' }, { token: s.token })).body.data).toEqual({ reason: 'no_password' })
    const w = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, w, 1000)
    expect((await post(t.app, '/api/withdrawRequest', { amountCents: 1000, idempotencyKey: newKey('del') }, { token: w.token })).body.code).toBe(200)
    expect((await post(t.app, '/api/security/deleteAccount', { password: 'secret-pw' }, { token: w.token })).body.data).toEqual({ reason: 'withdrawal' })
  })

  test('two correction requests at once: one is stored', async () => {
    const s = await makeShopper(t.app, t.db, t.clock, '2001-02-03')
    const results = await Promise.all([1, 2, 3].map(i => post(t.app, '/api/security/birthDateCorrection', { birthDate: `1999-02-0${i}`, reason: 'typo' }, { token: s.token })))
    expect(results.map(r => r.body.code).sort()).toEqual([200, 409, 409])
    const rows = await t.db.selectFrom('birth_date_corrections').select('id').where('user_id', '=', s.id).execute()
    expect(rows).toHaveLength(1)
  })
})

describe.each(testDialects())('binding a phone or e-mail on %s', (dialect) => {
  let t: TestApp
  let sms: FakeSms
  let smtp: FakeSmtp
  beforeAll(async () => {
    sms = await startSms()
    smtp = await startSmtp()
    t = await createTestApp(dialect, { fakes: { sms, smtp } })
  })
  afterAll(async () => {
    await t.close()
    await sms.close()
    await smtp.close()
  })
  const bindCode = (token: string, body: object, ip = nextIp()) => post(t.app, '/api/security/bindCode', body, { token, ip })
  const bind = (token: string, body: object, lang?: string) => post(t.app, '/api/security/bind', body, { token, lang, ip: nextIp() })

  test('an e-mail: a code to the address, then bound; logging in by a mail code reaches this account', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    const address = `Bind.${Date.now().toString(36)}@Example.com`
    expect((await bindCode(s.token, { email: address })).body).toMatchObject({ code: 200, data: null })
    const code = smtp.lastCode(address.toLowerCase())
    const wrong = await bind(s.token, { email: address, code: code === '000000' ? '111111' : '000000' })
    expect([wrong.body.code, wrong.body.data]).toEqual([401, { field: 'code' }])
    expect((await t.db.selectFrom('users').select('email').where('id', '=', s.id).executeTakeFirstOrThrow()).email).toBeNull()
    const ok = await bind(s.token, { email: address, code: smtp.lastCode(address.toLowerCase()) })
    expect(ok.body.code).toBe(200)
    expect(ok.body.data.email).toMatch(/^b\*\*\*[a-z0-9]@example\.com$/)
    // a used code does not bind twice
    expect((await bind(s.token, { email: address, code })).body.code).toBe(401)
    t.clock.advance(61_000) // one code a minute per address
    expect((await post(t.app, '/login/mail/sendCode', { phone: address }, { ip: nextIp() })).body.code).toBe(200)
    const login = await post(t.app, '/login/mail', { phone: address, code: smtp.lastCode(address.toLowerCase()) }, { ip: nextIp() })
    expect(login.body.data.user.id).toBe(s.id)
  })

  test('a phone another account holds is refused (409), and a request must name one target', async () => {
    const a = await makeShopper(t.app, t.db, t.clock)
    const b = await makeShopper(t.app, t.db, t.clock)
    const phone = `139${String(Date.now()).slice(-8)}`
    await bindCode(a.token, { phone })
    expect((await bind(a.token, { phone, code: sms.lastCode(phone) })).body.code).toBe(200)
    t.clock.advance(61_000) // one code a minute per phone
    expect((await bindCode(b.token, { phone })).body.code).toBe(200)
    const taken = await bind(b.token, { phone, code: sms.lastCode(phone) }, 'en')
    expect([taken.body.code, taken.body.message, taken.body.data]).toEqual([409, 'This phone number belongs to another account', { field: 'phone' }])
    expect((await t.db.selectFrom('users').select('phone').where('id', '=', b.id).executeTakeFirstOrThrow()).phone).toBeNull()
    expect((await bindCode(a.token, { phone, email: 'x@example.com' })).body.code).toBe(400)
    expect((await bindCode(a.token, {})).body.code).toBe(400)
    // replacing: a new phone takes the old one's place
    const next = `137${String(Date.now()).slice(-8)}`
    await bindCode(a.token, { phone: next })
    expect((await bind(a.token, { phone: next, code: sms.lastCode(next) })).body.data.phone).toBe(`${next.slice(0, 3)}****${next.slice(-4)}`)
  })
})
