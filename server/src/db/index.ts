/**
 * Opens the database: better-sqlite3 in DATA_DIR by default, PostgreSQL when a URL is given.
 * Both dialects see the same schema (migrate.ts) and run the same Kysely queries.
 */
import fs from 'node:fs'
import path from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import pg from 'pg'
import { Kysely, PostgresDialect, type PostgresPool } from 'kysely'
import type { Database } from './schema'
import type { Dialect } from './dialect'
import { CommittingKysely, DatabaseEvents } from './events'
import { readAside, type ReadAside } from './readAside'
import { GroupCommitSqliteDialect, type GroupCommitStats } from './sqlite-driver'
import { SQLITE_WAL_FALLBACK_PAGES, startCheckpointer, type Checkpointer } from './checkpointer'
import { nameStatementsOn, type NamedStatementStats } from './named'

export type Db = Kysely<Database>

export interface DatabaseHandle {
  db: Db
  dialect: Dialect
  close: () => Promise<void>
  /** SQLite: how transactions were grouped into commits (db/sqlite-driver.ts). */
  groupCommit?: GroupCommitStats
  /** Commit groups, pool waits and committed ledger lines, for whoever listens (db/events.ts). */
  events: DatabaseEvents
  /** PostgreSQL: the pool's connections now, and the callers waiting for one. */
  pool?: () => PoolState
  /** PostgreSQL: what its connections did with named statements (db/named.ts). */
  namedStatements?: NamedStatementStats
  /** A SQLite file: long reads in a worker thread, off the event loop (db/readAside.ts). */
  readAside?: Pick<ReadAside, 'all'>
}

export interface PoolState { idle: number; busy: number; waiting: number }

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string; SQLite when unset. */
  databaseUrl?: string
  /** SQLite file, or ':memory:'. */
  sqlitePath?: string
  /** PostgreSQL pool size. */
  poolSize?: number
  /** Told when an idle pooled PostgreSQL connection fails (the pool replaces it), or SQLite's checkpoint worker. */
  onPoolError?: (err: Error) => void
  /**
   * PostgreSQL: run the hot statements as named statements (db/named.ts); default true. False through
   * a pooler in transaction mode that cannot carry them (pgbouncer before 1.21).
   */
  preparedStatements?: boolean
  /** PostgreSQL: what the operator should know (named statements turned off by their safety net). */
  onWarning?: (message: string) => void
}

export const SQLITE_FILE = 'shop.sqlite'

export function sqlitePathIn (dataDir: string): string {
  return path.join(dataDir, SQLITE_FILE)
}

export function openDatabase (options: OpenDatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10, options)
  return openSqlite(options.sqlitePath ?? ':memory:', options.onPoolError)
}

export const SQLITE_WAL_AUTOCHECKPOINT = 2000

function openSqlite (file: string, onCheckpointError?: (err: Error) => void): DatabaseHandle {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true })
  const sqlite = new SqliteDatabase(file)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = NORMAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  // Every transaction runs as a savepoint of its commit group (sqlite-driver.ts), and statements that may
  // fail half-way keep a statement journal: SQLite keeps both in temporary files, truncated and written
  // again with a system call per page for every purchase. In memory they cost a copy of the page; their
  // size is bounded by what one transaction changes. (bench/server-purchase.js: SQLite's share of a
  // purchase fell by about a third.)
  sqlite.pragma('temp_store = MEMORY')
  // A file database checkpoints in a worker thread (db/checkpointer.ts): requests no longer copy the log
  // back and flush it themselves; their own automatic checkpoint stays as a distant safety net. Without
  // the worker (':memory:'), every 2,000 pages as before.
  let checkpointer: Checkpointer | null = null
  if (file !== ':memory:') {
    checkpointer = startCheckpointer(file, err => {
      onCheckpointError?.(err)
      // the worker failed: the requests' own checkpoints take over
      sqlite.pragma(`wal_autocheckpoint = ${SQLITE_WAL_AUTOCHECKPOINT}`)
    })
    sqlite.pragma(`wal_autocheckpoint = ${SQLITE_WAL_FALLBACK_PAGES}`)
  } else {
    sqlite.pragma(`wal_autocheckpoint = ${SQLITE_WAL_AUTOCHECKPOINT}`)
  }
  // SELECTs outside transactions read on a second connection (file databases; see sqlite-driver.ts)
  let reader: SqliteDatabase.Database | null = null
  if (file !== ':memory:') {
    reader = new SqliteDatabase(file)
    reader.pragma('busy_timeout = 5000')
    reader.pragma('foreign_keys = ON')
  }
  const events = new DatabaseEvents()
  const dialect = new GroupCommitSqliteDialect(sqlite, reader, events)
  const db: Kysely<Database> = new CommittingKysely<Database>({ dialect }, events)
  const aside = file !== ':memory:' ? readAside(file) : null
  return {
    db,
    dialect: 'sqlite',
    close: async () => { await aside?.stop(); await checkpointer?.stop(); await db.destroy() },
    groupCommit: dialect.driver().stats,
    events,
    ...(aside ? { readAside: aside } : {})
  }
}

const INT8_OID = 20
const TIMESTAMPTZ_OID = 1184

/** bigint ids, cents and counts come back as numbers; they never exceed 2^53 here, and we check. */
function parseInt8 (value: string): number {
  const n = Number(value)
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${value} is outside the safe integer range`)
  return n
}

const parseTimestamptz = pg.types.getTypeParser(TIMESTAMPTZ_OID, 'text') as (v: string) => Date

/** Timestamps come back as ISO strings, as they do from SQLite. */
const pgTypes = {
  getTypeParser (oid: number, format?: 'text' | 'binary') {
    if (format !== 'binary') {
      if (oid === INT8_OID) return parseInt8
      if (oid === TIMESTAMPTZ_OID) return (v: string) => parseTimestamptz(v).toISOString()
    }
    return pg.types.getTypeParser(oid, format as 'text')
  }
} as pg.CustomTypesConfig

function openPostgres (connectionString: string, max: number, options: OpenDatabaseOptions): DatabaseHandle {
  const pool = new pg.Pool({ connectionString, max, types: pgTypes })
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', err => options.onPoolError?.(err))
  const named: NamedStatementStats = { enabled: options.preparedStatements !== false, named: 0, retried: 0, failedInTransaction: 0 }
  const warn = options.onWarning ?? ((message: string) => console.warn(message))
  const connect = async (): Promise<pg.PoolClient> => nameStatementsOn(await pool.connect(), named, warn)
  const events = new DatabaseEvents()
  // how long each query or transaction waited for its connection (timed only while someone listens)
  const timedPool: PostgresPool = {
    connect: async () => {
      if (!events.heard('poolAcquire')) return await connect()
      const started = performance.now()
      const client = await connect()
      events.emit('poolAcquire', performance.now() - started)
      return client
    },
    end: () => pool.end()
  }
  const db: Kysely<Database> = new CommittingKysely<Database>({ dialect: new PostgresDialect({ pool: timedPool }) }, events)
  const state = (): PoolState => ({ idle: pool.idleCount, busy: pool.totalCount - pool.idleCount, waiting: pool.waitingCount })
  return { db, dialect: 'postgres', close: () => db.destroy(), events, pool: state, namedStatements: named }
}
