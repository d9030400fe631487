/**
 * A fresh, migrated database per suite: in-memory SQLite, or a new database on the test PostgreSQL.
 * PostgreSQL databases are copies of one migrated template (`create database ... template`, about a
 * tenth of the time of running the migrations on each); a SQLite file database starts as a copy of a
 * migrated file. The templates belong to the run (pg.js names them; pg-teardown.js drops the
 * PostgreSQL one) and are made once, by whichever Jest worker needs one first.
 */
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

/** Whether the test server takes `strategy file_copy` (PostgreSQL 15 and later); asked once. */
let fileCopy: boolean | undefined

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
    const file = path.join(dir, 'shop.sqlite')
    fs.copyFileSync(await sqliteTemplate(), file)
    const handle = openDatabase({ sqlitePath: file })
    // nothing left to run: the copy is migrated (kept, so that a template that fell behind shows up here)
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
  const template = await postgresTemplate()
  await admin(async c => {
    // FILE_COPY: the template's files copied as they are. PostgreSQL 15's default, WAL_LOG, writes each
    // block through the log: 230 ms a copy here against 135 ms, and a run makes hundreds (an older
    // server, PG_TEST_URL, knows no strategy and copies files anyway)
    fileCopy ??= Number((await c.query('show server_version_num')).rows[0].server_version_num) >= 150000
    await c.query(`create database ${name} template ${template}${fileCopy ? ' strategy file_copy' : ''}`)
  })
  const url = new URL(base)
  url.pathname = `/${name}`
  // `via`: the server reaches the database another way (through pgbouncer: support/pgbouncer.ts, which
  // cannot carry named statements: DATABASE_PREPARED_STATEMENTS=off, as docs/scaling.md says);
  // creating and dropping it stay direct
  const handle = openDatabase({ databaseUrl: options.via ? options.via(url.toString()) : url.toString(), poolSize: 10, preparedStatements: !options.via })
  // nothing left to run on a copy of the template; kept as the check that it is the latest
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

/** The run's template name (pg.js sets it); a name of this process's own when Jest's setup did not run. */
function templateName (): string {
  if (!process.env.TEST_DB_TEMPLATE) process.env.TEST_DB_TEMPLATE = `tmpl_${randomBytes(6).toString('hex')}`
  return process.env.TEST_DB_TEMPLATE
}

/**
 * The migrated PostgreSQL template, made by the first worker that asks (an advisory lock keeps the
 * others waiting until it is complete). A template must have no open connection while it is copied:
 * the migrating handle is closed before the lock is released.
 */
async function postgresTemplate (): Promise<string> {
  const name = templateName()
  return await admin(async c => {
    await c.query('select pg_advisory_lock(4949)')
    try {
      const found = await c.query('select 1 from pg_database where datname = $1', [name])
      if (!found.rowCount) {
        await c.query(`create database ${name}`)
        const url = new URL(process.env.DATABASE_URL as string)
        url.pathname = `/${name}`
        const handle = openDatabase({ databaseUrl: url.toString(), poolSize: 1 })
        try {
          await migrateToLatest(handle.db, handle.dialect)
        } finally {
          await handle.close()
        }
        await c.query(`alter database ${name} is_template true allow_connections false`)
      }
    } finally {
      await c.query('select pg_advisory_unlock(4949)')
    }
    return name
  })
}

/** A migrated SQLite file in the temp directory, made once per run (written aside, then renamed in place). */
async function sqliteTemplate (): Promise<string> {
  const file = path.join(os.tmpdir(), `${templateName()}.sqlite`)
  if (fs.existsSync(file)) return file
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-db-template-'))
  try {
    const handle = openDatabase({ sqlitePath: path.join(dir, 'shop.sqlite') })
    try {
      await migrateToLatest(handle.db, handle.dialect)
    } finally {
      await handle.close()
    }
    // one file to copy: the log is folded in (the checkpoint worker is stopped by now)
    const Sqlite = (await import('better-sqlite3')).default
    const db = new Sqlite(path.join(dir, 'shop.sqlite'))
    db.pragma('journal_mode = DELETE')
    db.close()
    fs.renameSync(path.join(dir, 'shop.sqlite'), `${file}.${process.pid}`)
    fs.renameSync(`${file}.${process.pid}`, file)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
  return file
}
