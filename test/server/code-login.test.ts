/**
 * SMS and mail code logins end to end: codes read from a local SMS endpoint and a local SMTP server.
 * Codes: 6 digits, single use, 5 minutes, 5 attempts, stored hashed, never logged in production.
 */
import { testDialects } from './support/db'
import { createTestApp, get, nextIp, post, type TestApp } from './support/app'
import { startSms, startSmtp, type FakeSms, type FakeSmtp } from './support/fakes'
import { CODE_MAX_ATTEMPTS, CODE_TTL_MS } from '../../server/src/security/codes'

let phoneCounter = 0
const nextPhone = () => `135${String(10_000_000 + ++phoneCounter).slice(-8)}`
let mailCounter = 0
const nextMail = () => `person${++mailCounter}@example.com`

describe.each(testDialects())('code logins on %s', (dialect) => {
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

  const smsCode = async (phone: string, ip = nextIp(), lang?: string) => {
    const r = await get(t.app, '/login/sms/code', { query: { phone }, ip, lang })
    expect(r.body).toMatchObject({ code: 200, data: null })
    return sms.lastCode(phone)
  }
  const mailCode = async (address: string, ip = nextIp(), lang?: string) => {
    const r = await post(t.app, '/login/mail/sendCode', { phone: address }, { ip, lang })
    expect(r.body).toMatchObject({ code: 200, data: null })
    return smtp.lastCode(address.toLowerCase())
  }

  test('SMS: code through the HTTP adapter, login creates the account, a second login finds it', async () => {
    const phone = nextPhone()
    const code = await smsCode(phone, nextIp(), 'zh-CN')
    expect(code).toMatch(/^\d{6}$/)
    const sent = sms.messages[sms.messages.length - 1]
    expect(sent.authorization).toBe('Bearer sms-test-key')
    expect(sent.text).toContain('验证码')
    expect(sent.text).toContain('5 分钟')
    const r = await post(t.app, '/login/sms', { phone, code }, { ip: nextIp() })
    expect(r.body.code).toBe(200)
    expect(r.body.data.user).toMatchObject({ phone, userName: null, role: 'shopper', nickname: `${phone.slice(0, 3)}****${phone.slice(-4)}` })
    const me = await get(t.app, '/getUserInfo', { token: r.body.data.token })
    expect(me.body.data.phone).toBe(phone)

    t.clock.advance(61_000) // one code a minute per number
    const again = await post(t.app, '/login/sms', { phone, code: await smsCode(phone, nextIp()) }, { ip: nextIp() })
    expect(again.body.data.user.id).toBe(r.body.data.user.id)
  })

  test('mail: code through SMTP (address in the `phone` field), login, same account next time', async () => {
    const address = nextMail()
    const code = await mailCode(address.toUpperCase(), nextIp(), 'en')
    const mail = smtp.mails[smtp.mails.length - 1]
    expect(mail.to).toEqual([address])
    expect(mail.from).toBe('shop@example.test')
    expect(mail.subject).toBe(`Pickbox verification code: ${code}`)
    expect(mail.text).toContain('expires in 5 minutes')
    const r = await post(t.app, '/login/mail', { phone: address, code }, { ip: nextIp() })
    expect(r.body.code).toBe(200)
    expect(r.body.data.user).toMatchObject({ email: address, phone: null })
    t.clock.advance(61_000)
    const again = await post(t.app, '/login/mail', { phone: address, code: await mailCode(address, nextIp(), 'zh') }, { ip: nextIp() })
    expect(again.body.data.user.id).toBe(r.body.data.user.id)
    expect(smtp.mails[smtp.mails.length - 1].subject).toMatch(/^拾盒验证码：\d{6}$/)
  })

  test('validation: phone format, e-mail format, code 4-6 characters', async () => {
    expect((await get(t.app, '/login/sms/code', { query: { phone: '123' } })).body).toMatchObject({ code: 400, data: { field: 'phone' } })
    expect((await get(t.app, '/login/sms/code', { query: { phone: nextPhone(), extra: '1' } })).body).toMatchObject({ code: 400, data: { field: 'extra' } })
    expect((await post(t.app, '/login/mail/sendCode', { phone: 'nope' })).body).toMatchObject({ code: 400, data: { field: 'phone', rule: 'format' } })
    expect((await post(t.app, '/login/sms', { phone: nextPhone(), code: '123' })).body).toMatchObject({ code: 400, data: { field: 'code', rule: 'minLength' } })
    expect((await post(t.app, '/login/sms', { phone: nextPhone(), code: '1234567' })).body).toMatchObject({ code: 400, data: { field: 'code', rule: 'maxLength' } })
    expect((await post(t.app, '/login/mail', { phone: nextMail() })).body).toMatchObject({ code: 400, data: { field: 'code', rule: 'required' } })
  })

  test('a code is single use', async () => {
    const phone = nextPhone()
    const code = await smsCode(phone)
    expect((await post(t.app, '/login/sms', { phone, code }, { ip: nextIp() })).body.code).toBe(200)
    const reuse = await post(t.app, '/login/sms', { phone, code }, { ip: nextIp() })
    expect(reuse.body).toEqual({ code: 401, message: 'The verification code is wrong or has expired', data: { field: 'code' } })
  })

  test(`a code expires after ${CODE_TTL_MS / 60000} minutes`, async () => {
    const phone = nextPhone()
    const code = await smsCode(phone)
    t.clock.advance(CODE_TTL_MS)
    expect((await post(t.app, '/login/sms', { phone, code }, { ip: nextIp() })).body.code).toBe(401)
    const address = nextMail()
    const mcode = await mailCode(address)
    t.clock.advance(CODE_TTL_MS - 1000)
    expect((await post(t.app, '/login/mail', { phone: address, code: mcode }, { ip: nextIp() })).body.code).toBe(200)
  })

  test(`a code survives at most ${CODE_MAX_ATTEMPTS} attempts`, async () => {
    const phone = nextPhone()
    const code = await smsCode(phone)
    const wrong = code === '000000' ? '111111' : '000000'
    for (let i = 0; i < CODE_MAX_ATTEMPTS - 1; i++) {
      expect((await post(t.app, '/login/sms', { phone, code: wrong }, { ip: nextIp() })).body.code).toBe(401)
    }
    // the fifth attempt may still be the right one
    expect((await post(t.app, '/login/sms', { phone, code }, { ip: nextIp() })).body.code).toBe(200)

    const other = nextPhone()
    const code2 = await smsCode(other)
    const wrong2 = code2 === '000000' ? '111111' : '000000'
    for (let i = 0; i < CODE_MAX_ATTEMPTS; i++) {
      expect((await post(t.app, '/login/sms', { phone: other, code: wrong2 }, { ip: nextIp() })).body.code).toBe(401)
    }
    expect((await post(t.app, '/login/sms', { phone: other, code: code2 }, { ip: nextIp() })).body.code).toBe(401)
  })

  test('parallel guesses cannot exceed the attempt budget', async () => {
    const phone = nextPhone()
    await smsCode(phone)
    const results = await Promise.all(Array.from({ length: 12 }, () => post(t.app, '/login/sms', { phone, code: '999999' }, { ip: nextIp() })))
    expect(results.every(r => r.body.code === 401 || r.body.code === 200)).toBe(true)
    const row = await t.db.selectFrom('one_time_codes').select('attempts').where('target', '=', phone).executeTakeFirstOrThrow()
    expect(row.attempts).toBe(CODE_MAX_ATTEMPTS)
  })

  test('a new code replaces the previous one; a code is bound to its channel and target', async () => {
    const phone = nextPhone()
    const first = await smsCode(phone)
    t.clock.advance(61_000)
    const second = await smsCode(phone)
    if (first !== second) {
      expect((await post(t.app, '/login/sms', { phone, code: first }, { ip: nextIp() })).body.code).toBe(401)
    }
    const other = nextPhone()
    expect((await post(t.app, '/login/sms', { phone: other, code: second }, { ip: nextIp() })).body.code).toBe(401)
    expect((await post(t.app, '/login/sms', { phone, code: second }, { ip: nextIp() })).body.code).toBe(200)
  })

  test('codes are stored hashed, never in clear', async () => {
    const phone = nextPhone()
    const code = await smsCode(phone)
    const rows = await t.db.selectFrom('one_time_codes').selectAll().where('target', '=', phone).execute()
    expect(rows).toHaveLength(1)
    expect(rows[0].code_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(rows)).not.toContain(code)
  })

  test('no enumeration: sending answers the same for a registered and an unknown phone or address', async () => {
    const known = nextPhone()
    await post(t.app, '/login/sms', { phone: known, code: await smsCode(known) }, { ip: nextIp() })
    t.clock.advance(61_000)
    const a = await get(t.app, '/login/sms/code', { query: { phone: known }, ip: nextIp() })
    const b = await get(t.app, '/login/sms/code', { query: { phone: nextPhone() }, ip: nextIp() })
    expect(a.body).toEqual(b.body)
    expect(a.body).toEqual({ code: 200, message: 'OK', data: null })
    const m1 = await post(t.app, '/login/mail/sendCode', { phone: nextMail() }, { ip: nextIp() })
    const m2 = await post(t.app, '/login/mail/sendCode', { phone: nextMail() }, { ip: nextIp() })
    expect(m1.body).toEqual(m2.body)
  })

  test('a code delivered is not in the log, nor the number it went to (issue 26: logs without personal data)', async () => {
    const phone = nextPhone()
    const code = await smsCode(phone)
    expect(t.logs.some(l => l.includes('one-time code sent'))).toBe(true)
    expect(t.logs.filter(l => l.includes(code) || l.includes(phone))).toEqual([])
  })

  test('a provider outage is an HTTP 502 and the code is withdrawn, so the person may ask again', async () => {
    const phone = nextPhone()
    sms.failWith = 500
    try {
      const r = await get(t.app, '/login/sms/code', { query: { phone }, ip: nextIp() })
      expect(r.status).toBe(502)
      expect(r.body).toMatchObject({ code: 502, message: 'SMS is unavailable, please try again later' })
    } finally {
      sms.failWith = null
    }
    expect(await t.db.selectFrom('one_time_codes').select('id').where('target', '=', phone).execute()).toEqual([])
    // not held back by the per-number limit
    const again = await get(t.app, '/login/sms/code', { query: { phone }, ip: nextIp() })
    expect(again.body.code).toBe(200)
  })
})

