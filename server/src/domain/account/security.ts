/**
 * Account security (issue 10): sessions as the owner sees them, spending limits, the birth-date
 * correction. Money never moves here; purchases ask `checkSpendingLimits` inside their transaction,
 * after the wallet row is locked, so two purchases of one shopper take turns on the sums.
 */
import type { Db } from '../../db'
import { prepared } from '../../db/prepared'
import { iso, type Clock } from '../../core/clock'
import { ApiFailure, fail } from '../../core/errors'
import { shopDayStart } from '../../core/days'
import { ageOn, parseDate, ageRecord, guardianPurpose, guardianView, MINOR_DAILY_CAP_CENTS, ADULT_AGE, OLDEST_AGE } from './age'
import { shopDay } from '../../core/days'
import { writeAudit } from '../ops/audit'
import { eraseShowContent } from '../community/show'
import { eraseUploadsOf } from '../media/mediaStore'
import { SESSION_IDLE_MS } from './sessions'
import type { LedgerKind } from '../../db/schema'
import type { DailyCapData } from '../../../../types/shop'
import { PREPAY_TTL_MS } from '../../providers/wechatpay'
import { lockOperators } from '../ops/operators'
import { lockLiveAccount, maskEmail, maskPhone } from './users'
import { formatYuan } from '../../core/money'
import { dailyAboveMonthly } from '../../../../types/limits'
import {
  LIMIT_RAISE_DELAY_MS,
  type CorrectionRequest, type CorrectionReviewRequest, type CorrectionView, type LimitKind, type LimitsRequest,
  type LimitsView, type LimitView, type OperatorCorrectionListRequest, type OperatorCorrectionListResponse,
  type OperatorCorrectionView, type SecurityOverview, type SessionView, type SpendingLimitData, type DeleteBlockedData
} from '../../../../types/security'

const OFFSET_MS = 8 * 60 * 60 * 1000
const yuan = (cents: number) => (cents / 100).toFixed(2)

/** The instant the China calendar month of `ms` began. */
export function shopMonthStart (ms: number): number {
  return Date.parse(`${shopDay(ms).slice(0, 7)}-01T00:00:00.000Z`) - OFFSET_MS
}

// ---- sessions -------------------------------------------------------------------------------------

