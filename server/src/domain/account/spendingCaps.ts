/**
 * Spending limits (issue 10): the shopper's own daily and monthly limits (a raise waits), a minor's
 * daily cap, and the checks purchases run inside their transaction, after the wallet row is locked, so
 * two purchases of one shopper take turns on the sums.
 */
import type { Db } from '../../db'
import { prepared } from '../../db/prepared'
import { iso, type Clock } from '../../core/clock'
import { ApiFailure, fail } from '../../core/errors'
import { shopDay, shopDayStart } from '../../core/days'
import { ageRecord, MINOR_DAILY_CAP_CENTS, ADULT_AGE } from './age'
import { lockLiveAccount } from './users'
import type { LedgerKind } from '../../db/schema'
import type { DailyCapData } from '../../../../types/shop'
import { formatYuan } from '../../core/money'
import { dailyAboveMonthly } from '../../../../types/limits'
import {
  LIMIT_RAISE_DELAY_MS, type LimitKind, type LimitsRequest, type LimitsView, type LimitView, type SpendingLimitData
} from '../../../../types/security'

const OFFSET_MS = 8 * 60 * 60 * 1000
const yuan = (cents: number) => (cents / 100).toFixed(2)

/** The instant the China calendar month of `ms` began. */
export function shopMonthStart (ms: number): number {
  return Date.parse(`${shopDay(ms).slice(0, 7)}-01T00:00:00.000Z`) - OFFSET_MS
}

// ---- spending limits ------------------------------------------------------------------------------

interface LimitRow { kind: string; cents: number | string | null; pending_cents: number | string | null; pending_set: number; pending_at: string | null }
const num = (v: number | string | null): number | null => (v === null ? null : Number(v))

/** The limit in force at `now` (a waiting raise counts from its time) and what still waits. */
function readLimit (row: LimitRow | undefined, now: number): { cents: number | null; pending: { cents: number | null; appliesAt: string } | null } {
  if (!row) return { cents: null, pending: null }
  if (row.pending_set && row.pending_at) {
    if (Date.parse(row.pending_at) <= now) return { cents: num(row.pending_cents), pending: null }
    return { cents: num(row.cents), pending: { cents: num(row.pending_cents), appliesAt: row.pending_at } }
  }
  return { cents: num(row.cents), pending: null }
}

const limitRowsOf = prepared((db: Db, userId: number) => db.selectFrom('spending_limits').select(['kind', 'cents', 'pending_cents', 'pending_set', 'pending_at']).where('user_id', '=', userId))

async function limitRows (db: Db, userId: number): Promise<Map<string, LimitRow>> {
  const { rows } = await limitRowsOf.execute(db, userId)
  return new Map(rows.map(r => [r.kind, r as LimitRow]))
}

/**
 * What counts as spending (decided): every ledger transaction in which the shopper pays the shop for
 * something: blind boxes, prop cards and shipping fees, whether paid with cash or credit (credit came
 * from prizes bought with money, and a limit that credit could walk around would not protect anyone).
 * Top-ups, withdrawals and recycling move money but buy nothing: they do not count.
 */
export const SPENDING_KINDS = ['purchase', 'prop_purchase', 'shipping_fee'] as const satisfies readonly LedgerKind[]

/** Spent since `since` (epoch ms), from the ledger: what left the user's cash and credit to pay the shop. */
export async function spentSince (db: Db, userId: number, since: number): Promise<number> {
  const row = await db.selectFrom('ledger_lines')
    .innerJoin('ledger_transactions', 'ledger_transactions.id', 'ledger_lines.tx_id')
    .select(eb => eb.fn.sum<number>('ledger_lines.amount_cents').as('s'))
    .where('ledger_lines.user_id', '=', userId)
    .where('ledger_lines.account', 'in', ['user_cash', 'user_credit'])
    .where('ledger_transactions.kind', 'in', SPENDING_KINDS)
    .where('ledger_transactions.created_at', '>=', iso(since))
    .executeTakeFirst()
  // spending lines take money out of the user's accounts: negative amounts
  return -Number(row?.s ?? 0)
}

export async function limitsView (db: Db, clock: Clock, userId: number): Promise<LimitsView> {
  const now = clock()
  const rows = await limitRows(db, userId)
  const view = async (kind: LimitKind, since: number): Promise<LimitView> => ({ ...readLimit(rows.get(kind), now), spentCents: await spentSince(db, userId, since) })
  return { daily: await view('daily', shopDayStart(now)), monthly: await view('monthly', shopMonthStart(now)) }
}

/**
 * Sets the limits. For each one given: a value below the one in force (or a first limit) applies at
 * once and drops a waiting raise; a higher value or removal waits 24 hours; the same value drops a
 * waiting change. One conditional write per limit (upsert), so parallel calls cannot mix halves.
 */
