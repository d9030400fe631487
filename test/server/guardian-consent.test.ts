/**
 * A guardian's consent comes from the guardian (issue 21, item 20): a code sent by SMS (through the
 * HTTP adapter, to a local SMS endpoint) to the guardian's phone, entered by the minor; the consent is
 * recorded with the masked number and the time, and the purchase checks read that record. The code
 * rules of the code logins apply: 6 digits, 5 minutes, 5 attempts, one a minute and ten a day per
 * number, ten an hour per address, and five requests a day per account.
 */
import { Migrator, type Kysely } from 'kysely'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { testDialects } from './support/db'
import { createTestApp, get, makeUser, loginToken, nextIp, post, type TestApp } from './support/app'
import { startSms, type FakeSms } from './support/fakes'
import { buy, currentCaseId, makeSeries, makeShopper, topUp, type Shopper } from './support/shop'
import { CODE_MAX_ATTEMPTS, CODE_TTL_MS } from '../../server/src/security/codes'
import { RULES } from '../../server/src/security/rules'
import { GUARDIAN_PENDING_KEEP_MS } from '../../server/src/domain/account/age'
import { runMaintenance } from '../../server/src/domain/ops/maintenance'
import { DatabaseMediaStore } from '../../server/src/domain/media/mediaStore'
import { SessionService } from '../../server/src/domain/account/sessions'
import { OneTimeCodes } from '../../server/src/domain/account/codes'
import { RateLimiter } from '../../server/src/security/rateLimiter'
import { migrations } from '../../server/src/db/migrate'
import { openDatabase, type DatabaseHandle } from '../../server/src/db'

