/**
 * Holes an attacker's probe found in accounts (issue 7), on SQLite and PostgreSQL:
 *  - password guesses through user_name, phone and email of one account share one budget (they had
 *    three), from any number of addresses; the lock-out is short and code login works meanwhile;
 *  - user names are compared after NFKC and full case folding, stored as a unique key: "Ärger" could
 *    register but never log in again, and "ölfass" could be registered beside "Ölfass".
 */
import { testDialects, createTestDatabase } from './support/db'
import { createTestApp, makeUser, nextIp, post, get, type TestApp } from './support/app'
import { startSms, startSmtp, type FakeSms, type FakeSmtp } from './support/fakes'
import { foldUserName, userNameKey } from '../../server/src/security/userNames'
import { PASSWORD_LOCKOUT_MS, RULES } from '../../server/src/security/rules'
import { migrations } from '../../server/src/db/migrate'
import { findUserBy } from '../../server/src/domain/account/users'
import { LOGIN_LIMITS } from '../../types/limits'

describe('the user-name key', () => {
  test('folds compatibility forms, composition and case, whatever the database', () => {
    const same = (a: string, b: string) => expect(userNameKey(a)).toBe(userNameKey(b))
    same('Ärger', 'A\u0308rger') // precomposed and decomposed
    same('Ärger', 'ärger')
    same('ÄRGER', 'ärger')
    same('STRASSE', 'straße')
    same('straße', 'STRAẞE')
    same('ΟΔΥΣΣΕΥΣ', 'οδυσσευς')
    same('ὈΔΥΣΣΕΎΣ'.normalize('NFC'), 'ὀδυσσεύς')
    same('οδυσσευσ', 'οδυσσευς') // σ and final ς
    same('ſtraſſe', 'STRASSE') // long s
    same('ＡＢＣ', 'abc') // full-width
    expect(userNameKey('İstanbul')).not.toBe(userNameKey('istanbul')) // a documented limit: no Turkish tailoring
    same('ﬁsh', 'FISH') // ligature
    same('  Bob ', 'bob')
    expect(userNameKey('Ölfass')).not.toBe(userNameKey('Olfass'))
    expect(foldUserName('Ärger')).toBe('ärger')
    expect(userNameKey('x'.repeat(100))).toMatch(/^[0-9a-f]{64}$/)
  })

  test('for every code point: decomposing, upper- or lower-casing a name keeps its key; folding is idempotent', () => {
    const broken: string[] = []
    for (let cp = 0; cp < 0x30000; cp++) {
      if (cp >= 0xd800 && cp < 0xe000) continue
      const name = `a${String.fromCodePoint(cp)}b`
      const folded = foldUserName(name)
      const variants = [name.normalize('NFD'), name.toUpperCase(), name.toLowerCase(), folded]
      if (variants.some(v => foldUserName(v) !== folded)) broken.push(cp.toString(16))
    }
    expect(broken).toEqual([])
  })
})

