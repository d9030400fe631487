/**
 * Row types of the database, as Kysely sees them. Timestamps are ISO-8601 UTC strings on both dialects
 * (TEXT on SQLite, timestamptz on PostgreSQL read back as ISO), money is integer cents, booleans are 0/1.
 */
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely'

export type Timestamp = string
export type Role = 'shopper' | 'operator'

export interface UsersTable {
  id: Generated<number>
  user_name: string | null
  phone: string | null
  email: string | null
  nickname: string
  avatar: string | null
  role: Role
  password_hash: string | null
  created_at: Timestamp
  updated_at: Timestamp
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
  created_at: Timestamp
}

export interface AddressesTable {
  id: Generated<number>
  user_id: number
  name: string
  phone: string
  region: string
  detail: string
  is_default: number
  created_at: Timestamp
  updated_at: Timestamp
}

export type SeriesStatus = 'draft' | 'on_sale' | 'retired'
export interface SeriesTable {
  id: Generated<number>
  name: string
  description: string
  cover: string | null
  price_cents: number
  case_size: number
  /** Chance (parts per million) that a new case carries the hidden design. */
  hidden_ppm: number
  status: SeriesStatus
  created_at: Timestamp
  updated_at: Timestamp
}

export type Rarity = 'regular' | 'rare' | 'hidden'
export interface DesignsTable {
  id: Generated<number>
  series_id: number
  name: string
  rarity: Rarity
  image: string | null
  reference_value_cents: number
  recycle_value_cents: number
  sort: number
  created_at: Timestamp
}

export type CaseStatus = 'on_sale' | 'sold_out' | 'retired'
/** One physical carton: the arrangement and salt stay secret until it is revealed. */
export interface CasesTable {
  id: Generated<number>
  series_id: number
  size: number
  commit_hash: string
  arrangement: string
  salt: string
  status: CaseStatus
  created_at: Timestamp
  revealed_at: Timestamp | null
}

export type PrizeStatus = 'warehouse' | 'shipping' | 'received' | 'combined' | 'recycled'
export interface PrizesTable {
  id: Generated<number>
  user_id: number
  series_id: number
  design_id: number
  case_id: number | null
  slot: number | null
  status: PrizeStatus
  created_at: Timestamp
  updated_at: Timestamp
}

export interface Database {
  users: UsersTable
  identities: IdentitiesTable
  sessions: SessionsTable
  one_time_codes: OneTimeCodesTable
  rate_limits: RateLimitsTable
  error_reports: ErrorReportsTable
  addresses: AddressesTable
  series: SeriesTable
  designs: DesignsTable
  cases: CasesTable
  prizes: PrizesTable
}

export type UserRow = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type SessionRow = Selectable<SessionsTable>
