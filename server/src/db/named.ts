/**
 * Named (server-side) prepared statements on PostgreSQL, for the statements the shop runs most: the
 * session of every signed-in request and the other queries of db/prepared.ts, and the purchase
 * statements of domain/purchaseBatch.ts.
 *
 * An unnamed statement is parsed and planned again every time it runs. The session lookup alone spent
 * 0.08 ms of the database's CPU planning for 0.02 ms running, on every signed-in request
 * (`bench/server-purchase.js --pg-stats`). A named statement is parsed once per connection, and
 * PostgreSQL keeps a generic plan once it finds one no dearer than the custom plans
 * (https://www.postgresql.org/docs/15/sql-prepare.html, "Notes").
 *
 * - **Names follow the text.** A statement's name is a hash of its SQL, so the same name always means
 *   the same SQL, in every process and every version of the server. Through a pooler that hands one
 *   server connection to several processes in turn, a name found there can only be the same statement.
 * - **Only registered texts** are named (`nameStatement`); every other query stays unnamed.
 * - **Switched off** by `DATABASE_PREPARED_STATEMENTS=off`: pgbouncer before 1.21 (Debian 12 ships 1.18)
 *   in transaction mode lends a different server connection to each transaction, where a statement
 *   parsed on another one does not exist (https://www.pgbouncer.org/features.html, "SQL feature map for
 *   pooling modes": protocol-level prepared plans need `max_prepared_statements`, from 1.21).
 * - **A safety net** when that is forgotten, or when the schema changed under a running process:
 *   PostgreSQL refuses a named statement it does not have (26000), one it already has (42P05), or one
 *   whose result columns changed since it was prepared (0A000, "cached plan must not change result
 *   type"). Nothing ran. Outside a transaction the statement is sent again unnamed and answers as usual.
 *   Inside one, PostgreSQL has aborted the transaction, so the error goes to the caller, which rolls
 *   back: nothing is half done. Then the connection (0A000) or the whole pool (26000, 42P05: a pooler
 *   in the way) stops naming statements, and `onProblem` tells the operator what to set.
 */
import { createHash } from 'node:crypto'
import type pg from 'pg'

const names = new Map<string, string>()

/** Marks a SQL text to run as a named statement on PostgreSQL (idempotent). */
export function nameStatement (sql: string): void {
  if (!names.has(sql)) names.set(sql, `shop_${createHash('sha256').update(sql).digest('hex').slice(0, 32)}`)
}

/** The name a text runs under, or undefined (tests). */
export function statementName (sql: string): string | undefined {
  return names.get(sql)
}

/** What a pool's connections did with named statements. */
export interface NamedStatementStats {
  /** Named statements are in use (false: switched off, or turned off by the safety net). */
  enabled: boolean
  /** Statements run by name. */
  named: number
  /** Named statements PostgreSQL refused and that were sent again unnamed (outside a transaction). */
  retried: number
  /** Named statements refused inside a transaction (the caller's transaction failed). */
  failedInTransaction: number
}

const NOT_THERE = '26000' // invalid_sql_statement_name: no statement by that name on this connection
const ALREADY_THERE = '42P05' // duplicate_prepared_statement
const RESULT_CHANGED = '0A000' // feature_not_supported: "cached plan must not change result type"

const wrapped = new WeakSet<object>()
const offClients = new WeakSet<object>()
const inTransaction = new WeakSet<object>()

type Query = (text: unknown, values?: unknown) => Promise<pg.QueryResult>

/**
 * Makes `client.query(text, values)` run registered texts by name (once per client; the pool hands the
 * same client out again). `stats.enabled` false leaves every query as it was.
 */
export function nameStatementsOn (client: pg.PoolClient, stats: NamedStatementStats, onProblem: (message: string) => void): pg.PoolClient {
  if (wrapped.has(client)) return client
  wrapped.add(client)
  // the class's own method, looked up at each call (so whatever instruments the class sees every statement)
  const proto = Object.getPrototypeOf(client) as { query: (this: pg.PoolClient, ...args: unknown[]) => Promise<pg.QueryResult> }
  const query: Query = (text, values) => proto.query.call(client, text, values)
  const run = async (text: string, values: unknown): Promise<pg.QueryResult> => {
    // Kysely opens and ends transactions with these statements on the same client
    if (/^\s*(begin|start transaction)\b/i.test(text)) inTransaction.add(client)
    else if (/^\s*(commit|rollback|end|abort)\s*;?\s*$/i.test(text)) inTransaction.delete(client)
    const name = stats.enabled && !offClients.has(client) ? names.get(text) : undefined
    if (!name) return await query(text, values)
    try {
      const result = await query({ name, text, values })
      stats.named++
      return result
    } catch (err) {
      const { code, routine } = err as { code?: string, routine?: string }
      // 0A000 is every "feature not supported"; only the plan whose result changed is this net's (told by
      // the server's routine, which, unlike the message, is not translated)
      const resultChanged = code === RESULT_CHANGED && routine === 'RevalidateCachedQuery'
      if (code !== NOT_THERE && code !== ALREADY_THERE && !resultChanged) throw err
      if (resultChanged) {
        offClients.add(client)
        onProblem(`database: the prepared statement ${name} no longer matches the schema (it changed while this process ran); this connection now sends its statements unnamed`)
      } else if (stats.enabled) {
        stats.enabled = false
        onProblem('database: PostgreSQL does not have the prepared statements this connection made (a pooler in transaction mode, such as pgbouncer before 1.21, between the server and PostgreSQL?); ' +
          'statements now go unnamed. Set DATABASE_PREPARED_STATEMENTS=off when DATABASE_URL points at such a pooler')
      }
      if (inTransaction.has(client)) {
        stats.failedInTransaction++
        throw err
      }
      stats.retried++
      return await query(text, values)
    }
  }
  client.query = ((...args: unknown[]) => {
    // a text with its values, as Kysely sends them; anything else (a cursor, a callback) as it came
    if (typeof args[0] !== 'string' || args.length > 2 || typeof args[1] === 'function') return proto.query.apply(client, args)
    return run(args[0], args[1])
  }) as typeof client.query
  return client
}
