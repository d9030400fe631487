/**
 * The address book through the table API under real concurrency (issue 7): an attacker's 60 parallel
 * adds made 26-28 rows (cap 20) and 7-10 defaults on PostgreSQL, and 15 parallel "make default" made
 * 4-7 defaults. Both rules hold now, on SQLite and PostgreSQL, and every refusal is an envelope.
 */
import { sql } from 'kysely'
import { createTestDatabase, testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, post, TestClock, type TestApp } from './support/app'
import { migrations } from '../../server/src/db/migrate'

describe.each(testDialects())('address races on %s', (dialect) => {
  let t: TestApp
  beforeAll(async () => { t = await createTestApp(dialect) })
  afterAll(async () => { await t.close() })

  const invoke = (token: string, method: string, param: unknown) =>
    post(t.app, '/api/data/invoke', param, { token, query: { table: 'addresses', method } })
  const rows = async (userId: number) => t.db.selectFrom('addresses').select(['id', 'is_default']).where('user_id', '=', userId).execute()
  const address = (i: number, isDefault: boolean) => ({ name: `Name ${i}`, phone: '13800138000', region: 'Shanghai', detail: `Road ${i}`, is_default: isDefault })

  test('60 parallel adds, half of them asking to be the default: exactly 20 rows and one default', async () => {
    const user = await makeUser(t.db, t.clock)
    const token = await loginToken(t.app, user.user_name!, user.password)
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => invoke(token, 'add', address(i, i % 2 === 0))))
    expect(answers.every(a => a.status === 200)).toBe(true)
    const codes = answers.map(a => a.body.code)
    expect(codes.filter(c => c === 200)).toHaveLength(20)
    expect(codes.filter(c => c === 422)).toHaveLength(40)
    for (const a of answers.filter(a => a.body.code === 422)) {
      expect(a.body).toEqual({ code: 422, message: 'At most 20 addresses records can be saved', data: { max: 20 } })
    }
    const stored = await rows(Number(user.id))
    expect(stored).toHaveLength(20)
    expect(stored.filter(r => Number(r.is_default) === 1)).toHaveLength(1)
  })

  test('15 parallel "make default" on different addresses: exactly one default', async () => {
    const user = await makeUser(t.db, t.clock)
    const token = await loginToken(t.app, user.user_name!, user.password)
    const ids: number[] = []
    for (let i = 0; i < 15; i++) ids.push((await invoke(token, 'add', address(i, false))).body.data.id)
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(ids.map(id => invoke(token, 'update', { id, is_default: true })))
      expect(answers.map(a => a.body.code)).toEqual(ids.map(() => 200))
      const defaults = (await rows(Number(user.id))).filter(r => Number(r.is_default) === 1)
      expect(defaults).toHaveLength(1)
    }
  })

  test('adds, "make default" and deletes of one owner raced together: at most 20 rows, at most one default, no 500', async () => {
    const user = await makeUser(t.db, t.clock)
    const token = await loginToken(t.app, user.user_name!, user.password)
    const ids: number[] = []
    for (let i = 0; i < 12; i++) ids.push((await invoke(token, 'add', address(i, false))).body.data.id)
    const calls = [
      ...Array.from({ length: 20 }, (_, i) => invoke(token, 'add', address(100 + i, i % 3 === 0))),
      ...ids.map(id => invoke(token, 'update', { id, is_default: true })),
      ...ids.slice(0, 4).map(id => invoke(token, 'delete', { id }))
    ]
    const answers = await Promise.all(calls)
    expect(answers.map(a => a.status).every(s => s === 200)).toBe(true)
    // 404: a "make default" of an address deleted meanwhile; 422: the cap
    expect(answers.map(a => a.body.code).filter(c => ![200, 404, 422].includes(c))).toEqual([])
    const stored = await rows(Number(user.id))
    expect(stored.length).toBeLessThanOrEqual(20)
    expect(stored.filter(r => Number(r.is_default) === 1).length).toBeLessThanOrEqual(1)
    expect(t.logs.filter(l => l.includes('unhandled error'))).toEqual([])
  })

  test('the database itself refuses a second default', async () => {
    const user = await makeUser(t.db, t.clock)
    const now = new Date(t.clock.now()).toISOString()
    const row = { user_id: Number(user.id), name: 'a', phone: '13800138000', region: 'r', detail: 'd', is_default: 1, created_at: now, updated_at: now }
    await t.db.insertInto('addresses').values(row).execute()
    // (matched by message: better-sqlite3's errors come from another test file's realm, so toThrow misses them)
    const refused = await t.db.insertInto('addresses').values(row).execute().then(() => 'inserted', (err: Error) => err.message)
    expect(refused).toMatch(/unique/i)
    await t.db.insertInto('addresses').values({ ...row, is_default: 0 }).execute()
  })
})

