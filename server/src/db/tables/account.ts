/** Row types of accounts: users, logins, sessions, codes, rate limits, error reports, addresses, age, spending limits (see ../schema.ts). */
import type { ColumnType, Generated } from 'kysely'
import type { Timestamp } from './columns'

export type Role = 'shopper' | 'operator'

export interface UsersTable {
  id: Generated<number>
  user_name: string | null
  /** sha256 of the folded user name (security/userNames.ts), unique. */
  user_name_key: string | null
  phone: string | null
  email: string | null
  nickname: string
  avatar: string | null
  role: Role
  password_hash: string | null
  created_at: Timestamp
  updated_at: Timestamp
  /** When the owner deleted the account (migration 0010); its personal data is gone, orders stay. */
  deleted_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>
}

/** A third-party identity (WeChat openid/unionid ...) keyed by (provider, subject). */
export interface IdentitiesTable {
  id: Generated<number>
  provider: string
  subject: string
  user_id: number
  created_at: Timestamp
}

export interface SessionsTable {
  id: Generated<number>
  token_hash: string
  user_id: number
  created_at: Timestamp
  last_seen_at: Timestamp
  expires_at: Timestamp
  revoked_at: Timestamp | null
  user_agent: string | null
  ip: string | null
  /** The APP_TYPE header at login (migration 0010). */
  app_type: ColumnType<string | null, string | null | undefined, string | null>
}

export interface OneTimeCodesTable {
  id: Generated<number>
  purpose: string
  target: string
  code_hash: string
  expires_at: Timestamp
  attempts: ColumnType<number, number | undefined, number>
  used_at: Timestamp | null
  created_at: Timestamp
}

/** GCRA rate-limit state: the theoretical arrival time (epoch ms) per key. */
export interface RateLimitsTable {
  key: string
  tat: number
}

export interface ErrorReportsTable {
  id: Generated<number>
  error_message: string
  path: string
  type: string
  sub_source: string
  app_id: string
  user_id: number | null
  ip: string | null
  user_agent: string | null
  /** The X-Request-Id of the failing call (migration 0025). */
  request_id: ColumnType<string | null, string | null | undefined, string | null>
  created_at: Timestamp
}

export interface AddressesTable {
  id: Generated<number>
  user_id: number
  name: string
  phone: string
  region: string
  /** The region's parts (migration 0034); null on an address whose region was typed as free text. */
  province: ColumnType<string | null, string | null | undefined, string | null>
  city: ColumnType<string | null, string | null | undefined, string | null>
  district: ColumnType<string | null, string | null | undefined, string | null>
  detail: string
  is_default: number
  created_at: Timestamp
  updated_at: Timestamp
}

export interface AgeChecksTable {
  user_id: number
  /** YYYY-MM-DD */
  birth_date: string
  /** 1 exactly when guardian_consented_at is set (migration 0021: self-ticked consents were reset). */
  guardian_consent: number
  /** The guardian's number a code was last sent to, while consent is pending; null once given. */
  guardian_phone: string | null
  guardian_requested_at: Timestamp | null
  /** Who consented (138****0000) and when. */
  guardian_phone_masked: string | null
  guardian_consented_at: Timestamp | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** A shopper's own spending limit (migration 0010): in force, and a raise waiting until pending_at. */
export interface SpendingLimitsTable {
  user_id: number
  kind: 'daily' | 'monthly'
  cents: number | null
  pending_cents: number | null
  pending_set: number
  pending_at: Timestamp | null
  updated_at: Timestamp
}

/** The one reviewed correction of a recorded birth date a user may ask for (migration 0010). */
export interface BirthDateCorrectionsTable {
  id: Generated<number>
  user_id: number
  old_birth_date: string
  new_birth_date: string
  reason: string
  status: 'pending' | 'approved' | 'rejected'
  reviewer_id: number | null
  review_note: string | null
  created_at: Timestamp
  reviewed_at: Timestamp | null
}
