/**
 * Migration 0006 changes CHECK constraints of the ledger: PostgreSQL alters them, SQLite rebuilds the
 * two tables. A book written before it must come through whole (ids, lines, the purchases and wallets
 * that refer to it), the new kinds and accounts must be accepted and unknown ones still refused.
 */
import { Migrator, sql, type Kysely } from 'kysely'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { openDatabase, type DatabaseHandle } from '../../server/src/db'
import { migrateToLatest, migrations } from '../../server/src/db/migrate'
import { checkLedger } from '../../server/src/domain/money/ledger'
import { testDialects } from './support/db'

async function openEmpty (dialect: 'sqlite' | 'postgres'): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const handle = openDatabase({ sqlitePath: ':memory:' })
    return { handle, drop: () => handle.close() }
  }
  const name = `m_${randomBytes(6).toString('hex')}`
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

async function refusedCode (statement: Promise<unknown>): Promise<unknown> {
  try {
    await statement
  } catch (err) {
    return (err as { code?: unknown }).code
  }
  return 'no error'
}

describe.each(testDialects())('migration 0006 on %s', (dialect) => {
  test('an existing book survives the rebuild, new kinds and accounts are accepted, unknown ones refused', async () => {
    const { handle, drop } = await openEmpty(dialect)
    const db = handle.db as Kysely<any>
    try {
      const all = migrations(dialect)
      const migrator = new Migrator({ db, provider: { getMigrations: async () => all } })
      const { error } = await migrator.migrateTo('0005_address_rules')
      expect(error).toBeUndefined()

      const now = '2026-03-01T08:00:00.000Z'
      const { id: userId } = await db.insertInto('users').values({ nickname: 'old', role: 'shopper', created_at: now, updated_at: now })
        .returning('id').executeTakeFirstOrThrow()
      const uid = Number(userId)
      // a top-up and a purchase written by the old schema
      for (const [i, kind, lines] of [
        [1, 'topup', [['payment_clearing', null, -5000], ['user_cash', uid, 5000]]],
        [2, 'purchase', [['user_cash', uid, -2000], ['house_sales', null, 2000]]]
      ] as const) {
        const { id: txId } = await db.insertInto('ledger_transactions').values({ kind, reference: `r${i}`, idempotency_key: `k${i}`, user_id: uid, created_at: now })
          .returning('id').executeTakeFirstOrThrow()
        for (const [account, user, amount] of lines) {
          await db.insertInto('ledger_lines').values({ tx_id: txId, account, user_id: user, amount_cents: amount }).execute()
        }
      }
      await db.insertInto('wallets').values({ user_id: uid, cash_cents: 3000, credit_cents: 0, updated_at: now }).execute()
      const linesBefore = await db.selectFrom('ledger_lines').selectAll().orderBy('id').execute()

      expect((await migrateToLatest(db, dialect))[0]).toBe('0006_after_draw')

      expect(await db.selectFrom('ledger_lines').selectAll().orderBy('id').execute()).toEqual(linesBefore)
      const txs = await db.selectFrom('ledger_transactions').select(['id', 'kind', 'idempotency_key']).orderBy('id').execute()
      expect(txs.map(t => [t.kind, t.idempotency_key])).toEqual([['topup', 'k1'], ['purchase', 'k2']])
      expect(linesBefore.map(l => Number(l.tx_id))).toEqual([1, 1, 2, 2].map(n => Number(txs[n - 1].id)))
      const books = await checkLedger(handle.db)
      expect(books.unbalanced).toEqual([])
      expect(books.walletMismatches).toEqual([])

      // the unique key, the foreign key and the indexes came through the rebuild
      expect(await refusedCode(db.insertInto('ledger_transactions').values({ kind: 'topup', reference: 'x', idempotency_key: 'k1', user_id: uid, created_at: now }).execute()))
        .toMatch(/^(SQLITE_CONSTRAINT_UNIQUE|23505)$/)
      expect(await refusedCode(db.insertInto('ledger_lines').values({ tx_id: 999, account: 'house_sales', user_id: null, amount_cents: 1 }).execute()))
        .toMatch(/^(SQLITE_CONSTRAINT_FOREIGNKEY|23503)$/)
      if (dialect === 'sqlite') {
        const indexes = await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'ledger_lines' and sql is not null`.execute(db)
        expect(indexes.rows.map(r => r.name).sort()).toEqual(['ledger_lines_tx_id_idx', 'ledger_lines_user_id_idx'])
        const fk = await sql`pragma foreign_keys`.execute(db)
        expect(fk.rows).toEqual([{ foreign_keys: 1 }])
      }

      const { id: tx } = await db.insertInto('ledger_transactions').values({ kind: 'shipping_fee', reference: 'shipment 1', idempotency_key: null, user_id: uid, created_at: now })
        .returning('id').executeTakeFirstOrThrow()
      await db.insertInto('ledger_lines').values([
        { tx_id: tx, account: 'user_cash', user_id: uid, amount_cents: -1000 },
        { tx_id: tx, account: 'house_shipping', user_id: null, amount_cents: 1000 }
      ]).execute()
      for (const account of ['withdraw_pending', 'house_props']) {
        await db.insertInto('ledger_lines').values({ tx_id: tx, account, user_id: null, amount_cents: 1 }).execute()
      }
      expect(await refusedCode(db.insertInto('ledger_transactions').values({ kind: 'lottery', reference: 'x', idempotency_key: null, user_id: uid, created_at: now }).execute()))
        .toMatch(/^(SQLITE_CONSTRAINT_CHECK|23514)$/)
      expect(await refusedCode(db.insertInto('ledger_lines').values({ tx_id: tx, account: 'house_cash', user_id: null, amount_cents: 1 }).execute()))
        .toMatch(/^(SQLITE_CONSTRAINT_CHECK|23514)$/)
      // the owner rule still holds: a user account needs its user, a house account none
      expect(await refusedCode(db.insertInto('ledger_lines').values({ tx_id: tx, account: 'withdraw_pending', user_id: uid, amount_cents: 1 }).execute()))
        .toMatch(/^(SQLITE_CONSTRAINT_CHECK|23514)$/)
    } finally {
      await drop()
    }
  })
})
