/** Migrations, constraints and the demo seed, on both dialects. */
import { userNameKey } from '../../server/src/security/userNames'
import { testDialects, createTestDatabase, type TestDatabase } from './support/db'
import { migrateToLatest, migrations } from '../../server/src/db/migrate'
import { seedDemo, DEMO_LOGINS } from '../../server/src/seed'
import { verifyPassword } from '../../server/src/security/passwords'
import { runMaintenance } from '../../server/src/domain/ops/maintenance'
import { createTestApp, get, loginToken, makeUser, nextIp } from './support/app'

/**
 * A statement refused by a constraint. (Matched on the driver's code: better-sqlite3's native part keeps
 * the SqliteError class of the first Jest test file that loaded it, which other files' `toThrow` do not
 * recognise as an Error.)
 */
async function refused (statement: Promise<unknown>, kind: 'unique' | 'check'): Promise<void> {
  const codes = kind === 'unique' ? ['SQLITE_CONSTRAINT_UNIQUE', '23505'] : ['SQLITE_CONSTRAINT_CHECK', '23514']
  let code: unknown = 'no error'
  try {
    await statement
  } catch (err) {
    code = (err as { code?: unknown }).code
  }
  expect(codes).toContain(code)
}

describe.each(testDialects())('database on %s', (dialect) => {
  let d: TestDatabase
  beforeAll(async () => { d = await createTestDatabase(dialect) })
  afterAll(async () => { await d.drop() })
  const now = '2026-03-01T08:00:00.000Z'

  test('migrations are applied once; running them again does nothing', async () => {
    expect(await migrateToLatest(d.handle.db, dialect)).toEqual([])
    const names = (await d.handle.db.selectFrom('kysely_migration' as never).select('name' as never).execute()) as unknown as Array<{ name: string }>
    expect(names.map(n => n.name)).toEqual(Object.keys(migrations(dialect)))
  })

  test('user-name keys (any case, any Unicode form), phones and e-mails are unique; several NULLs are fine', async () => {
    const db = d.handle.db
    const base = { nickname: 'n', role: 'shopper' as const, avatar: null, password_hash: null, created_at: now, updated_at: now, user_name_key: null }
    await db.insertInto('users').values({ ...base, user_name: 'Unique', user_name_key: userNameKey('Unique'), phone: null, email: null }).execute()
    await db.insertInto('users').values({ ...base, user_name: null, phone: null, email: null }).execute()
    await db.insertInto('users').values({ ...base, user_name: null, phone: null, email: null }).execute()
    await refused(db.insertInto('users').values({ ...base, user_name: 'unique', user_name_key: userNameKey('unique'), phone: null, email: null }).execute(), 'unique')
    await refused(db.insertInto('users').values({ ...base, user_name: 'ＵＮＩＱＵＥ', user_name_key: userNameKey('ＵＮＩＱＵＥ'), phone: null, email: null }).execute(), 'unique')
    await db.insertInto('users').values({ ...base, user_name: null, phone: '13900000000', email: 'u@example.com' }).execute()
    await refused(db.insertInto('users').values({ ...base, user_name: null, phone: '13900000000', email: null }).execute(), 'unique')
    await refused(db.insertInto('users').values({ ...base, user_name: null, phone: null, email: 'u@example.com' }).execute(), 'unique')
    await refused(db.insertInto('users').values({ ...base, user_name: 'r', phone: null, email: null, role: 'admin' as never }).execute(), 'check')
  })

  test('money is integer cents; a box costs at most 200 yuan (database check)', async () => {
    const db = d.handle.db
    const s = { name: 's', description: '', cover: null, case_size: 12, hidden_ppm: 0, status: 'draft' as const, created_at: now, updated_at: now }
    await db.insertInto('series').values({ ...s, price_cents: 20000 }).execute()
    await refused(db.insertInto('series').values({ ...s, price_cents: 20001 }).execute(), 'check')
    await refused(db.insertInto('series').values({ ...s, price_cents: 0 }).execute(), 'check')
    const row = await db.selectFrom('series').select('price_cents').where('price_cents', '=', 20000).executeTakeFirstOrThrow()
    expect(row.price_cents).toBe(20000)
  })

  test('the demo seed creates a shopper and an operator once', async () => {
    const fresh = await createTestDatabase(dialect)
    try {
      const clock = () => Date.parse(now)
      const seeded = await seedDemo(fresh.handle.db, clock)
      expect(seeded.map(s => s.role)).toEqual(['shopper', 'operator'])
      expect(await seedDemo(fresh.handle.db, clock)).toEqual([])
      const users = await fresh.handle.db.selectFrom('users').selectAll().orderBy('id').execute()
      expect(users.map(u => [u.user_name, u.role])).toEqual([['shopper', 'shopper'], ['operator', 'operator']])
      expect(await verifyPassword(users[1].password_hash, DEMO_LOGINS[1].password)).toBe(true)
    } finally {
      await fresh.drop()
    }
  })
})

describe.each(testDialects())('maintenance on %s', (dialect) => {
  test('purges sessions that can no longer be used, old codes and full rate-limit allowances', async () => {
    const t = await createTestApp(dialect)
    try {
      const u = await makeUser(t.db, t.clock)
      const old = await loginToken(t.app, u.user_name!, u.password)
      t.clock.advance(8 * 24 * 60 * 60 * 1000)
      const fresh = await loginToken(t.app, u.user_name!, u.password)
      await get(t.app, '/login/sms/code', { query: { phone: '13411112222' }, ip: nextIp() })
      t.clock.advance(2 * 24 * 60 * 60 * 1000)
      const ctx = {
        db: t.db, clock: t.clock.now, sessions: new (await import('../../server/src/domain/account/sessions')).SessionService(t.db, t.clock.now),
        codes: new (await import('../../server/src/domain/account/codes')).OneTimeCodes(t.db, t.clock.now),
        limiter: new (await import('../../server/src/security/rateLimiter')).RateLimiter(t.db, t.clock.now),
        media: new (await import('../../server/src/domain/media/mediaStore')).DatabaseMediaStore(t.db)
      }
      await runMaintenance(ctx as never)
      expect(await t.db.selectFrom('sessions').select('id').execute()).toHaveLength(1)
      expect(await t.db.selectFrom('one_time_codes').select('id').execute()).toEqual([])
      expect(await t.db.selectFrom('rate_limits').select('key').execute()).toEqual([])
      expect((await get(t.app, '/getUserInfo', { token: old })).body.code).toBe(401)
      expect((await get(t.app, '/getUserInfo', { token: fresh })).body.code).toBe(200)
    } finally {
      await t.close()
    }
  })
})
