/**
 * What a database handle tells whoever listens (the metrics, server/src/metrics/metrics.ts): each SQLite
 * commit group and its size, each PostgreSQL connection taken from the pool and how long that took, and
 * ledger lines once the transaction that wrote them has committed.
 *
 * After-commit work: `afterCommit(trx, fn)` runs `fn` once the transaction `trx` has committed, and never
 * if it rolls back. The handle's Kysely instance (CommittingKysely) runs a transaction's hooks when its
 * `transaction().execute(...)` has returned, which is after COMMIT (with SQLite's group commit, after the
 * group's COMMIT: db/sqlite-driver.ts). Outside a transaction the statement has committed already, so
 * `fn` runs at once.
 */
import { Kysely, type KyselyConfig, type Transaction, type TransactionBuilder } from 'kysely'
import type { LedgerAccount } from './schema'

export interface DatabaseEventMap {
  /** SQLite: a commit group committed, with this many transactions in it. */
  groupCommit: number
  /** PostgreSQL: a connection was taken from the pool, after this many milliseconds. */
  poolAcquire: number
  /** Ledger lines written by a transaction that has committed. */
  ledgerLines: ReadonlyArray<{ account: LedgerAccount; amountCents: number }>
}

type Listener<K extends keyof DatabaseEventMap> = (value: DatabaseEventMap[K]) => void

export class DatabaseEvents {
  private readonly listeners: { [K in keyof DatabaseEventMap]: Set<Listener<K>> } = {
    groupCommit: new Set(), poolAcquire: new Set(), ledgerLines: new Set()
  }

  /** Listens; answers the function that stops listening. */
  on<K extends keyof DatabaseEventMap> (name: K, listener: Listener<K>): () => void {
    this.listeners[name].add(listener)
    return () => { this.listeners[name].delete(listener) }
  }

  /** Whether anyone listens (so that nothing is measured for nobody). */
  heard (name: keyof DatabaseEventMap): boolean {
    return this.listeners[name].size > 0
  }

  /** Tells every listener; one that throws does not stop the others, nor the database work that told it. */
  emit<K extends keyof DatabaseEventMap> (name: K, value: DatabaseEventMap[K]): void {
    for (const listener of this.listeners[name]) {
      try { listener(value) } catch { /* a listener's failure is its own */ }
    }
  }
}

/** The events of the handle a Kysely instance or any of its transactions belongs to (they share the adapter). */
const eventsByAdapter = new WeakMap<object, DatabaseEvents>()

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function eventsOf (db: Kysely<any>): DatabaseEvents | undefined {
  return eventsByAdapter.get(db.getExecutor().adapter)
}

/** Work waiting for a transaction's commit, by the transaction object its callback was given. */
const pending = new WeakMap<object, Array<() => void>>()

/** Runs `fn` once `db`'s transaction has committed (at once outside a transaction); never after a rollback. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function afterCommit (db: Kysely<any>, fn: () => void): void {
  if (!db.isTransaction) {
    fn()
    return
  }
  const list = pending.get(db)
  if (list) list.push(fn)
  else pending.set(db, [fn])
}

function runCommitted (trx: object | undefined): void {
  if (!trx) return
  const list = pending.get(trx)
  if (!list) return
  pending.delete(trx)
  for (const fn of list) {
    try { fn() } catch { /* the transaction has committed: its answer stands */ }
  }
}

/** A transaction builder whose execute runs the transaction's after-commit work once it has committed. */
function committing<DB> (builder: TransactionBuilder<DB>): TransactionBuilder<DB> {
  const execute = builder.execute.bind(builder)
  const setAccessMode = builder.setAccessMode.bind(builder)
  const setIsolationLevel = builder.setIsolationLevel.bind(builder)
  return Object.assign(builder, {
    async execute<T> (callback: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
      let trx: Transaction<DB> | undefined
      const result = await execute(t => { trx = t; return callback(t) })
      runCommitted(trx)
      return result
    },
    setAccessMode: (mode: Parameters<TransactionBuilder<DB>['setAccessMode']>[0]) => committing(setAccessMode(mode)),
    setIsolationLevel: (level: Parameters<TransactionBuilder<DB>['setIsolationLevel']>[0]) => committing(setIsolationLevel(level))
  })
}

/** Kysely whose transactions run their after-commit work, with the handle's events (eventsOf). */
export class CommittingKysely<DB> extends Kysely<DB> {
  constructor (config: KyselyConfig, events: DatabaseEvents) {
    super(config)
    eventsByAdapter.set(this.getExecutor().adapter, events)
  }

  override transaction (): TransactionBuilder<DB> {
    return committing(super.transaction())
  }
}