describe.each(testDialects())('accounts under attack on %s', (dialect) => {
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

  const register = (userName: string, password = 'secret-pw') =>
    post(t.app, '/login/register', { user_name: userName, password }, { query: { table: 'user' }, ip: nextIp() })
  const login = (body: Record<string, string>, ip = nextIp()) => post(t.app, '/login/passwd', body, { ip })

  test('a name with umlauts logs in again, in any form and case; its twin in other case is taken', async () => {
    const name = `Ärger${dialect}`
    const created = await register(name)
    expect(created.body.code).toBe(200)
    expect(created.body.data.user.userName).toBe(name)
    for (const form of [name, name.normalize('NFD'), name.toUpperCase(), name.toLowerCase(), `  ${name} `]) {
      const r = await login({ user_name: form, password: 'secret-pw' })
      expect({ form, code: r.body.code, id: r.body.data?.user?.id }).toEqual({ form, code: 200, id: created.body.data.user.id })
    }
    const taken = await register(name.normalize('NFD').toLowerCase())
    expect(taken.body).toMatchObject({ code: 409 })
  })

  test('ölfass cannot be registered beside Ölfass, nor straße beside STRASSE, nor ａｂｃ beside ABC; logging in never enters another account', async () => {
    const pairs: Array<[string, string]> = [[`Ölfass${dialect}`, `ölfass${dialect}`], [`STRASSE${dialect}`, `straße${dialect}`], [`ABC${dialect}`, `ａｂｃ${dialect}`]]
    for (const [first, second] of pairs) {
      const a = await register(first, 'first-pw')
      expect(a.body.code).toBe(200)
      expect((await register(second, 'second-pw')).body).toMatchObject({ code: 409 })
      const asSecond = await login({ user_name: second, password: 'second-pw' })
      expect(asSecond.body.code).toBe(401)
      expect((await login({ user_name: second, password: 'first-pw' })).body.data.user.id).toBe(a.body.data.user.id)
    }
    // the unique index holds even when the check before the insert is raced
    const racers = await Promise.all([register(`Zoë${dialect}`), register(`ZOË${dialect}`), register(`zoe\u0308${dialect}`)])
    expect(racers.map(r => r.body.code).sort()).toEqual([200, 409, 409])
  })

  test('the name is stored as typed in NFC; a blank name, or one NFC makes longer than the limit, is a 400 on user_name and stores nothing', async () => {
    const decomposed = `Zo\u0308e-nfc-${dialect}`
    const r = await register(decomposed)
    expect(r.body.code).toBe(200)
    expect(r.body.data.user.userName).toBe(decomposed.normalize('NFC'))
    const before = Number((await t.db.selectFrom('users').select(t.db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
    for (const blank of [' ', '   ', '\u3000\u3000']) {
      expect((await register(blank)).body).toMatchObject({ code: 400, message: 'A user name cannot be only blank space', data: { field: 'user_name' } })
    }
    // U+0958 is one character that NFC writes as two: 100 of them pass the schema but would store 200
    const grows = '\u0958'.repeat(LOGIN_LIMITS.userNameMax)
    expect(grows.normalize('NFC')).toHaveLength(2 * LOGIN_LIMITS.userNameMax)
    expect((await register(grows)).body).toMatchObject({ code: 400, data: { field: 'user_name' } })
    expect(Number((await t.db.selectFrom('users').select(t.db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBe(before)
    // one that NFC shortens to within the limit is fine
    const shrinks = 'e\u0301'.repeat(LOGIN_LIMITS.userNameMax / 2) + dialect
    expect((await register(shrinks.slice(0, LOGIN_LIMITS.userNameMax))).body.code).toBe(200)
  })

  test('guesses through user_name, phone and email of one account share one budget, from any address', async () => {
    const phone = `139${String(Date.now()).slice(-8)}`
    const owner = await makeUser(t.db, t.clock, { phone, email: `owner-${dialect}@example.test`, password: 'right-pw' })
    const ids: Array<Record<string, string>> = [{ user_name: owner.user_name! }, { phone }, { email: owner.email! }]
    const answers: number[] = []
    for (let i = 0; i < 30; i++) {
      const r = await login({ ...ids[i % 3], password: `wrong-${i}` }) // every guess from a new address
      answers.push(r.body.code)
    }
    const budget = RULES.passwordPerAccount.limit
    expect(answers.filter(c => c === 401)).toHaveLength(budget)
    expect(answers.slice(budget).every(c => c === 429)).toBe(true)
    // the right password is refused too while the budget is spent: otherwise the limit would not slow guessing
    expect((await login({ phone, password: 'right-pw' })).body.code).toBe(429)

    // the owner is not locked out for long: an attempt comes back after PASSWORD_LOCKOUT_MS
    expect(PASSWORD_LOCKOUT_MS).toBeLessThanOrEqual(2 * 60_000)
    t.clock.advance(PASSWORD_LOCKOUT_MS - 1000)
    expect((await login({ email: owner.email!, password: 'right-pw' })).body.code).toBe(429)
    t.clock.advance(1000)
    const back = await login({ email: owner.email!, password: 'right-pw' })
    expect(back.body.code).toBe(200)
    expect(back.body.data.user.id).toBe(Number(owner.id))
  })

  test('code login (SMS and e-mail) works while the password budget is spent', async () => {
    const phone = `137${String(Date.now()).slice(-8)}`
    const email = `locked-${dialect}@example.test`
    const owner = await makeUser(t.db, t.clock, { phone, email, password: 'right-pw' })
    for (let i = 0; i < RULES.passwordPerAccount.limit + 3; i++) await login({ user_name: owner.user_name!, password: `nope-${i}` })
    expect((await login({ phone, password: 'right-pw' })).body.code).toBe(429)
    expect((await get(t.app, '/login/sms/code', { query: { phone }, ip: nextIp() })).body.code).toBe(200)
    const r = await post(t.app, '/login/sms', { phone, code: sms.lastCode(phone) }, { ip: nextIp() })
    expect(r.body.code).toBe(200)
    expect(r.body.data.user.id).toBe(Number(owner.id))
    expect((await post(t.app, '/login/mail/sendCode', { phone: email }, { ip: nextIp() })).body.code).toBe(200)
    const m = await post(t.app, '/login/mail', { phone: email, code: smtp.lastCode(email) }, { ip: nextIp() })
    expect(m.body.code).toBe(200)
    expect(m.body.data.user.id).toBe(Number(owner.id))
    // and the password is still refused: code login does not hand the budget back to the guesser
    expect((await login({ phone, password: 'right-pw' })).body.code).toBe(429)
  })

  test('an unknown account answers like a known one and has a budget of its own', async () => {
    const answers: number[] = []
    for (let i = 0; i < RULES.passwordPerAccount.limit + 2; i++) {
      answers.push((await login({ user_name: `nobody-${dialect}`, password: `x-${i}` })).body.code)
    }
    expect(answers.filter(c => c === 401)).toHaveLength(RULES.passwordPerAccount.limit)
    expect(answers.slice(-2)).toEqual([429, 429])
  })

  test('an unknown name has one budget whatever its case, width or composition', async () => {
    const forms = [`Ärgernis-${dialect}`, `A\u0308RGERNIS-${dialect.toUpperCase()}`, `ärgernis-${dialect}`.replace('r', 'ｒ')]
    const answers: number[] = []
    for (let i = 0; i < RULES.passwordPerAccount.limit + 3; i++) {
      answers.push((await login({ user_name: forms[i % forms.length], password: `x-${i}` })).body.code)
    }
    expect(answers.filter(c => c === 401)).toHaveLength(RULES.passwordPerAccount.limit)
    expect(answers.slice(RULES.passwordPerAccount.limit).every(c => c === 429)).toBe(true)
  })
})

describe.each(testDialects())('migration 0004 on existing accounts on %s', (dialect) => {
  test('fills the key; of names that only lower() told apart, the oldest keeps it and the index holds', async () => {
    const d = await createTestDatabase(dialect)
    try {
      const db = d.handle.db
      const m = migrations(dialect)['0004_user_name_key']
      await m.down!(db) // back to the schema before 0004: lower(user_name) unique, no key
      const now = '2026-03-01T08:00:00.000Z'
      const base = { nickname: 'n', role: 'shopper', avatar: null, password_hash: null, phone: null, email: null, created_at: now, updated_at: now }
      const names = ['Ölfass', 'ölfass', 'Ärger', 'STRASSE', 'straße', 'plain']
      const ids: Record<string, number> = {}
      for (const name of names) {
        const row = await (db as any).insertInto('users').values({ ...base, user_name: name }).returning('id').executeTakeFirstOrThrow()
        ids[name] = Number(row.id)
      }
      await m.up(db)
      const rows = await db.selectFrom('users').select(['id', 'user_name', 'user_name_key']).orderBy('id').execute()
      expect(rows.map(r => [r.user_name, r.user_name_key])).toEqual([
        ['Ölfass', userNameKey('ölfass')],
        ['ölfass', null],
        ['Ärger', userNameKey('ärger')],
        ['STRASSE', userNameKey('strasse')],
        ['straße', null],
        ['plain', userNameKey('PLAIN')]
      ])
      expect(Number((await findUserBy(db, 'user_name', 'ölfass'))?.id)).toBe(ids['Ölfass'])
      expect(Number((await findUserBy(db, 'user_name', 'A\u0308RGER'))?.id)).toBe(ids['Ärger'])
      let code: unknown = 'no error'
      try {
        await db.insertInto('users').values({ ...base, role: 'shopper', user_name: 'ÖLFASS', user_name_key: userNameKey('ÖLFASS') }).execute()
      } catch (err) { code = (err as { code?: unknown }).code }
      expect(['SQLITE_CONSTRAINT_UNIQUE', '23505']).toContain(code)
    } finally {
      await d.drop()
    }
  })
})
