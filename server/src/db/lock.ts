import { PostgresAdapter, type Kysely, type SelectQueryBuilder } from 'kysely'
import type { Dialect } from './dialect'

/** The dialect a database handle (or a transaction of it) speaks. */
export function dialectOf (db: Kysely<any>): Dialect { // eslint-disable-line @typescript-eslint/no-explicit-any
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'
}

/**
 * Locks the selected rows until the transaction ends, on PostgreSQL: SELECT ... FOR NO KEY UPDATE,
 * the lock for a row whose non-key columns will change. (Plain FOR UPDATE would also wait for every
 * transaction holding the KEY SHARE lock that inserting a row referencing it takes, e.g. a purchase
 * referencing its series, and two such transactions deadlock.) SQLite has no row locks and needs none:
 * it runs one write transaction at a time.
 */
export function forUpdate<DB, TB extends keyof DB, O> (dialect: Dialect, q: SelectQueryBuilder<DB, TB, O>, of?: TB & string): SelectQueryBuilder<DB, TB, O> {
  if (dialect !== 'postgres') return q
  // `of` names the one table of a join whose rows are locked (the others are only read)
  return of ? q.forNoKeyUpdate(of as never) : q.forNoKeyUpdate()
}
