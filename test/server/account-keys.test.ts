/**
 * Holes an attacker's probe found in accounts (issue 7), on SQLite and PostgreSQL:
 *  - password guesses through user_name, phone and email of one account share one budget (they had
 *    three), from any number of addresses; the lock-out is short and code login works meanwhile;
 *  - user names are compared after NFKC and full case folding, stored as a unique key: "Ärger" could
 *    register but never log in again, and "ölfass" could be registered beside "Ölfass".
 */
import { testDialects } from './support/db'
import { createTestApp, makeUser, nextIp, post, get, type TestApp } from './support/app'
import { startSms, type FakeSms } from './support/fakes'
import { foldUserName, userNameKey } from '../../server/src/security/userNames'
import { RULES } from '../../server/src/security/rules'

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
    same('ＡＢＣ', 'abc') // full-width
    same('ﬁsh', 'FISH') // ligature
    same('  Bob ', 'bob')
    expect(userNameKey('Ölfass')).not.toBe(userNameKey('Olfass'))
    expect(foldUserName('Ärger')).toBe('ärger')
    expect(userNameKey('x'.repeat(100))).toMatch(/^[0-9a-f]{64}$/)
  })
})

describe.each(testDialects())('accounts under attack on %s', (dialect) => {
  let t: TestApp
  let sms: FakeSms
  beforeAll(async () => {
    sms = await startSms()
    t = await createTestApp(dialect, { fakes: { sms } })
  })
  afterAll(async () => {
    await t.close()
    await sms.close()
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

    // the owner is not locked out for long: one attempt comes back within the refill interval
    t.clock.advance(RULES.passwordPerAccount.periodMs / budget)
    const back = await login({ email: owner.email!, password: 'right-pw' })
    expect(back.body.code).toBe(200)
  })

  test('code login works while the password budget is spent', async () => {
    const phone = `137${String(Date.now()).slice(-8)}`
    const owner = await makeUser(t.db, t.clock, { phone, password: 'right-pw' })
    for (let i = 0; i < RULES.passwordPerAccount.limit + 3; i++) await login({ phone, password: `nope-${i}` })
    expect((await login({ phone, password: 'right-pw' })).body.code).toBe(429)
    expect((await get(t.app, '/login/sms/code', { query: { phone }, ip: nextIp() })).body.code).toBe(200)
    const code = sms.lastCode(phone)
    const r = await post(t.app, '/login/sms', { phone, code }, { ip: nextIp() })
    expect(r.body.code).toBe(200)
    expect(r.body.data.user.id).toBe(Number(owner.id))
  })

  test('an unknown account answers like a known one and has a budget of its own', async () => {
    const answers: number[] = []
    for (let i = 0; i < RULES.passwordPerAccount.limit + 2; i++) {
      answers.push((await login({ user_name: `nobody-${dialect}`, password: `x-${i}` })).body.code)
    }
    expect(answers.filter(c => c === 401)).toHaveLength(RULES.passwordPerAccount.limit)
    expect(answers.slice(-2)).toEqual([429, 429])
  })
})
