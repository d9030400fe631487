/**
 * Every rule of server/src/security/rules.ts, each with a test that fails without it, plus the limiter
 * itself (GCRA, atomic under concurrency) and the client IP it counts (TRUST_PROXY).
 */
import { testDialects } from './support/db'
import { createTestApp, get, makeUser, nextIp, post, type TestApp } from './support/app'
import { startSms, startSmtp, startWeChat, type FakeSms, type FakeSmtp, type FakeWeChat } from './support/fakes'
import { RULES } from '../../server/src/security/rules'
import { RateLimiter } from '../../server/src/security/rateLimiter'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
let phoneCounter = 0
const nextPhone = () => `136${String(10_000_000 + ++phoneCounter).slice(-8)}`

describe.each(testDialects())('rate limits on %s', (dialect) => {
  let t: TestApp
  let sms: FakeSms
  let smtp: FakeSmtp
  let wx: FakeWeChat
  beforeAll(async () => {
    sms = await startSms()
    smtp = await startSmtp()
    wx = await startWeChat()
    t = await createTestApp(dialect, { fakes: { sms, smtp, wechat: wx } })
  })
  afterAll(async () => {
    await t.close()
    await Promise.all([sms.close(), smtp.close(), wx.close()])
  })

  const sendSms = (phone: string, ip = nextIp(), o: { lang?: string; headers?: Record<string, string> } = {}) =>
    get(t.app, '/login/sms/code', { query: { phone }, ip, ...o })
  const loginPw = (body: object, ip: string) => post(t.app, '/login/passwd', body, { ip })

  test('codeSendPerTarget: one code a minute per phone number or address, whatever the IP', async () => {
    expect(RULES.codeSendPerTarget).toMatchObject({ limit: 1, periodMs: MINUTE })
    const phone = nextPhone()
    expect((await sendSms(phone)).body.code).toBe(200)
    const again = await sendSms(phone, nextIp(), { lang: 'zh' })
    expect(again.body).toEqual({ code: 429, message: '操作过于频繁，请 60 秒后再试', data: { retryAfter: 60 } })
    t.clock.advance(30_000)
    expect((await sendSms(phone)).body).toMatchObject({ code: 429, data: { retryAfter: 30 } })
    t.clock.advance(30_000)
    expect((await sendSms(phone)).body.code).toBe(200)
    // mail: the same rule per address
    expect((await post(t.app, '/login/mail/sendCode', { phone: 'limit@example.com' }, { ip: nextIp() })).body.code).toBe(200)
    expect((await post(t.app, '/login/mail/sendCode', { phone: 'LIMIT@example.com' }, { ip: nextIp() })).body.code).toBe(429)
  })

  test('codeSendPerTargetDaily: at most 10 codes a day to one number', async () => {
    expect(RULES.codeSendPerTargetDaily).toMatchObject({ limit: 10, periodMs: 24 * HOUR })
    const phone = nextPhone()
    for (let i = 0; i < 10; i++) {
      expect((await sendSms(phone)).body.code).toBe(200)
      t.clock.advance(MINUTE)
    }
    expect((await sendSms(phone)).body.code).toBe(429)
    t.clock.advance(24 * HOUR)
    expect((await sendSms(phone)).body.code).toBe(200)
  })

  test('codeSendPerIp: at most 10 codes an hour from one IP; other IPs are not affected', async () => {
    expect(RULES.codeSendPerIp).toMatchObject({ limit: 10, periodMs: HOUR })
    const ip = nextIp()
    for (let i = 0; i < 10; i++) expect((await sendSms(nextPhone(), ip)).body.code).toBe(200)
    expect((await sendSms(nextPhone(), ip)).body.code).toBe(429)
    expect((await post(t.app, '/login/mail/sendCode', { phone: 'ip-limit@example.com' }, { ip })).body.code).toBe(429)
    expect((await sendSms(nextPhone(), nextIp())).body.code).toBe(200)
    t.clock.advance(HOUR / 10)
    expect((await sendSms(nextPhone(), ip)).body.code).toBe(200)
  })

  test('a refused send does not use up the number\'s own allowance', async () => {
    const ip = nextIp()
    for (let i = 0; i < 10; i++) await sendSms(nextPhone(), ip)
    const phone = nextPhone()
    expect((await sendSms(phone, ip)).body.code).toBe(429) // the IP is out
    expect((await sendSms(phone, nextIp())).body.code).toBe(200) // the number is not
  })

  test('loginPerIp: 30 login attempts a minute from one IP, then 429 even for a right password', async () => {
    expect(RULES.loginPerIp).toMatchObject({ limit: 30, periodMs: MINUTE })
    const u = await makeUser(t.db, t.clock)
    const ip = nextIp()
    for (let i = 0; i < 30; i++) {
      expect((await loginPw({ user_name: `ghost-${i}-${ip}`, password: 'nope' }, ip)).body.code).toBe(401)
    }
    expect((await loginPw({ user_name: u.user_name, password: u.password }, ip)).body.code).toBe(429)
    // SMS and WeChat logins from that IP count too
    expect((await post(t.app, '/login/sms', { phone: nextPhone(), code: '123456' }, { ip })).body.code).toBe(429)
    expect((await post(t.app, '/login/weapp', { code: 'whatever' }, { ip })).body.code).toBe(429)
    expect((await loginPw({ user_name: u.user_name, password: u.password }, nextIp())).body.code).toBe(200)
    t.clock.advance(2_000)
    expect((await loginPw({ user_name: u.user_name, password: u.password }, ip)).body.code).toBe(200)
  })

  test('passwordPerAccountAndIp: 5 failures on one account from one IP, then one a minute; the owner elsewhere is not locked out', async () => {
    expect(RULES.passwordPerAccountAndIp).toMatchObject({ limit: 5, periodMs: 5 * MINUTE })
    const u = await makeUser(t.db, t.clock)
    const attacker = nextIp()
    for (let i = 0; i < 5; i++) expect((await loginPw({ user_name: u.user_name, password: `guess${i}` }, attacker)).body.code).toBe(401)
    expect((await loginPw({ user_name: u.user_name, password: 'guess5' }, attacker)).body.code).toBe(429)
    expect((await loginPw({ user_name: u.user_name, password: u.password }, nextIp())).body.code).toBe(200)
    t.clock.advance(MINUTE)
    expect((await loginPw({ user_name: u.user_name, password: 'guess6' }, attacker)).body.code).toBe(401)
    expect((await loginPw({ user_name: u.user_name, password: 'guess7' }, attacker)).body.code).toBe(429)
    // unknown accounts are limited the same way (no enumeration through 429s)
    const ip = nextIp()
    for (let i = 0; i < 5; i++) expect((await loginPw({ user_name: 'nobody-here', password: `gs${i}` }, ip)).body.code).toBe(401)
    expect((await loginPw({ user_name: 'nobody-here', password: 'gs5' }, ip)).body.code).toBe(429)
  })

  test('passwordPerAccount: 10 failures on one account from anywhere, then one every 90 s', async () => {
    expect(RULES.passwordPerAccount).toMatchObject({ limit: 10, periodMs: 15 * MINUTE })
    const u = await makeUser(t.db, t.clock, { phone: nextPhone() })
    for (let i = 0; i < 10; i++) expect((await loginPw({ phone: u.phone, password: `guess${i}` }, nextIp())).body.code).toBe(401)
    expect((await loginPw({ phone: u.phone, password: u.password }, nextIp())).body.code).toBe(429)
    // the lock-out is short: 90 s later the owner gets in
    t.clock.advance(90_000)
    expect((await loginPw({ phone: u.phone, password: u.password }, nextIp())).body.code).toBe(200)
  })

  test('a successful login gives back the attempt (the owner is not counted as an attacker)', async () => {
    const u = await makeUser(t.db, t.clock)
    const ip = nextIp()
    for (let i = 0; i < 4; i++) expect((await loginPw({ user_name: u.user_name, password: `typo${i}` }, ip)).body.code).toBe(401)
    for (let i = 0; i < 3; i++) expect((await loginPw({ user_name: u.user_name, password: u.password }, ip)).body.code).toBe(200)
    expect((await loginPw({ user_name: u.user_name, password: 'typo4' }, ip)).body.code).toBe(401)
  })

  test('registerPerIp: 10 registrations an hour from one IP', async () => {
    expect(RULES.registerPerIp).toMatchObject({ limit: 10, periodMs: HOUR })
    const ip = nextIp()
    for (let i = 0; i < 10; i++) {
      expect((await post(t.app, '/login/register?table=user', { user_name: `bulk-${ip}-${i}`, password: 'pass123' }, { ip })).body.code).toBe(200)
    }
    expect((await post(t.app, '/login/register?table=user', { user_name: `bulk-${ip}-x`, password: 'pass123' }, { ip })).body.code).toBe(429)
    expect((await post(t.app, '/login/register?table=user', { user_name: `bulk-${ip}-y`, password: 'pass123' }, { ip: nextIp() })).body.code).toBe(200)
  })

  test('mpUrlPerIp: 20 URL links a minute from one IP', async () => {
    expect(RULES.mpUrlPerIp).toMatchObject({ limit: 20, periodMs: MINUTE })
    const ip = nextIp()
    for (let i = 0; i < 20; i++) expect((await post(t.app, '/get_mp_url', {}, { ip })).body.code).toBe(200)
    expect((await post(t.app, '/get_mp_url', {}, { ip })).body.code).toBe(429)
  })

  test('errorReportPerIp: 30 reports a minute from one IP', async () => {
    expect(RULES.errorReportPerIp).toMatchObject({ limit: 30, periodMs: MINUTE })
    const ip = nextIp()
    const report = { error_message: 'boom', path: '/pages/login/index', type: 'error', sub_source: 'h5', app_id: 'app' }
    for (let i = 0; i < 30; i++) expect((await post(t.app, '/error/report', report, { ip })).body.code).toBe(200)
    expect((await post(t.app, '/error/report', report, { ip })).body.code).toBe(429)
  })

  test('exportPerIp: 10 spreadsheet exports a minute from one IP', async () => {
    expect(RULES.exportPerIp).toMatchObject({ limit: 10, periodMs: MINUTE })
    const ip = nextIp()
    for (let i = 0; i < 10; i++) {
      const r = await t.app.inject({ method: 'POST', url: '/dev-api/api/data/export?table=series', payload: {}, remoteAddress: ip })
      expect(r.headers['content-type']).toMatch(/spreadsheetml/)
    }
    expect((await post(t.app, '/api/data/export?table=series', {}, { ip })).body.code).toBe(429)
  })

  test('TRUST_PROXY off: a rotating X-Forwarded-For does not walk past the per-IP limit', async () => {
    const ip = nextIp()
    for (let i = 0; i < 10; i++) {
      expect((await sendSms(nextPhone(), ip, { headers: { 'x-forwarded-for': `203.0.113.${i}` } })).body.code).toBe(200)
    }
    expect((await sendSms(nextPhone(), ip, { headers: { 'x-forwarded-for': '203.0.113.99' } })).body.code).toBe(429)
  })
})

