/**
 * Kysely's driver for SQLite (better-sqlite3), with group commit and a reading connection.
 *
 * SQLite has one writer. Kysely's own driver runs every transaction as BEGIN ... COMMIT on one
 * connection behind a mutex, and in WAL mode each COMMIT appends every page the transaction changed to
 * the log: a box purchase changes about fifteen pages (the case, its slots, the wallet, the ledger,
 * the purchase, its prizes, the idempotency key and their indexes), and its commit was 38 % of
 * SQLite's time (README, Benchmarks). Purchases that follow one another change mostly the same pages.
 *
 * Group commit: transactions that come one after another share one outer SQLite transaction. Each runs
 * as a savepoint inside it (SAVEPOINT, then RELEASE on success or ROLLBACK TO on failure, so a failed
 * one undoes only itself), hands the connection to the next, and waits: its `commitTransaction` returns
 * only when the outer transaction has committed. So nobody hears "done" before its writes are committed,
 * exactly as before; a group whose COMMIT fails (or that SQLite rolls back whole, after an I/O error)
 * fails every member, and none of them was answered. The outer transaction commits
 *   - as soon as the writer is idle (checked after every member, on the next turn of the event loop),
 *   - when GROUP_MAX_MEMBERS have joined or the group is GROUP_MAX_AGE_MS old,
 *   - before any statement outside a transaction uses the writer (an autocommit write must not commit
 *     others' work half-way, nor be answered before it is committed itself), and on close.
 * The order of transactions is still one at a time, in the order they took the writer; SQLite's view
 * inside the group is the same as with separate commits.
 *
 * The reading connection: a SELECT outside any transaction runs on a second connection (file databases
 * only; WAL lets it read while the writer writes), so it sees only committed data (not a group still
 * waiting for its commit) and does not wait for the writer. An in-memory database has no second
 * connection: such reads take the writer, after its group has committed.
 */
import type SqliteDatabase from 'better-sqlite3'
import {
  CompiledQuery, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler,
  type DatabaseConnection, type DatabaseIntrospector, type Dialect, type DialectAdapter, type Driver,
  type Kysely, type QueryCompiler, type QueryResult
} from 'kysely'
import type { DatabaseEvents } from './events'

/** A group commits when this many transactions have joined it... */
export const GROUP_MAX_MEMBERS = 32
/** ...or when it is this old at a member's end (a bound on how long a member waits for the commit). */
export const GROUP_MAX_AGE_MS = 4
const MEMBER = 'group_member'

/** Prepared statements kept per SQL text, per connection (the least recently added go first). */
export const SQLITE_STATEMENT_CACHE = 1000

class StatementCache {
  private readonly cache = new Map<string, SqliteDatabase.Statement>()
  constructor (readonly db: SqliteDatabase.Database) {}
  prepare (sql: string): SqliteDatabase.Statement {
    let statement = this.cache.get(sql)
    if (!statement) {
      statement = this.db.prepare(sql)
      if (this.cache.size >= SQLITE_STATEMENT_CACHE) this.cache.delete(this.cache.keys().next().value as string)
      this.cache.set(sql, statement)
    }
    return statement
  }
}

/** One holder at a time, first come first served; `tryLock` takes it only if free. */
class Mutex {
  private held = false
  private readonly waiting: Array<() => void> = []
  get locked (): boolean { return this.held }
  tryLock (): boolean {
    if (this.held) return false
    this.held = true
    return true
  }

  lock (): Promise<void> {
    if (this.tryLock()) return Promise.resolve()
    return new Promise(resolve => this.waiting.push(resolve))
  }

  unlock (): void {
    const next = this.waiting.shift()
    if (next) next() // handed over: still held
    else this.held = false
  }
}

function run (cache: StatementCache, query: RawStatement): QueryResult<unknown> {
  const statement = cache.prepare(query.sql)
  const parameters = query.parameters as unknown[]
  if (statement.reader) return { rows: statement.all(parameters) }
  const { changes, lastInsertRowid } = statement.run(parameters)
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] }
}