export async function setLimits (db: Db, clock: Clock, userId: number, request: LimitsRequest): Promise<LimitsView> {
  const now = clock()
  await db.transaction().execute(async trx => {
    await lockLiveAccount(trx, userId)
    const rows = await limitRows(trx, userId)
    // the limits as they will stand once every change applies: a daily one above the monthly one is refused
    const target = (kind: LimitKind) => {
      if (kind in request) return request[kind] ?? null
      const now_ = readLimit(rows.get(kind), now)
      return now_.pending ? now_.pending.cents : now_.cents
    }
    if (dailyAboveMonthly(target('daily'), target('monthly'))) {
      const daily = target('daily')!
      const monthly = target('monthly')!
      if ('daily' in request) throw fail.field('daily', 'limit.dailyAboveMonthly', { other: formatYuan(monthly) })
      throw fail.field('monthly', 'limit.monthlyBelowDaily', { other: formatYuan(daily) })
    }
    for (const kind of ['daily', 'monthly'] as const) {
      if (!(kind in request)) continue
      const wanted = request[kind] ?? null
      const current = readLimit(rows.get(kind), now).cents
      const lower = wanted !== null && (current === null || wanted < current)
      const same = wanted === current
      const values = lower || same
        ? { cents: wanted, pending_cents: null, pending_set: 0, pending_at: null }
        : { cents: current, pending_cents: wanted, pending_set: 1, pending_at: iso(now + LIMIT_RAISE_DELAY_MS) }
      await trx.insertInto('spending_limits')
        .values({ user_id: userId, kind, ...values, updated_at: iso(now) })
        .onConflict(oc => oc.columns(['user_id', 'kind']).doUpdateSet({ ...values, updated_at: iso(now) }))
        .execute()
    }
  })
  return limitsView(db, clock, userId)
}

/**
 * The caps on spending `totalCents` now: a minor's default daily cap (`minorCapCents`, from the age
 * rules; null for an adult) and the shopper's own daily and monthly limits. When one or more would be
 * passed, the one with the least room left refuses (the stricter applies): 422 with DailyCapData for
 * the minor's cap, SpendingLimitData for an own limit, each naming the limit and what is left. Answers
 * what the minor's cap leaves before this spending (null: no cap). Call it with the wallet row locked,
 * so that two purchases of one shopper take turns on the sums.
 */
export async function checkSpendingCaps (db: Db, clock: Clock, userId: number, totalCents: number, minorCapCents: number | null): Promise<{ minorLeftCents: number | null }> {
  const now = clock()
  const rows = await limitRows(db, userId)
  const own = { daily: readLimit(rows.get('daily'), now).cents, monthly: readLimit(rows.get('monthly'), now).cents }
  const daySpent = minorCapCents !== null || own.daily !== null ? await spentSince(db, userId, shopDayStart(now)) : 0
  const monthSpent = own.monthly !== null ? await spentSince(db, userId, shopMonthStart(now)) : 0
  const caps: Array<{ kind: 'minor' | LimitKind; limit: number; left: number }> = []
  if (minorCapCents !== null) caps.push({ kind: 'minor', limit: minorCapCents, left: Math.max(0, minorCapCents - daySpent) })
  if (own.daily !== null) caps.push({ kind: 'daily', limit: own.daily, left: Math.max(0, own.daily - daySpent) })
  if (own.monthly !== null) caps.push({ kind: 'monthly', limit: own.monthly, left: Math.max(0, own.monthly - monthSpent) })
  const passed = caps.filter(c => totalCents > c.left).sort((a, b) => a.left - b.left)[0]
  if (passed) throw spendingCapRefusal(passed.kind, passed.limit, passed.left)
  return { minorLeftCents: caps.find(c => c.kind === 'minor')?.left ?? null }
}

/** The refusal of a passed cap: a minor's daily cap, or the shopper's own daily or monthly limit. */
export function spendingCapRefusal (kind: 'minor' | LimitKind, limit: number, left: number): ApiFailure {
  if (kind === 'minor') {
    return fail.unprocessable('age.dailyCap', { cap: yuan(limit), left: yuan(left) },
      { reason: 'daily_cap', capCents: limit, leftCents: left } satisfies DailyCapData)
  }
  return new ApiFailure(422, `limit.${kind}`, { limit: yuan(limit), left: yuan(left) },
    { reason: 'spending_limit', kind, limitCents: limit, leftCents: left } satisfies SpendingLimitData)
}

/**
 * The caps on spending outside a box purchase (prop cards, after their age gate; shipping fees, which
 * ship what one already has and have none): a minor's daily cap when the recorded birth date says
 * minor, and the own limits. Call it with the wallet row locked.
 */
export async function checkSpending (db: Db, clock: Clock, userId: number, totalCents: number): Promise<void> {
  if (totalCents <= 0) return
  const record = await ageRecord(db, clock, userId)
  await checkSpendingCaps(db, clock, userId, totalCents, record && record.age < ADULT_AGE ? MINOR_DAILY_CAP_CENTS : null)
}