/** 203.0.113.7 -> 203.0.113.x; 2001:db8:85a3::8a2e:370:7334 -> 2001:db8:85a3:x; ::ffff:1.2.3.4 as IPv4. */
export function maskIp (ip: string | null): string {
  if (!ip) return '?'
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(ip)
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.x`
  if (ip.includes(':')) return `${ip.split(':').filter(Boolean).slice(0, 3).join(':')}:x`
  return 'x'
}

/** A short name for a user agent: the browser or app, and the system. */
export function deviceOf (ua: string | null): string {
  if (!ua) return '?'
  const system = /iPhone|iPad/.test(ua) ? 'iOS' : /Android/.test(ua) ? 'Android' : /Windows/.test(ua) ? 'Windows' : /Mac OS X|Macintosh/.test(ua) ? 'macOS' : /Linux/.test(ua) ? 'Linux' : ''
  const app = /MicroMessenger/.test(ua) ? 'WeChat' : /Edg\//.test(ua) ? 'Edge' : /(Chrome|Chromium)\//.test(ua) ? 'Chrome' : /Firefox\//.test(ua) ? 'Firefox' : /Safari\//.test(ua) ? 'Safari' : ua.split(/[/ ]/)[0].slice(0, 24)
  return [app, system].filter(Boolean).join(' · ') || '?'
}

export { maskEmail } from './users'

export async function listSessions (db: Db, clock: Clock, userId: number, currentId: number): Promise<SessionView[]> {
  const now = iso(clock())
  const rows = await db.selectFrom('sessions')
    .select(['id', 'app_type', 'user_agent', 'ip', 'created_at', 'last_seen_at'])
    .where('user_id', '=', userId).where('revoked_at', 'is', null).where('expires_at', '>', now)
    // a session idle for SESSION_IDLE_MS has ended too (sessions.ts), though no row says so yet
    .where('last_seen_at', '>', iso(clock() - SESSION_IDLE_MS))
    .orderBy('last_seen_at', 'desc').orderBy('id', 'desc')
    .limit(50)
    .execute()
  return rows.map(r => ({
    id: Number(r.id),
    appType: r.app_type,
    device: deviceOf(r.user_agent),
    maskedIp: maskIp(r.ip),
    createdAt: r.created_at,
    lastSeenAt: r.last_seen_at,
    current: Number(r.id) === currentId
  }))
}

/** Ends the user's live sessions chosen by `which`; answers how many ended. */
export async function endSessions (db: Db, clock: Clock, userId: number, which: { only?: number; except?: number }): Promise<number> {
  let q = db.updateTable('sessions').set({ revoked_at: iso(clock()) })
    .where('user_id', '=', userId).where('revoked_at', 'is', null)
  if (which.only !== undefined) q = q.where('id', '=', which.only)
  if (which.except !== undefined) q = q.where('id', '!=', which.except)
  const r = await q.executeTakeFirst()
  return Number(r.numUpdatedRows)
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

// ---- birth-date correction ------------------------------------------------------------------------

interface CorrectionRow {
  id: number | string; user_id: number | string; old_birth_date: string; new_birth_date: string; reason: string
  status: 'pending' | 'approved' | 'rejected'; review_note: string | null; created_at: string; reviewed_at: string | null
}
const correctionView = (r: CorrectionRow): CorrectionView => ({
  id: Number(r.id),
  oldBirthDate: r.old_birth_date,
  newBirthDate: r.new_birth_date,
  reason: r.reason,
  status: r.status,
  reviewNote: r.review_note,
  createdAt: r.created_at,
  reviewedAt: r.reviewed_at
})
const CORRECTION_COLUMNS = ['id', 'user_id', 'old_birth_date', 'new_birth_date', 'reason', 'status', 'review_note', 'created_at', 'reviewed_at'] as const

export async function correctionOf (db: Db, userId: number): Promise<CorrectionView | null> {
  const row = await db.selectFrom('birth_date_corrections').select([...CORRECTION_COLUMNS]).where('user_id', '=', userId).executeTakeFirst()
  return row ? correctionView(row as CorrectionRow) : null
}

/** A real calendar date a living person could have been born on, before today. */
function checkBirthDate (birthDate: string, today: string): void {
  if (!parseDate(birthDate)) throw fail.field('birthDate', 'validation.format')
  if (birthDate >= today || ageOn(birthDate, today) > OLDEST_AGE) throw fail.field('birthDate', 'validation.invalid')
}

export async function requestCorrection (db: Db, clock: Clock, userId: number, request: CorrectionRequest): Promise<CorrectionView> {
  const today = shopDay(clock())
  checkBirthDate(request.birthDate, today)
  const age = await db.selectFrom('age_checks').select('birth_date').where('user_id', '=', userId).executeTakeFirst()
  if (!age) throw fail.unprocessable('correction.noBirthDate')
  if (age.birth_date === request.birthDate) throw fail.field('birthDate', 'correction.sameDate')
  try {
    await db.transaction().execute(async trx => {
      // a birth date is personal data: not kept for an account deleted meanwhile
      await lockLiveAccount(trx, userId)
      await trx.insertInto('birth_date_corrections').values({
        user_id: userId,
        old_birth_date: age.birth_date,
        new_birth_date: request.birthDate,
        reason: request.reason.trim(),
        status: 'pending',
        reviewer_id: null,
        review_note: null,
        created_at: iso(clock()),
        reviewed_at: null
      }).execute()
    })
  } catch (e) {
    if (await correctionOf(db, userId)) throw fail.conflict('correction.once')
    throw e
  }
  return (await correctionOf(db, userId))!
}

async function operatorView (db: Db, id: number): Promise<OperatorCorrectionView> {
  const r = await db.selectFrom('birth_date_corrections')
    .innerJoin('users', 'users.id', 'birth_date_corrections.user_id')
    .select([...CORRECTION_COLUMNS.map(c => `birth_date_corrections.${c}` as const), 'users.nickname', 'users.user_name', 'users.phone', 'users.email'])
    .where('birth_date_corrections.id', '=', id)
    .executeTakeFirstOrThrow()
  const who = r.user_name ? `@${r.user_name}` : r.phone ? maskPhone(r.phone) : r.email ? maskEmail(r.email) : `#${r.user_id}`
  return { ...correctionView(r as unknown as CorrectionRow), userId: Number(r.user_id), userLabel: `${r.nickname} (${who})` }
}

