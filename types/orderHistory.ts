/**
 * "My orders" (issue 48): one list of everything the shopper paid, topped up, shipped or withdrew, newest
 * first, each with its number. The numbers are the ones the app shows elsewhere: a top-up's order number
 * (opId, "BB..."), and for the others the kind's letter and the row's id (P-12 a purchase, S-3 a
 * shipment: a parcel or a pickup, W-5 a withdrawal). The contact form picks one of them as the
 * complaint's related order (types/complaints.ts `related`), and the server checks it is the caller's.
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { Cents, Id, Obj, PageFields, PageResult, StringEnum, Timestamp } from './schema'

export const MY_ORDER_KINDS = ['purchase', 'topup', 'shipment', 'withdrawal'] as const
export const MyOrderKind = StringEnum(MY_ORDER_KINDS)
export type MyOrderKind = Static<typeof MyOrderKind>

/** The letter before a non-top-up's id in its number. */
export const MY_ORDER_PREFIX = { purchase: 'P', shipment: 'S', withdrawal: 'W' } as const

/** One of the caller's orders, as one row of the list. */
export const MyOrder = Type.Object({
  kind: MyOrderKind,
  /** The row's id (a top-up's order row; its number is `number`). */
  id: Type.Integer(),
  /** What the shopper reads and quotes: BB... for a top-up, P-/S-/W- and the id for the others. */
  number: Type.String(),
  /** A purchase's price, a top-up's amount, a shipment's fee (0: free or pickup), a withdrawal's amount. */
  amountCents: Cents,
  /**
   * purchase: paid; topup: created | paid | canceled; shipment: requested | shipping | received;
   * withdrawal: requested | approved | paid | rejected | failed.
   */
  status: Type.String(),
  /** A shipment collected at a counter (自提) rather than a parcel; false for the other kinds. */
  pickup: Type.Boolean(),
  createdAt: Timestamp
})
export type MyOrder = Static<typeof MyOrder>

export const MyOrderListRequest = Obj({ ...PageFields, kind: Type.Optional(MyOrderKind) })
export type MyOrderListRequest = Static<typeof MyOrderListRequest>

/** A reference to one of the caller's orders (the contact form's pick). */
export const MyOrderRef = Obj({ kind: MyOrderKind, id: Id })
export type MyOrderRef = Static<typeof MyOrderRef>

export const orderHistoryRoutes = {
  myOrders: route({
    method: 'POST', url: '/api/myOrders', auth: 'user', tag: 'orders', body: MyOrderListRequest, data: PageResult(MyOrder),
    summary: 'The caller\'s purchases, top-ups, shipments and withdrawals in one list, newest first',
    description: 'Only the caller\'s own rows; a top-up appears once it is an order (created, paid or canceled), not while its number is only issued.'
  })
}
