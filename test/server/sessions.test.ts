/** Sessions: Bearer tokens, getUserInfo, logout revokes, idle and absolute expiry, stored hashed. */
import { createHash } from 'node:crypto'
import { testDialects } from './support/db'
import { createTestApp, get, loginToken, makeUser, type TestApp } from './support/app'
import { SESSION_IDLE_MS, SESSION_MAX_AGE_MS } from '../../server/src/domain/account/sessions'

const DAY = 24 * 60 * 60 * 1000

describe.each(testDialects())('sessions on %s', (dialect) => {
  let t: TestApp
  beforeAll(async () => { t = await createTestApp(dialect) })
  afterAll(async () => { await t.close() })

  test('getUserInfo needs a valid Bearer token (else 401)', async () => {
    const u = await makeUser(t.db, t.clock)
    const token = await loginToken(t.app, u.user_name!, u.password)
    const me = await get(t.app, '/getUserInfo', { token })
    expect(me.body).toMatchObject({ code: 200, data: { id: Number(u.id), userName: u.user_name, role: 'shopper' } })
    expect(me.body.data).not.toHaveProperty('password_hash')
    for (const headers of [{} as Record<string, string>, { authorization: 'Bearer nonsense-token-that-is-long-enough' }, { authorization: `Basic ${token}` }]) {
      const r = await get(t.app, '/getUserInfo', { headers })
      expect(r.body).toEqual({ code: 401, message: 'Not logged in, or the session has expired', data: null })
    }
    const zh = await get(t.app, '/getUserInfo', { lang: 'zh' })
    expect(zh.body.message).toBe('未登录或登录已过期')
  })

  test('tokens are 256-bit random and stored only as SHA-256', async () => {
    const u = await makeUser(t.db, t.clock)
    const token = await loginToken(t.app, u.user_name!, u.password)
    expect(Buffer.from(token, 'base64url')).toHaveLength(32)
    const rows = await t.db.selectFrom('sessions').select('token_hash').where('user_id', '=', u.id).execute()
    expect(rows).toEqual([{ token_hash: createHash('sha256').update(token).digest('hex') }])
  })

  test('logout revokes the token; other sessions live on', async () => {
    const u = await makeUser(t.db, t.clock)
    const a = await loginToken(t.app, u.user_name!, u.password)
    const b = await loginToken(t.app, u.user_name!, u.password)
    expect((await get(t.app, '/logout', { token: a })).body).toMatchObject({ code: 200, data: null })
    expect((await get(t.app, '/getUserInfo', { token: a })).body.code).toBe(401)
    expect((await get(t.app, '/getUserInfo', { token: b })).body.code).toBe(200)
    // logging out again, or without a token, is harmless
    expect((await get(t.app, '/logout', { token: a })).body.code).toBe(200)
    expect((await get(t.app, '/logout')).body.code).toBe(200)
  })

  test(`idle expiry: unused for ${SESSION_IDLE_MS / DAY} days ends the session`, async () => {
    const u = await makeUser(t.db, t.clock)
    const token = await loginToken(t.app, u.user_name!, u.password)
    t.clock.advance(SESSION_IDLE_MS - 60_000)
    expect((await get(t.app, '/getUserInfo', { token })).body.code).toBe(200)
    // that use reset the idle clock
    t.clock.advance(SESSION_IDLE_MS - 60_000)
    expect((await get(t.app, '/getUserInfo', { token })).body.code).toBe(200)
    t.clock.advance(SESSION_IDLE_MS + 1)
    expect((await get(t.app, '/getUserInfo', { token })).body.code).toBe(401)
  })

  test(`absolute expiry: ${SESSION_MAX_AGE_MS / DAY} days after login, even when used daily`, async () => {
    const u = await makeUser(t.db, t.clock)
    const token = await loginToken(t.app, u.user_name!, u.password)
    for (let day = 1; day < SESSION_MAX_AGE_MS / DAY; day++) {
      t.clock.advance(DAY)
      expect((await get(t.app, '/getUserInfo', { token })).body.code).toBe(200)
    }
    t.clock.advance(DAY)
    expect((await get(t.app, '/getUserInfo', { token })).body.code).toBe(401)
  })
})
