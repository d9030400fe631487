/**
 * What happens to a prize after the draw (PRODUCT.md "After the draw"):
 *   warehouse -> recycled   credit at the design's published recycle value (ledger: house_credit -> user_credit)
 *   warehouse -> shipping   in a shipment to an address (fee: ledger user balances -> house_shipping),
 *                           shipment requested -> shipping (an operator enters carrier and number, deliver)
 *   shipping  -> received   the shopper confirms, or 10 days after shipping it counts as received
 * A prize leaves the warehouse by one conditional UPDATE (... AND status = 'warehouse'), so two requests
 * for one prize (two recycles, a recycle and a shipment) cannot both take it: the second changes nothing
 * and is a 409. Locks are taken in the order prizes, wallet, idempotency key (as purchases do: case,
 * wallet, key), so these requests cannot deadlock each other or a purchase.
 */
import { randomBytes } from 'node:crypto'
import { sql, type Kysely, type Selectable } from 'kysely'
import { AFTER_DRAW_LIMITS } from '../../../../types/limits'
import type {
  CollectionSummary, OperatorShipment, PackingSlip, PrizeStateFailureData, PrizeVerifyResult, RecycleRequest, RecycleResult, Shipment,
  ShipmentCreateRequest, ShipmentCreateResult, ShipmentStatus, ShippingRule
} from '../../../../types/afterDraw'
import type { InsufficientBalanceData, PrizeStatus } from '../../../../types/shop'
import type { Database, ShipmentsTable } from '../../db/schema'
import type { Dialect } from '../../db/dialect'
import { iso, type Clock } from '../../core/clock'
import { ApiFailure, fail } from '../../core/errors'
import { ownAddress } from './addresses'
import { writeAudit } from '../ops/audit'
import { proofOf } from '../catalogue/cases'
import { designsOfPrizes, leaveWarehouse, release } from '../catalogue/stock'
import { designInfo, loadSeries, text, type SeriesData } from '../catalogue/catalogue'
import { DAY_MS } from '../../core/days'
import { combineProof, combineProofs } from '../catalogue/fairProof'
import { idempotent } from '../money/idempotency'
import { postTransaction } from '../money/ledger'
import { yuan } from '../../core/money'
import { settingsOf } from '../ops/settings'
import { addToWallet, balanceOf, lockBalance, takeFromWallet } from '../money/wallet'
import { checkSpending } from '../account/spendingCaps'
import { openPoint, pointView } from './pickup'

type Db = Kysely<Database>
export interface AfterDrawDeps { db: Db; dialect: Dialect; clock: Clock }

const OWNED: PrizeStatus[] = ['warehouse', 'shipping', 'received']

function uniqueIds (ids: number[]): number[] {
  const seen = new Set<number>()
  for (const id of ids) {
    if (seen.has(id)) throw new ApiFailure(400, 'prize.duplicate', { field: 'prizeIds', prizeId: id }, { field: 'prizeIds', prizeId: id })
    seen.add(id)
  }
  return ids
}

/**
 * Why some of the asked prizes were not taken out of the warehouse: one the caller does not own is a
 * 404, one in another state a 409 naming it and its status.
 */
async function notInWarehouse (trx: Db, userId: number, asked: number[], got: Set<number>): Promise<never> {
  const missing = asked.find(id => !got.has(id))!
  const row = await trx.selectFrom('prizes').select('status').where('id', '=', missing).where('user_id', '=', userId).executeTakeFirst()
  if (!row) throw new ApiFailure(404, 'prize.notFound', {}, { field: 'prizeIds', prizeId: missing } satisfies PrizeStateFailureData)
  throw new ApiFailure(409, 'prize.notInWarehouse', { prizeId: missing, status: `@prizeStatus.${row.status}` },
    { field: 'prizeIds', prizeId: missing, status: row.status } satisfies PrizeStateFailureData)
}

// ---- collection -----------------------------------------------------------------------------------

