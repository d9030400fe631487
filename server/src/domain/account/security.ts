/**
 * Account security (issue 10): sessions as the owner sees them, the birth-date correction and the
 * security page. The spending limits are in spendingCaps.ts, deleting the account in accountDeletion.ts.
 */
import type { Db } from '../../db'
import { iso, type Clock } from '../../core/clock'
import { fail } from '../../core/errors'
import { ageOn, parseDate, ageRecord, guardianView, MINOR_DAILY_CAP_CENTS, ADULT_AGE, OLDEST_AGE } from './age'
import { shopDay } from '../../core/days'
import { writeAudit } from '../ops/audit'
import { SESSION_IDLE_MS } from './sessions'
import { lockLiveAccount, maskEmail, maskPhone } from './users'
import { limitsView } from './spendingCaps'
import {
  type CorrectionRequest, type CorrectionReviewRequest, type CorrectionView,
  type OperatorCorrectionListRequest, type OperatorCorrectionListResponse,
  type OperatorCorrectionView, type SecurityOverview, type SessionView
} from '../../../../types/security'

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