describe.each(testDialects())('codes in production on %s', (dialect) => {
  let t: TestApp
  let sms: FakeSms
  let smtp: FakeSmtp
  beforeAll(async () => {
    sms = await startSms()
    smtp = await startSmtp()
    t = await createTestApp(dialect, { fakes: { sms, smtp }, env: { NODE_ENV: 'production' } })
  })
  afterAll(async () => {
    await t.close()
    await sms.close()
    await smtp.close()
  })

  test('codes are never logged in production', async () => {
    const phone = '13512340000'
    expect((await get(t.app, '/login/sms/code', { query: { phone }, ip: nextIp() })).body.code).toBe(200)
    const address = 'prod@example.com'
    expect((await post(t.app, '/login/mail/sendCode', { phone: address }, { ip: nextIp() })).body.code).toBe(200)
    const codes = [sms.lastCode(phone), smtp.lastCode(address)]
    expect(t.logs.length).toBeGreaterThan(0)
    for (const code of codes) expect(t.logs.join('\n')).not.toContain(code)
  })
})

describe.each(testDialects())('providers not configured, in production, on %s', (dialect) => {
  let t: TestApp
  beforeAll(async () => { t = await createTestApp(dialect, { env: { NODE_ENV: 'production' } }) })
  afterAll(async () => { await t.close() })

  test('SMS and mail say "not configured" (422) and the login settings hide them', async () => {
    const s = await get(t.app, '/login/sms/code', { query: { phone: '13512340001' }, lang: 'zh' })
    expect(s.body).toEqual({ code: 422, message: '这个商城暂不提供短信服务', data: { provider: 'sms' } })
    const m = await post(t.app, '/login/mail/sendCode', { phone: 'a@example.com' })
    expect(m.body).toEqual({ code: 422, message: 'Mail is not available in this shop', data: { provider: 'mail' } })
    const settings = await get(t.app, '/system/setting/login')
    expect(settings.body.data).toMatchObject({ password: true, sms: false, email: false, wechat: false, weapp: false, register: true })
  })
})