export async function collectionSummary (db: Db, userId: number): Promise<CollectionSummary> {
  const counts = { all: 0, warehouse: 0, shipping: 0, received: 0, combined: 0, recycled: 0 }
  const byStatus = await db.selectFrom('prizes').select(['status', eb => eb.fn.countAll<number>().as('n')])
    .where('user_id', '=', userId).groupBy('status').execute()
  for (const r of byStatus) {
    counts[r.status] = Number(r.n)
    counts.all += Number(r.n)
  }
  const owned = await db.selectFrom('prizes').select(['series_id', 'design_id', eb => eb.fn.countAll<number>().as('n')])
    .where('user_id', '=', userId).where('status', 'in', OWNED).groupBy(['series_id', 'design_id']).execute()
  const seriesIds = await db.selectFrom('prizes').select('series_id').distinct().where('user_id', '=', userId).execute()
  const series = await loadSeries(db, seriesIds.map(s => Number(s.series_id)), true)
  const ownedOf = new Map(owned.map(o => [`${o.series_id}:${o.design_id}`, Number(o.n)]))
  const list = [...series.values()]
    .sort((a, b) => Number(b.row.id) - Number(a.row.id))
    .map(s => {
      const designs = s.designs.map(d => ({ design: designInfo(d, s.odds), owned: ownedOf.get(`${s.row.id}:${d.id}`) ?? 0 }))
      return {
        seriesId: Number(s.row.id),
        title: text(s.row.name, s.row.name_en),
        cover: s.row.cover ?? '',
        designs,
        collected: designs.filter(d => d.owned > 0).length,
        total: designs.length
      }
    })
  return { counts, series: list }
}

// ---- recycle --------------------------------------------------------------------------------------

export async function recyclePrizes (deps: AfterDrawDeps, userId: number, request: RecycleRequest): Promise<RecycleResult> {
  const { db, clock } = deps
  const ids = uniqueIds(request.prizeIds)
  const { idempotencyKey, ...body } = request
  const { result } = await idempotent(db, clock, { userId, key: idempotencyKey, scope: 'prizeRecycle', body }, async trx => {
    const now = iso(clock())
    const taken = await trx.updateTable('prizes').set({ status: 'recycled', updated_at: now })
      .where('id', 'in', ids).where('user_id', '=', userId).where('status', '=', 'warehouse')
      .returning(['id', 'design_id']).execute()
    if (taken.length < ids.length) await notInWarehouse(trx, userId, ids, new Set(taken.map(p => Number(p.id))))
    // the shop bought them back: the figures never left the warehouse and are free stock again
    await release(trx, taken.map(p => Number(p.design_id)))
    const values = await trx.selectFrom('designs').select(['id', 'recycle_value_cents'])
      .where('id', 'in', [...new Set(taken.map(p => Number(p.design_id)))]).execute()
    const valueOf = new Map(values.map(v => [Number(v.id), Number(v.recycle_value_cents)]))
    const credit = taken.reduce((s, p) => s + (valueOf.get(Number(p.design_id)) ?? 0), 0)
    if (credit > 0) {
      await lockBalance(trx, userId)
      const txId = await postTransaction(trx, clock, {
        kind: 'recycle',
        reference: `prizes ${ids.join(',')}`,
        idempotencyKey: `recycle:${userId}:${idempotencyKey}`,
        userId,
        lines: [
          { account: 'house_credit', amountCents: -credit },
          { account: 'user_credit', userId, amountCents: credit }
        ]
      })
      await trx.updateTable('prizes').set({ recycle_tx_id: txId }).where('id', 'in', ids).execute()
      await addToWallet(trx, clock, userId, { creditCents: credit })
    }
    return { prizeIds: ids, creditCents: credit, balance: await balanceOf(trx, userId) }
  })
  return result
}

// ---- shipments ------------------------------------------------------------------------------------

export async function shippingRule (db: Db): Promise<ShippingRule> {
  const s = await settingsOf(db)
  return { freeFromItems: s.shipFreeFromItems, feeCents: s.shipFeeCents }
}

export const feeFor = (rule: ShippingRule, items: number) => (items >= rule.freeFromItems ? 0 : rule.feeCents)

const autoReceiveAt = (shippedAt: string | null) => (shippedAt ? iso(Date.parse(shippedAt) + AFTER_DRAW_LIMITS.autoReceiveDays * DAY_MS) : null)

