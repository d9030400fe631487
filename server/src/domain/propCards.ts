/**
 * What props change in the purchase path (issue 9): slots an X-ray card holds for someone else cannot
 * be bought by anyone else until the hold expires, and a whole-case purchase earns an X-ray card.
 */
import { sql, type Kysely } from 'kysely'
import type { Database, PropCard } from '../db/schema'
import { iso, type Clock } from '../clock'

type Db = Kysely<Database>

/** The slots of a case held for someone other than `userId` now (all held slots, or those of `slots`). */
export async function heldByOthers (db: Db, clock: Clock, caseId: number, userId: number, slots: number[] | null): Promise<number[]> {
  let q = db.selectFrom('slot_reservations').select('slot').where('case_id', '=', caseId)
    .where('user_id', '!=', userId).where('expires_at', '>', iso(clock()))
  if (slots) q = q.where('slot', 'in', slots)
  return (await q.orderBy('slot').execute()).map(r => Number(r.slot))
}

/** Adds cards (bought or earned), in the caller's transaction. */
export async function grantCards (trx: Db, clock: Clock, userId: number, kind: PropCard, n: number): Promise<void> {
  const now = iso(clock())
  await trx.insertInto('prop_inventory').values({ user_id: userId, kind, count: n, updated_at: now })
    .onConflict(oc => oc.columns(['user_id', 'kind']).doUpdateSet({ count: sql<number>`prop_inventory.count + ${n}`, updated_at: now }))
    .execute()
}

/** X-ray cards a whole-case purchase earns. */
export const XRAY_CARDS_PER_WHOLE_CASE = 1
