import type { SelectQueryBuilder } from 'kysely'
import type { Dialect } from './dialect'

/**
 * Locks the selected rows until the transaction ends, on PostgreSQL: SELECT ... FOR NO KEY UPDATE,
 * the lock for a row whose non-key columns will change. (Plain FOR UPDATE would also wait for every
 * transaction holding the KEY SHARE lock that inserting a row referencing it takes, e.g. a purchase
 * referencing its series, and two such transactions deadlock.) SQLite has no row locks and needs none:
 * it runs one write transaction at a time.
 */
export function forUpdate<DB, TB extends keyof DB, O> (dialect: Dialect, q: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> {
  return dialect === 'postgres' ? q.forNoKeyUpdate() : q
}