async function shipmentViews (db: Db, rows: Array<Selectable<ShipmentsTable>>): Promise<Shipment[]> {
  if (!rows.length) return []
  const items = await db.selectFrom('shipment_items')
    .innerJoin('prizes', 'prizes.id', 'shipment_items.prize_id')
    .select(['shipment_items.shipment_id', 'shipment_items.handed_at', 'prizes.id', 'prizes.series_id', 'prizes.design_id', 'prizes.case_id', 'prizes.slot', 'prizes.combine_id'])
    .where('shipment_items.shipment_id', 'in', rows.map(r => Number(r.id)))
    .orderBy('prizes.id').execute()
  const series = await loadSeries(db, items.map(i => Number(i.series_id)), true)
  const pointIds = [...new Set(rows.flatMap(r => (r.pickup_point_id === null ? [] : [Number(r.pickup_point_id)])))]
  const points = new Map(pointIds.length
    ? (await db.selectFrom('pickup_points').selectAll().where('id', 'in', pointIds).execute()).map(p => [Number(p.id), pointView(p)])
    : [])
  return rows.map(r => ({
    id: Number(r.id),
    status: r.status,
    address: { name: r.name, phone: r.phone, region: r.region, detail: r.detail },
    pickup: r.pickup_point_id === null ? null : points.get(Number(r.pickup_point_id)) ?? null,
    items: items.filter(i => Number(i.shipment_id) === Number(r.id)).map(i => {
      const s = series.get(Number(i.series_id))!
      return {
        prizeId: Number(i.id),
        seriesTitle: text(s.row.name, s.row.name_en),
        design: designInfo(s.designs.find(d => Number(d.id) === Number(i.design_id))!, s.odds),
        caseId: Number(i.case_id ?? 0),
        slot: Number(i.slot ?? 0),
        combineId: i.combine_id === null ? null : Number(i.combine_id),
        handedAt: i.handed_at ?? null
      }
    }),
    feeCents: Number(r.fee_cents),
    carrier: r.carrier,
    trackingNo: r.tracking_no,
    createdAt: r.created_at,
    shippedAt: r.shipped_at,
    receivedAt: r.received_at,
    autoReceiveAt: r.status === 'shipping' ? autoReceiveAt(r.shipped_at) : null,
    receivedBy: r.received_by
  }))
}