const SELECT = /^\s*(select|with)\b/i

/** A statement by its SQL and values (what db/prepared.ts hands over). */
export interface RawStatement { sql: string; parameters: readonly unknown[] }

/** The driver behind each SQLite database handle, by its Kysely adapter (shared by its transactions). */
const driverOfAdapter = new WeakMap<object, GroupCommitSqliteDriver>()

/**
 * Runs a prepared statement at once, without Kysely's executor, where that is sure to be what Kysely
 * would do: on the writer, for the transaction that holds it now (known from an earlier statement of
 * the same transaction object); or a SELECT outside any transaction, on the reader. Otherwise (PostgreSQL,
 * a transaction's first statement, a transaction that has ended, anything else) undefined: the caller
 * goes through Kysely. Kysely's executor awaits a dozen promises around each statement; a purchase
 * runs fifteen.
 */
export function runDirect (db: Kysely<any>, statement: RawStatement): QueryResult<unknown> | undefined { // eslint-disable-line @typescript-eslint/no-explicit-any
  const driver = driverOfAdapter.get(db.getExecutor().adapter)
  if (!driver) return undefined
  const result = db.isTransaction
    ? (driver.connectionOf(db)?.holdsMember() ? driver.runOnWriter(statement) : undefined)
    : driver.tryRead(statement) ?? undefined
  if (result) driver.stats.direct++
  return result
}

/**
 * A statement sent through Kysely that names the transaction object it runs in, so the connection
 * serving it can be found for that transaction's next statements (runDirect).
 */
export function owned (statement: CompiledQuery, owner: Kysely<any>): CompiledQuery { // eslint-disable-line @typescript-eslint/no-explicit-any
  return Object.assign(Object.create(null), statement, { [OWNER]: owner }) as CompiledQuery
}
const OWNER = Symbol('owner')

interface Member { resolve: () => void; reject: (err: unknown) => void }

export interface GroupCommitStats {
  /** Commits of groups, transactions committed in them, the largest group. */
  groups: number; members: number; largest: number
  /** Statements run directly (runDirect), and those run through Kysely. */
  direct: number; throughKysely: number
}

export class GroupCommitSqliteDriver implements Driver {
  private readonly writer: StatementCache
  private readonly reader: StatementCache | null
  private readonly mutex = new Mutex()
  /** Which connection serves a transaction object (learnt from its statements that name it). */
  private readonly connections = new WeakMap<object, GroupConnection>()
  /** The outer transaction is open, with these members waiting for its commit. */
  private groupOpen = false
  private groupStartedAt = 0
  private waiting: Member[] = []
  private flushScheduled = false
  readonly stats: GroupCommitStats = { groups: 0, members: 0, largest: 0, direct: 0, throughKysely: 0 }

  constructor (writer: SqliteDatabase.Database, reader: SqliteDatabase.Database | null, private readonly events?: DatabaseEvents) {
    this.writer = new StatementCache(writer)
    this.reader = reader ? new StatementCache(reader) : null
  }

  async init (): Promise<void> {}

  /** Registers the adapter of the database handle this driver serves (for runDirect). */
  serves (adapter: object): void { driverOfAdapter.set(adapter, this) }

  connectionOf (trx: object): GroupConnection | undefined { return this.connections.get(trx) }
  learn (trx: object, connection: GroupConnection): void { this.connections.set(trx, connection) }

  async acquireConnection (): Promise<DatabaseConnection> {
    return new GroupConnection(this)
  }

  async beginTransaction (connection: DatabaseConnection): Promise<void> {
    await (connection as GroupConnection).begin()
  }

  async commitTransaction (connection: DatabaseConnection): Promise<void> {
    await (connection as GroupConnection).commit()
  }

