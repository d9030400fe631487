/**
 * Limits per drop (issue 50 item 5): the most boxes and whole cases an account may buy in a drop, a
 * verified phone, a minimum account age. Checked before a purchase of a drop's case; the boxes and cases
 * are reserved first by a conditional upsert of the account's row in drop_buys (the statement itself
 * refuses to go over the limit, so racing purchases, in any process, cannot), then settled to what the
 * purchase really bought (nothing, when it failed or was a replay). A crash between the two can only
 * leave an account counted for more than it bought, never for less.
 */
import { sql } from 'kysely'
import type { Db } from '../../db'
import { prepared } from '../../db/prepared'
import type { Clock } from '../../core/clock'
import { ApiFailure } from '../../core/errors'
import { dropOfCase } from './dropQueue'

interface Ask { slots?: number[]; wholeCase?: true }
interface Limits { dropId: number; boxes: number | null; cases: number | null; needPhone: boolean; minHours: number | null }

/** The limits of the case's drop (null: a case made on demand, or a drop without limits: no statement for the former). */
/** A drop's limits (built once: every check and purchase of a drop's case asks it). */
const dropLimitsRow = prepared((db: Db, dropId: number) => db.selectFrom('drops')
  .select(['drops.id', 'drops.limit_boxes', 'drops.limit_cases', 'drops.need_phone', 'drops.min_account_hours'])
  .where('drops.id', '=', dropId))

async function limitsOfCase (db: Db, caseId: number): Promise<Limits | null> {
  const dropId = await dropOfCase(db, caseId)
  if (dropId === null) return null
  const row = await dropLimitsRow.first(db, dropId)
  if (!row) return null
  const l = { dropId: Number(row.id), boxes: row.limit_boxes, cases: row.limit_cases, needPhone: Number(row.need_phone) === 1, minHours: row.min_account_hours }
  return l.boxes === null && l.cases === null && !l.needPhone && l.minHours === null ? null : l
}

const refused = (key: 'drop.needPhone' | 'drop.accountTooNew' | 'drop.limitBoxes' | 'drop.limitCases', params: Record<string, number>, data: Record<string, unknown>) =>
  new ApiFailure(409, key, params, { reason: 'drop_limit', ...data })

/** The account rules (phone, age) and what this purchase would take: boxes, and 1 case for a whole case. */
async function weigh (db: Db, clock: Clock, l: Limits, caseId: number, userId: number, ask: Ask): Promise<{ boxes: number; cases: number }> {
  const user = await db.selectFrom('users').select(['phone', 'created_at']).where('id', '=', userId).executeTakeFirstOrThrow()
  if (l.needPhone && !user.phone) throw refused('drop.needPhone', {}, { rule: 'verified_phone' })
  if (l.minHours !== null && clock() - new Date(user.created_at).getTime() < l.minHours * 3_600_000) throw refused('drop.accountTooNew', { hours: l.minHours }, { rule: 'account_age', hours: l.minHours })
  if (!ask.wholeCase) return { boxes: ask.slots?.length ?? 0, cases: 0 }
  const unsold = await db.selectFrom('case_slots').select(eb => eb.fn.countAll<number>().as('n'))
    .where('case_id', '=', caseId).where('sold_to', 'is', null).executeTakeFirstOrThrow()
  return { boxes: Number(unsold.n), cases: 1 }
}

async function bought (db: Db, dropId: number, userId: number): Promise<{ boxes: number; cases: number }> {
  const row = await db.selectFrom('drop_buys').select(['boxes', 'cases']).where('drop_id', '=', dropId).where('user_id', '=', userId).executeTakeFirst()
  return { boxes: Number(row?.boxes ?? 0), cases: Number(row?.cases ?? 0) }
}

function overLimit (l: Limits, had: { boxes: number; cases: number }, want: { boxes: number; cases: number }): ApiFailure | null {
  if (l.boxes !== null && had.boxes + want.boxes > l.boxes) return refused('drop.limitBoxes', { max: l.boxes, left: Math.max(0, l.boxes - had.boxes) }, { rule: 'boxes', max: l.boxes, left: Math.max(0, l.boxes - had.boxes) })
  if (l.cases !== null && had.cases + want.cases > l.cases) return refused('drop.limitCases', { max: l.cases }, { rule: 'cases', max: l.cases, left: Math.max(0, l.cases - had.cases) })
  return null
}

/** purchaseCheck: the same refusals, nothing reserved. */
export async function checkDropLimits (db: Db, clock: Clock, caseId: number, userId: number, ask: Ask): Promise<void> {
  const l = await limitsOfCase(db, caseId)
  if (!l) return
  const want = await weigh(db, clock, l, caseId, userId, ask)
  const over = overLimit(l, await bought(db, l.dropId, userId), want)
  if (over) throw over
}

/**
 * casePurchase: reserves this purchase's boxes and case within the limits (409 when over), runs it,
 * and keeps only what it bought.
 */
export async function withinDropLimits<T> (db: Db, clock: Clock, caseId: number, userId: number, ask: Ask,
  run: () => Promise<{ result: T; replayed: boolean }>, boxesOf: (result: T) => number): Promise<{ result: T; replayed: boolean }> {
  const l = await limitsOfCase(db, caseId)
  if (!l) return run()
  const want = await weigh(db, clock, l, caseId, userId, ask)
  const taken = await db.insertInto('drop_buys').values({ drop_id: l.dropId, user_id: userId, boxes: want.boxes, cases: want.cases })
    .onConflict(oc => oc.columns(['drop_id', 'user_id']).doUpdateSet({
      boxes: sql<number>`drop_buys.boxes + ${want.boxes}`,
      cases: sql<number>`drop_buys.cases + ${want.cases}`
    }).where(eb => eb.and([
      ...(l.boxes !== null ? [eb(sql`drop_buys.boxes + ${want.boxes}`, '<=', l.boxes)] : []),
      ...(l.cases !== null ? [eb(sql`drop_buys.cases + ${want.cases}`, '<=', l.cases)] : [])
    ])))
    .returning('boxes').executeTakeFirst()
  // a first purchase over the limit on its own, or a later one past it: nothing reserved
  const first = overLimit(l, { boxes: 0, cases: 0 }, want)
  if (!taken || first) {
    if (taken && first) await settle(db, l.dropId, userId, want, { boxes: 0, cases: 0 })
    throw overLimit(l, await bought(db, l.dropId, userId), want) ?? first ??
      refused('drop.limitBoxes', { max: l.boxes ?? 0, left: 0 }, { rule: 'boxes', max: l.boxes, left: 0 })
  }
  try {
    const out = await run()
    const got = out.replayed ? { boxes: 0, cases: 0 } : { boxes: boxesOf(out.result), cases: want.cases }
    await settle(db, l.dropId, userId, want, got)
    return out
  } catch (err) {
    await settle(db, l.dropId, userId, want, { boxes: 0, cases: 0 })
    throw err
  }
}

/** Gives back what was reserved and not bought. */
async function settle (db: Db, dropId: number, userId: number, reserved: { boxes: number; cases: number }, got: { boxes: number; cases: number }): Promise<void> {
  const boxes = reserved.boxes - got.boxes
  const cases = reserved.cases - got.cases
  if (boxes === 0 && cases === 0) return
  await db.updateTable('drop_buys').set({ boxes: sql<number>`boxes - ${boxes}`, cases: sql<number>`cases - ${cases}` })
    .where('drop_id', '=', dropId).where('user_id', '=', userId).execute()
}
