/**
 * Stock (issue 50; docs/decisions/stock.md): the shop sells only what its warehouse can ship.
 *
 * Each design has two counts (migration 0038):
 *   stock      figures on hand in the warehouse
 *   committed  of those, the ones spoken for: an unsold slot of a case on sale, or a prize of a live
 *              account still in the warehouse (in it, or in a parcel that has not left, or waiting at a
 *              pickup point's counter to be handed over)
 *   free       = stock - committed: what a new case, a combine's output or a lower count may take
 *
 * The database holds 0 <= committed <= stock (a CHECK on both databases), so however a bug or a race
 * ran, nothing can be promised that the warehouse does not hold. The figures move as the physical ones
 * do:
 *   a new case           takes one free figure of each design in it (cases.ts createCase)
 *   a slot sold          nothing moves: the figure is now the buyer's prize, still in the warehouse
 *   a case retired       its unsold slots are free again
 *   a prize recycled     free again (it never left the warehouse; the shop bought it back)
 *   a combine            its inputs are free again; its output takes a free figure
 *   a parcel dispatched  its figures leave: stock and committed both fall (so does a pickup hand-over)
 *   an account deleted   its prizes in the warehouse lapse with it and are free again
 *   an operator's count  sets stock, never below what is committed (audited)
 *
 * Every taking of free stock locks the series row first (PostgreSQL; SQLite runs one writer), so a new
 * case's check of what it may need and its taking are one step: a draw is never made and then thrown
 * away because a figure it drew was gone, which would tilt a series' odds (a case that drew the hidden
 * design and could not be filled, drawn again until it did not, would make the hidden rarer than shown).
 */
import { sql, type Kysely } from 'kysely'
import type { Database } from '../../db/schema'
import { iso, type Clock } from '../../core/clock'
import { dialectOf, forUpdate } from '../../db/lock'

type Db = Kysely<Database>

/**
 * Whether a new case may hold the design, and so needs a free figure of it before it is made: every
 * regular and rare design, and the hidden one while the series has a hidden chance.
 */
export const mayBeInCase = (rarity: string, hiddenPpm: number): boolean => rarity !== 'hidden' || hiddenPpm > 0

/** Locks the series row while free stock of its designs is checked and taken (PostgreSQL). */
export async function lockSeriesForStock (trx: Db, seriesId: number): Promise<void> {
  await forUpdate(dialectOf(trx), trx.selectFrom('series').select('id').where('id', '=', seriesId)).execute()
}

/** Counts of each design id in a list, by ascending id (rows are always locked in that order: no deadlock). */
function tally (designIds: readonly number[]): Map<number, number> {
  const counts = new Map<number, number>()
  for (const id of [...designIds].sort((a, b) => a - b)) counts.set(id, (counts.get(id) ?? 0) + 1)
  return counts
}

/**
 * Takes one free figure of each of the designs (distinct ids), all or none; answers whether it took
 * them. Run inside a transaction holding the series row (lockSeriesForStock).
 */
export async function takeFree (trx: Db, designIds: readonly number[]): Promise<boolean> {
  if (designIds.length === 0) return true
  if (new Set(designIds).size !== designIds.length) throw new Error('takeFree: one figure of each design at a time')
  const taken = await trx.updateTable('designs').set({ committed: sql<number>`committed + 1` })
    .where('id', 'in', designIds).where(sql<boolean>`committed < stock`)
    .returning('id').execute()
  if (taken.length === designIds.length) return true
  // some design had nothing free: what was taken goes back, and nothing is made
  await release(trx, taken.map(r => Number(r.id)))
  return false
}

/**
 * Takes free figures by count (a kuji set holds a tier design as many times as its tickets), all or none;
 * answers whether it took them. Run inside a transaction holding the series row (lockSeriesForStock).
 */