  async rollbackTransaction (connection: DatabaseConnection): Promise<void> {
    (connection as GroupConnection).rollback()
  }

  async releaseConnection (connection: DatabaseConnection): Promise<void> {
    (connection as GroupConnection).release()
  }

  async destroy (): Promise<void> {
    await this.mutex.lock()
    try {
      this.commitGroup()
    } finally {
      this.mutex.unlock()
    }
    this.reader?.db.close()
    this.writer.db.close()
  }

  // ---- used by the connections (the caller holds the writer where it says so) ----

  /** The writer, for one holder at a time. */
  lockWriter (): Promise<void> { return this.mutex.lock() }
  unlockWriter (): void { this.mutex.unlock() }

  /** Runs a statement outside any transaction: a SELECT on the reader when there is one, else null. */
  tryRead (query: RawStatement): QueryResult<unknown> | null {
    if (!this.reader || !SELECT.test(query.sql)) return null
    // a transaction begun by hand (BEGIN as a statement, as a migration does) reads its own writes
    if (!this.groupOpen && this.writer.db.inTransaction) return null
    const statement = this.reader.prepare(query.sql)
    if (!statement.readonly || !statement.reader) return null
    return { rows: statement.all(query.parameters as unknown[]) }
  }

  /** Runs a statement on the writer (held). Should SQLite have rolled the outer transaction back, its members fail. */
  runOnWriter (query: RawStatement): QueryResult<unknown> {
    try {
      return run(this.writer, query)
    } catch (err) {
      if (this.groupOpen && !this.writer.db.inTransaction) this.groupLost(err)
      throw err
    }
  }

  /** Starts a member (writer held): the outer transaction if none is open, then the member's savepoint. */
  beginMember (): void {
    if (!this.groupOpen) {
      this.writer.db.exec('begin')
      this.groupOpen = true
      this.groupStartedAt = Date.now()
    }
    this.writer.db.exec(`savepoint ${MEMBER}`)
  }

  /**
   * Ends a member well (writer held): its savepoint is released into the group, the writer goes to the
   * next holder, and the promise settles when the group has committed (or failed).
   */
  endMember (): Promise<void> {
    try {
      this.writer.db.exec(`release ${MEMBER}`)
    } catch (err) {
      if (this.groupOpen && !this.writer.db.inTransaction) this.groupLost(err)
      throw err
    }
    const done = new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }))
    if (this.waiting.length >= GROUP_MAX_MEMBERS || Date.now() - this.groupStartedAt >= GROUP_MAX_AGE_MS) {
      this.commitGroup()
    } else {
      this.scheduleFlush()
    }
    return done
  }

  /** Undoes a member (writer held); what earlier members did stays in the group. */
  abortMember (): void {
    if (!this.groupOpen) return
    if (!this.writer.db.inTransaction) {
      this.groupLost(new Error('SQLite rolled the transaction back'))
      return
    }
    try {
      this.writer.db.exec(`rollback to ${MEMBER}`)
      this.writer.db.exec(`release ${MEMBER}`)
    } catch (err) {
      // the savepoint could not be undone: nothing of the group can be trusted
      if (this.writer.db.inTransaction) {
        try { this.writer.db.exec('rollback') } catch { /* already gone */ }
      }
      this.groupLost(err)
    }
  }

  /** Commits the open group (writer held or free with nobody else): every waiting member settles. */
  commitGroup (): void {
    if (!this.groupOpen) return
    const members = this.waiting
    this.waiting = []
    this.groupOpen = false
    try {
      this.writer.db.exec('commit')
    } catch (err) {
      if (this.writer.db.inTransaction) {
        try { this.writer.db.exec('rollback') } catch { /* already gone */ }
      }
      for (const m of members) m.reject(err)
      return
    }
    this.stats.groups++
    this.stats.members += members.length
    if (members.length > this.stats.largest) this.stats.largest = members.length
    this.events?.emit('groupCommit', members.length)
    for (const m of members) m.resolve()
  }

  /** The outer transaction is gone (SQLite rolled it back): its waiting members fail with the cause. */
  private groupLost (cause: unknown): void {
    const members = this.waiting
    this.waiting = []
    this.groupOpen = false
    const err = new Error('the transaction group was rolled back; its transactions did not commit', { cause })
    for (const m of members) m.reject(err)
  }

  /** On the next turn of the event loop, commits the group if the writer is free then. */
  private scheduleFlush (): void {
    if (this.flushScheduled) return
    this.flushScheduled = true
    setImmediate(() => {
      this.flushScheduled = false
      if (!this.groupOpen) return
      if (this.mutex.tryLock()) {
        try {
          this.commitGroup()
        } finally {
          this.mutex.unlock()
        }
      }
      // else a holder has the writer: a member will schedule again when it ends, and anything else
      // commits the group before it writes
    })
  }

  /** Before a statement outside a transaction uses the writer (held): the group commits first. */
  settleGroup (): void {
    this.commitGroup()
  }
}

