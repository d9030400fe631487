/**
 * The age gate (PRODUCT.md "Protecting shoppers"): a birth date before the first purchase; under 8
 * cannot buy; 8 to 17 need a guardian's consent and get a default daily spending cap. The birth date
 * is recorded once (also when the answer is "too young"), so it cannot be re-entered until it fits.
 */
import type { Kysely } from 'kysely'
import type { AgeStatus, AgeVerifyRequest } from '../../../types/shop'
import { SHOP_LIMITS } from '../../../types/limits'
import type { AgeGateData } from '../../../types/shop'
import type { Database } from '../db/schema'
import { iso, type Clock } from '../clock'
import { prepared } from '../db/prepared'
import { ApiFailure, fail } from '../http/envelope'
import { shopDay } from './days'
import { lockLiveAccount } from '../services/users'

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

export interface AgeRecord { birthDate: string; guardianConsent: boolean; age: number }

const ageRow = prepared((db: Db, userId: number) => db.selectFrom('age_checks').select(['birth_date', 'guardian_consent']).where('user_id', '=', userId))

export async function ageRecord (db: Db, clock: Clock, userId: number): Promise<AgeRecord | null> {
  const row = await ageRow.first(db, userId)
  if (!row) return null
  return { birthDate: row.birth_date, guardianConsent: row.guardian_consent === 1, age: ageOn(row.birth_date, shopDay(clock())) }
}

export function statusOf (record: AgeRecord | null): AgeStatus {
  if (!record) return { verified: false, birthDate: null, age: null, minor: false, guardianConsent: false, dailyCapCents: null }
  const minor = record.age < ADULT_AGE
  return {
    verified: true,
    birthDate: record.birthDate,
    age: record.age,
    minor,
    guardianConsent: minor && record.guardianConsent,
    dailyCapCents: minor ? MINOR_DAILY_CAP_CENTS : null
  }
}

/** 422 unless the user may buy at all; answers the daily cap (null: none). */
export function purchaseGate (record: AgeRecord | null): number | null {
  if (!record) throw fail.unprocessable('age.required', {}, { reason: 'age_required' } satisfies AgeGateData)
  if (record.age < MIN_PURCHASE_AGE) throw fail.unprocessable('age.tooYoung', { min: MIN_PURCHASE_AGE }, { reason: 'too_young' } satisfies AgeGateData)
  if (record.age < ADULT_AGE) {
    if (!record.guardianConsent) throw fail.unprocessable('age.guardianRequired', {}, { reason: 'guardian_consent', field: 'guardianConsent' } satisfies AgeGateData)
    return MINOR_DAILY_CAP_CENTS
  }
  return null
}

export async function verifyAge (db: Db, clock: Clock, userId: number, request: AgeVerifyRequest): Promise<AgeStatus> {
  const today = shopDay(clock())
  if (!parseDate(request.birthDate)) throw fail.field('birthDate', 'validation.format')
  const age = ageOn(request.birthDate, today)
  if (request.birthDate > today || age > OLDEST_AGE) throw fail.field('birthDate', 'validation.invalid')
  const existing = await db.selectFrom('age_checks').select(['birth_date', 'guardian_consent']).where('user_id', '=', userId).executeTakeFirst()
  if (existing && existing.birth_date !== request.birthDate) {
    throw new ApiFailure(422, 'age.birthDateFixed', {}, { field: 'birthDate' })
  }
  const consent = request.guardianConsent === true || existing?.guardian_consent === 1 ? 1 : 0
  const now = iso(clock())
  await db.transaction().execute(async trx => {
    // a birth date is personal data: not kept for an account deleted meanwhile
    await lockLiveAccount(trx, userId)
    await trx.insertInto('age_checks')
      .values({ user_id: userId, birth_date: request.birthDate, guardian_consent: consent, created_at: now, updated_at: now })
      .onConflict(oc => oc.column('user_id').doUpdateSet({ guardian_consent: consent, updated_at: now }))
      .execute()
  })
  const record: AgeRecord = { birthDate: request.birthDate, guardianConsent: consent === 1, age }
  if (age < MIN_PURCHASE_AGE) throw fail.unprocessable('age.tooYoung', { min: MIN_PURCHASE_AGE }, { reason: 'too_young', status: statusOf(record) })
  if (age < ADULT_AGE && !consent) {
    throw new ApiFailure(422, 'age.guardianRequired', {}, { reason: 'guardian_consent', field: 'guardianConsent', status: statusOf(record) })
  }
  return statusOf(record)
}
