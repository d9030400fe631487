/**
 * The age gate (PRODUCT.md "Protecting shoppers"): a birth date before the first purchase; under 8
 * cannot buy; 8 to 17 need a guardian's consent and get a default daily spending cap. The birth date
 * is recorded once (also when the answer is "too young"), so it cannot be re-entered until it fits.
 * The consent is the guardian's (issue 21): a code sent by SMS to the guardian's phone, entered by the
 * minor; the masked number and the time are recorded, and the security page shows them.
 */
import type { Kysely } from 'kysely'
import type { AgeGateData, AgeStatus, AgeVerifyRequest, GuardianRefusalData, GuardianView } from '../../../../types/shop'
import { SHOP_LIMITS } from '../../../../types/limits'
import type { Database } from '../../db/schema'
import { iso, type Clock } from '../../core/clock'
import { prepared } from '../../db/prepared'
import { ApiFailure, fail } from '../../core/errors'
import { shopDay } from '../../core/days'
import { RULES } from '../../security/rules'
import type { CodePurpose } from './codes'
import { asLiveAccount, lockLiveAccount, maskPhone } from './users'

type Db = Kysely<Database>

export const MIN_PURCHASE_AGE = SHOP_LIMITS.minPurchaseAge
export const ADULT_AGE = SHOP_LIMITS.adultAge
export const OLDEST_AGE = 130
/** Default daily cap of a minor: 100 yuan. */
export const MINOR_DAILY_CAP_CENTS = SHOP_LIMITS.minorDailyCapCents

/** A real calendar date YYYY-MM-DD, or null. */
export function parseDate (s: string): { y: number; m: number; d: number } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s)
  if (!m) return null
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const date = new Date(Date.UTC(y, mo - 1, d))
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null
  return { y, m: mo, d }
}

/** Completed years between a birth date and a day (both YYYY-MM-DD). */
export function ageOn (birthDate: string, day: string): number {
  const b = parseDate(birthDate)
  const t = parseDate(day)
  if (!b || !t) throw new Error(`bad date ${birthDate} / ${day}`)
  let age = t.y - b.y
  if (t.m < b.m || (t.m === b.m && t.d < b.d)) age--
  return age
}

export interface AgeRecord {
  birthDate: string
  /** The guardian consented, by the code sent to their phone (never a minor's own tick). */
  guardianConsent: boolean
  age: number
  /** The number of the pending request (in full, to send again and check the code), and when it was sent. */
  guardianPhone: string | null
  guardianRequestedAt: string | null
  /** Who consented (masked) and when. */
  guardianPhoneMasked: string | null
  guardianConsentedAt: string | null
}

const AGE_COLUMNS = ['birth_date', 'guardian_phone', 'guardian_requested_at', 'guardian_phone_masked', 'guardian_consented_at'] as const
const ageRow = prepared((db: Db, userId: number) => db.selectFrom('age_checks').select([...AGE_COLUMNS]).where('user_id', '=', userId))

type AgeRow = { birth_date: string; guardian_phone: string | null; guardian_requested_at: string | null; guardian_phone_masked: string | null; guardian_consented_at: string | null }
const timestamp = (v: string | Date | null): string | null => (v === null ? null : new Date(v).toISOString())

function recordOf (row: AgeRow, clock: Clock): AgeRecord {
  return {
    birthDate: row.birth_date,
    guardianConsent: row.guardian_consented_at !== null,
    age: ageOn(row.birth_date, shopDay(clock())),
    guardianPhone: row.guardian_phone,
    guardianRequestedAt: timestamp(row.guardian_requested_at),
    guardianPhoneMasked: row.guardian_phone_masked,
    guardianConsentedAt: timestamp(row.guardian_consented_at)
  }
}

export async function ageRecord (db: Db, clock: Clock, userId: number): Promise<AgeRecord | null> {
  const row = await ageRow.first(db, userId)
  return row ? recordOf(row, clock) : null
}

/** What the status needs besides the record: the time (for "send again in"), and whether SMS can be sent. */
export interface GuardianContext { now: number; canRequest: boolean }

