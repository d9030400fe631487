/** A fresh, migrated database per suite: in-memory SQLite, or a new database on the test PostgreSQL. */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { openDatabase, type DatabaseHandle } from '../../../server/src/db'
import type { Dialect } from '../../../server/src/db/dialect'
import { migrateToLatest } from '../../../server/src/db/migrate'

/** sqlite, plus postgres when pg.js started one (TEST_DIALECTS=sqlite|postgres picks one). */
export function testDialects (): Dialect[] {
  const chosen = process.env.TEST_DIALECTS?.split(',').map(s => s.trim()).filter(Boolean) as Dialect[] | undefined
  const available: Dialect[] = process.env.DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite']
  if (!chosen?.length) return available
  for (const d of chosen) {
    if (!available.includes(d)) throw new Error(`TEST_DIALECTS asks for ${d}, which is not available (PG_TESTS=off?)`)
  }
  return chosen
}

export interface TestDatabase {
  handle: DatabaseHandle
  drop: () => Promise<void>
  /** PostgreSQL: the database's direct URL (to open more handles on it). */
  url?: string
}

async function admin<T> (fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

/**
 * `via` (PostgreSQL): the URL the server's pool uses instead of the direct one.
 * `sqliteFile`: SQLite in a file of a temporary directory instead of in memory, as the server runs it:
 * only a file database has the reading connection (server/src/db/sqlite-driver.ts).
 */
export async function createTestDatabase (dialect: Dialect, options: { sqliteFile?: boolean; via?: (directUrl: string) => string } = {}): Promise<TestDatabase> {
  if (dialect === 'sqlite' && options.sqliteFile) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-db-'))
    const handle = openDatabase({ sqlitePath: path.join(dir, 'shop.sqlite') })
    await migrateToLatest(handle.db, handle.dialect)
    return {
      handle,
      drop: async () => {
        await handle.close()
        fs.rmSync(dir, { recursive: true, force: true })
      }
    }
  }
  if (dialect === 'sqlite') {
    const handle = openDatabase({ sqlitePath: ':memory:' })
    await migrateToLatest(handle.db, handle.dialect)
    return { handle, drop: () => handle.close() }
  }
  const base = process.env.DATABASE_URL
  if (!base) throw new Error('DATABASE_URL is not set: PostgreSQL tests need test/server/pg.js')
  const name = `t_${randomBytes(6).toString('hex')}`
  await admin(c => c.query(`create database ${name}`))
  const url = new URL(base)
  url.pathname = `/${name}`
  // `via`: the server reaches the database another way (through pgbouncer: support/pgbouncer.ts, which
  // cannot carry named statements: DATABASE_PREPARED_STATEMENTS=off, as docs/scaling.md says);
  // creating and dropping it stay direct
  const handle = openDatabase({ databaseUrl: options.via ? options.via(url.toString()) : url.toString(), poolSize: 10, preparedStatements: !options.via })
  await migrateToLatest(handle.db, handle.dialect)
  return {
    handle,
    url: url.toString(),
    drop: async () => {
      await handle.close()
      await admin(c => c.query(`drop database if exists ${name} with (force)`))
    }
  }
}