/** Answers the result and whether it is a replay of the key (the route alerts the operators only once). */
export async function createShipment (deps: AfterDrawDeps, userId: number, request: ShipmentCreateRequest): Promise<{ result: ShipmentCreateResult; replayed: boolean }> {
  const { db, clock } = deps
  const ids = uniqueIds(request.prizeIds)
  const rule = await shippingRule(db)
  const { idempotencyKey, ...body } = request
  return idempotent(db, clock, { userId, key: idempotencyKey, scope: 'shipmentCreate', body }, async trx => {
    // inside the transaction: a repeat of a shipment that was made answers its first result even if the
    // address was deleted or the counter closed since (idempotent looks the key up when this fails)
    const address = await ownAddress(trx, userId, request.addressId)
    // a pickup (自提): collected at an open counter, no fee; the address gives the contact the counter asks for
    const point = request.pickupPointId === undefined ? null : await openPoint(trx, request.pickupPointId)
    const now = iso(clock())
    const taken = await trx.updateTable('prizes').set({ status: 'shipping', updated_at: now })
      .where('id', 'in', ids).where('user_id', '=', userId).where('status', '=', 'warehouse')
      .returning('id').execute()
    if (taken.length < ids.length) await notInWarehouse(trx, userId, ids, new Set(taken.map(p => Number(p.id))))

    const fee = point ? 0 : feeFor(rule, ids.length)
    let txId: number | null = null
    if (fee > 0) {
      const balance = await lockBalance(trx, userId)
      // a fee is spending: a minor's daily cap and the shopper's own limits apply (the wallet is locked)
      await checkSpending(trx, clock, userId, fee)
      const creditCents = Math.min(balance.creditCents, fee)
      const cashCents = fee - creditCents
      const insufficient = (shortfall: number) => fail.unprocessable('wallet.insufficient', { shortfall: yuan(shortfall) },
        { reason: 'insufficient_balance', shortfallCents: shortfall, totalCents: fee } satisfies InsufficientBalanceData)
      if (cashCents > balance.cashCents) throw insufficient(cashCents - balance.cashCents)
      if (!await takeFromWallet(trx, clock, userId, { cashCents, creditCents })) throw insufficient(fee - balance.cashCents - balance.creditCents)
      txId = await postTransaction(trx, clock, {
        kind: 'shipping_fee',
        reference: `shipment of prizes ${ids.join(',')}`,
        idempotencyKey: `shipment:${userId}:${idempotencyKey}`,
        userId,
        lines: [
          { account: 'user_credit', userId, amountCents: -creditCents },
          { account: 'user_cash', userId, amountCents: -cashCents },
          { account: 'house_shipping', amountCents: fee }
        ]
      })
    }
    const row = await trx.insertInto('shipments').values({
      user_id: userId, status: 'requested', name: address.name, phone: address.phone,
      region: point ? point.name : address.region, detail: point ? point.address : address.detail,
      pickup_point_id: point ? point.id : null, handed_by: null,
      item_count: ids.length, fee_cents: fee, tx_id: txId, carrier: null, tracking_no: null, shipped_by: null, received_by: null,
      created_at: now, shipped_at: null, received_at: null, updated_at: now
    }).returningAll().executeTakeFirstOrThrow()
    await trx.insertInto('shipment_items').values(ids.map(prizeId => ({
      shipment_id: Number(row.id), prize_id: prizeId, verify_code: randomBytes(15).toString('base64url'), handed_at: null
    }))).execute()
    const [shipment] = await shipmentViews(trx, [row])
    return { shipment, balance: await balanceOf(trx, userId) }
  })
}

/** Shipped parcels nobody confirmed count as received 10 days after shipping (optionally: one user's). */
export async function autoReceive (db: Db, clock: Clock, userId?: number): Promise<number> {
  const now = clock()
  const due = iso(now - AFTER_DRAW_LIMITS.autoReceiveDays * DAY_MS)
  let q = db.selectFrom('shipments').select('id').where('status', '=', 'shipping').where('shipped_at', '<=', due)
  if (userId !== undefined) q = q.where('user_id', '=', userId)
  const rows = await q.limit(500).execute()
  let n = 0
  for (const r of rows) {
    if (await receive(db, clock, Number(r.id), 'auto')) n++
  }
  return n
}

/** shipping -> received, with its prizes, once (false: it was not shipping any more). */
async function receive (db: Db, clock: Clock, shipmentId: number, by: 'shopper' | 'auto', userId?: number): Promise<boolean> {
  return db.transaction().execute(async trx => {
    const now = iso(clock())
    let q = trx.updateTable('shipments').set({ status: 'received', received_at: now, received_by: by, updated_at: now })
      .where('id', '=', shipmentId).where('status', '=', 'shipping')
    if (userId !== undefined) q = q.where('user_id', '=', userId)
    const row = await q.returning('id').executeTakeFirst()
    if (!row) return false
    const items = trx.selectFrom('shipment_items').select('prize_id').where('shipment_id', '=', shipmentId)
    await trx.updateTable('prizes').set({ status: 'received', updated_at: now }).where('id', 'in', items).where('status', '=', 'shipping').execute()
    return true
  })
}

const shipmentNotFound = () => new ApiFailure(404, 'shipment.notFound', {}, { field: 'shipmentId' })
const badStatus = (status: ShipmentStatus) => fail.unprocessable('shipment.badStatus', { status: `@shipmentStatus.${status}` }, { status })

export async function ownShipment (db: Db, clock: Clock, userId: number, shipmentId: number): Promise<Shipment> {
  await autoReceive(db, clock, userId)
  const row = await db.selectFrom('shipments').selectAll().where('id', '=', shipmentId).where('user_id', '=', userId).executeTakeFirst()
  if (!row) throw shipmentNotFound()
  return (await shipmentViews(db, [row]))[0]
}

