/**
 * The operator's sales report (types/salesReport.ts), read from the double-entry ledger (ledger.ts), so
 * that it sums to the cent what the books hold, whichever path wrote them (the purchase of purchase.ts
 * and the one statement of purchaseOnPostgres.ts post the same lines):
 *   sales       house_sales lines (+ what boxes were bought for)
 *   top-ups     payment_clearing lines of `topup` transactions (- the money paid in)
 *   withdrawals payment_clearing lines of `withdraw_payout` transactions (+ the money paid back)
 *   props       house_props lines;  shipping  house_shipping lines
 * Days are shop days (China time, days.ts); the range is checked by the caller (the route).
 */
import { sql, type Kysely } from 'kysely'
import type { SalesDay, SalesFigures, SalesReport, SeriesSales } from '../../../../types/salesReport'
import type { Database } from '../../db/schema'
import type { Dialect } from '../../db/dialect'
import { DAY_MS } from '../../core/days'

type Db = Kysely<Database>

const SHOP_OFFSET_MS = 8 * 3_600_000

/** The first instant of a shop day (YYYY-MM-DD, China time) as ISO UTC. */
export const shopDayStartIso = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) - SHOP_OFFSET_MS).toISOString()

/** Whether a YYYY-MM-DD text names a real day (2026-02-30 does not). */
export function isRealDay (day: string): boolean {
  const ms = Date.parse(`${day}T00:00:00.000Z`)
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === day
}

/** The days from one to the other, both included. */
export function daysBetween (from: string, to: string): string[] {
  const out: string[] = []
  for (let ms = Date.parse(`${from}T00:00:00.000Z`), end = Date.parse(`${to}T00:00:00.000Z`); ms <= end; ms += DAY_MS) {
    out.push(new Date(ms).toISOString().slice(0, 10))
  }
  return out
}

const zero = (): SalesFigures => ({
  purchases: 0, salesCents: 0, topUps: 0, topUpCents: 0, withdrawals: 0, withdrawalCents: 0, propsCents: 0, shippingCents: 0
})

/** The shop day of a transaction's time, in SQL (ISO text on SQLite, timestamptz on PostgreSQL). */
function dayOf (dialect: Dialect) {
  return dialect === 'postgres'
    ? sql<string>`to_char((t.created_at at time zone 'UTC') + interval '8 hours', 'YYYY-MM-DD')`
    : sql<string>`date(t.created_at, '+8 hours')`
}

export async function salesReport (db: Db, dialect: Dialect, from: string, to: string): Promise<SalesReport> {
  const start = shopDayStartIso(from)
  const end = new Date(Date.parse(shopDayStartIso(to)) + DAY_MS).toISOString()
  const day = dayOf(dialect)

  // per day, kind of transaction and account: the sum of the lines and how many transactions
  const rows = await db.selectFrom('ledger_lines as l')
    .innerJoin('ledger_transactions as t', 't.id', 'l.tx_id')
    .select([
      day.as('day'), 't.kind', 'l.account',
      eb => eb.fn.sum<string | number>('l.amount_cents').as('cents'),
      eb => eb.fn.count<string | number>('l.tx_id').distinct().as('n')
    ])
    .where('t.created_at', '>=', start).where('t.created_at', '<', end)
    .where('l.account', 'in', ['house_sales', 'payment_clearing', 'house_props', 'house_shipping'])
    .groupBy([day, 't.kind', 'l.account'])
    .execute()

  const byDay = new Map<string, SalesFigures>(daysBetween(from, to).map(d => [d, zero()]))
  for (const r of rows) {
    const f = byDay.get(r.day)
    if (!f) continue
    const cents = Number(r.cents)
    const n = Number(r.n)
    if (r.account === 'house_sales') {
      f.salesCents += cents
      if (r.kind === 'purchase') f.purchases += n
    } else if (r.account === 'house_props') {
      f.propsCents += cents
    } else if (r.account === 'house_shipping') {
      f.shippingCents += cents
    } else if (r.kind === 'topup') {
      f.topUpCents -= cents
      f.topUps += n
    } else if (r.kind === 'withdraw_payout') {
      f.withdrawalCents += cents
      f.withdrawals += n
    }
  }
  const days: SalesDay[] = [...byDay].map(([d, f]) => ({ day: d, ...f }))
  const totals = zero()
  for (const d of days) {
    for (const k of Object.keys(totals) as Array<keyof SalesFigures>) totals[k] += d[k]
  }

  return { from, to, days, totals, series: await seriesSales(db, dialect, start, end) }
}

/** Sales per series: the house_sales lines of the purchases' transactions, and the boxes they bought. */
async function seriesSales (db: Db, dialect: Dialect, start: string, end: string): Promise<SeriesSales[]> {
  const money = await db.selectFrom('purchases as p')
    .innerJoin('ledger_transactions as t', 't.id', 'p.tx_id')
    .innerJoin('ledger_lines as l', join => join.onRef('l.tx_id', '=', 'p.tx_id').on('l.account', '=', 'house_sales'))
    .select(['p.series_id', eb => eb.fn.count<string | number>('p.id').as('n'), eb => eb.fn.sum<string | number>('l.amount_cents').as('cents')])
    .where('t.created_at', '>=', start).where('t.created_at', '<', end)
    .groupBy('p.series_id')
    .execute()
  if (!money.length) return []
  // a purchase's slots are a JSON list (one box each)
  const slots = dialect === 'postgres' ? sql<number>`json_array_length(p.slots::json)` : sql<number>`json_array_length(p.slots)`
  const boxes = await db.selectFrom('purchases as p')
    .innerJoin('ledger_transactions as t', 't.id', 'p.tx_id')
    .select(['p.series_id', eb => eb.fn.sum<string | number>(slots).as('n')])
    .where('t.created_at', '>=', start).where('t.created_at', '<', end)
    .groupBy('p.series_id')
    .execute()
  const boxesOf = new Map(boxes.map(b => [Number(b.series_id), Number(b.n)]))
  const ids = money.map(m => Number(m.series_id))
  const names = await db.selectFrom('series').select(['id', 'name', 'name_en']).where('id', 'in', ids).execute()
  const nameOf = new Map(names.map(s => [Number(s.id), s]))
  return money
    .map(m => {
      const id = Number(m.series_id)
      const s = nameOf.get(id)
      return { seriesId: id, name: s?.name ?? '', nameEn: s?.name_en ?? '', purchases: Number(m.n), boxes: boxesOf.get(id) ?? 0, salesCents: Number(m.cents) }
    })
    .sort((a, b) => b.salesCents - a.salesCents || a.seriesId - b.seriesId)
}
