/**
 * Idempotency keys (per user): a money-moving request is applied at most once per key. The key and the
 * first result are written by the request's own transaction, after its work, so "applied" and
 * "recorded" commit together (nothing is stored for a request that fails: it may be retried).
 *
 * The rule, on both databases: a request whose key was already used with the same body answers the
 * first request's stored answer (a replay) and applies nothing, whether it comes after the first one
 * answered or at the same time as it (twins); the same key with another body (or another route) is a
 * 409 `idempotency.keyReused`. Nobody hears a replay before the first request's work is committed.
 *
 * How: when a request fails, for whatever reason (the unique key itself, a prize or slot its twin just
 * took, a deadlock), the stored result of the key is looked up. Under concurrency on PostgreSQL a twin
 * either waits on the first one's locks and then fails on what it changed, or fails on the key; the
 * look-up (READ COMMITTED) then sees the first one's committed key. On SQLite the twins take the writer
 * one after the other, and with the group commit (db/sqlite-driver.ts) the first one's key may be
 * written but not yet committed when its twin fails: a read outside any transaction goes to the
 * reading connection, which sees only committed data, and would miss it. So the look-up runs in a
 * transaction: on SQLite it takes the writer after the first one (and sees its key), and like every
 * member of a group it is answered only once that group has committed.
 */
import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'
import { isRetryableConflict, isUniqueViolation } from '../../db/errors'
import { iso, type Clock } from '../../core/clock'
import { ApiFailure } from '../../core/errors'
import { prepared } from '../../db/prepared'
import { lockLiveAccount } from '../account/users'

type Db = Kysely<Database>

/** A stable hash of a request body (keys sorted at every level). */
export function requestHash (scope: string, body: unknown): string {
  const canonical = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(canonical)
    if (v && typeof v === 'object') {
      return Object.fromEntries(Object.keys(v).sort().map(k => [k, canonical((v as Record<string, unknown>)[k])]))
    }
    return v
  }
  return createHash('sha256').update(`${scope}\n${JSON.stringify(canonical(body))}`).digest('hex')
}

export interface IdempotentCall {
  userId: number
  key: string
  scope: string
  /** The body that identifies the request (without the key itself). */
  body: unknown
}

const keyReused = () => new ApiFailure(409, 'idempotency.keyReused', { field: 'idempotencyKey' }, { field: 'idempotencyKey' })

export interface StoredRow { scope: string; request_hash: string; response: string | null }

const storedRow = (db: Db, call: IdempotentCall): Promise<StoredRow | undefined> => db.selectFrom('idempotency_keys')
  .select(['scope', 'request_hash', 'response']).where('user_id', '=', call.userId).where('key', '=', call.key).executeTakeFirst()

export function checkStored<T> (call: IdempotentCall, hash: string, row: StoredRow | undefined): { found: false } | { found: true; result: T } {
  if (!row) return { found: false }
  if (row.scope !== call.scope || row.request_hash !== hash) throw keyReused()
  if (row.response === null) throw new ApiFailure(409, 'idempotency.inProgress', { field: 'idempotencyKey' }, { field: 'idempotencyKey' })
  return { found: true, result: JSON.parse(row.response) as T }
}

const recordKey = prepared((db: Db, userId: number, key: string, scope: string, requestHash: string, response: string, createdAt: string) => db
  .insertInto('idempotency_keys').values({ user_id: userId, key, scope, request_hash: requestHash, response, created_at: createdAt }))

/** After a failure: the first answer of the key (a replay), a 409 when it was used otherwise, or not found. */
export async function storedAnswer<T> (db: Db, call: IdempotentCall, hash: string): Promise<{ found: false } | { found: true; result: T }> {
  return checkStored<T>(call, hash, await db.transaction().execute(trx => storedRow(trx, call)))
}

export async function idempotent<T> (db: Db, clock: Clock, call: IdempotentCall, run: (trx: Db) => Promise<T>): Promise<{ result: T; replayed: boolean }> {
  const hash = requestHash(call.scope, call.body)
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await db.transaction().execute(async trx => {
        // every keyed request acts for a live account: a deletion that committed since its session was
        // read refuses it (401), one in progress waits for it and then sees what it created
        await lockLiveAccount(trx, call.userId)
        const value = await run(trx)
        await recordKey.execute(trx, call.userId, call.key, call.scope, hash, JSON.stringify(value), iso(clock()))
        return value
      })
      return { result, replayed: false }
    } catch (err) {
      // was the key used before (or just now, by a twin)? then answer that first result (or 409)
      const first = await storedAnswer<T>(db, call, hash)
      if (first.found) return { result: first.result, replayed: true }
      if ((isUniqueViolation(err) || isRetryableConflict(err)) && attempt < 3) continue
      throw err
    }
  }
}
