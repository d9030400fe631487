/** Prizes a user owns (newest first, with their design and the proof of their case or combine) and the live feed. */
import type { Kysely, Selectable } from 'kysely'
import type { FeedItem, PrizeDetail, PrizeItem, PrizeListResponse, PrizeStatus, PurchaseView } from '../../../../types/shop'
import type { Database, PrizesTable, ShipmentStatusRow } from '../../db/schema'
import { fail } from '../../core/errors'
import { caseProof } from '../catalogue/cases'
import { designInfo, loadSeries, text } from '../catalogue/catalogue'
import { combineProof } from '../catalogue/fairProof'

type Db = Kysely<Database>
type PrizeRowDb = Selectable<PrizesTable>

/**
 * The state of the parcel each shipping prize is in (its newest parcel: a parcel is never cancelled,
 * so a prize is in at most one that is not received).
 */
export async function parcelStatuses (db: Db, rows: Array<Pick<PrizeRowDb, 'id' | 'status'>>): Promise<Map<number, ShipmentStatusRow>> {
  const ids = rows.filter(r => r.status === 'shipping' || r.status === 'received').map(r => Number(r.id))
  const found = new Map<number, ShipmentStatusRow>()
  for (let i = 0; i < ids.length; i += 500) {
    const part = await db.selectFrom('shipment_items')
      .innerJoin('shipments', 'shipments.id', 'shipment_items.shipment_id')
      .select(['shipment_items.prize_id', 'shipments.status', 'shipments.id'])
      .where('shipment_items.prize_id', 'in', ids.slice(i, i + 500))
      .orderBy('shipments.id', 'asc')
      .execute()
    for (const p of part) found.set(Number(p.prize_id), p.status)
  }
  return found
}

async function toItems (db: Db, rows: PrizeRowDb[]): Promise<PrizeItem[]> {
  const series = await loadSeries(db, rows.map(r => Number(r.series_id)), true)
  const parcels = await parcelStatuses(db, rows)
  return rows.map(r => {
    const s = series.get(Number(r.series_id))!
    const design = s.designs.find(d => Number(d.id) === Number(r.design_id))!
    return {
      prizeId: Number(r.id),
      status: r.status,
      seriesId: Number(r.series_id),
      seriesTitle: text(s.row.name, s.row.name_en),
      origin: r.origin,
      caseId: Number(r.case_id ?? 0),
      slot: Number(r.slot ?? 0),
      combineId: r.combine_id === null ? null : Number(r.combine_id),
      design: designInfo(design, s.odds),
      parcelStatus: parcels.get(Number(r.id)) ?? null,
      createdAt: r.created_at
    }
  })
}

export async function listPrizes (db: Db, userId: number, page: number, size: number, status?: PrizeStatus): Promise<PrizeListResponse> {
  let base = db.selectFrom('prizes').where('user_id', '=', userId)
  if (status) base = base.where('status', '=', status)
  const { total } = await base.select(eb => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()
  const rows = await base.selectAll().orderBy('id', 'desc').limit(size).offset((page - 1) * size).execute()
  return { list: await toItems(db, rows), total: Number(total) }
}

/** Some of the user's prizes by id (in the order asked; unknown or others' ids are left out). */
export async function listPrizesByIds (db: Db, userId: number, ids: number[]): Promise<PrizeItem[]> {
  if (!ids.length) return []
  const rows = await db.selectFrom('prizes').selectAll().where('id', 'in', ids).where('user_id', '=', userId).execute()
  const items = await toItems(db, rows)
  return ids.map(id => items.find(i => i.prizeId === id)).filter((i): i is PrizeItem => !!i)
}

export async function prizeDetail (db: Db, userId: number, prizeId: number): Promise<PrizeDetail> {
  const row = await db.selectFrom('prizes').selectAll().where('id', '=', prizeId).where('user_id', '=', userId).executeTakeFirst()
  if (!row) throw fail.notFound('prize.notFound')
  const [item] = await toItems(db, [row])
  // a prize from a case proves its case's commitment; a prize made by combining, its combine's draw
  return {
    ...item,
    proof: row.case_id === null ? null : await caseProof(db, Number(row.case_id)),
    combineProof: row.combine_id === null ? null : await combineProof(db, Number(row.combine_id))
  }
}

/**
 * One of the user's purchases with the prizes it drew, in slot order, whatever became of them since
 * (types/shop.ts PurchaseView: owner only). Another account's purchase is "not found", as one that does
 * not exist.
 */
export async function purchaseView (db: Db, userId: number, purchaseId: number): Promise<PurchaseView> {
  const p = await db.selectFrom('purchases').selectAll().where('id', '=', purchaseId).where('user_id', '=', userId).executeTakeFirst()
  if (!p) throw fail.notFound('purchase.notFound')
  // the buyer's prizes by their own index, then this purchase's
  const rows = await db.selectFrom('prizes').selectAll().where('user_id', '=', userId).where('purchase_id', '=', purchaseId).execute()
  const items = await toItems(db, rows)
  return {
    purchaseId: Number(p.id),
    caseId: Number(p.case_id),
    seriesId: Number(p.series_id),
    totalCents: Number(p.total_cents),
    spentCreditCents: Number(p.credit_cents),
    spentCashCents: Number(p.cash_cents),
    prizes: items.map(i => ({ prizeId: i.prizeId, caseId: i.caseId, slot: i.slot, design: i.design })).sort((a, b) => a.slot - b.slot),
    createdAt: p.created_at
  }
}

/** First and last character with *** between (one character: it and ***). */
export function maskName (name: string | null | undefined): string {
  const chars = Array.from((name ?? '').trim())
  if (!chars.length) return '***'
  if (chars.length === 1) return `${chars[0]}***`
  return `${chars[0]}***${chars[chars.length - 1]}`
}

/** The latest real rare and hidden wins of published series. */
export async function liveFeed (db: Db, limit: number): Promise<FeedItem[]> {
  const rows = await db.selectFrom('prizes')
    .innerJoin('designs', 'designs.id', 'prizes.design_id')
    .innerJoin('series', 'series.id', 'prizes.series_id')
    .innerJoin('users', 'users.id', 'prizes.user_id')
    .select([
      'prizes.id', 'prizes.series_id', 'prizes.created_at', 'users.nickname', 'users.user_name',
      'designs.name as design_name', 'designs.name_en as design_name_en', 'designs.image', 'designs.rarity',
      'series.name as series_name', 'series.name_en as series_name_en'
    ])
    .where('designs.rarity', 'in', ['rare', 'hidden'])
    .where('series.status', 'in', ['on_sale', 'retired'])
    .where('prizes.purchase_id', 'is not', null)
    .orderBy('prizes.id', 'desc')
    .limit(limit)
    .execute()
  return rows.map(r => ({
    id: Number(r.id),
    maskedName: maskName(r.nickname || r.user_name),
    seriesId: Number(r.series_id),
    seriesTitle: text(r.series_name, r.series_name_en),
    design: { name: text(r.design_name, r.design_name_en), image: r.image ?? '', rarity: r.rarity },
    at: r.created_at
  }))
}