export async function takeFreeCounts (trx: Db, designIds: readonly number[]): Promise<boolean> {
  const taken: number[] = []
  for (const [id, n] of tally(designIds)) {
    const row = await trx.updateTable('designs').set({ committed: sql<number>`committed + ${n}` })
      .where('id', '=', id).where(sql<boolean>`committed + ${n} <= stock`).returning('id').executeTakeFirst()
    if (!row) {
      await release(trx, taken)
      return false
    }
    for (let i = 0; i < n; i++) taken.push(id)
  }
  return true
}

/**
 * The figures of a design one new case or set needs: a kuji set a tier design's tickets, one Last One
 * and the Double Chance's winners; a case one, the hidden one only with a hidden chance.
 */
export const figuresNeeded = (d: { rarity: string; tier: string | null; tickets: number | string }, kind: string, hiddenPpm: number, dcWinners: number | string = 0): number =>
  kind === 'kuji'
    ? (d.tier === 'last_one' ? 1 : d.tier === 'double_chance' ? Number(dcWinners) : d.tier ? Number(d.tickets) : 0)
    : mayBeInCase(d.rarity, hiddenPpm) ? 1 : 0

/** Figures spoken for that are free again (a slot no longer for sale; a prize recycled, combined or lapsed). */
export async function release (trx: Db, designIds: readonly number[]): Promise<void> {
  for (const [id, n] of tally(designIds)) {
    await trx.updateTable('designs').set({ committed: sql<number>`committed - ${n}` }).where('id', '=', id).execute()
  }
}

/** Figures that left the warehouse (a parcel dispatched, a prize handed over at a pickup point). */
export async function leaveWarehouse (trx: Db, designIds: readonly number[]): Promise<void> {
  for (const [id, n] of tally(designIds)) {
    await trx.updateTable('designs').set({ stock: sql<number>`stock - ${n}`, committed: sql<number>`committed - ${n}` }).where('id', '=', id).execute()
  }
}

/** The designs of these prizes, one entry a prize. */
export async function designsOfPrizes (trx: Db, prizeIds: readonly number[]): Promise<number[]> {
  if (prizeIds.length === 0) return []
  const rows = await trx.selectFrom('prizes').select('design_id').where('id', 'in', prizeIds).execute()
  return rows.map(r => Number(r.design_id))
}

/** Cases that hold their unsold figures: on sale, or a drop's waiting for its start. */
export const HOLDING_CASE_STATUSES = ['scheduled', 'on_sale'] as const

/** The unsold slots of the series' cases on sale (or scheduled) become free stock (before the cases stop being on sale). */
export async function releaseOnSaleSlots (trx: Db, seriesId: number): Promise<void> {
  const rows = await trx.selectFrom('case_slots').innerJoin('cases', 'cases.id', 'case_slots.case_id')
    .select('case_slots.design_id')
    .where('cases.series_id', '=', seriesId).where('cases.status', 'in', HOLDING_CASE_STATUSES).where('case_slots.sold_to', 'is', null)
    .execute()
  await release(trx, rows.map(r => Number(r.design_id)))
}

/** Retires (and so reveals) every case of a series still on sale or scheduled; their unsold figures are free again. */
export async function retireOnSaleCases (trx: Db, clock: Clock, seriesId: number): Promise<void> {
  await releaseOnSaleSlots(trx, seriesId)
  await trx.deleteFrom('case_leases')
    .where('case_id', 'in', trx.selectFrom('cases').select('id').where('series_id', '=', seriesId).where('status', 'in', HOLDING_CASE_STATUSES)).execute()
  await trx.updateTable('cases').set({ status: 'retired', revealed_at: iso(clock()) })
    .where('series_id', '=', seriesId).where('status', 'in', HOLDING_CASE_STATUSES).execute()
}

/** Each design's free figures, for the given designs (absent: not a design). */
export async function freeOf (db: Db, designIds: readonly number[]): Promise<Map<number, number>> {
  if (designIds.length === 0) return new Map()
  const rows = await db.selectFrom('designs').select(['id', 'stock', 'committed']).where('id', 'in', designIds).execute()
  return new Map(rows.map(r => [Number(r.id), Number(r.stock) - Number(r.committed)]))
}

