/** Queries compiled once and run with new values (server/src/db/prepared.ts), on both dialects. */
import { sql } from 'kysely'
import { testDialects, createTestDatabase, type TestDatabase } from './support/db'
import { prepared } from '../../server/src/db/prepared'
import { forUpdate } from '../../server/src/db/lock'

describe.each(testDialects())('prepared queries on %s', (dialect) => {
  let d: TestDatabase
  beforeAll(async () => { d = await createTestDatabase(dialect) })
  afterAll(async () => { await d.drop() })
  const now = '2026-03-01T08:00:00.000Z'
  const base = { nickname: 'n', role: 'shopper' as const, avatar: null, password_hash: null, created_at: now, updated_at: now, user_name_key: null, phone: null, email: null }

  const insertUser = prepared((db, name: string, nickname: string) => db.insertInto('users')
    .values({ ...base, user_name: name, nickname }).returning(['id', 'user_name', 'nickname', 'role']))
  const byName = prepared((db, name: string) => db.selectFrom('users').select(['id', 'nickname', 'role']).where('user_name', '=', name).where('role', '=', 'shopper'))
  const rename = prepared((db, nickname: string, id: number) => db.updateTable('users').set({ nickname, updated_at: now }).where('id', '=', id))

  test('the same answers as the query built each time, with each call\'s values, in and out of a transaction', async () => {
    const db = d.handle.db
    const a = await insertUser.first(db, 'prep_a', 'Alice')
    const b = await insertUser.first(db, 'prep_b', 'Bob')
    expect(a).toMatchObject({ user_name: 'prep_a', nickname: 'Alice', role: 'shopper' })
    expect(b).toMatchObject({ user_name: 'prep_b', nickname: 'Bob' })
    for (const name of ['prep_a', 'prep_b', 'nobody']) {
      const built = await db.selectFrom('users').select(['id', 'nickname', 'role']).where('user_name', '=', name).where('role', '=', 'shopper').executeTakeFirst()
      expect(await byName.first(db, name)).toEqual(built)
    }
    await db.transaction().execute(async trx => {
      const result = await rename.execute(trx, 'Alicia', Number(a!.id))
      expect(result.numAffectedRows).toBe(1n)
      expect((await byName.first(trx, 'prep_a'))!.nickname).toBe('Alicia')
    })
    expect((await byName.first(db, 'prep_a'))!.nickname).toBe('Alicia')
    // nothing else changed
    expect((await byName.first(db, 'prep_b'))!.nickname).toBe('Bob')
  })

  test('a rolled-back transaction keeps nothing of a prepared write', async () => {
    const db = d.handle.db
    const c = await insertUser.first(db, 'prep_c', 'Carol')
    await expect(db.transaction().execute(async trx => {
      await rename.execute(trx, 'Changed', Number(c!.id))
      throw new Error('undo')
    })).rejects.toThrow('undo')
    expect((await byName.first(db, 'prep_c'))!.nickname).toBe('Carol')
  })

  test('values are parameters, never SQL: a name full of quotes is stored and found as written', async () => {
    const db = d.handle.db
    const name = "x'); drop table users; --"
    await insertUser.first(db, name, 'Mallory')
    expect((await byName.first(db, name))!.nickname).toBe('Mallory')
    // the table is still there, with every account written above
    expect(Number((await db.selectFrom('users').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n)).toBeGreaterThanOrEqual(4)
  })

  test('the dialect\'s own SQL: a lock clause on PostgreSQL, none on SQLite', async () => {
    const db = d.handle.db
    const locked = prepared((db2, id: number) => forUpdate(dialect, db2.selectFrom('users').select('nickname').where('id', '=', id), 'users'))
    const c = await byName.first(db, 'prep_c')
    await db.transaction().execute(async trx => {
      expect((await locked.first(trx, Number(c!.id)))!.nickname).toBe('Carol')
    })
  })

  test('a builder that uses an argument as anything but a plain value is refused when first built', async () => {
    const db = d.handle.db
    const twice = prepared((db2, name: string) => db2.selectFrom('users').select('id').where('user_name', '=', name).where('nickname', '=', name))
    await expect(twice.first(db, 'prep_a')).rejects.toThrow(/argument 0 reaches the parameters 2 times/)
    const unused = prepared((db2, _name: string) => db2.selectFrom('users').select('id').where('user_name', '=', 'prep_a'))
    await expect(unused.first(db, 'prep_a')).rejects.toThrow(/argument 0 reaches the parameters 0 times/)
    const list = prepared((db2, ids: number[]) => db2.selectFrom('users').select('id').where('id', 'in', ids))
    await expect(list.first(db, [1, 2])).rejects.toThrow(/argument 0/)
  })
})