describe.each(testDialects())('TRUST_PROXY on %s', (dialect) => {
  test('behind a trusted proxy, the forwarded client IP is what the limits count', async () => {
    const sms = await startSms()
    const t = await createTestApp(dialect, { fakes: { sms }, env: { TRUST_PROXY: '10.99.0.1' } })
    try {
      const send = (xff: string, ip = '10.99.0.1') =>
        get(t.app, '/login/sms/code', { query: { phone: nextPhone() }, ip, headers: { 'x-forwarded-for': xff } })
      for (let i = 0; i < 10; i++) expect((await send('198.51.100.7')).body.code).toBe(200)
      expect((await send('198.51.100.7')).body.code).toBe(429)
      expect((await send('198.51.100.8')).body.code).toBe(200)
      // an untrusted peer cannot claim an address
      for (let i = 0; i < 10; i++) expect((await send(`198.51.100.${20 + i}`, '10.99.0.2')).body.code).toBe(200)
      expect((await send('198.51.100.40', '10.99.0.2')).body.code).toBe(429)
    } finally {
      await t.close()
      await sms.close()
    }
  })
})

describe.each(testDialects())('the limiter on %s', (dialect) => {
  let t: TestApp
  beforeAll(async () => { t = await createTestApp(dialect) })
  afterAll(async () => { await t.close() })

  test('GCRA: `limit` at once, then one per period/limit; a quiet period restores the allowance', async () => {
    const limiter = new RateLimiter(t.db, t.clock.now)
    const rule = { name: 'unit', limit: 3, periodMs: 30_000 }
    for (let i = 0; i < 3; i++) expect((await limiter.consume(rule, 'k')).allowed).toBe(true)
    const refused = await limiter.consume(rule, 'k')
    expect(refused).toMatchObject({ allowed: false, retryAfterMs: 10_000 })
    t.clock.advance(10_000)
    expect((await limiter.consume(rule, 'k')).allowed).toBe(true)
    expect((await limiter.consume(rule, 'k')).allowed).toBe(false)
    await limiter.refund(rule, 'k')
    expect((await limiter.consume(rule, 'k')).allowed).toBe(true)
    t.clock.advance(30_000)
    for (let i = 0; i < 3; i++) expect((await limiter.consume(rule, 'k')).allowed).toBe(true)
    expect((await limiter.consume(rule, 'other')).allowed).toBe(true)
    t.clock.advance(60_000)
    await limiter.purge()
    expect(await t.db.selectFrom('rate_limits').select('key').where('key', 'like', 'unit:%').execute()).toEqual([])
  })

  test('atomic under concurrency: 40 parallel requests on a limit of 5 let exactly 5 through', async () => {
    const limiter = new RateLimiter(t.db, t.clock.now)
    const rule = { name: 'race', limit: 5, periodMs: 60_000 }
    const results = await Promise.all(Array.from({ length: 40 }, () => limiter.consume(rule, 'k')))
    expect(results.filter(r => r.allowed)).toHaveLength(5)
  })
})
