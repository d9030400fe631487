/**
 * Named statements on PostgreSQL (server/src/db/named.ts): the hot queries run by name, parsed once per
 * connection; DATABASE_PREPARED_STATEMENTS=off leaves every statement unnamed; and the safety net:
 * a statement PostgreSQL no longer has (as behind pgbouncer in transaction mode) or whose result
 * changed with the schema is sent again unnamed outside a transaction, fails the transaction inside
 * one, and turns naming off with a word for the operator. PostgreSQL only.
 */
import { sql } from 'kysely'
import { createTestDatabase, testDialects, type TestDatabase } from './support/db'
import { openDatabase, type DatabaseHandle, type Db } from '../../server/src/db'
import { prepared } from '../../server/src/db/prepared'
import { statementName } from '../../server/src/db/named'
import { insertUser } from '../../server/src/domain/account/users'
import { loadConfig } from '../../server/src/config'

const describeOnPostgres = testDialects().includes('postgres') ? describe : describe.skip

// a query of the kind the server prepares: every column of an account (users.* grows with the schema)
const accountOf = prepared((db: Db, id: number) => db.selectFrom('users').selectAll().where('id', '=', id))

describeOnPostgres('named statements on postgres', () => {
  let base: TestDatabase
  let userId: number
  const handles: DatabaseHandle[] = []
  beforeAll(async () => {
    base = await createTestDatabase('postgres')
    const user = await insertUser(base.handle.db, () => Date.parse('2026-11-25T10:00:00Z'), { user_name: 'named1', nickname: 'Named', password_hash: 'x' })
    userId = Number(user.id)
  })
  afterAll(async () => {
    for (const h of handles) await h.close()
    await base.drop()
  })

  /** A handle of one connection on the test database, so every statement meets the same session. */
  function single (preparedStatements = true): { handle: DatabaseHandle, warnings: string[] } {
    const warnings: string[] = []
    const handle = openDatabase({ databaseUrl: base.url, poolSize: 1, preparedStatements, onWarning: m => warnings.push(m) })
    handles.push(handle)
    return { handle, warnings }
  }
  const preparedHere = async (db: Db): Promise<string[]> =>
    (await sql<{ name: string }>`select name from pg_prepared_statements order by name`.execute(db)).rows.map(r => r.name)
  const sqlOf = (db: Db): string => db.selectFrom('users').selectAll().where('id', '=', 0).compile().sql

  test('a prepared query runs by name, parsed once on its connection; other queries stay unnamed', async () => {
    const { handle } = single()
    expect((await accountOf.first(handle.db, userId))?.user_name).toBe('named1')
    expect((await accountOf.first(handle.db, userId))?.user_name).toBe('named1')
    const name = statementName(sqlOf(handle.db))
    expect(name).toMatch(/^shop_[0-9a-f]{32}$/)
    // the name is the text's: the same in every process
    expect(await preparedHere(handle.db)).toEqual([name])
    expect(handle.namedStatements).toMatchObject({ enabled: true, named: 2, retried: 0, failedInTransaction: 0 })
  })

  test('switched off: nothing is named', async () => {
    const { handle } = single(false)
    expect((await accountOf.first(handle.db, userId))?.user_name).toBe('named1')
    expect(await preparedHere(handle.db)).toEqual([])
    expect(handle.namedStatements).toMatchObject({ enabled: false, named: 0 })
  })

  test('a statement the server lost: sent again unnamed outside a transaction, a failed transaction inside one, then naming stops', async () => {
    const { handle, warnings } = single()
    await accountOf.first(handle.db, userId)
    // what a pooler in transaction mode does: the next server connection never saw the statement
    await sql`deallocate all`.execute(handle.db)
    expect((await accountOf.first(handle.db, userId))?.user_name).toBe('named1')
    expect(handle.namedStatements).toMatchObject({ enabled: false, retried: 1, failedInTransaction: 0 })
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/DATABASE_PREPARED_STATEMENTS=off/)
    // from now on unnamed: nothing new on the server
    await accountOf.first(handle.db, userId)
    expect(await preparedHere(handle.db)).toEqual([])

    // inside a transaction the refusal aborts it: the caller's transaction fails and writes nothing
    const other = single()
    await accountOf.first(other.handle.db, userId)
    await sql`deallocate all`.execute(other.handle.db)
    const attempt = other.handle.db.transaction().execute(async trx => {
      await trx.updateTable('users').set({ nickname: 'Changed' }).where('id', '=', userId).execute()
      await accountOf.first(trx, userId)
    })
    await expect(attempt).rejects.toMatchObject({ code: '26000' })
    expect(other.handle.namedStatements).toMatchObject({ enabled: false, failedInTransaction: 1, retried: 0 })
    expect((await accountOf.first(other.handle.db, userId))?.nickname).toBe('Named')
  })

  test('a schema change under a prepared statement: answered unnamed, with the new columns; that connection stops naming', async () => {
    const { handle, warnings } = single()
    await accountOf.first(handle.db, userId)
    await sql`alter table users add column named_test_extra integer not null default 7`.execute(base.handle.db)
    try {
      const row = await accountOf.first(handle.db, userId) as Record<string, unknown> | undefined
      expect(row?.named_test_extra).toBe(7)
      expect(handle.namedStatements).toMatchObject({ enabled: true, retried: 1 })
      expect(warnings[0]).toMatch(/no longer matches the schema/)
      const named = handle.namedStatements!.named
      await accountOf.first(handle.db, userId)
      expect(handle.namedStatements!.named).toBe(named)
    } finally {
      await sql`alter table users drop column named_test_extra`.execute(base.handle.db)
    }
  })

  test('DATABASE_PREPARED_STATEMENTS: on by default, off, anything else refused with its meaning', () => {
    expect(loadConfig({}).databasePreparedStatements).toBe(true)
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'off' }).databasePreparedStatements).toBe(false)
    expect(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: 'maybe' })).toThrow(/DATABASE_PREPARED_STATEMENTS must be on or off \(off when DATABASE_URL points at pgbouncer/)
  })
})