/**
 * What is spoken for of each design, counted from the rows themselves (the same count migration 0038
 * started from): the books of the warehouse, which `committed` must always equal (tests check it after
 * every race they run).
 */
export async function committedCounts (db: Db, seriesId?: number): Promise<Map<number, number>> {
  const inSlots = await db.selectFrom('case_slots').innerJoin('cases', 'cases.id', 'case_slots.case_id')
    .select(['case_slots.design_id as id', eb => eb.fn.countAll<number>().as('n')])
    .where('cases.status', 'in', HOLDING_CASE_STATUSES).where('case_slots.sold_to', 'is', null)
    .$if(seriesId !== undefined, q => q.where('cases.series_id', '=', seriesId!))
    .groupBy('case_slots.design_id').execute()
  const inPrizes = await db.selectFrom('prizes').innerJoin('users', 'users.id', 'prizes.user_id')
    .select(['prizes.design_id as id', eb => eb.fn.countAll<number>().as('n')])
    .where('users.deleted_at', 'is', null)
    .$if(seriesId !== undefined, q => q.where('prizes.series_id', '=', seriesId!))
    .where(eb => eb.or([
      eb('prizes.status', '=', 'warehouse'),
      eb.and([
        eb('prizes.status', '=', 'shipping'),
        eb.exists(eb.selectFrom('shipment_items').innerJoin('shipments', 'shipments.id', 'shipment_items.shipment_id')
          .select('shipment_items.prize_id')
          .whereRef('shipment_items.prize_id', '=', 'prizes.id')
          .where('shipments.status', '=', 'requested').where('shipment_items.handed_at', 'is', null))
      ])
    ]))
    .groupBy('prizes.design_id').execute()
  const counts = new Map<number, number>()
  for (const r of [...inSlots, ...inPrizes]) counts.set(Number(r.id), (counts.get(Number(r.id)) ?? 0) + Number(r.n))
  return counts
}

/**
 * Of these series, the ones on sale that are sold out: no case on sale, and the warehouse cannot fill
 * another (some design a case may hold has no free figure). Shoppers see 已售罄 / Sold out on them.
 */
export async function soldOutSeries (db: Db, seriesIds: readonly number[]): Promise<Set<number>> {
  if (seriesIds.length === 0) return new Set()
  const open = await db.selectFrom('cases').select('series_id').distinct()
    .where('series_id', 'in', seriesIds).where('status', 'in', HOLDING_CASE_STATUSES).execute()
  const withCase = new Set(open.map(r => Number(r.series_id)))
  const rest = seriesIds.filter(id => !withCase.has(id))
  if (rest.length === 0) return new Set()
  // a series that sells by drops makes no case on demand: with no case of a drop left, it is sold out
  const byDrop = await db.selectFrom('drops').innerJoin('series', 'series.id', 'drops.series_id').select('drops.series_id').distinct()
    .where('drops.series_id', 'in', rest).where('series.status', '=', 'on_sale').execute()
  const out = new Set<number>(byDrop.map(r => Number(r.series_id)))
  const rows = await db.selectFrom('designs').innerJoin('series', 'series.id', 'designs.series_id')
    .select(['designs.series_id', 'designs.rarity', 'designs.stock', 'designs.committed', 'designs.tier', 'designs.tickets', 'series.hidden_ppm', 'series.kind', 'series.dc_winners'])
    .where('designs.series_id', 'in', rest).where('series.status', '=', 'on_sale').execute()
  for (const r of rows) {
    const needed = figuresNeeded(r, r.kind, r.hidden_ppm, r.dc_winners)
    if (needed > 0 && Number(r.stock) - Number(r.committed) < needed) out.add(Number(r.series_id))
  }
  return out
}