export async function listShipments (db: Db, clock: Clock, userId: number, page: number, size: number, status?: ShipmentStatus): Promise<{ list: Shipment[]; total: number }> {
  await autoReceive(db, clock, userId)
  let base = db.selectFrom('shipments').where('user_id', '=', userId)
  if (status) base = base.where('status', '=', status)
  const { total } = await base.select(eb => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()
  const rows = await base.selectAll().orderBy('id', 'desc').limit(size).offset((page - 1) * size).execute()
  return { list: await shipmentViews(db, rows), total: Number(total) }
}

export async function confirmShipment (db: Db, clock: Clock, userId: number, shipmentId: number): Promise<Shipment> {
  const before = await ownShipment(db, clock, userId, shipmentId)
  if (before.status === 'requested') throw badStatus(before.status)
  if (before.status === 'shipping') await receive(db, clock, shipmentId, 'shopper', userId)
  return ownShipment(db, clock, userId, shipmentId)
}

// ---- operator -------------------------------------------------------------------------------------

const withUser = async (db: Db, rows: Array<Selectable<ShipmentsTable>>): Promise<OperatorShipment[]> => {
  const views = await shipmentViews(db, rows)
  const ids = [...new Set(rows.map(r => Number(r.user_id)))]
  const emails = new Map(ids.length
    ? (await db.selectFrom('users').select(['id', 'email']).where('id', 'in', ids).execute()).map(u => [Number(u.id), u.email ?? null])
    : [])
  return views.map((v, i) => ({ ...v, userId: Number(rows[i].user_id), userEmail: emails.get(Number(rows[i].user_id)) ?? null }))
}

/** One shipment as the operator sees it (after a hand-over at the counter). */
export async function operatorShipment (db: Db, shipmentId: number): Promise<OperatorShipment> {
  const row = await db.selectFrom('shipments').selectAll().where('id', '=', shipmentId).executeTakeFirst()
  if (!row) throw shipmentNotFound()
  return (await withUser(db, [row]))[0]
}

export async function deliverShipment (db: Db, clock: Clock, actorId: number, shipmentId: number, carrier: string, trackingNo: string): Promise<OperatorShipment> {
  const now = iso(clock())
  const row = await db.transaction().execute(async trx => {
    const shipped = await trx.updateTable('shipments')
      .set({ status: 'shipping', carrier, tracking_no: trackingNo, shipped_at: now, shipped_by: actorId, updated_at: now })
      .where('id', '=', shipmentId).where('status', '=', 'requested').where('pickup_point_id', 'is', null)
      .returningAll().executeTakeFirst()
    if (shipped) {
      // the parcel left: its figures are out of the warehouse
      const items = await trx.selectFrom('shipment_items').select('prize_id').where('shipment_id', '=', shipmentId).execute()
      await leaveWarehouse(trx, await designsOfPrizes(trx, items.map(i => Number(i.prize_id))))
      await writeAudit(trx, clock, { actorId, action: 'shipment.deliver', entity: 'shipment', entityId: shipmentId, detail: { before: { status: 'requested', carrier: null, trackingNo: null }, after: { status: 'shipping', carrier, trackingNo }, userId: Number(shipped.user_id) } })
    }
    return shipped
  })
  if (row) return (await withUser(db, [row]))[0]
  const current = await db.selectFrom('shipments').selectAll().where('id', '=', shipmentId).executeTakeFirst()
  if (!current) throw shipmentNotFound()
  if (current.pickup_point_id !== null) throw fail.unprocessable('pickup.notParcel', {}, { field: 'shipmentId' })
  // the same numbers again (a retried request) answer the same
  if (current.status === 'shipping' && current.carrier === carrier && current.tracking_no === trackingNo) return (await withUser(db, [current]))[0]
  throw badStatus(current.status)
}

export async function operatorShipments (db: Db, clock: Clock, page: number, size: number, status?: ShipmentStatus): Promise<{ list: OperatorShipment[]; total: number }> {
  await autoReceive(db, clock)
  let base = db.selectFrom('shipments')
  if (status) base = base.where('status', '=', status)
  const { total } = await base.select(eb => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()
  const rows = await base.selectAll()
    .orderBy(sql`case status when 'requested' then 0 when 'shipping' then 1 else 2 end`)
    .orderBy('id', 'asc')
    .limit(size).offset((page - 1) * size).execute()
  return { list: await withUser(db, rows), total: Number(total) }
}

/** The path of the app page that checks a prize by its code (the QR carries the site's origin before it). */
export const verifyPath = (prizeId: number, code: string) => `/pagesA/prize_detail/index?prizeId=${prizeId}&verify=${code}`

/** The packing slip: per prize its check link and the proof of its draw (its case's commitment, or its combine's draw). */
export async function packingSlip (db: Db, shipmentId: number, origin: string): Promise<PackingSlip> {
  const row = await db.selectFrom('shipments').selectAll().where('id', '=', shipmentId).executeTakeFirst()
  if (!row) throw shipmentNotFound()
  const codes = await db.selectFrom('shipment_items')
    .innerJoin('prizes', 'prizes.id', 'shipment_items.prize_id')
    .leftJoin('cases', 'cases.id', 'prizes.case_id')
    .select(['shipment_items.prize_id', 'shipment_items.verify_code', 'prizes.combine_id', 'cases.commit_hash'])
    .where('shipment_items.shipment_id', '=', shipmentId).orderBy('shipment_items.prize_id').execute()
  const combines = await combineProofs(db, codes.flatMap(c => (c.combine_id === null ? [] : [Number(c.combine_id)])))
  return {
    shipment: (await withUser(db, [row]))[0],
    codes: codes.map(c => ({
      prizeId: Number(c.prize_id),
      verifyUrl: `${origin}${verifyPath(Number(c.prize_id), c.verify_code)}`,
      caseCommit: c.commit_hash ?? null,
      combineProof: c.combine_id === null ? null : combines.get(Number(c.combine_id)) ?? null
    }))
  }
}

// ---- authenticity ---------------------------------------------------------------------------------

export async function verifyPrize (db: Db, prizeId: number, code: string): Promise<PrizeVerifyResult> {
  const row = await db.selectFrom('shipment_items')
    .innerJoin('prizes', 'prizes.id', 'shipment_items.prize_id')
    .innerJoin('shipments', 'shipments.id', 'shipment_items.shipment_id')
    .select(['prizes.id', 'prizes.series_id', 'prizes.design_id', 'prizes.case_id', 'prizes.slot', 'prizes.combine_id', 'prizes.origin', 'prizes.created_at', 'shipments.shipped_at', 'shipment_items.verify_code'])
    .where('shipment_items.verify_code', '=', code).executeTakeFirst()
  if (!row || Number(row.id) !== prizeId || row.verify_code !== code) throw new ApiFailure(404, 'prize.verifyFailed', {}, { field: 'code' })
  const series = (await loadSeries(db, [Number(row.series_id)], true)).get(Number(row.series_id)) as SeriesData
  // a prize from a case proves its case's commitment; a prize made by combining has no case: its combine's draw
  let proof: PrizeVerifyResult['proof'] = null
  if (row.case_id !== null) {
    const c = proofOf(await db.selectFrom('cases').selectAll().where('id', '=', Number(row.case_id)).executeTakeFirstOrThrow())
    proof = { commit: c.commit, revealed: c.revealed, ...(c.arrangement ? { arrangement: c.arrangement } : {}), ...(c.salt ? { salt: c.salt } : {}) }
  }
  return {
    authentic: true,
    prizeId,
    seriesTitle: text(series.row.name, series.row.name_en),
    design: designInfo(series.designs.find(d => Number(d.id) === Number(row.design_id))!, series.odds),
    origin: row.origin,
    caseId: Number(row.case_id ?? 0),
    slot: Number(row.slot ?? 0),
    combineId: row.combine_id === null ? null : Number(row.combine_id),
    proof,
    combineProof: row.combine_id === null ? null : await combineProof(db, Number(row.combine_id)),
    drawnAt: row.created_at,
    shippedAt: row.shipped_at
  }
}
