import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../dialect'
import { FUNCTION } from './0026_purchase_function'

/**
 * shop_purchase (migration 0026) marks its slots sold with `slot = any(v_slots)`. PL/pgSQL keeps a
 * generic plan for a statement only when it is estimated no dearer than the custom ones; with an array
 * the generic estimate is for an array of unknown length, so PostgreSQL planned this update again at
 * every purchase: 0.04 ms of its CPU for 0.03 ms of work (`bench/server-purchase.js --pg-stats`). A
 * purchase of one slot, the usual one, now marks it with `slot = v_slots[1]`, whose generic plan is the
 * custom one and is kept. Purchases of several slots keep the array. Same rows, same answer.
 */
const MARKED = `  with marked as (
    update case_slots set sold_to = p_user, sold_at = p_now
      where case_id = p_case and sold_to is null and slot = any(v_slots)
      returning slot, design_id
  )
  select array_agg(slot order by slot), array_agg(design_id order by slot) into v_marked_slots, v_marked_designs from marked;`

const MARKED_ONE_SLOT = `  if cardinality(v_slots) = 1 then
    with marked as (
      update case_slots set sold_to = p_user, sold_at = p_now
        where case_id = p_case and sold_to is null and slot = v_slots[1]
        returning slot, design_id
    )
    select array_agg(slot), array_agg(design_id) into v_marked_slots, v_marked_designs from marked;
  else
${MARKED.split('\n').map(line => `  ${line}`).join('\n')}
  end if;`

/** shop_purchase as this migration leaves it (migration 0033 builds on it). */
export function replaced (): string {
  const parts = FUNCTION.split(MARKED)
  if (parts.length !== 2) throw new Error('migration 0032: the slot update of migration 0026 was not found once')
  return parts.join(MARKED_ONE_SLOT)
}

export function purchaseOneSlotPlan (dialect: Dialect): Migration {
  return {
    async up (db: Kysely<any>) {
      if (dialect !== 'postgres') return
      await sql.raw(replaced()).execute(db)
    },
    async down (db: Kysely<any>) {
      if (dialect !== 'postgres') return
      await sql.raw(FUNCTION).execute(db)
    }
  }
}
