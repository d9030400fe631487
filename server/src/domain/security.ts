/**
 * Account security (issue 10): sessions as the owner sees them, spending limits, the birth-date
 * correction. Money never moves here; purchases ask `checkSpendingLimits` inside their transaction,
 * after the wallet row is locked, so two purchases of one shopper take turns on the sums.
 */
import type { Db } from '../db'
import { iso, type Clock } from '../clock'
import { ApiFailure, fail } from '../http/envelope'
import { shopDayStart } from './days'
import { ageOn, parseDate, ageRecord, MINOR_DAILY_CAP_CENTS, ADULT_AGE, OLDEST_AGE } from './age'
import { shopDay } from './days'
import { writeAudit } from './audit'
import { lockOperators } from './operators'
import { maskEmail, maskPhone } from '../services/users'
import {
  LIMIT_RAISE_DELAY_MS,
  type CorrectionRequest, type CorrectionReviewRequest, type CorrectionView, type LimitKind, type LimitsRequest,
  type LimitsView, type LimitView, type OperatorCorrectionListRequest, type OperatorCorrectionListResponse,
  type OperatorCorrectionView, type SecurityOverview, type SessionView, type SpendingLimitData
} from '../../../types/security'

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

export { maskEmail } from '../services/users'

export async function listSessions (db: Db, clock: Clock, userId: number, currentId: number): Promise<SessionView[]> {
  const now = iso(clock())
  const rows = await db.selectFrom('sessions')
    .select(['id', 'app_type', 'user_agent', 'ip', 'created_at', 'last_seen_at'])
    .where('user_id', '=', userId).where('revoked_at', 'is', null).where('expires_at', '>', now)
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

async function limitRows (db: Db, userId: number): Promise<Map<string, LimitRow>> {
  const rows = await db.selectFrom('spending_limits').select(['kind', 'cents', 'pending_cents', 'pending_set', 'pending_at']).where('user_id', '=', userId).execute()
  return new Map(rows.map(r => [r.kind, r as LimitRow]))
}

/** Spent on blind boxes since `since` (epoch ms). */
async function spentSince (db: Db, userId: number, since: number): Promise<number> {
  const row = await db.selectFrom('purchases').select(eb => eb.fn.sum<number>('total_cents').as('s'))
    .where('user_id', '=', userId).where('created_at', '>=', iso(since)).executeTakeFirst()
  return Number(row?.s ?? 0)
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
    const rows = await limitRows(trx, userId)
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
 * Refuses a purchase of `totalCents` over the daily or monthly limit (422, SpendingLimitData). Call it
 * where the purchase holds the wallet lock.
 */
export async function checkSpendingLimits (db: Db, clock: Clock, userId: number, totalCents: number): Promise<void> {
  const now = clock()
  const rows = await limitRows(db, userId)
  for (const [kind, since] of [['daily', shopDayStart(now)], ['monthly', shopMonthStart(now)]] as const) {
    const { cents: limit } = readLimit(rows.get(kind), now)
    if (limit === null) continue
    const left = Math.max(0, limit - await spentSince(db, userId, since))
    if (totalCents > left) {
      throw new ApiFailure(422, `limit.${kind}`, { limit: yuan(limit), left: yuan(left) },
        { reason: 'spending_limit', kind, limitCents: limit, leftCents: left } satisfies SpendingLimitData)
    }
  }
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
    await db.insertInto('birth_date_corrections').values({
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

export async function securityOverview (db: Db, clock: Clock, userId: number, sessionId: number): Promise<SecurityOverview> {
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
      minorDailyCapCents: minor ? MINOR_DAILY_CAP_CENTS : null
    },
    correction: await correctionOf(db, userId)
  }
}

// ---- deleting the account -------------------------------------------------------------------------

/** The nickname an erased account shows where its orders are listed. */
export const DELETED_NICKNAME = '—'

/**
 * Deletes the account (PIPL): refuses while cash is held, a withdrawal is under way or a parcel is on
 * its way; credit and prizes in the warehouse lapse only when the owner agreed (`forfeit`). In one
 * transaction (the wallet row locked, so no purchase or top-up slips in): personal data is erased —
 * identifiers, password, logins, addresses, codes sent to its phone or address, the birth date and its
 * correction, the limits — every session ends, and the user row stays as an anonymous owner of the
 * orders, purchases and ledger lines the law requires to be kept.
 */
export async function deleteAccount (db: Db, clock: Clock, dialect: 'sqlite' | 'postgres', userId: number, forfeit: boolean): Promise<number> {
  const now = iso(clock())
  return db.transaction().execute(async trx => {
    const walletQuery = trx.selectFrom('wallets').select(['cash_cents', 'credit_cents']).where('user_id', '=', userId)
    const wallet = await (dialect === 'postgres' ? walletQuery.forUpdate() : walletQuery).executeTakeFirst()
    const cash = Number(wallet?.cash_cents ?? 0)
    const credit = Number(wallet?.credit_cents ?? 0)
    if (cash > 0) throw fail.unprocessable('security.deleteCash', { cash: yuan(cash) }, { reason: 'cash', cashCents: cash })
    const withdrawing = await trx.selectFrom('withdrawals').select('id').where('user_id', '=', userId).where('status', 'in', ['requested', 'approved']).executeTakeFirst()
    if (withdrawing) throw fail.unprocessable('security.deleteWithdrawal', {}, { reason: 'withdrawal' })
    const parcel = await trx.selectFrom('shipments').select('id').where('user_id', '=', userId).where('status', 'in', ['requested', 'shipping']).executeTakeFirst()
    if (parcel) throw fail.unprocessable('security.deleteParcel', {}, { reason: 'parcel' })
    const held = await trx.selectFrom('prizes').select(eb => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('status', '=', 'warehouse').executeTakeFirst()
    const prizes = Number(held?.n ?? 0)
    if ((credit > 0 || prizes > 0) && !forfeit) {
      throw fail.unprocessable('security.deleteForfeit', { credit: yuan(credit), prizes }, { reason: 'forfeit', creditCents: credit, prizes })
    }
    // the shop keeps an operator: the last one makes another account an operator first
    const operators = await lockOperators(trx, dialect)
    if (operators.includes(userId) && operators.length <= 1) throw fail.unprocessable('operators.lastOperatorDelete', {}, { reason: 'last_operator' })
    const user = await trx.selectFrom('users').select(['phone', 'email']).where('id', '=', userId).executeTakeFirstOrThrow()
    const targets = [user.phone, user.email].filter((x): x is string => !!x)
    if (targets.length) await trx.deleteFrom('one_time_codes').where('target', 'in', targets).execute()
    await trx.deleteFrom('identities').where('user_id', '=', userId).execute()
    await trx.deleteFrom('addresses').where('user_id', '=', userId).execute()
    await trx.deleteFrom('spending_limits').where('user_id', '=', userId).execute()
    await trx.deleteFrom('birth_date_corrections').where('user_id', '=', userId).execute()
    await trx.deleteFrom('age_checks').where('user_id', '=', userId).execute()
    await trx.updateTable('error_reports').set({ user_id: null, ip: null, user_agent: null }).where('user_id', '=', userId).execute()
    await trx.updateTable('users').set({
      user_name: null, user_name_key: null, phone: null, email: null, nickname: DELETED_NICKNAME, avatar: null,
      password_hash: null, role: 'shopper', deleted_at: now, updated_at: now
    }).where('id', '=', userId).execute()
    const ended = await trx.updateTable('sessions').set({ revoked_at: now, ip: null, user_agent: null })
      .where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst()
    // sessions already ended lose their address and device too
    await trx.updateTable('sessions').set({ ip: null, user_agent: null }).where('user_id', '=', userId).execute()
    await writeAudit(trx, clock, { actorId: userId, action: 'account.delete', entity: 'user', entityId: userId, detail: { before: { deleted: false }, after: { deleted: true, creditLapsedCents: credit, prizesLapsed: prizes } } })
    return Number(ended.numUpdatedRows)
  })
}
