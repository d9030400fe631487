/**
 * Pickup points (自提, issue 24): an operator keeps the counters (each change audited); a shopper
 * sees the open ones nearest first and ships prizes to one instead of an address (no fee); at the
 * counter the operator scans each prize's authenticity QR (the packing slip's), which hands it over;
 * once every prize of the shipment is handed, the shipment and its prizes are received.
 *   requested --(every item handed)--> received (received_by 'shopper': collected in person)
 * A hand-over is one conditional UPDATE of its item (handed_at is null), so two scans of one QR hand
 * it once; the shipment moves to received by a conditional UPDATE too (status = 'requested').
 */
import type { Kysely, Selectable } from 'kysely'
import { PICKUP_LIMITS } from '../../../../types/limits'
import type { PickupDirectory, PickupNearbyResult, PickupPoint, PickupPointNear, PickupPointSaveRequest } from '../../../../types/afterDraw'
import type { Database, PickupPointsTable } from '../../db/schema'
import { iso, type Clock } from '../../core/clock'
import { dialectOf, forUpdate } from '../../db/lock'
import { ApiFailure, fail } from '../../core/errors'
import { writeAudit } from '../ops/audit'
import { designsOfPrizes, leaveWarehouse } from '../catalogue/stock'

type Db = Kysely<Database>

export function pointView (r: Selectable<PickupPointsTable>): PickupPoint {
  return {
    id: Number(r.id),
    name: r.name,
    address: r.address,
    hours: r.hours,
    latitude: Number(r.latitude),
    longitude: Number(r.longitude),
    active: Number(r.active) === 1
  }
}

const EARTH_RADIUS_M = 6371008.8

/** Great-circle metres between two points (haversine); GCJ-02's offset is the same for both, so it cancels out. */
export function metresBetween (a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = (d: number) => d * Math.PI / 180
  const dLat = rad(b.latitude - a.latitude)
  const dLng = rad(b.longitude - a.longitude)
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLng / 2) ** 2
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)))
}

export async function allPoints (db: Db): Promise<PickupPoint[]> {
  const rows = await db.selectFrom('pickup_points').selectAll().orderBy('active', 'desc').orderBy('id').execute()
  return rows.map(pointView)
}

/**
 * The city an address starts with: a province's city ("广东省深圳市…" is 深圳市), a municipality or a
 * city written first ("北京市海淀区…" is 北京市), an autonomous prefecture or league; '' when it names none.
 */
export function cityOf (address: string): string {
  const text = address.replace(/\s+/g, '')
  const afterProvince = text.replace(/^.{2,8}?(省|自治区|特别行政区)/, '')
  const m = /^(.{1,10}?(市|自治州|地区|盟))/.exec(afterProvince)
  return m ? m[1] : ''
}

/** Every open point by city (cities in the order of their first point by name, '' last); points by name. */
export async function pointDirectory (db: Db): Promise<PickupDirectory> {
  const rows = await db.selectFrom('pickup_points').selectAll().where('active', '=', 1).execute()
  const byCity = new Map<string, PickupPoint[]>()
  for (const p of rows.map(pointView).sort((a, b) => a.name.localeCompare(b.name, 'zh') || a.id - b.id)) {
    const city = cityOf(p.address)
    byCity.set(city, [...byCity.get(city) ?? [], p])
  }
  const cities = [...byCity.entries()].sort(([a], [b]) => (a === '' ? 1 : 0) - (b === '' ? 1 : 0) || a.localeCompare(b, 'zh'))
  return { cities: cities.map(([city, list]) => ({ city, list })), total: rows.length }
}

/**
 * The open points within 5000 m of where the shopper is, nearest first; when none is, within 50000 m
 * (a shopper at the edge of town still finds the counter across it). Operators keep at most 200 open
 * points, so they are measured here rather than by a spatial index.
 */
export async function nearbyPoints (db: Db, at: { latitude: number; longitude: number }, page: number,
  routeProvider: PickupNearbyResult['routeProvider'], webMap: { script: string } | null): Promise<PickupNearbyResult> {
  const rows = await db.selectFrom('pickup_points').selectAll().where('active', '=', 1).execute()
  const measured: PickupPointNear[] = rows.map(r => {
    const p = pointView(r)
    return { ...p, distance: Math.round(metresBetween(at, p)) }
  }).sort((a, b) => a.distance - b.distance || a.id - b.id)
  let radius: number = PICKUP_LIMITS.nearbyRadius
  let within = measured.filter(p => p.distance <= radius)
  if (!within.length) {
    radius = PICKUP_LIMITS.wideRadius
    within = measured.filter(p => p.distance <= radius)
  }
  const size = PICKUP_LIMITS.pageSize
  return {
    list: within.slice((page - 1) * size, page * size),
    total: within.length,
    radius,
    routeProvider,
    webMap: webMap ? { provider: 'tencentMap', script: webMap.script } : null
  }
}