/** A minor who may buy (8 to 17) is asked for a guardian's consent. */
const asksGuardian = (record: AgeRecord) => record.age >= MIN_PURCHASE_AGE && record.age < ADULT_AGE

export function guardianView (record: AgeRecord | null, context: GuardianContext): GuardianView | null {
  if (!record || !asksGuardian(record)) return null
  if (record.guardianConsent) {
    return { state: 'given', phone: record.guardianPhoneMasked, requestedAt: record.guardianRequestedAt, consentedAt: record.guardianConsentedAt, resendInSeconds: 0, canRequest: context.canRequest }
  }
  if (record.guardianPhone && record.guardianRequestedAt) {
    const wait = Date.parse(record.guardianRequestedAt) + GUARDIAN_RESEND_MS - context.now
    return {
      state: 'pending', phone: maskPhone(record.guardianPhone), requestedAt: record.guardianRequestedAt, consentedAt: null,
      resendInSeconds: Math.max(0, Math.ceil(wait / 1000)), canRequest: context.canRequest
    }
  }
  return { state: 'none', phone: null, requestedAt: null, consentedAt: null, resendInSeconds: 0, canRequest: context.canRequest }
}

export function statusOf (record: AgeRecord | null, context: GuardianContext): AgeStatus {
  if (!record) return { verified: false, birthDate: null, age: null, minor: false, guardianConsent: false, dailyCapCents: null, guardian: null }
  const minor = record.age < ADULT_AGE
  return {
    verified: true,
    birthDate: record.birthDate,
    age: record.age,
    minor,
    guardianConsent: minor && record.guardianConsent,
    dailyCapCents: minor ? MINOR_DAILY_CAP_CENTS : null,
    guardian: guardianView(record, context)
  }
}

/** The refusals of the age gate (also made from the answer of the PostgreSQL purchase, purchaseOnPostgres.ts). */
export const ageRefusal = {
  required: () => fail.unprocessable('age.required', {}, { reason: 'age_required' } satisfies AgeGateData),
  tooYoung: () => fail.unprocessable('age.tooYoung', { min: MIN_PURCHASE_AGE }, { reason: 'too_young' } satisfies AgeGateData),
  guardianRequired: () => fail.unprocessable('age.guardianRequired', {}, { reason: 'guardian_consent', field: 'guardianConsent' } satisfies AgeGateData)
}

/** 422 unless the user may buy at all; answers the daily cap (null: none). */
export function purchaseGate (record: AgeRecord | null): number | null {
  if (!record) throw ageRefusal.required()
  if (record.age < MIN_PURCHASE_AGE) throw ageRefusal.tooYoung()
  if (record.age < ADULT_AGE) {
    if (!record.guardianConsent) throw ageRefusal.guardianRequired()
    return MINOR_DAILY_CAP_CENTS
  }
  return null
}

/**
 * Records the birth date (once). A minor's own `guardianConsent` is ignored: the guardian consents by
 * the code sent to their phone (requestGuardianCode, confirmGuardian).
 */
export async function verifyAge (db: Db, clock: Clock, userId: number, request: AgeVerifyRequest, context: GuardianContext): Promise<AgeStatus> {
  const today = shopDay(clock())
  if (!parseDate(request.birthDate)) throw fail.field('birthDate', 'validation.format')
  const age = ageOn(request.birthDate, today)
  if (request.birthDate > today || age > OLDEST_AGE) throw fail.field('birthDate', 'validation.invalid')
  const existing = await db.selectFrom('age_checks').select('birth_date').where('user_id', '=', userId).executeTakeFirst()
  if (existing && existing.birth_date !== request.birthDate) {
    throw new ApiFailure(422, 'age.birthDateFixed', {}, { field: 'birthDate' })
  }
  const now = iso(clock())
  const record = await db.transaction().execute(async trx => {
    // a birth date is personal data: not kept for an account deleted meanwhile; written once: a parallel
    // first check with another date that got in first wins, and this one is refused as if it came after
    await lockLiveAccount(trx, userId)
    await trx.insertInto('age_checks')
      .values({ user_id: userId, birth_date: request.birthDate, guardian_consent: 0, created_at: now, updated_at: now })
      .onConflict(oc => oc.column('user_id').doNothing())
      .execute()
    return (await ageRecord(trx, clock, userId))!
  })
  if (record.birthDate !== request.birthDate) throw new ApiFailure(422, 'age.birthDateFixed', {}, { field: 'birthDate' })
  const status = statusOf(record, context)
  if (age < MIN_PURCHASE_AGE) throw fail.unprocessable('age.tooYoung', { min: MIN_PURCHASE_AGE }, { reason: 'too_young', status })
  if (age < ADULT_AGE && !record.guardianConsent) {
    throw new ApiFailure(422, 'age.guardianRequired', {}, { reason: 'guardian_consent', field: 'guardianConsent', status })
  }
  return status
}