describe.each(testDialects().filter(d => d === 'postgres'))('address writes beside the table API on %s', (dialect) => {
  test('a default committed outside the table API while an add waits on the index: a 409 envelope, not a 500', async () => {
    const t = await createTestApp(dialect)
    try {
      const user = await makeUser(t.db, t.clock)
      const token = await loginToken(t.app, user.user_name!, user.password)
      const now = new Date(t.clock.now()).toISOString()
      let answer: Awaited<ReturnType<typeof post>> | undefined
      await t.db.transaction().execute(async trx => {
        await trx.insertInto('addresses').values({ user_id: Number(user.id), name: 'a', phone: '13800138000', region: 'r', detail: 'd', is_default: 1, created_at: now, updated_at: now }).execute()
        const pending = post(t.app, '/api/data/invoke', { name: 'b', phone: '13800138000', region: 'r', detail: 'd', is_default: true }, { token, lang: 'en', query: { table: 'addresses', method: 'add' } })
          .then(a => { answer = a; return a })
        // the add's insert waits on the unique index for this transaction (polled, bounded)
        // eslint-disable-next-line no-unmodified-loop-condition -- `answer` is set by the request's promise while the loop waits
        for (let i = 0; i < 400 && answer === undefined; i++) {
          const waiting = await t.db.selectNoFrom(sql<number>`(select count(*) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock')`.as('n')).executeTakeFirstOrThrow()
          if (Number(waiting.n) > 0) break
          await new Promise(resolve => setTimeout(resolve, 10))
        }
        expect(answer).toBeUndefined()
        void pending
      })
      // eslint-disable-next-line no-unmodified-loop-condition -- `answer` is set by the request's promise while the loop waits
      for (let i = 0; i < 400 && answer === undefined; i++) await new Promise(resolve => setTimeout(resolve, 10))
      expect(answer?.body).toEqual({ code: 409, message: 'The records were changed at the same time; try again', data: null })
      const defaults = await t.db.selectFrom('addresses').select('id').where('user_id', '=', Number(user.id)).where('is_default', '=', 1).execute()
      expect(defaults).toHaveLength(1)
      expect(t.logs.filter(l => l.includes('unhandled error'))).toEqual([])
    } finally {
      await t.close()
    }
  })
})

describe.each(testDialects())('migration 0005 on existing addresses on %s', (dialect) => {
  test('several defaults an older race left: the newest stays the default, then the index holds', async () => {
    const d = await createTestDatabase(dialect)
    try {
      const db = d.handle.db
      const m = migrations(dialect)['0005_address_rules']
      await m.down!(db) // back to the schema before 0005: no partial unique index
      const clock = new TestClock()
      const alice = await makeUser(db, clock)
      const bob = await makeUser(db, clock)
      const now = new Date(clock.now()).toISOString()
      const row = (userId: number, isDefault: number, detail: string) => ({ user_id: userId, name: 'n', phone: '13800138000', region: 'r', detail, is_default: isDefault, created_at: now, updated_at: now })
      for (const [userId, isDefault, detail] of [[alice.id, 1, 'a1'], [alice.id, 0, 'a2'], [alice.id, 1, 'a3'], [alice.id, 1, 'a4'], [bob.id, 1, 'b1'], [bob.id, 0, 'b2']] as const) {
        await db.insertInto('addresses').values(row(Number(userId), isDefault, detail)).execute()
      }
      await m.up(db)
      const rows = await db.selectFrom('addresses').select(['detail', 'is_default']).orderBy('id').execute()
      expect(rows.map(r => [r.detail, Number(r.is_default)])).toEqual([['a1', 0], ['a2', 0], ['a3', 0], ['a4', 1], ['b1', 1], ['b2', 0]])
      const refused = await db.insertInto('addresses').values(row(Number(bob.id), 1, 'b3')).execute().then(() => 'inserted', (err: Error) => err.message)
      expect(refused).toMatch(/unique/i)
    } finally {
      await d.drop()
    }
  })
})
