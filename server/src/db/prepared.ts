/**
 * Queries built and compiled once, then run with new values: the hot paths (the session of every
 * request, a box purchase) spent about a fifth of their CPU building Kysely's operation trees and
 * compiling them to SQL again for every call (bench/server-purchase.js --profile).
 *
 * `prepared((db, a, b) => db.selectFrom(...).where('x', '=', a)...)` builds the query the first time it
 * runs on a database (per dialect instance), with stand-ins for the arguments, and keeps the SQL and
 * where each stand-in landed among the parameters; afterwards a call only puts its values there.
 * So the builder must use each argument as a plain value, as it is (no branching on it, no `.length`,
 * no IN list of it, nothing computed from it): a stand-in that does not reach the parameters exactly
 * once as itself is refused when the query is first built. Everything else in the builder (tables,
 * columns, constants, the dialect's lock clause) is fixed by the first build.
 */
import { CompiledQuery, PostgresAdapter, type Compilable, type Kysely, type QueryResult } from 'kysely'
import { nameStatement } from './named'
import type { Database } from './schema'
import { owned, runDirect } from './sqlite-driver'

type Db = Kysely<Database>

/** Stands for an argument while the query is built. */
class StandIn {
  constructor (readonly index: number) {}
}

interface Template {
  sql: string
  /** Per parameter: the argument's index, or -1 for a constant of the query. */
  from: number[]
  constants: readonly unknown[]
}

export interface PreparedQuery<A extends unknown[], R> {
  /** Runs the query with these values on `db` (a database or a transaction). */
  execute: (db: Db, ...args: A) => Promise<QueryResult<R>>
  /** The first row, or undefined. */
  first: (db: Db, ...args: A) => Promise<R | undefined>
}

export function prepared<A extends unknown[], R> (build: (db: Db, ...args: A) => Compilable<R>): PreparedQuery<A, R> {
  // keyed by the dialect's adapter: one per database handle, shared by its transactions
  const templates = new WeakMap<object, Template>()
  const templateFor = (db: Db, arity: number): Template => {
    const adapter = db.getExecutor().adapter
    let template = templates.get(adapter)
    if (!template) {
      const standIns = Array.from({ length: arity }, (_, i) => new StandIn(i))
      const compiled = build(db, ...(standIns as unknown as A)).compile()
      const from = compiled.parameters.map(p => p instanceof StandIn ? p.index : -1)
      for (let i = 0; i < arity; i++) {
        const uses = from.filter(f => f === i).length
        if (uses !== 1) throw new Error(`prepared query: argument ${i} reaches the parameters ${uses} times (must be once, as a plain value): ${compiled.sql}`)
      }
      template = { sql: compiled.sql, from, constants: compiled.parameters }
      // PostgreSQL: parsed once per connection, its plan kept (db/named.ts); SQLite keeps its own statements
      if (adapter instanceof PostgresAdapter) nameStatement(compiled.sql)
      templates.set(adapter, template)
    }
    return template
  }
  const execute = (db: Db, ...args: A): Promise<QueryResult<R>> => {
    try {
      for (let i = 0; i < args.length; i++) {
        // an IN list is as many parameters as it has items: its SQL cannot be kept
        if (Array.isArray(args[i])) throw new Error(`prepared query: argument ${i} is a list (an IN list cannot be prepared)`)
      }
      const { sql, from, constants } = templateFor(db, args.length)
      const parameters = from.map((f, i) => f < 0 ? constants[i] : args[f])
      // SQLite: straight to the connection where that is certain (db/sqlite-driver.ts runDirect)
      const direct = runDirect(db, { sql, parameters })
      if (direct) return Promise.resolve(direct as QueryResult<R>)
      const compiled = CompiledQuery.raw(sql, parameters) as CompiledQuery<R>
      return db.executeQuery(db.isTransaction ? owned(compiled, db) as CompiledQuery<R> : compiled)
    } catch (err) {
      // a failure run directly, a transaction that has ended, a bad argument: a rejection, as any other
      return Promise.reject(err)
    }
  }
  return {
    execute,
    first: async (db, ...args) => (await execute(db, ...args)).rows[0]
  }
}

/**
 * For a statement whose SQL depends on a count (an IN list of n items, n rows inserted at once): one
 * prepared query per count, made when a count first comes. Counts are bounded by the callers' schemas
 * (a case's slots, a transaction's lines); past PER_COUNT_MAX a count is refused.
 */
export const PER_COUNT_MAX = 256

export function perCount<A extends unknown[], R> (make: (count: number) => PreparedQuery<A, R>): (count: number) => PreparedQuery<A, R> {
  const made = new Map<number, PreparedQuery<A, R>>()
  return count => {
    let query = made.get(count)
    if (!query) {
      if (!Number.isSafeInteger(count) || count < 1 || count > PER_COUNT_MAX) throw new Error(`prepared query: a count of ${count} (1 to ${PER_COUNT_MAX})`)
      made.set(count, query = make(count))
    }
    return query
  }
}
