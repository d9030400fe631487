/**
 * "My orders" (types/orderHistory.ts): the caller's purchases, top-ups, shipments and withdrawals as one
 * list, newest first. One UNION ALL of the four tables, each filtered by the caller's id, ordered and
 * paged in the database (the same SQL on SQLite and PostgreSQL). A top-up whose number was only issued
 * (never created as an order) is not an order yet and is left out.
 */
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely'
import { MY_ORDER_PREFIX, type MyOrder, type MyOrderKind, type MyOrderRef } from '../../../../types/orderHistory'
import type { PageResult } from '../../../../types/schema'
import type { Database } from '../../db/schema'
import { ApiFailure } from '../../core/errors'

type Db = Kysely<Database>

/** The number a shopper reads for a row: a top-up's opId, else the kind's letter and the id. */
export function orderNumber (kind: Exclude<MyOrderKind, 'topup'>, id: number): string {
  return `${MY_ORDER_PREFIX[kind]}-${id}`
}

interface Row { id: number; kind: string; op_id: string | null; amount: number; status: string; pickup: number; created_at: string | Date }
/** The four selects share their columns; one type for them all (each is built from its own table above). */
type Rows = SelectQueryBuilder<Database, 'purchases', Row>

function rows (db: Db, userId: number, kind: MyOrderKind | undefined): Rows {
  const purchases = db.selectFrom('purchases').where('user_id', '=', userId)
    .select(['id', sql<string>`'purchase'`.as('kind'), sql<string | null>`null`.as('op_id'), 'total_cents as amount', sql<string>`'paid'`.as('status'), sql<number>`0`.as('pickup'), 'created_at'])
  const topups = db.selectFrom('orders').where('user_id', '=', userId).where('status', '!=', 'issued')
    .select(['id', sql<string>`'topup'`.as('kind'), 'op_id', sql<number>`coalesce(amount_cents, 0)`.as('amount'), 'status', sql<number>`0`.as('pickup'),
      sql<string>`coalesce(created_at, issued_at)`.as('created_at')])
  const shipments = db.selectFrom('shipments').where('user_id', '=', userId)
    .select(['id', sql<string>`'shipment'`.as('kind'), sql<string | null>`null`.as('op_id'), 'fee_cents as amount', 'status',
      sql<number>`case when pickup_point_id is null then 0 else 1 end`.as('pickup'), 'created_at'])
  const withdrawals = db.selectFrom('withdrawals').where('user_id', '=', userId)
    .select(['id', sql<string>`'withdrawal'`.as('kind'), sql<string | null>`null`.as('op_id'), 'amount_cents as amount', 'status', sql<number>`0`.as('pickup'), 'created_at'])
  const parts = { purchase: purchases, topup: topups, shipment: shipments, withdrawal: withdrawals } as unknown as Record<MyOrderKind, Rows>
  if (kind) return parts[kind]
  return parts.purchase.unionAll(parts.topup).unionAll(parts.shipment).unionAll(parts.withdrawal)
}

function view (r: Row): MyOrder {
  const kind = r.kind as MyOrderKind
  const createdAt = r.created_at instanceof Date ? r.created_at.toISOString() : new Date(r.created_at).toISOString()
  return {
    kind,
    id: Number(r.id),
    number: kind === 'topup' ? r.op_id ?? '' : orderNumber(kind, Number(r.id)),
    amountCents: Number(r.amount),
    status: r.status,
    pickup: Number(r.pickup) === 1,
    createdAt
  }
}

export async function myOrders (db: Db, userId: number, page: number, size: number, kind?: MyOrderKind): Promise<PageResult<MyOrder>> {
  const all = rows(db, userId, kind)
  const [list, count] = await Promise.all([
    db.selectFrom(all.as('o')).selectAll()
      .orderBy('o.created_at', 'desc').orderBy('o.kind').orderBy('o.id', 'desc')
      .limit(size).offset((page - 1) * size).execute(),
    db.selectFrom(all.as('o')).select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  ])
  return { list: list.map(view), total: Number(count.n) }
}

/** One of the caller's orders by kind and id, or 404 naming `field` (another shopper's is not found either). */
export async function ownOrder (db: Db, userId: number, ref: MyOrderRef, field: string): Promise<MyOrder> {
  const row = await db.selectFrom(rows(db, userId, ref.kind).as('o')).selectAll().where('o.id', '=', ref.id).executeTakeFirst()
  if (!row) throw new ApiFailure(404, 'order.notYours', {}, { field })
  return view(row)
}