// ---- the guardian's consent -----------------------------------------------------------------------

/** The purpose of a guardian code: it proves the guardian of this account has the phone and agrees. */
export const guardianPurpose = (userId: number): CodePurpose => `guardian_sms:${userId}`

/** "Send again" waits as long as the per-number code limit does. */
export const GUARDIAN_RESEND_MS = RULES.codeSendPerTarget.periodMs

/**
 * Checks a request for a guardian code and answers the number to send it to (before anything is
 * sent or counted): the account asks a guardian (8 to 17, not yet given), the number is not its own,
 * and without a number the pending one is used.
 */
export async function guardianTarget (db: Db, clock: Clock, userId: number, phone: string | undefined): Promise<string> {
  const record = await ageRecord(db, clock, userId)
  if (!record || !asksGuardian(record)) throw fail.unprocessable('guardian.notMinor', {}, { reason: 'not_minor' } satisfies GuardianRefusalData)
  if (record.guardianConsent) throw new ApiFailure(409, 'guardian.given', {}, { reason: 'given' } satisfies GuardianRefusalData)
  const target = phone ?? record.guardianPhone
  if (!target) throw fail.field('phone', 'validation.required', { field: 'phone' })
  const own = await db.selectFrom('users').select('phone').where('id', '=', userId).executeTakeFirst()
  if (own?.phone && own.phone === target) throw fail.unprocessable('guardian.ownPhone', {}, { field: 'phone' })
  return target
}

/** Notes the number a guardian code was just sent to: consent is pending there (a new number replaces the old). */
export async function markGuardianRequested (db: Db, clock: Clock, userId: number, phone: string): Promise<void> {
  const now = iso(clock())
  // the guardian's number is personal data: not kept for an account deleted meanwhile
  await asLiveAccount(db, userId, trx => trx.updateTable('age_checks')
    .set({ guardian_phone: phone, guardian_requested_at: now, updated_at: now })
    .where('user_id', '=', userId).where('guardian_consented_at', 'is', null)
    .execute())
}

/**
 * Records the consent of the guardian at `phone` (the code sent there was verified): the masked
 * number and the time; the full number is forgotten. Only while that number is still the pending one
 * (a change of number in between wins) and once.
 */
export async function recordGuardianConsent (db: Db, clock: Clock, userId: number, phone: string): Promise<boolean> {
  const now = iso(clock())
  const done = await db.updateTable('age_checks')
    .set({ guardian_consent: 1, guardian_phone: null, guardian_phone_masked: maskPhone(phone), guardian_consented_at: now, updated_at: now })
    .where('user_id', '=', userId).where('guardian_phone', '=', phone).where('guardian_consented_at', 'is', null)
    .executeTakeFirst()
  return Number(done.numUpdatedRows) === 1
}

/**
 * A guardian's number is someone else's personal data: kept in full only while a request may still
 * be confirmed. A request left unconfirmed for a week is forgotten (the number and the time; the
 * minor is back to "not asked yet" and enters the number again).
 */
export const GUARDIAN_PENDING_KEEP_MS = 7 * 24 * 60 * 60 * 1000

export async function forgetStaleGuardianRequests (db: Db, clock: Clock): Promise<number> {
  const r = await db.updateTable('age_checks')
    .set({ guardian_phone: null, guardian_requested_at: null })
    .where('guardian_consented_at', 'is', null)
    .where('guardian_requested_at', '<', iso(clock() - GUARDIAN_PENDING_KEEP_MS))
    .executeTakeFirst()
  return Number(r.numUpdatedRows)
}