/** Adds or changes a point; one audit row with what changed. A new or reopened point counts against PICKUP_LIMITS.pointsMax. */
export async function savePoint (db: Db, clock: Clock, actorId: number, r: PickupPointSaveRequest): Promise<PickupPoint> {
  const now = iso(clock())
  const fields = {
    name: r.name.trim(),
    address: r.address.trim(),
    hours: r.hours.trim(),
    latitude: r.latitude,
    longitude: r.longitude
  }
  for (const f of ['name', 'address', 'hours'] as const) {
    if (!fields[f]) throw fail.field(f, 'address.blank', {})
  }
  return db.transaction().execute(async trx => {
    const before = r.id === undefined ? null : await forUpdate(dialectOf(trx), trx.selectFrom('pickup_points').selectAll().where('id', '=', r.id)).executeTakeFirst()
    if (r.id !== undefined && !before) throw new ApiFailure(404, 'pickup.notFound', {}, { field: 'id' })
    const active = r.active ?? (before ? Number(before.active) === 1 : true)
    if (active && !(before && Number(before.active) === 1)) {
      const { n } = await trx.selectFrom('pickup_points').select(eb => eb.fn.countAll<number>().as('n')).where('active', '=', 1).executeTakeFirstOrThrow()
      if (Number(n) >= PICKUP_LIMITS.pointsMax) throw fail.unprocessable('pickup.tooMany', { max: PICKUP_LIMITS.pointsMax }, { field: 'active' })
    }
    const values = { ...fields, active: active ? 1 : 0, updated_by: actorId, updated_at: now }
    const row = before
      ? await trx.updateTable('pickup_points').set(values).where('id', '=', Number(before.id)).returningAll().executeTakeFirstOrThrow()
      : await trx.insertInto('pickup_points').values({ ...values, created_at: now }).returningAll().executeTakeFirstOrThrow()
    const after = pointView(row)
    await writeAudit(trx, clock, {
      actorId,
      action: before ? 'pickup.update' : 'pickup.create',
      entity: 'pickup_point',
      entityId: after.id,
      detail: { before: before ? pointView(before) : null, after }
    })
    return after
  })
}

/** An open point for a new pickup shipment: 404 when there is none by that id, 422 naming it when it is closed. */
export async function openPoint (db: Db, id: number): Promise<PickupPoint> {
  const row = await db.selectFrom('pickup_points').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) throw new ApiFailure(404, 'pickup.notFound', {}, { field: 'pickupPointId' })
  const point = pointView(row)
  if (!point.active) throw fail.unprocessable('pickup.closed', { name: point.name }, { field: 'pickupPointId' })
  return point
}

/**
 * The counter scanned a prize's QR: hands that prize over (once), and when it was the shipment's last,
 * the shipment and its prizes are received. Answers the shipment's id. A code of no shipped prize is a
 * 404 (as /api/prizeVerify); a prize of a parcel, or of a pickup already collected, a 422.
 */
export async function handPrize (db: Db, clock: Clock, actorId: number, prizeId: number, code: string): Promise<number> {
  return db.transaction().execute(async trx => {
    const item = await trx.selectFrom('shipment_items')
      .innerJoin('shipments', 'shipments.id', 'shipment_items.shipment_id')
      .select(['shipment_items.shipment_id', 'shipment_items.prize_id', 'shipment_items.verify_code', 'shipments.user_id'])
      .where('shipment_items.verify_code', '=', code).executeTakeFirst()
    if (!item || Number(item.prize_id) !== prizeId || item.verify_code !== code) throw new ApiFailure(404, 'prize.verifyFailed', {}, { field: 'code' })
    const shipmentId = Number(item.shipment_id)
    // the shipment's row first: two counters scanning the last two prizes at once receive it once
    const shipment = await forUpdate(dialectOf(trx), trx.selectFrom('shipments').select(['status', 'pickup_point_id']).where('id', '=', shipmentId)).executeTakeFirstOrThrow()
    // read again under the lock: a scan that waited for it finds what the one before it did
    const { handed_at: handedAt } = await trx.selectFrom('shipment_items').select('handed_at')
      .where('shipment_id', '=', shipmentId).where('prize_id', '=', prizeId).executeTakeFirstOrThrow()
    if (handedAt !== null) return shipmentId
    if (shipment.pickup_point_id === null || shipment.status !== 'requested') {
      throw fail.unprocessable('pickup.notWaiting', { status: `@shipmentStatus.${shipment.status}` }, { status: shipment.status })
    }
    const now = iso(clock())
    const handed = await trx.updateTable('shipment_items').set({ handed_at: now })
      .where('shipment_id', '=', shipmentId).where('prize_id', '=', prizeId).where('handed_at', 'is', null)
      .returning('prize_id').executeTakeFirst()
    if (!handed) return shipmentId
    // handed over at the counter: the figure is out of the warehouse
    await leaveWarehouse(trx, await designsOfPrizes(trx, [prizeId]))
    const { left } = await trx.selectFrom('shipment_items').select(eb => eb.fn.countAll<number>().as('left'))
      .where('shipment_id', '=', shipmentId).where('handed_at', 'is', null).executeTakeFirstOrThrow()
    const complete = Number(left) === 0
    if (complete) {
      await trx.updateTable('shipments').set({ status: 'received', received_at: now, received_by: 'shopper', handed_by: actorId, updated_at: now })
        .where('id', '=', shipmentId).where('status', '=', 'requested').execute()
      const items = trx.selectFrom('shipment_items').select('prize_id').where('shipment_id', '=', shipmentId)
      await trx.updateTable('prizes').set({ status: 'received', updated_at: now }).where('id', 'in', items).where('status', '=', 'shipping').execute()
    }
    await writeAudit(trx, clock, {
      actorId,
      action: 'pickup.hand',
      entity: 'shipment',
      entityId: shipmentId,
      detail: { before: { handed: false }, after: { handed: true, received: complete }, prizeId, userId: Number(item.user_id), pickupPointId: Number(shipment.pickup_point_id) }
    })
    return shipmentId
  })
}