export async function listCorrections (db: Db, request: OperatorCorrectionListRequest): Promise<OperatorCorrectionListResponse> {
  let q = db.selectFrom('birth_date_corrections')
  if (request.status) q = q.where('status', '=', request.status)
  const total = Number((await q.select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0)
  const ids = await q.select('id')
    // pending first, oldest first; then the decided ones, newest first
    .orderBy(eb => eb.case().when('status', '=', 'pending').then(0).else(1).end())
    .orderBy(eb => eb.case().when('status', '=', 'pending').then(eb.ref('id')).else(eb.neg(eb.ref('id'))).end())
    .limit(request.size).offset((request.page - 1) * request.size)
    .execute()
  const list: OperatorCorrectionView[] = []
  for (const r of ids) list.push(await operatorView(db, Number(r.id)))
  return { list, total }
}

/**
 * Decides a pending correction. Approval writes the new date into the age record (its guardian consent
 * then follows the new age: an adult needs none; a minor keeps the consent given, if any) in the same
 * transaction; both are in the audit log.
 */
export async function reviewCorrection (db: Db, clock: Clock, operatorId: number, request: CorrectionReviewRequest): Promise<OperatorCorrectionView> {
  if (!request.approve && !request.note?.trim()) throw fail.field('note', 'correction.noteRequired')
  const now = iso(clock())
  await db.transaction().execute(async trx => {
    const row = await trx.selectFrom('birth_date_corrections').select([...CORRECTION_COLUMNS]).where('id', '=', request.correctionId).executeTakeFirst()
    if (!row) throw fail.notFound('correction.notFound')
    const decided = await trx.updateTable('birth_date_corrections')
      .set({ status: request.approve ? 'approved' : 'rejected', reviewer_id: operatorId, review_note: request.note?.trim() ?? null, reviewed_at: now })
      .where('id', '=', request.correctionId).where('status', '=', 'pending')
      .executeTakeFirst()
    if (Number(decided.numUpdatedRows) !== 1) throw fail.conflict('correction.decided')
    if (request.approve) {
      const before = await trx.selectFrom('age_checks').select(['birth_date', 'guardian_consent']).where('user_id', '=', row.user_id).executeTakeFirstOrThrow()
      await trx.updateTable('age_checks').set({ birth_date: row.new_birth_date, updated_at: now }).where('user_id', '=', row.user_id).execute()
      await writeAudit(trx, clock, {
        actorId: operatorId, action: 'birth_date.correct', entity: 'user', entityId: Number(row.user_id),
        detail: { before: { birthDate: before.birth_date }, after: { birthDate: row.new_birth_date }, correctionId: Number(row.id) }
      })
    } else {
      await writeAudit(trx, clock, {
        actorId: operatorId, action: 'birth_date.reject', entity: 'user', entityId: Number(row.user_id),
        detail: { before: { status: 'pending' }, after: { status: 'rejected', note: request.note?.trim() }, correctionId: Number(row.id) }
      })
    }
  })
  return operatorView(db, request.correctionId)
}

// ---- the page -------------------------------------------------------------------------------------

/** `canSendSms`: whether a guardian code can be sent now (the page says to ask the shop otherwise). */
export async function securityOverview (db: Db, clock: Clock, userId: number, sessionId: number, canSendSms: boolean): Promise<SecurityOverview> {
  const user = await db.selectFrom('users').select(['password_hash', 'phone', 'email']).where('id', '=', userId).executeTakeFirstOrThrow()
  const record = await ageRecord(db, clock, userId)
  const minor = !!record && record.age < ADULT_AGE
  return {
    hasPassword: !!user.password_hash,
    phone: user.phone ? maskPhone(user.phone) : null,
    email: user.email ? maskEmail(user.email) : null,
    sessions: await listSessions(db, clock, userId, sessionId),
    limits: await limitsView(db, clock, userId),
    age: {
      birthDate: record?.birthDate ?? null,
      age: record?.age ?? null,
      minor,
      guardianConsent: minor && !!record?.guardianConsent,
      guardian: guardianView(record, { now: clock(), canRequest: canSendSms }),
      minorDailyCapCents: minor ? MINOR_DAILY_CAP_CENTS : null
    },
    correction: await correctionOf(db, userId)
  }
}

// ---- deleting the account -------------------------------------------------------------------------

/** The nickname an erased account shows where its orders are listed. */
export const DELETED_NICKNAME = '—'

interface DeletionCheck { cash: number; credit: number; prizes: number; cards: number }

/**
 * What stands in the way of deleting the account (throws the 422 with DeleteBlockedData), in order:
 * cash held (withdraw it first), a withdrawal under way, a parcel on its way, a WeChat Pay top-up that
 * could still be paid (its prepay is alive: the money would land in an account nobody can use), and,
 * without `forfeit`, credit, prizes in the warehouse or prop cards that would lapse. Decided: prizes
 * in the warehouse do not block (the owner may not want them shipped); they lapse with the account
 * once the owner agrees, like credit and cards, since none of them can become cash.
 */
async function deletionCheck (db: Db, clock: Clock, userId: number, forfeit: boolean): Promise<DeletionCheck> {
  const now = clock()
  const wallet = await db.selectFrom('wallets').select(['cash_cents', 'credit_cents']).where('user_id', '=', userId).executeTakeFirst()
  const cash = Number(wallet?.cash_cents ?? 0)
  const credit = Number(wallet?.credit_cents ?? 0)
  if (cash > 0) throw fail.unprocessable('security.deleteCash', { cash: yuan(cash) }, { reason: 'cash', cashCents: cash } satisfies DeleteBlockedData)
  const withdrawing = await db.selectFrom('withdrawals').select('id').where('user_id', '=', userId).where('status', 'in', ['requested', 'approved']).executeTakeFirst()
  if (withdrawing) throw fail.unprocessable('security.deleteWithdrawal', {}, { reason: 'withdrawal' } satisfies DeleteBlockedData)
  const parcel = await db.selectFrom('shipments').select('id').where('user_id', '=', userId).where('status', 'in', ['requested', 'shipping']).executeTakeFirst()
  if (parcel) throw fail.unprocessable('security.deleteParcel', {}, { reason: 'parcel' } satisfies DeleteBlockedData)
  // a WeChat notification pays an order even after it was canceled (orders.ts), as long as its prepay lives
  const payable = await db.selectFrom('orders').select(eb => eb.fn.max('prepay_at').as('at'))
    .where('user_id', '=', userId).where('channel', 'in', ['wechat_jsapi', 'wechat_h5']).where('status', 'in', ['created', 'canceled'])
    .where('prepay_at', '>', iso(now - PREPAY_TTL_MS)).executeTakeFirst()
  if (payable?.at) {
    const minutes = Math.max(1, Math.ceil((Date.parse(String(payable.at)) + PREPAY_TTL_MS - now) / 60000))
    throw fail.unprocessable('security.deletePayment', { minutes }, { reason: 'payment' } satisfies DeleteBlockedData)
  }
  const operators = await db.selectFrom('users').select('id').where('role', '=', 'operator').execute()
  if (operators.length <= 1 && operators.some(o => Number(o.id) === userId)) {
    throw fail.unprocessable('operators.lastOperatorDelete', {}, { reason: 'last_operator' } satisfies DeleteBlockedData)
  }
  const held = await db.selectFrom('prizes').select(eb => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('status', '=', 'warehouse').executeTakeFirst()
  const prizes = Number(held?.n ?? 0)
  const inventory = await db.selectFrom('prop_inventory').select(eb => eb.fn.sum<number>('count').as('n')).where('user_id', '=', userId).executeTakeFirst()
  const cards = Number(inventory?.n ?? 0)
  if ((credit > 0 || prizes > 0 || cards > 0) && !forfeit) {
    throw fail.unprocessable('security.deleteForfeit', { credit: yuan(credit), prizes, cards },
      { reason: 'forfeit', creditCents: credit, prizes, cards } satisfies DeleteBlockedData)
  }
  return { cash, credit, prizes, cards }
}

/** The refusals of deleteAccount, checked before the owner re-authenticates (so a code is not spent on a refusal). */
export async function checkDeletion (db: Db, clock: Clock, userId: number, forfeit: boolean): Promise<void> {
  await deletionCheck(db, clock, userId, forfeit)
}

/**
 * Deletes the account (PIPL), after deletionCheck passes again inside one transaction with the account
 * row locked FOR UPDATE first, then the wallet row: every request that creates what blocks the deletion
 * or holds personal data (parcels, withdrawals, purchases, prepays, addresses, birth dates...) holds the
 * account row while it writes (lockLiveAccount), so none slips in between, and none comes after. Erased: user name, phone,
 * e-mail, nickname, avatar, password, role; logins (identities), addresses, codes sent to its phone or
 * address, codes sent to a guardian for it, the birth date and the guardian's consent (with the number) and its correction, its complaints (what it wrote and was answered), the limits, prop cards and X-ray holds, the stored
 * answers of its idempotency keys (a parcel's carries its address), the device and address of every session (all
 * end), of its error reports, and the name, phone and street of its past parcels (the region stays for
 * the books of shipping). Kept, owned by the anonymous user row as the law requires: orders, purchases,
 * prizes, parcels, withdrawals and every ledger line. The phone, e-mail and user name are free again.
 */
export async function deleteAccount (db: Db, clock: Clock, dialect: 'sqlite' | 'postgres', userId: number, forfeit: boolean): Promise<number> {
  const now = iso(clock())
  return db.transaction().execute(async trx => {
    // the shop keeps an operator: the last one makes another account an operator first (the operators'
    // rows are locked first, in id order, as setRole does, so two operators deleting take turns)
    const operators = await lockOperators(trx, dialect)
    // then the account row, FOR UPDATE: every request that creates what blocks the deletion or holds
    // personal data takes FOR KEY SHARE on it first (lockLiveAccount), a login FOR SHARE (sessions.ts);
    // the deletion waits for those in progress and sees what they created, later ones wait for it and
    // find the account deleted
    const accountQuery = trx.selectFrom('users').select('deleted_at').where('id', '=', userId)
    const account = await (dialect === 'postgres' ? accountQuery.forUpdate() : accountQuery).executeTakeFirst()
    if (!account || account.deleted_at !== null) throw fail.unauthorized()
    const walletQuery = trx.selectFrom('wallets').select('user_id').where('user_id', '=', userId)
    await (dialect === 'postgres' ? walletQuery.forUpdate() : walletQuery).execute()
    const { credit, prizes, cards } = await deletionCheck(trx, clock, userId, forfeit)
    if (operators.includes(userId) && operators.length <= 1) throw fail.unprocessable('operators.lastOperatorDelete', {}, { reason: 'last_operator' } satisfies DeleteBlockedData)
    const user = await trx.selectFrom('users').select(['phone', 'email']).where('id', '=', userId).executeTakeFirstOrThrow()
    const targets = [user.phone, user.email].filter((x): x is string => !!x)
    if (targets.length) await trx.deleteFrom('one_time_codes').where('target', 'in', targets).execute()
    // and the codes sent to a guardian's phone for it (the number itself goes with age_checks)
    await trx.deleteFrom('one_time_codes').where('purpose', '=', guardianPurpose(userId)).execute()
    for (const table of ['identities', 'addresses', 'spending_limits', 'birth_date_corrections', 'age_checks', 'prop_inventory', 'slot_reservations', 'complaints', 'helper_tasks'] as const) {
      await trx.deleteFrom(table).where('user_id', '=', userId).execute()
    }
    // the player show: its posts (photos and words), comments, likes and reports go
    // (docs/decisions/player-show-deleted-accounts.md)
    await eraseShowContent(trx, userId)
    // what it uploaded (its posts' photos, the contact screenshots it had read) goes, bucket copies too,
    // unless the shop shows the file (a series cover, a design, another's post or avatar)
    await eraseUploadsOf(trx, clock, userId)
    // the keys stay (each records that its request was applied once); their stored answers, which a
    // replay would send and which can carry an address, go: no session is left to replay them
    await trx.updateTable('idempotency_keys').set({ response: JSON.stringify({ erased: true }) }).where('user_id', '=', userId).execute()
    await trx.updateTable('error_reports').set({ user_id: null, ip: null, user_agent: null }).where('user_id', '=', userId).execute()
    await trx.updateTable('shipments').set({ name: DELETED_NICKNAME, phone: '', detail: '', updated_at: now }).where('user_id', '=', userId).execute()
    await trx.updateTable('users').set({
      user_name: null, user_name_key: null, phone: null, email: null, nickname: DELETED_NICKNAME, avatar: null,
      password_hash: null, role: 'shopper', deleted_at: now, updated_at: now
    }).where('id', '=', userId).execute()
    const ended = await trx.updateTable('sessions').set({ revoked_at: now, ip: null, user_agent: null })
      .where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst()
    // sessions already ended lose their address and device too
    await trx.updateTable('sessions').set({ ip: null, user_agent: null }).where('user_id', '=', userId).execute()
    await writeAudit(trx, clock, { actorId: userId, action: 'account.delete', entity: 'user', entityId: userId, detail: { before: { deleted: false }, after: { deleted: true, creditLapsedCents: credit, prizesLapsed: prizes, cardsLapsed: cards } } })
    return Number(ended.numUpdatedRows)
  })
}
