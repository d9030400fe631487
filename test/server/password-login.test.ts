/** POST /login/passwd (spec 5): identifiers, messages, argon2id, no enumeration. */
import { testDialects } from './support/db'
import { createTestApp, get, makeUser, nextIp, post, type TestApp } from './support/app'
import { ARGON2_OPTIONS, hashPassword, verifyPassword } from '../../server/src/security/passwords'

describe.each(testDialects())('password login on %s', (dialect) => {
  let t: TestApp
  beforeAll(async () => { t = await createTestApp(dialect) })
  afterAll(async () => { await t.close() })

  test('logs in by user_name, phone or email and returns LoginResult {token, user}', async () => {
    const u = await makeUser(t.db, t.clock, { user_name: 'Alice', phone: '13912345678', email: 'alice@example.com', password: 'wonderland' })
    for (const body of [
      { user_name: 'Alice', password: 'wonderland' },
      { user_name: 'alice', password: 'wonderland' }, // user names are case-insensitive
      { phone: '13912345678', password: 'wonderland' },
      { email: 'ALICE@example.com', password: 'wonderland' }
    ]) {
      const r = await post(t.app, '/login/passwd', body, { ip: nextIp() })
      expect(r.body.code).toBe(200)
      expect(r.body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(r.body.data.user).toEqual({
        id: Number(u.id), userName: 'Alice', nickname: 'Tester', phone: '13912345678',
        email: 'alice@example.com', avatar: null, role: 'shopper'
      })
      const me = await get(t.app, '/getUserInfo', { token: r.body.data.token })
      expect(me.body.data.id).toBe(Number(u.id))
    }
  })

  test('the spec messages for a missing identifier or password (zh and en)', async () => {
    const cases: Array<[object, string, string]> = [
      [{ password: 'abcdef' }, '必须提供 user_name、phone 或 email 之一', 'One of user_name, phone or email is required'],
      [{}, '必须提供 user_name、phone 或 email 之一', 'One of user_name, phone or email is required'],
      [{ user_name: 'bob' }, '必须提供 password', 'password is required'],
      [{ phone: '13912345678' }, '必须提供 password', 'password is required']
    ]
    for (const [body, zh, en] of cases) {
      const a = await post(t.app, '/login/passwd', body, { lang: 'zh-CN', ip: nextIp() })
      expect(a.body).toMatchObject({ code: 400, message: zh })
      const b = await post(t.app, '/login/passwd', body, { lang: 'en', ip: nextIp() })
      expect(b.body).toMatchObject({ code: 400, message: en })
    }
  })

  test('exactly one identifier', async () => {
    const r = await post(t.app, '/login/passwd', { user_name: 'bob', phone: '13912345678', password: 'abcdef' }, { ip: nextIp() })
    expect(r.body).toMatchObject({ code: 400, message: 'Provide only one of user_name, phone or email', data: { field: 'phone' } })
  })

  test('field limits: user_name 1-100, password 3-18, phone and e-mail formats', async () => {
    const cases: Array<[object, string, string]> = [
      [{ user_name: '', password: 'abc' }, 'user_name', 'minLength'],
      [{ user_name: 'x'.repeat(101), password: 'abc' }, 'user_name', 'maxLength'],
      [{ user_name: 'bob', password: 'ab' }, 'password', 'minLength'],
      [{ user_name: 'bob', password: 'x'.repeat(19) }, 'password', 'maxLength'],
      [{ phone: '12345678901', password: 'abc' }, 'phone', 'pattern'],
      [{ phone: '1391234567', password: 'abc' }, 'phone', 'pattern'],
      [{ email: 'not-an-address', password: 'abc' }, 'email', 'format']
    ]
    for (const [body, field, rule] of cases) {
      const r = await post(t.app, '/login/passwd', body, { ip: nextIp() })
      expect(r.body).toMatchObject({ code: 400, data: { field, rule } })
      expect(r.body.message).toContain(field)
    }
    const zh = await post(t.app, '/login/passwd', { user_name: 'bob', password: 'ab' }, { lang: 'zh', ip: nextIp() })
    expect(zh.body.message).toBe('password 长度不能少于 3 个字符')
    const ok100 = await post(t.app, '/login/passwd', { user_name: 'x'.repeat(100), password: 'x'.repeat(18) }, { ip: nextIp() })
    expect(ok100.body.code).toBe(401)
  })

  test('no enumeration: unknown account and wrong password get the same answer', async () => {
    const u = await makeUser(t.db, t.clock, { password: 'right-one' })
    const wrong = await post(t.app, '/login/passwd', { user_name: u.user_name, password: 'wrong-one' }, { ip: nextIp() })
    const unknown = await post(t.app, '/login/passwd', { user_name: 'nobody-at-all', password: 'wrong-one' }, { ip: nextIp() })
    expect(wrong.body).toEqual({ code: 401, message: 'Incorrect account or password', data: null })
    expect(unknown.body).toEqual(wrong.body)
    const zh = await post(t.app, '/login/passwd', { phone: '13700000000', password: 'whatever' }, { lang: 'zh', ip: nextIp() })
    expect(zh.body).toEqual({ code: 401, message: '账号或密码错误', data: null })
  })

  test('a passwordless account (code or WeChat sign-up) cannot be entered by password', async () => {
    const { insertUser } = await import('../../server/src/domain/account/users')
    await insertUser(t.db, t.clock.now, { phone: '13600000001', nickname: 'no password' })
    const r = await post(t.app, '/login/passwd', { phone: '13600000001', password: 'anything' }, { ip: nextIp() })
    expect(r.body).toEqual({ code: 401, message: 'Incorrect account or password', data: null })
  })
})

describe('password hashing', () => {
  test('argon2id with m=19456 KiB, t=2, p=1', async () => {
    expect(ARGON2_OPTIONS).toEqual({ memoryCost: 19456, timeCost: 2, parallelism: 1 })
    const h = await hashPassword('correct horse')
    expect(h).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(await verifyPassword(h, 'correct horse')).toBe(true)
    expect(await verifyPassword(h, 'wrong horse')).toBe(false)
    expect(await verifyPassword('not a hash', 'x')).toBe(false)
  })

  test('an unknown account costs an argon2 verification too (even timing)', async () => {
    const h = await hashPassword('pw')
    await verifyPassword(null, 'warm-up')
    // Processor time of this process (argon2 runs on libuv's pool, which process.cpuUsage counts), not
    // wall time: the work is the same however loaded the machine is, and CI runs other steps beside this.
    const time = async (fn: () => Promise<unknown>) => {
      const started = process.cpuUsage()
      for (let i = 0; i < 5; i++) await fn()
      const used = process.cpuUsage(started)
      return (used.user + used.system) / 5e3
    }
    const known = await time(() => verifyPassword(h, 'wrong'))
    const unknown = await time(() => verifyPassword(null, 'wrong'))
    // without the dummy verification an unknown account answers in microseconds
    expect(unknown).toBeGreaterThan(known * 0.4)
    expect(unknown).toBeLessThan(known * 3)
  })
})
