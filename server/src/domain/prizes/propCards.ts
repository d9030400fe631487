/**
 * What props change in the purchase path (issue 9): slots an X-ray card holds for someone else cannot
 * be bought by anyone else until the hold expires, and a whole-case purchase earns an X-ray card.
 */
import { sql, type Kysely } from 'kysely'
import type { Database, PropCard } from '../../db/schema'
import { iso, type Clock } from '../../core/clock'

type Db = Kysely<Database>

/** Adds cards (bought or earned), in the caller's transaction. */
export async function grantCards (trx: Db, clock: Clock, userId: number, kind: PropCard, n: number): Promise<void> {
  const now = iso(clock())
  await trx.insertInto('prop_inventory').values({ user_id: userId, kind, count: n, updated_at: now })
    .onConflict(oc => oc.columns(['user_id', 'kind']).doUpdateSet({ count: sql<number>`prop_inventory.count + ${n}`, updated_at: now }))
    .execute()
}

/** X-ray cards a whole-case purchase earns. */
export const XRAY_CARDS_PER_WHOLE_CASE = 1
