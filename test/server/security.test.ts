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
import { maskIp, deviceOf } from '../../server/src/domain/account/security'
import { shopMonthStart } from '../../server/src/domain/account/spendingCaps'
import { postTransaction } from '../../server/src/domain/money/ledger'
import { deliverShipment } from '../../server/src/domain/prizes/afterDraw'

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
    expect(check.body.message).toBe('This is over the daily spending limit you set (¥15.00); ¥5.00 left today')
    const before = (await post(t.app, '/api/walletBalance', {}, { token: s.token })).body.data
    const refused = await buy(t.app, s, { caseId, slots: [2] }, 'zh')
    expect([refused.body.code, refused.body.message]).toEqual([422, '已超出你设置的每日消费限额 ¥15.00，今天还可消费 ¥5.00'])
    expect((await post(t.app, '/api/walletBalance', {}, { token: s.token })).body.data).toEqual(before)
    // removing the daily limit waits 24 hours (it still refuses now, and leaves less than the new
    // monthly limit of 18 yuan, which applies at once: the stricter names itself)
    expect((await post(t.app, '/api/security/limits', { daily: null, monthly: 1800 }, { token: s.token })).body.code).toBe(200)
    const stillDaily = await post(t.app, '/api/purchaseCheck', { caseId, slots: [2], acknowledged: true }, { token: s.token })
    expect(stillDaily.body.data).toEqual({ reason: 'spending_limit', kind: 'daily', limitCents: 1500, leftCents: 500 })
    // a day later the daily limit is gone, and 8 of the month's 18 yuan are left
    t.clock.advance(25 * HOUR)
    const monthly = await post(t.app, '/api/purchaseCheck', { caseId, slots: [2], acknowledged: true }, { token: s.token, lang: 'en' })
    expect([monthly.body.data, monthly.body.message]).toEqual([{ reason: 'spending_limit', kind: 'monthly', limitCents: 1800, leftCents: 800 }, 'This is over the monthly spending limit you set (¥18.00); ¥8.00 left this month'])
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

  test('spending counts prop cards and shipping fees (credit too); a card or a fee over a limit is refused with nothing charged', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 10000)
    expect((await post(t.app, '/api/security/limits', { daily: 2000 }, { token: s.token })).body.code).toBe(200)
    const caseId = await currentCaseId(t.app, seriesId, s.token)
    const box = await buy(t.app, s, { caseId, slots: [await freeSlot(s.token)] })
    expect(box.body.code).toBe(200)
    const balance = async () => (await post(t.app, '/api/walletBalance', {}, { token: s.token })).body.data
    const before = await balance()
    // an X-ray card (15 yuan) is over the 10 yuan left today
    const xray = await post(t.app, '/api/propBuy', { kind: 'xray', quantity: 1, pay: 'cash', idempotencyKey: newKey('x') }, { token: s.token, lang: 'en' })
    expect([xray.body.code, xray.body.data, xray.body.message]).toEqual([422, { reason: 'spending_limit', kind: 'daily', limitCents: 2000, leftCents: 1000 }, 'This is over the daily spending limit you set (¥20.00); ¥10.00 left today'])
    expect(await balance()).toEqual(before)
    expect((await post(t.app, '/api/props', {}, { token: s.token })).body.data.cards.xray).toBe(0)
    // a hint card (3 yuan) fits, and counts
    expect((await post(t.app, '/api/propBuy', { kind: 'hint', quantity: 1, pay: 'cash', idempotencyKey: newKey('h') }, { token: s.token })).body.code).toBe(200)
    // a one-item parcel's fee (12 yuan) is over the 7 yuan left: refused, the prize stays in the warehouse
    const addressId = (await post(t.app, '/api/addressSave', { name: 'Wang', phone: '13800138000', region: 'Shanghai', detail: 'Road 2' }, { token: s.token })).body.data.id
    const prizeId = box.body.data.prizes[0].prizeId
    const paidBefore = await balance()
    const ship = await post(t.app, '/api/shipmentCreate', { prizeIds: [prizeId], addressId, idempotencyKey: newKey('s') }, { token: s.token })
    expect([ship.body.code, ship.body.data]).toEqual([422, { reason: 'spending_limit', kind: 'daily', limitCents: 2000, leftCents: 700 }])
    expect(await balance()).toEqual(paidBefore)
    expect((await t.db.selectFrom('prizes').select('status').where('id', '=', prizeId).executeTakeFirstOrThrow()).status).toBe('warehouse')
    expect((await t.db.selectFrom('shipments').select('id').where('user_id', '=', s.id).execute())).toHaveLength(0)
    const limits = (await overview(s.token)).limits
    expect([limits.daily.spentCents, limits.monthly.spentCents]).toEqual([1300, 1300])
    // the next China day starts afresh (the month does not)
    t.clock.advance(24 * HOUR)
    expect((await post(t.app, '/api/shipmentCreate', { prizeIds: [prizeId], addressId, idempotencyKey: newKey('s') }, { token: s.token })).body.code).toBe(200)
    expect((await overview(s.token)).limits.monthly.spentCents).toBe(2500)
  })

  test('a minor: the default daily cap and the own limits both apply, and the stricter one names itself', async () => {
    const own = await makeSeries(t.db, t.clock, { priceCents: 1000 })
    const s = await makeShopper(t.app, t.db, t.clock, '2012-04-09', true)
    await topUp(t.app, s, 30000)
    const caseId = await currentCaseId(t.app, own, s.token)
    const slots = Array.from({ length: 11 }, (_, i) => i + 1)
    const check = (n: number, from = 0) => post(t.app, '/api/purchaseCheck', { caseId, slots: slots.slice(from, from + n), acknowledged: true }, { token: s.token, lang: 'en' })
    // an own daily limit of 200 yuan: the minor's 100 yuan are stricter
    expect((await post(t.app, '/api/security/limits', { daily: 20000 }, { token: s.token })).body.code).toBe(200)
    const minor = await check(11)
    expect([minor.body.data, minor.body.message]).toEqual([{ reason: 'daily_cap', capCents: 10000, leftCents: 10000 }, 'Minors may spend at most ¥100.00 a day; ¥100.00 left today'])
    expect((await check(10)).body.data).toMatchObject({ totalCents: 10000, dailyLeftCents: 0 })
    // an own limit of 50 yuan is now the stricter one
    expect((await post(t.app, '/api/security/limits', { daily: 5000 }, { token: s.token })).body.code).toBe(200)
    expect((await check(11)).body.data).toEqual({ reason: 'spending_limit', kind: 'daily', limitCents: 5000, leftCents: 5000 })
    expect((await buy(t.app, s, { caseId, slots: [1, 2, 3] })).body.code).toBe(200)
    expect((await check(3, 3)).body.data).toEqual({ reason: 'spending_limit', kind: 'daily', limitCents: 5000, leftCents: 2000 })
    expect((await overview(s.token)).age).toMatchObject({ minor: true, guardianConsent: true, minorDailyCapCents: 10000, birthDate: '2012-04-09' })
  })

  test('a session idle for a week has ended: it is not listed', async () => {
    const u = await makeUser(t.db, t.clock)
    const old = await loginToken(t.app, u.user_name!, u.password)
    t.clock.advance(7 * 24 * HOUR + 1000)
    const fresh = await loginToken(t.app, u.user_name!, u.password)
    const listed = (await overview(fresh)).sessions
    expect(listed).toHaveLength(1)
    expect(listed[0].current).toBe(true)
    expect((await post(t.app, '/api/walletBalance', {}, { token: old })).body.code).toBe(401)
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

    // what stands in the way is said before the password is checked
    const cash = await del({ password: 'wrong-one' }, 'en')
    expect([cash.body.code, cash.body.data, cash.body.message]).toEqual([422, { reason: 'cash', cashCents: 1500 }, 'The account still holds ¥15.00 of cash: withdraw it before deleting'])
    // one box (10 yuan) goes to the warehouse; the 5 yuan of cash left are turned into credit below
    const caseId = await currentCaseId(t.app, seriesId, token)
    expect((await buy(t.app, s, { caseId, slots: [await freeSlot(token)] })).body.code).toBe(200)
    await t.db.updateTable('wallets').set({ cash_cents: 0, credit_cents: 500 }).where('user_id', '=', s.id).execute()
    await t.db.transaction().execute(async trx => {
      // the books follow the wallet: 5 yuan leave the user's cash and arrive as the user's credit
      await postTransaction(trx, t.clock.now, { kind: 'reward', reference: 'test move', idempotencyKey: null, userId: s.id, lines: [{ account: 'user_cash', userId: s.id, amountCents: -500 }, { account: 'house_credit', amountCents: 500 }, { account: 'house_credit', amountCents: -500 }, { account: 'user_credit', userId: s.id, amountCents: 500 }] })
    })
    // a parcel of two other prizes that arrived: its name, phone and street go with the account
    const caseId2 = await currentCaseId(t.app, seriesId, token)
    await t.db.updateTable('wallets').set({ credit_cents: 3700 }).where('user_id', '=', s.id).execute()
    await t.db.transaction().execute(async trx => {
      await postTransaction(trx, t.clock.now, { kind: 'reward', reference: 'test gift', idempotencyKey: null, userId: s.id, lines: [{ account: 'house_credit', amountCents: -3200 }, { account: 'user_credit', userId: s.id, amountCents: 3200 }] })
    })
    const view = (await post(t.app, '/api/caseCurrent', { seriesId }, { token })).body.data
    const two = view.slots.filter((x: { sold: boolean }) => !x.sold).slice(0, 2).map((x: { slot: number }) => x.slot)
    const bought = await buy(t.app, s, { caseId: caseId2, slots: two })
    expect(bought.body.code).toBe(200)
    const addressId = (await post(t.app, '/api/addressSave', { name: '李四', phone: '13900139000', region: '北京市 朝阳区', detail: '建国路 1 号' }, { token })).body.data.id
    const parcel = await post(t.app, '/api/shipmentCreate', { prizeIds: bought.body.data.prizes.map((p: { prizeId: number }) => p.prizeId), addressId, idempotencyKey: newKey('ship') }, { token })
    expect(parcel.body.code).toBe(200) // 12 yuan of fee from the credit
    expect((await del({ password: u.password })).body.data).toEqual({ reason: 'parcel' })
    // the operator sends it (its figures leave the warehouse) and it arrives
    const sender = await makeUser(t.db, t.clock, { role: 'operator' })
    await deliverShipment(t.db, t.clock.now, Number(sender.id), parcel.body.data.shipment.id, 'shunfeng', 'SF1234567890')
    await t.db.updateTable('shipments').set({ status: 'received' }).where('id', '=', parcel.body.data.shipment.id).execute()
    await t.db.updateTable('prizes').set({ status: 'received' }).where('user_id', '=', s.id).where('status', '=', 'shipping').execute()
    // a WeChat Pay top-up whose payment could still arrive holds the deletion for its lifetime
    const now = new Date(t.clock.now()).toISOString()
    await t.db.insertInto('orders').values({ op_id: `del${Date.now()}`, user_id: s.id, product_id: 'wallet_topup', amount_cents: 100, channel: 'wechat_jsapi', status: 'canceled', prepay_id: 'wx-prepay', prepay_url: null, prepay_at: now, transaction_id: null, issued_at: now, created_at: now, paid_at: null, updated_at: now }).execute()
    const paying = await del({ password: u.password }, 'en')
    expect([paying.body.data, paying.body.message]).toEqual([{ reason: 'payment' }, 'A WeChat Pay top-up may still arrive: try deleting again in 120 minutes'])
    t.clock.advance(2 * HOUR + 1000)
    // a card bought with credit
    expect((await post(t.app, '/api/propBuy', { kind: 'hint', quantity: 1, pay: 'credit', idempotencyKey: newKey('card') }, { token })).body.code).toBe(200)
    const lapse = await del({ password: u.password })
    expect([lapse.body.code, lapse.body.data]).toEqual([422, { reason: 'forfeit', creditCents: 200, prizes: 1, cards: 1 }])
    expect((await del({ password: 'wrong-one', forfeit: true })).body).toMatchObject({ code: 422, data: { field: 'password' } })
    expect((await post(t.app, '/api/walletBalance', {}, { token })).body.code).toBe(200) // nothing happened yet

    const done = await del({ password: u.password, forfeit: true })
    expect(done.body).toMatchObject({ code: 200, data: { ended: 2 } })
    for (const tk of [token, other]) expect((await post(t.app, '/api/walletBalance', {}, { token: tk })).body.code).toBe(401)
    expect((await post(t.app, '/login/passwd', { user_name: u.user_name, password: u.password })).body.code).toBe(401)
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', s.id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ user_name: null, phone: null, email: null, avatar: null, password_hash: null, nickname: '—' })
    expect(row.deleted_at).toBeTruthy()
    for (const table of ['addresses', 'identities', 'age_checks', 'spending_limits', 'prop_inventory'] as const) {
      expect([table, (await t.db.selectFrom(table).select('user_id').where('user_id', '=', s.id).execute()).length]).toEqual([table, 0])
    }
    expect((await t.db.selectFrom('sessions').select(['ip', 'user_agent']).where('user_id', '=', s.id).execute()).every(x => x.ip === null && x.user_agent === null)).toBe(true)
    // the orders, purchases, parcels and books stay, owned by the anonymous row; the parcel without a name or street
    expect((await t.db.selectFrom('purchases').select('id').where('user_id', '=', s.id).execute()).length).toBe(2)
    expect((await t.db.selectFrom('orders').select('id').where('user_id', '=', s.id).execute()).length).toBe(2)
    expect(await t.db.selectFrom('shipments').select(['name', 'phone', 'region', 'detail']).where('user_id', '=', s.id).execute())
      .toEqual([{ name: '—', phone: '', region: '北京市 朝阳区', detail: '' }])
    expect((await t.db.selectFrom('ledger_lines').select('id').where('user_id', '=', s.id).execute()).length).toBeGreaterThanOrEqual(6)
    expect((await t.db.selectFrom('idempotency_keys').select('response').where('user_id', '=', s.id).execute()).every(k => k.response === '{"erased":true}')).toBe(true)
    expect(JSON.stringify(await t.db.selectFrom('users').selectAll().where('id', '=', s.id).execute())).not.toMatch(new RegExp(`${u.phone}|${u.email}|${u.user_name}`))
    const audit = await t.db.selectFrom('audit_log').select(['action', 'detail']).where('entity', '=', 'user').where('entity_id', '=', s.id).execute()
    expect(audit.map(a => a.action)).toContain('account.delete')
    // the phone, address and user name are free again
    const again = await post(t.app, '/login/register?table=user', { user_name: u.user_name, password: 'new-person' })
    expect(again.body.code).toBe(200)
    expect(again.body.data.user.id).not.toBe(s.id)
  })

  test('deleting needs a way to prove it is the owner, and is refused while a withdrawal is under way', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    await t.db.updateTable('users').set({ password_hash: null }).where('id', '=', s.id).execute()
    // no password, no phone, no e-mail: nothing to send a code to
    const none = await post(t.app, '/api/security/deleteAccount', { password: 'anything' }, { token: s.token, lang: 'en' })
    expect([none.body.code, none.body.data, none.body.message]).toEqual([422, { reason: 'no_reauth' }, expect.stringMatching(/bind a phone number or e-mail address first/)])
    const pw = await post(t.app, '/api/security/password', { newPassword: 'first-one' }, { token: s.token })
    expect([pw.body.code, pw.body.data]).toEqual([422, { reason: 'no_reauth' }])
    expect((await overview(s.token)).hasPassword).toBe(false)
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
    // 422, not 401: the app would take a 401 for an ended session and log the owner out
    expect([wrong.body.code, wrong.body.data]).toEqual([422, { field: 'code' }])
    expect((await post(t.app, '/api/walletBalance', {}, { token: s.token })).body.code).toBe(200)
    expect((await t.db.selectFrom('users').select('email').where('id', '=', s.id).executeTakeFirstOrThrow()).email).toBeNull()
    const ok = await bind(s.token, { email: address, code: smtp.lastCode(address.toLowerCase()) })
    expect(ok.body.code).toBe(200)
    expect(ok.body.data.email).toMatch(/^b\*\*\*[a-z0-9]@example\.com$/)
    // a used code does not bind twice
    expect((await bind(s.token, { email: address, code })).body.code).toBe(422)
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

  test('a code is good for what it was sent for: a bind code does not log in, a login code does not bind, another account\'s bind code does not bind', async () => {
    const a = await makeShopper(t.app, t.db, t.clock)
    const b = await makeShopper(t.app, t.db, t.clock)
    const address = `purpose.${Date.now().toString(36)}@example.com`
    // a bind code of A: no login with it, and B cannot bind with it
    expect((await bindCode(a.token, { email: address })).body.code).toBe(200)
    const bindCodeOfA = smtp.lastCode(address)
    expect(smtp.mails.at(-1)?.text).toMatch(/bind this e-mail address|绑定/)
    expect((await post(t.app, '/login/mail', { phone: address, code: bindCodeOfA }, { ip: nextIp() })).body.code).toBe(401)
    // (the failed login counted an attempt on the login code only: A's bind code is untouched)
    expect((await bind(b.token, { email: address, code: bindCodeOfA })).body).toMatchObject({ code: 422, data: { field: 'code' } })
    // a login code to the address does not bind it either, nor does it void A's bind code
    t.clock.advance(61_000)
    expect((await post(t.app, '/login/mail/sendCode', { phone: address }, { ip: nextIp() })).body.code).toBe(200)
    const loginCode = smtp.lastCode(address)
    expect((await bind(a.token, { email: address, code: loginCode })).body.code).toBe(422)
    expect((await bind(a.token, { email: address, code: bindCodeOfA })).body.code).toBe(200)
    // the per-address limit counts codes of every purpose: a bind code right after a login code waits
    expect((await post(t.app, '/login/mail/sendCode', { phone: `other.${address}` }, { ip: nextIp() })).body.code).toBe(200)
    expect((await bindCode(b.token, { email: `other.${address}` })).body.code).toBe(429)
  })

  test('two accounts binding one address at the same moment: one wins, the other is told it is taken', async () => {
    const address = `race.${Date.now().toString(36)}@example.com`
    for (let round = 0; round < 3; round++) {
      const a = await makeShopper(t.app, t.db, t.clock)
      const b = await makeShopper(t.app, t.db, t.clock)
      const target = `${round}.${address}`
      // each asks for its own code (one a minute per address)
      expect((await bindCode(a.token, { email: target })).body.code).toBe(200)
      const codeA = smtp.lastCode(target)
      t.clock.advance(61_000)
      expect((await bindCode(b.token, { email: target })).body.code).toBe(200)
      const codeB = smtp.lastCode(target)
      const [ra, rb] = await Promise.all([bind(a.token, { email: target, code: codeA }, 'en'), bind(b.token, { email: target, code: codeB }, 'en')])
      expect([ra.body.code, rb.body.code].sort()).toEqual([200, 409])
      const loser = ra.body.code === 409 ? ra : rb
      expect([loser.body.message, loser.body.data]).toEqual(['This e-mail address belongs to another account', { field: 'email' }])
      const holders = await t.db.selectFrom('users').select('id').where('email', '=', target).execute()
      expect(holders.map(h => Number(h.id))).toEqual([ra.body.code === 200 ? a.id : b.id])
    }
  })

  test('an account without a password: a code to its own phone sets a first password; a code to its address deletes it', async () => {
    const phone = `135${String(Date.now()).slice(-8)}`
    const address = `nopw.${Date.now().toString(36)}@example.com`
    const u = await makeUser(t.db, t.clock, { phone, email: address })
    const token = await loginToken(t.app, u.user_name!, u.password)
    const other = await loginToken(t.app, u.user_name!, u.password)
    await t.db.updateTable('users').set({ password_hash: null }).where('id', '=', Number(u.id)).execute()
    const send = (via: string) => post(t.app, '/api/security/reauthCode', { via }, { token, ip: nextIp() })

    // without a code: refused, naming what is missing
    const missing = await post(t.app, '/api/security/password', { newPassword: 'first-one' }, { token, lang: 'en' })
    expect([missing.body.code, missing.body.data]).toEqual([400, { field: 'reauth' }])
    expect((await send('phone')).body.code).toBe(200)
    const smsCode = sms.lastCode(phone)
    expect(sms.messages.at(-1)?.text).toMatch(/confirm it is you|验证身份/)
    const wrong = await post(t.app, '/api/security/password', { newPassword: 'first-one', reauth: { via: 'phone', code: smsCode === '000000' ? '111111' : '000000' } }, { token })
    expect([wrong.body.code, wrong.body.data]).toEqual([422, { field: 'code' }])
    // the code went to the phone: it does not prove the address
    expect((await post(t.app, '/api/security/password', { newPassword: 'first-one', reauth: { via: 'email', code: smsCode } }, { token })).body.code).toBe(422)
    // ... nor does it log in by SMS
    expect((await post(t.app, '/login/sms', { phone, code: smsCode }, { ip: nextIp() })).body.code).toBe(401)
    const set = await post(t.app, '/api/security/password', { newPassword: 'first-one', reauth: { via: 'phone', code: smsCode } }, { token })
    expect(set.body).toMatchObject({ code: 200, data: { ended: 1 } })
    expect((await post(t.app, '/api/walletBalance', {}, { token: other })).body.code).toBe(401)
    expect((await post(t.app, '/login/passwd', { user_name: u.user_name, password: 'first-one' }, { ip: nextIp() })).body.code).toBe(200)
    // with a password, codes are not sent: the password is asked for
    expect((await send('email')).body.code).toBe(422)

    // without the password again: deleting with a code to the address; a refusal for credit does not use the code up
    await t.db.updateTable('users').set({ password_hash: null }).where('id', '=', Number(u.id)).execute()
    await t.db.insertInto('prop_inventory').values({ user_id: Number(u.id), kind: 'hint', count: 2, updated_at: new Date(t.clock.now()).toISOString() }).execute()
    t.clock.advance(61_000)
    expect((await send('email')).body.code).toBe(200)
    const mailCode = smtp.lastCode(address)
    const lapse = await post(t.app, '/api/security/deleteAccount', { reauth: { via: 'email', code: mailCode } }, { token })
    expect(lapse.body.data).toEqual({ reason: 'forfeit', creditCents: 0, prizes: 0, cards: 2 })
    const done = await post(t.app, '/api/security/deleteAccount', { reauth: { via: 'email', code: mailCode }, forfeit: true }, { token })
    expect(done.body).toMatchObject({ code: 200, data: { ended: 2 } }) // this one and the password login above
    expect((await post(t.app, '/api/walletBalance', {}, { token })).body.code).toBe(401)
    expect(await t.db.selectFrom('one_time_codes').select('id').where('target', 'in', [phone, address]).execute()).toEqual([])
    // the phone and the address make a new account by code login
    t.clock.advance(61_000)
    expect((await post(t.app, '/login/mail/sendCode', { phone: address }, { ip: nextIp() })).body.code).toBe(200)
    const again = await post(t.app, '/login/mail', { phone: address, code: smtp.lastCode(address) }, { ip: nextIp() })
    expect(again.body.code).toBe(200)
    expect(again.body.data.user.id).not.toBe(Number(u.id))
  })
})