/** One use of the database (Kysely acquires one per query, or per transaction). */
class GroupConnection implements DatabaseConnection {
  private holding = false
  private inMember = false
  private ended = false
  constructor (private readonly driver: GroupCommitSqliteDriver) {}

  /** In its transaction, holding the writer (its statements may run directly). */
  holdsMember (): boolean { return this.inMember }

  async executeQuery<R> (query: CompiledQuery): Promise<QueryResult<R>> {
    this.driver.stats.throughKysely++
    if (this.inMember) {
      const owner = (query as unknown as Record<symbol, unknown>)[OWNER]
      if (owner) this.driver.learn(owner as object, this)
      return this.driver.runOnWriter(query) as QueryResult<R>
    }
    if (!this.holding) {
      const read = this.driver.tryRead(query)
      if (read) return read as QueryResult<R>
      await this.driver.lockWriter()
      this.holding = true
      this.driver.settleGroup()
    }
    return this.driver.runOnWriter(query) as QueryResult<R>
  }

  async * streamQuery<R> (): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not used with SQLite here')
  }

  async begin (): Promise<void> {
    if (!this.holding) {
      await this.driver.lockWriter()
      this.holding = true
    }
    this.driver.beginMember()
    this.inMember = true
  }

  async commit (): Promise<void> {
    // (should the savepoint not release, this throws still in the member, and Kysely rolls it back)
    const committed = this.driver.endMember()
    this.inMember = false
    this.ended = true
    // the next transaction may start while this one waits for the group's commit
    this.holding = false
    this.driver.unlockWriter()
    await committed
  }

  rollback (): void {
    if (this.ended) return // a group that failed at commit: there is nothing left to undo
    this.inMember = false
    this.ended = true
    if (this.holding) this.driver.abortMember()
  }

  release (): void {
    this.inMember = false
    if (this.holding) {
      this.holding = false
      this.driver.unlockWriter()
    }
  }
}

/** SqliteDialect with the group-committing driver. */
export class GroupCommitSqliteDialect implements Dialect {
  constructor (private readonly writer: SqliteDatabase.Database, private readonly reader: SqliteDatabase.Database | null, private readonly events?: DatabaseEvents) {}
  readonly driver = (): GroupCommitSqliteDriver => (this.made ??= new GroupCommitSqliteDriver(this.writer, this.reader, this.events))
  private made: GroupCommitSqliteDriver | undefined
  createDriver (): Driver { return this.driver() }
  createQueryCompiler (): QueryCompiler { return new SqliteQueryCompiler() }
  createAdapter (): DialectAdapter {
    const adapter = new SqliteAdapter()
    this.driver().serves(adapter)
    return adapter
  }

  createIntrospector (db: Kysely<any>): DatabaseIntrospector { return new SqliteIntrospector(db) } // eslint-disable-line @typescript-eslint/no-explicit-any
}