let phoneCounter = 0
const nextPhone = () => `137${String(10_000_000 + ++phoneCounter).slice(-8)}`
const masked = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(-4)}`
// the test clock says 2026-03-01: 13 years old
const TEEN = '2012-06-01'

describe.each(testDialects())('guardian consent on %s', (dialect) => {
  let t: TestApp
  let sms: FakeSms
  let seriesId: number
  beforeAll(async () => {
    sms = await startSms()
    t = await createTestApp(dialect, { fakes: { sms } })
    seriesId = await makeSeries(t.db, t.clock, { priceCents: 1000 })
  })
  afterAll(async () => {
    await t.close()
    await sms.close()
  })

  /** A 13-year-old whose birth date is recorded and who has no consent yet. */
  const teen = async (fields: { phone?: string } = {}): Promise<Shopper> => {
    const user = await makeUser(t.db, t.clock, fields)
    const token = await loginToken(t.app, user.user_name!, user.password)
    const r = await post(t.app, '/api/ageVerify', { birthDate: TEEN }, { token })
    expect(r.body).toMatchObject({ code: 422, data: { reason: 'guardian_consent' } })
    return { id: Number(user.id), token, userName: user.user_name! }
  }
  const ask = (s: Shopper, body: Record<string, unknown>, o: { ip?: string; lang?: string } = {}) =>
    post(t.app, '/api/guardianCode', body, { token: s.token, ip: o.ip ?? nextIp(), lang: o.lang })
  const confirm = (s: Shopper, code: string, lang?: string) => post(t.app, '/api/guardianConfirm', { code }, { token: s.token, lang })
  const status = async (s: Shopper) => (await post(t.app, '/api/ageStatus', {}, { token: s.token })).body.data
  const row = (s: Shopper) => t.db.selectFrom('age_checks').selectAll().where('user_id', '=', s.id).executeTakeFirstOrThrow()
  const wrong = (code: string) => (code === '000000' ? '000001' : '000000')

  test('the code goes to the guardian\'s phone; the minor enters it; consent is recorded masked and purchases open', async () => {
    const s = await teen()
    await topUp(t.app, s, 5000)
    const caseId = await currentCaseId(t.app, seriesId)
    expect(await status(s)).toMatchObject({
      minor: true, guardianConsent: false,
      guardian: { state: 'none', phone: null, requestedAt: null, consentedAt: null, resendInSeconds: 0, canRequest: true }
    })
    expect((await buy(t.app, s, { caseId, slots: [1] })).body).toMatchObject({ code: 422, data: { reason: 'guardian_consent' } })

    const guardian = nextPhone()
    const sent = await ask(s, { phone: guardian }, { lang: 'zh' })
    expect(sent.body).toMatchObject({ code: 200, data: { guardianConsent: false, guardian: { state: 'pending', phone: masked(guardian), consentedAt: null, resendInSeconds: 60 } } })
    const sms1 = sms.messages[sms.messages.length - 1]
    expect(sms1.phone).toBe(guardian)
    // the SMS says who asks, what is agreed to, in the shop's name, and how long the code lives
    expect(sms1.text).toMatch(/^【拾盒】/)
    expect(sms1.text).toContain(`账号 ${s.id}`)
    expect(sms1.text).toContain('购买盲盒')
    expect(sms1.text).toContain('100 元')
    expect(sms1.text).toContain('5 分钟')
    const code = sms.lastCode(guardian)
    expect(code).toMatch(/^\d{6}$/)
    // pending is not consent
    expect((await buy(t.app, s, { caseId, slots: [1] })).body).toMatchObject({ code: 422, data: { reason: 'guardian_consent' } })

    const bad = await confirm(s, wrong(code), 'en')
    expect(bad.body).toMatchObject({ code: 422, message: 'The verification code is wrong or has expired', data: { field: 'code' } })
    t.clock.advance(30_000)
    const ok = await confirm(s, code)
    expect(ok.body).toMatchObject({ code: 200, data: { guardianConsent: true, guardian: { state: 'given', phone: masked(guardian), consentedAt: '2026-03-01T08:00:30.000Z' } } })
    // only the masked number is kept
    expect(await row(s)).toMatchObject({ guardian_phone: null, guardian_phone_masked: masked(guardian), guardian_consent: 1 })
    expect(JSON.stringify(await row(s))).not.toContain(guardian)
    // the code is used up, and consent cannot be asked again
    expect((await ask(s, { phone: nextPhone() })).body).toMatchObject({ code: 409, data: { reason: 'given' } })
    expect((await buy(t.app, s, { caseId, slots: [1] })).body.code).toBe(200)
    // the security page says who consented and when
    const overview = (await post(t.app, '/api/security/overview', {}, { token: s.token })).body.data
    expect(overview.age).toMatchObject({ minor: true, guardianConsent: true, guardian: { state: 'given', phone: masked(guardian), consentedAt: '2026-03-01T08:00:30.000Z' } })
  })

  test('the English SMS', async () => {
    const s = await teen()
    const guardian = nextPhone()
    expect((await ask(s, { phone: guardian }, { lang: 'en' })).body.code).toBe(200)
    const text = sms.messages[sms.messages.length - 1].text
    expect(text).toMatch(/^Pickbox: /)
    expect(text).toContain(`account ${s.id}`)
    expect(text).toContain('buying blind boxes')
    expect(text).toContain('100 yuan a day')
    expect(text).toContain('expires in 5 minutes')
  })

  test('bad input: the number\'s format, the minor\'s own phone, no pending number, who may ask', async () => {
    const own = nextPhone()
    const s = await teen({ phone: own })
    expect((await ask(s, { phone: '12345' })).body).toMatchObject({ code: 400, data: { field: 'phone' } })
    expect((await ask(s, { phone: nextPhone(), extra: 1 })).body).toMatchObject({ code: 400, data: { field: 'extra' } })
    const self = await ask(s, { phone: own }, { lang: 'zh' })
    expect(self.body).toMatchObject({ code: 422, message: '请填写监护人的手机号，不能是你自己账号绑定的手机号', data: { field: 'phone' } })
    expect((await ask(s, {})).body).toMatchObject({ code: 400, data: { field: 'phone' } })
    expect((await confirm(s, '123456', 'en')).body).toMatchObject({ code: 422, message: 'No code has been sent to a guardian yet: enter your guardian\'s phone number first', data: { field: 'code' } })
    expect((await confirm(s, '12')).body).toMatchObject({ code: 400, data: { field: 'code' } })
    // nothing was sent, nothing was stored
    expect(sms.messages.some(m => m.phone === own)).toBe(false)
    expect(await row(s)).toMatchObject({ guardian_phone: null, guardian_requested_at: null })

    const adult = await makeShopper(t.app, t.db, t.clock)
    const unverified = await makeShopper(t.app, t.db, t.clock, null)
    const child = await makeShopper(t.app, t.db, t.clock, null)
    expect((await post(t.app, '/api/ageVerify', { birthDate: '2019-03-02' }, { token: child.token })).body.code).toBe(422)
    for (const who of [adult, unverified, child]) {
      const r = await ask(who, { phone: nextPhone() }, { lang: 'en' })
      expect(r.body).toMatchObject({ code: 422, message: 'Only users from 8 to 17 need a guardian\'s consent', data: { reason: 'not_minor' } })
      expect((await status(who)).guardian).toBeNull()
    }
    expect((await post(t.app, '/api/guardianCode', { phone: nextPhone() })).body.code).toBe(401)
    expect((await post(t.app, '/api/guardianConfirm', { code: '123456' })).body.code).toBe(401)
  })

  test('a minor\'s own tick counts for nothing', async () => {
    const s = await teen()
    const r = await post(t.app, '/api/ageVerify', { birthDate: TEEN, guardianConsent: true }, { token: s.token })
    expect(r.body).toMatchObject({ code: 422, data: { reason: 'guardian_consent', status: { guardianConsent: false } } })
    expect(await row(s)).toMatchObject({ guardian_consent: 0, guardian_consented_at: null })
  })

  test('code rules: expiry, the attempt budget, send again after a minute, change of number', async () => {
    const s = await teen()
    const first = nextPhone()
    expect((await ask(s, { phone: first })).body.code).toBe(200)
    // expired after 5 minutes
    t.clock.advance(CODE_TTL_MS + 1000)
    expect((await confirm(s, sms.lastCode(first))).body).toMatchObject({ code: 422, data: { field: 'code' } })
    expect((await status(s)).guardian).toMatchObject({ state: 'pending', phone: masked(first), resendInSeconds: 0 })

    // send again (no number: the pending one); the status counts down the minute
    expect((await ask(s, {})).body.data.guardian).toMatchObject({ state: 'pending', phone: masked(first), resendInSeconds: 60 })
    t.clock.advance(20_000)
    expect((await status(s)).guardian.resendInSeconds).toBe(40)
    const early = await ask(s, {})
    expect(early.body.code).toBe(429)
    t.clock.advance(41_000)
    expect((await ask(s, {})).body.code).toBe(200)
    const code = sms.lastCode(first)
    // five wrong tries use the budget up: the right code is refused after them
    for (let i = 0; i < CODE_MAX_ATTEMPTS; i++) expect((await confirm(s, wrong(code))).body).toMatchObject({ code: 422, data: { field: 'code' } })
    expect((await confirm(s, code)).body).toMatchObject({ code: 422, data: { field: 'code' } })

    // change the number: the old number's code no longer consents
    t.clock.advance(61_000)
    expect((await ask(s, { phone: first })).body.code).toBe(200)
    const oldCode = sms.lastCode(first)
    const second = nextPhone()
    expect((await ask(s, { phone: second })).body.data.guardian).toMatchObject({ state: 'pending', phone: masked(second) })
    if (oldCode !== sms.lastCode(second)) expect((await confirm(s, oldCode)).body).toMatchObject({ code: 422, data: { field: 'code' } })
    expect((await confirm(s, sms.lastCode(second))).body.data.guardian).toMatchObject({ state: 'given', phone: masked(second) })
  })

  test('a code is for this account only: another minor cannot use it, a login code does not consent', async () => {
    const a = await teen()
    const b = await teen()
    const guardian = nextPhone()
    expect((await ask(a, { phone: guardian })).body.code).toBe(200)
    const code = sms.lastCode(guardian)
    // b has no pending number at all; and with one, a's code is not b's
    t.clock.advance(61_000)
    expect((await ask(b, { phone: guardian })).body.code).toBe(200)
    const codeB = sms.lastCode(guardian)
    if (code !== codeB) expect((await confirm(b, code)).body).toMatchObject({ code: 422, data: { field: 'code' } })
    // a login code to the guardian's phone is not a guardian code
    t.clock.advance(61_000)
    expect((await get(t.app, '/login/sms/code', { query: { phone: guardian }, ip: nextIp() })).body.code).toBe(200)
    const loginCode = sms.lastCode(guardian)
    if (loginCode !== code) expect((await confirm(a, loginCode)).body).toMatchObject({ code: 422, data: { field: 'code' } })
    expect((await confirm(a, code)).body.data.guardian.state).toBe('given')
  })

  test('rate limits: one a minute per number (shared with every code to it), five a day per account, ten an hour per address', async () => {
    expect(RULES.guardianCodePerAccount).toMatchObject({ limit: 5, periodMs: 24 * 60 * 60 * 1000 })
    // per number, across accounts and kinds of codes
    const guardian = nextPhone()
    const a = await teen()
    const b = await teen()
    expect((await ask(a, { phone: guardian })).body.code).toBe(200)
    const busy = await ask(b, { phone: guardian }, { lang: 'en' })
    expect(busy.body.code).toBe(429)
    expect((await status(b)).guardian.state).toBe('none')

    // per account: five numbers, then the sixth waits (each from its own address)
    const c = await teen()
    for (let i = 0; i < 5; i++) expect((await ask(c, { phone: nextPhone() })).body.code).toBe(200)
    const sixth = nextPhone()
    expect((await ask(c, { phone: sixth })).body.code).toBe(429)
    expect(sms.messages.some(m => m.phone === sixth)).toBe(false)

    // per address: ten an hour from one IP, whatever the accounts and numbers
    const ip = nextIp()
    const minors = await Promise.all(Array.from({ length: 4 }, () => teen()))
    let sentFromIp = 0
    for (let i = 0; i < 11; i++) {
      const r = await ask(minors[i % 4], { phone: nextPhone() }, { ip })
      if (r.body.code === 200) sentFromIp++
      else expect(r.body.code).toBe(429)
    }
    expect(sentFromIp).toBe(RULES.codeSendPerIp.limit)
  })

  test('the right code sent five times at once: one consent, no 5xx, wrong guesses in parallel cannot pass the budget', async () => {
    const s = await teen()
    const guardian = nextPhone()
    expect((await ask(s, { phone: guardian })).body.code).toBe(200)
    const code = sms.lastCode(guardian)
    // ten wrong guesses at once: at most the budget is counted, and then the right code is refused too
    const guesses = await Promise.all(Array.from({ length: 10 }, (_, i) => confirm(s, String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'))))
    expect(guesses.map(r => r.body.code)).toEqual(Array(10).fill(422))
    expect((await confirm(s, code)).body).toMatchObject({ code: 422, data: { field: 'code' } })
    const used = await t.db.selectFrom('one_time_codes').select('attempts').where('target', '=', guardian).execute()
    expect(used.map(r => Number(r.attempts))).toEqual([CODE_MAX_ATTEMPTS])

    t.clock.advance(61_000)
    expect((await ask(s, {})).body.code).toBe(200)
    const fresh = sms.lastCode(guardian)
    const answers = await Promise.all(Array.from({ length: 5 }, () => confirm(s, fresh)))
    for (const r of answers) expect([200, 422]).toContain(r.body.code)
    expect(answers.filter(r => r.body.code === 200).length).toBeGreaterThanOrEqual(1)
    expect(await row(s)).toMatchObject({ guardian_consent: 1, guardian_phone: null, guardian_phone_masked: masked(guardian) })
    expect((await status(s)).guardian.state).toBe('given')
  })

  test('a failed SMS: 502, nothing pending, the limits given back', async () => {
    const s = await teen()
    const guardian = nextPhone()
    sms.failWith = 500
    try {
      const r = await ask(s, { phone: guardian }, { lang: 'en' })
      expect(r.body).toMatchObject({ code: 502, data: { provider: 'sms' } })
      expect(r.body.message).toBe('SMS is unavailable, please try again later')
    } finally {
      sms.failWith = null
    }
    expect((await status(s)).guardian.state).toBe('none')
    // the number's minute was given back: asking again works at once
    expect((await ask(s, { phone: guardian })).body.code).toBe(200)
  })

  test('a request nobody confirmed for a week is forgotten: the number goes, the minor asks again', async () => {
    const s = await teen()
    const stale = nextPhone()
    expect((await ask(s, { phone: stale })).body.code).toBe(200)
    t.clock.advance(GUARDIAN_PENDING_KEEP_MS - 1000)
    const fresh = await teen()
    const recent = nextPhone()
    expect((await ask(fresh, { phone: recent })).body.code).toBe(200)
    t.clock.advance(2000)
    // the server's periodic work, with its real services (as database.test.ts runs it)
    await runMaintenance({ db: t.db, clock: t.clock.now, sessions: new SessionService(t.db, t.clock.now), codes: new OneTimeCodes(t.db, t.clock.now), limiter: new RateLimiter(t.db, t.clock.now), media: new DatabaseMediaStore(t.db) } as never)
    expect(await row(s)).toMatchObject({ guardian_phone: null, guardian_requested_at: null })
    expect(await row(fresh)).toMatchObject({ guardian_phone: recent })
    // a week idle ended the session too: back after a login, the minor enters the number again
    const back = { ...s, token: await loginToken(t.app, s.userName, 'secret-pw') }
    expect((await status(back)).guardian).toMatchObject({ state: 'none', phone: null })
    expect((await ask(back, {})).body).toMatchObject({ code: 400, data: { field: 'phone' } })
  })

  test('deleting the account erases the guardian\'s number and the codes sent for it', async () => {
    const s = await teen()
    const guardian = nextPhone()
    expect((await ask(s, { phone: guardian })).body.code).toBe(200)
    const del = await post(t.app, '/api/security/deleteAccount', { password: 'secret-pw' }, { token: s.token })
    expect(del.body.code).toBe(200)
    expect(await t.db.selectFrom('one_time_codes').select('id').where('target', '=', guardian).execute()).toEqual([])
    expect(await t.db.selectFrom('age_checks').select('user_id').where('user_id', '=', s.id).execute()).toEqual([])
  })
})

describe.each(testDialects())('guardian consent without an SMS provider on %s', (dialect) => {
  let t: TestApp
  beforeAll(async () => { t = await createTestApp(dialect, { build: { sms: null } }) })
  afterAll(async () => { await t.close() })

  test('the shopper is told plainly to ask the shop; the log tells operators what to set', async () => {
    const s = await makeShopper(t.app, t.db, t.clock, null)
    expect((await post(t.app, '/api/ageVerify', { birthDate: TEEN }, { token: s.token })).body.code).toBe(422)
    expect((await post(t.app, '/api/ageStatus', {}, { token: s.token })).body.data.guardian).toMatchObject({ state: 'none', canRequest: false })
    expect((await post(t.app, '/api/security/overview', {}, { token: s.token })).body.data.age.guardian).toMatchObject({ state: 'none', canRequest: false })
    for (const [lang, message] of [
      ['en', 'A code cannot be sent to your guardian right now. Please contact customer service, or try again later'],
      ['zh', '现在无法向监护人发送验证码，请联系客服，或稍后再试']
    ]) {
      const r = await post(t.app, '/api/guardianCode', { phone: nextPhone() }, { token: s.token, lang })
      expect(r.body).toEqual({ code: 422, message, data: { reason: 'unavailable' } })
      expect(r.body.message).not.toMatch(/configur|配置|SMS|短信服务|provider/i)
    }
    expect(t.logs.join('\n')).toContain('SMS_PROVIDER_URL')
  })
})

/** A database with no migrations applied (as migration-0006.test.ts opens one). */
async function openEmpty (dialect: 'sqlite' | 'postgres'): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const handle = openDatabase({ sqlitePath: ':memory:' })
    return { handle, drop: () => handle.close() }
  }
  const name = `g_${randomBytes(6).toString('hex')}`
  const admin = async (q: string) => {
    const c = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await c.connect()
    try { await c.query(q) } finally { await c.end() }
  }
  await admin(`create database ${name}`)
  const url = new URL(process.env.DATABASE_URL!)
  url.pathname = `/${name}`
  const handle = openDatabase({ databaseUrl: url.toString(), poolSize: 2 })
  return { handle, drop: async () => { await handle.close(); await admin(`drop database if exists ${name} with (force)`) } }
}

describe.each(testDialects())('migration 0021 on %s', (dialect) => {
  test('a consent a minor ticked for themselves no longer counts', async () => {
    const { handle, drop } = await openEmpty(dialect)
    const db = handle.db as Kysely<any>
    try {
      const all = migrations(dialect)
      const migrator = new Migrator({ db, provider: { getMigrations: async () => all }, allowUnorderedMigrations: true })
      expect((await migrator.migrateTo('0019_helper_tasks')).error).toBeUndefined()
      const now = '2026-03-01T08:00:00.000Z'
      const ids: number[] = []
      for (const nickname of ['ticked', 'not ticked']) {
        const { id } = await db.insertInto('users').values({ nickname, role: 'shopper', created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow()
        ids.push(Number(id))
      }
      await db.insertInto('age_checks').values([
        { user_id: ids[0], birth_date: TEEN, guardian_consent: 1, created_at: now, updated_at: now },
        { user_id: ids[1], birth_date: TEEN, guardian_consent: 0, created_at: now, updated_at: now }
      ]).execute()
      expect((await migrator.migrateToLatest()).error).toBeUndefined()
      const rows = await db.selectFrom('age_checks').selectAll().orderBy('user_id').execute()
      expect(rows.map(r => [Number(r.user_id), r.guardian_consent, r.guardian_phone, r.guardian_phone_masked, r.guardian_consented_at]))
        .toEqual([[ids[0], 0, null, null, null], [ids[1], 0, null, null, null]])
    } finally {
      await drop()
    }
  })
})
