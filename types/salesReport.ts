/**
 * The operator's sales report (issue 48): for a range of shop days (China time, both ends included),
 * per day and in all, what the double-entry ledger says came in and went out (server/src/domain/ledger.ts):
 *   sales          the house_sales lines (what boxes were bought for, in cash and credit)
 *   top-ups        the payment_clearing side of the top-up transactions (money paid in)
 *   withdrawals    the payment_clearing side of the paid-out withdrawals (money paid back)
 *   props, shipping the house_props and house_shipping lines
 * and the sales per series (the purchases' transactions). Every amount is integer cents, exact.
 * The same report as a spreadsheet: /api/operator/salesReportExport (xlsx, in the caller's language).
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { Cents, Id, Obj, SignedCents } from './schema'

export const SALES_REPORT_LIMITS = {
  /** The longest range, in days. */
  maxDays: 366
} as const

/** A shop day, YYYY-MM-DD (China time). */
export const ShopDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD, a day in China time' })

export const SalesReportRequest = Obj({
  from: ShopDate,
  to: ShopDate
})
export type SalesReportRequest = Static<typeof SalesReportRequest>

export const SalesFigures = Type.Object({
  /** Box purchases (transactions) and what they were bought for. */
  purchases: Type.Integer({ minimum: 0 }),
  salesCents: SignedCents,
  topUps: Type.Integer({ minimum: 0 }),
  topUpCents: SignedCents,
  /** Withdrawals paid out (approved), and their money. */
  withdrawals: Type.Integer({ minimum: 0 }),
  withdrawalCents: SignedCents,
  /** Prop cards bought. */
  propsCents: SignedCents,
  /** Shipping fees paid. */
  shippingCents: SignedCents
})
export type SalesFigures = Static<typeof SalesFigures>

export const SalesDay = Type.Object({ day: Type.String(), ...SalesFigures.properties })
export type SalesDay = Static<typeof SalesDay>

export const SeriesSales = Type.Object({
  seriesId: Id,
  name: Type.String(),
  nameEn: Type.String(),
  purchases: Type.Integer({ minimum: 0 }),
  /** Boxes (slots) bought. */
  boxes: Type.Integer({ minimum: 0 }),
  salesCents: Cents
})
export type SeriesSales = Static<typeof SeriesSales>

export const SalesReport = Type.Object({
  from: Type.String(),
  to: Type.String(),
  /** Every day of the range, oldest first (zeros on a quiet day). */
  days: Type.Array(SalesDay),
  totals: SalesFigures,
  /** The series sold in the range, best-selling first. */
  series: Type.Array(SeriesSales)
})
export type SalesReport = Static<typeof SalesReport>

const tag = 'operator'

export const salesReportRoutes = {
  salesReport: route({
    method: 'POST', url: '/api/operator/salesReport', auth: 'operator', tag, body: SalesReportRequest, data: SalesReport,
    summary: 'Sales, top-ups, withdrawals per day and sales per series over a range of days, from the ledger (operators)',
    description: `Days in China time, both ends included, at most ${SALES_REPORT_LIMITS.maxDays}; a 400 names the field when a date is not a real day or the range is reversed or too long.`
  }),
  salesReportExport: route({
    method: 'POST', url: '/api/operator/salesReportExport', auth: 'operator', tag, body: SalesReportRequest, data: Type.Null(),
    raw: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', description: 'The sales report as xlsx (a sheet of days, a sheet of series), in the caller\'s language, money in yuan' },
    summary: 'Export the sales report as a spreadsheet (operators)'
  })
}
