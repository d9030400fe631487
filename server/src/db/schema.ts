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

export type SeriesStatus = 'draft' | 'on_sale' | 'retired'
export interface SeriesTable {
  id: Generated<number>
  /** The Chinese title (what the table API shows as name); name_en the English one. */
  name: string
  name_en: ColumnType<string, string | undefined, string>
  description: string
  description_en: ColumnType<string, string | undefined, string>
  rules: ColumnType<string, string | undefined, string>
  rules_en: ColumnType<string, string | undefined, string>
  /** Bumped by every change of the series or its designs. */
  version: ColumnType<number, number | undefined, number>
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
  name_en: ColumnType<string, string | undefined, string>
  rarity: Rarity
  image: string | null
  /** The picture described (accessible name); '' until written. */
  alt: ColumnType<string, string | undefined, string>
  alt_en: ColumnType<string, string | undefined, string>
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
  sold_count: ColumnType<number, number | undefined, number>
  created_at: Timestamp
  revealed_at: Timestamp | null
}

/** The design of every slot (secret until the case is revealed) and who bought it. */
export interface CaseSlotsTable {
  case_id: number
  slot: number
  design_id: number
  sold_to: number | null
  sold_at: Timestamp | null
}

/** The case a user last switched to, per series. */
export interface CaseChoicesTable {
  user_id: number
  series_id: number
  case_id: number
  updated_at: Timestamp
}

/** Who is being shown a case, until when (domain/cases.ts spreads shoppers across cases by it). */
export interface CaseLeasesTable {
  case_id: number
  user_id: number
  until: Timestamp
}

/** Per-user daily allowances (case switches ...); day is the China calendar day YYYY-MM-DD. */
export interface DailyCountersTable {
  user_id: number
  name: string
  day: string
  count: number
}

export interface AuditLogTable {
  id: Generated<number>
  actor_id: number | null
  action: string
  entity: string
  entity_id: number | null
  /** JSON: what changed (before / after). */
  detail: string
  created_at: Timestamp
}

export interface WalletsTable {
  user_id: number
  cash_cents: number
  credit_cents: number
  updated_at: Timestamp
}

export type LedgerKind = 'topup' | 'purchase' | 'refund' | 'recycle' | 'withdraw' | 'reward'
  | 'shipping_fee' | 'withdraw_payout' | 'withdraw_release' | 'prop_purchase'
export type LedgerAccount = 'user_cash' | 'user_credit' | 'house_sales' | 'payment_clearing' | 'house_credit'
  | 'house_shipping' | 'withdraw_pending' | 'house_props'

export interface LedgerTransactionsTable {
  id: Generated<number>
  kind: LedgerKind
  reference: string
  idempotency_key: string | null
  user_id: number | null
  created_at: Timestamp
}

/** One leg of a transaction; the legs of a transaction sum to zero. User accounts carry user_id. */
export interface LedgerLinesTable {
  id: Generated<number>
  tx_id: number
  account: LedgerAccount
  user_id: number | null
  amount_cents: number
}

export interface IdempotencyKeysTable {
  user_id: number
  key: string
  scope: string
  request_hash: string
  /** JSON of the first result; null while the first request is still running. */
  response: string | null
  created_at: Timestamp
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

export type OrderStatusRow = 'issued' | 'created' | 'paid' | 'canceled'
export type PayChannelRow = 'sandbox' | 'wechat_jsapi' | 'wechat_h5'

/** An order number (opId) is issued first (status issued), then the order is created with it. */
export interface OrdersTable {
  id: Generated<number>
  op_id: string
  user_id: number
  product_id: string | null
  amount_cents: number | null
  channel: PayChannelRow | null
  status: OrderStatusRow
  prepay_id: string | null
  prepay_url: string | null
  prepay_at: Timestamp | null
  transaction_id: string | null
  issued_at: Timestamp
  created_at: Timestamp | null
  paid_at: Timestamp | null
  updated_at: Timestamp
  /** What withdrawals hold or took back from this order (never above amount_cents). */
  refunded_cents: ColumnType<number, number | undefined, number>
}

export interface PurchasesTable {
  id: Generated<number>
  user_id: number
  case_id: number
  series_id: number
  /** JSON array of the slots bought. */
  slots: string
  total_cents: number
  credit_cents: number
  cash_cents: number
  tx_id: number
  created_at: Timestamp
}

export type PrizeStatus = 'warehouse' | 'shipping' | 'received' | 'combined' | 'recycled'
export interface PrizesTable {
  id: Generated<number>
  user_id: number
  series_id: number
  design_id: number
  case_id: number | null
  slot: number | null
  purchase_id: ColumnType<number | null, number | null | undefined, number | null>
  status: PrizeStatus
  /** The ledger transaction that credited a recycled prize. */
  recycle_tx_id: ColumnType<number | null, number | null | undefined, number | null>
  /** 'case': drawn from a case; 'combine': made by combining (combine_id). */
  origin: ColumnType<'case' | 'combine', 'case' | 'combine' | undefined, 'case' | 'combine'>
  combine_id: ColumnType<number | null, number | null | undefined, number | null>
  created_at: Timestamp
  updated_at: Timestamp
}

/** An operator setting (JSON value), e.g. the shipping rule or the withdrawal limits. */
export interface ShopSettingsTable {
  key: string
  value: string
  updated_by: number | null
  updated_at: Timestamp
}

export type ShipmentStatusRow = 'requested' | 'shipping' | 'received'
/** Prizes sent to an address: requested by the shopper, shipped by an operator, then received. */
export interface ShipmentsTable {
  id: Generated<number>
  user_id: number
  status: ShipmentStatusRow
  name: string
  phone: string
  region: string
  detail: string
  item_count: number
  fee_cents: number
  tx_id: number | null
  carrier: string | null
  tracking_no: string | null
  shipped_by: number | null
  received_by: 'shopper' | 'auto' | null
  /** A pickup shipment's point (null: a parcel to the address). */
  pickup_point_id: number | null
  /** The operator who handed a pickup shipment's last prize over. */
  handed_by: number | null
  created_at: Timestamp
  shipped_at: Timestamp | null
  received_at: Timestamp | null
  updated_at: Timestamp
}

export interface ShipmentItemsTable {
  shipment_id: number
  prize_id: number
  verify_code: string
  /** A pickup: when the operator scanned this prize's QR at the counter. */
  handed_at: Timestamp | null
}

/** A place where shoppers collect prizes (自提), kept by operators. */
export interface PickupPointsTable {
  id: Generated<number>
  name: string
  address: string
  hours: string
  latitude: number
  longitude: number
  active: number
  updated_by: number | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** A launch event (migration 0024, types/events.ts). */
export interface LaunchEventsTable {
  id: Generated<number>
  series_id: number
  title: string
  title_en: string
  city: string
  venue: string
  address: string
  latitude: number
  longitude: number
  starts_at: Timestamp
  ends_at: Timestamp
  status: 'announced' | 'cancelled'
  updated_by: number | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** A shopper's reminder of a launch event (migration 0024). */
export interface EventRemindersTable {
  id: Generated<number>
  event_id: number
  user_id: number
  channel: 'wechat' | 'mail'
  /** The openid (wechat) or the e-mail address (mail). */
  target: string
  lang: 'zh' | 'en'
  remind_at: Timestamp
  status: 'waiting' | 'sending' | 'sent' | 'failed' | 'cancelled'
  attempts: number
  claimed_at: Timestamp | null
  sent_at: Timestamp | null
  last_error: string | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** A user's seed of the provably fair draw (types/fair.ts): one active, older ones revealed. */
export interface FairSeedsTable {
  id: Generated<number>
  user_id: number
  server_seed: string
  server_seed_hash: string
  client_seed: string
  nonce: number
  status: 'active' | 'revealed'
  created_at: Timestamp
  revealed_at: Timestamp | null
}

export interface CombineRecipesTable {
  id: Generated<number>
  series_id: number
  name: string
  name_en: string
  input_kind: 'rarity' | 'same_design'
  input_rarity: Rarity | null
  input_count: number
  /** JSON [{designId, weight}] */
  pool: string
  status: 'on' | 'off'
  created_at: Timestamp
  updated_at: Timestamp
}

export interface CombinesTable {
  id: Generated<number>
  user_id: number
  recipe_id: number
  seed_id: number
  client_seed: string
  nonce: number
  inputs: string
  pool: string
  draw: string
  output_prize_id: number
  created_at: Timestamp
}

export type PropCard = 'hint' | 'xray'
export interface PropInventoryTable {
  user_id: number
  kind: PropCard
  count: number
  updated_at: Timestamp
}

export interface PropUsesTable {
  id: Generated<number>
  user_id: number
  kind: 'shake' | PropCard
  case_id: number
  slot: number
  design_id: number
  created_at: Timestamp
}

/** An X-ray card's hold on a slot: only its user can buy it until it expires. */
export interface SlotReservationsTable {
  case_id: number
  slot: number
  user_id: number
  expires_at: Timestamp
}

export type WithdrawalStatusRow = 'requested' | 'approved' | 'paid' | 'rejected' | 'failed'
/** A shopper's withdrawal of cash: held at the request, then approved (refunded) or rejected by an operator. */
export interface WithdrawalsTable {
  id: Generated<number>
  user_id: number
  amount_cents: number
  status: WithdrawalStatusRow
  reason: string | null
  /** Cash given back: the whole amount when rejected, the failed refunds' otherwise. */
  returned_cents: ColumnType<number, number | undefined, number>
  hold_tx_id: number | null
  decision_tx_id: number | null
  decided_by: number | null
  created_at: Timestamp
  decided_at: Timestamp | null
  finished_at: Timestamp | null
  updated_at: Timestamp
}

export type RefundStatusRow = 'pending' | 'processing' | 'success' | 'failed' | 'canceled'
/** The part of a withdrawal that goes back through one paid top-up order. */
export interface WithdrawalRefundsTable {
  id: Generated<number>
  withdrawal_id: number
  op_id: string
  channel: PayChannelRow
  amount_cents: number
  out_refund_no: string
  status: RefundStatusRow
  provider_refund_id: string | null
  failure: string | null
  settle_tx_id: number | null
  created_at: Timestamp
  sent_at: Timestamp | null
  settled_at: Timestamp | null
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
  case_slots: CaseSlotsTable
  case_choices: CaseChoicesTable
  case_leases: CaseLeasesTable
  daily_counters: DailyCountersTable
  audit_log: AuditLogTable
  wallets: WalletsTable
  ledger_transactions: LedgerTransactionsTable
  ledger_lines: LedgerLinesTable
  idempotency_keys: IdempotencyKeysTable
  age_checks: AgeChecksTable
  orders: OrdersTable
  purchases: PurchasesTable
  shop_settings: ShopSettingsTable
  shipments: ShipmentsTable
  shipment_items: ShipmentItemsTable
  pickup_points: PickupPointsTable
  launch_events: LaunchEventsTable
  event_reminders: EventRemindersTable
  fair_seeds: FairSeedsTable
  combine_recipes: CombineRecipesTable
  combines: CombinesTable
  prop_inventory: PropInventoryTable
  prop_uses: PropUsesTable
  slot_reservations: SlotReservationsTable
  withdrawals: WithdrawalsTable
  withdrawal_refunds: WithdrawalRefundsTable
  spending_limits: SpendingLimitsTable
  birth_date_corrections: BirthDateCorrectionsTable
  media: MediaTable
  media_erasures: MediaErasuresTable
  helper_tasks: HelperTasksTable
  ai_usage: AiUsageTable
  complaints: ComplaintsTable
  show_posts: ShowPostsTable
  show_post_prizes: ShowPostPrizesTable
  show_likes: ShowLikesTable
  show_comments: ShowCommentsTable
  show_reports: ShowReportsTable
  series_search: SeriesSearchTable
  series_search_terms: SeriesSearchTermsTable
  theme_tags: ThemeTagsTable
  series_theme_tags: SeriesThemeTagsTable
}

/** What a series is found by (migration 0027, domain/seriesSearch.ts). */
export interface SeriesSearchTable {
  series_id: number
  /** 0 on sale, 1 retired, 2 draft. */
  shelf: number
  price_cents: number
  has_rare: number
  has_hidden: number
  /** Boxes sold in the last 7 days, as of the last refresh. */
  sold_7d: ColumnType<number, number | undefined, number>
}
/** Every suffix of the folded names of a series (domain/searchText.ts). */
export interface SeriesSearchTermsTable {
  suffix: string
  series_id: number
}
export interface ThemeTagsTable {
  id: Generated<number>
  /** The folded name (zh, else en): one tag per name. */
  key: string
  name_zh: string
  name_en: string
  created_at: Timestamp
}
export interface SeriesThemeTagsTable {
  tag_id: number
  series_id: number
  sort: ColumnType<number, number | undefined, number>
}

/** An uploaded image, by the SHA-256 of its bytes (served as /media/u/<sha256>.<ext>). */
export interface MediaTable {
  sha256: string
  content_type: string
  ext: string
  data: Uint8Array
  size: number
  width: number
  height: number
  uploaded_by: number | null
  created_at: Timestamp
}

/** A file whose row went and whose bucket copy is still to be deleted (migration 0029). */
export interface MediaErasuresTable {
  sha256: string
  ext: string
  created_at: Timestamp
  /** The pass deleting the object now (null: waiting). */
  claimed_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>
}

/** A long-running helper task (PDF to images, video, music), owned by its creator. */
/** Calls of the day that reached a paid AI provider, per subject ('shop' or 'user:<id>'): migration 0034. */
export interface AiUsageTable {
  subject: string
  day: string
  used: number
}

export interface HelperTasksTable {
  id: string
  kind: 'pdf' | 'video' | 'music'
  user_id: number
  status: 'pending' | 'running' | 'succeeded' | 'failed'
  provider_id: string | null
  source: string | null
  page_count: number | null
  result: string | null
  error: string | null
  created_at: Timestamp
  updated_at: Timestamp
}

export type UserRow = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type SessionRow = Selectable<SessionsTable>
export type SeriesRowDb = Selectable<SeriesTable>
export type DesignRowDb = Selectable<DesignsTable>
export type CaseRowDb = Selectable<CasesTable>
export type OrderRow = Selectable<OrdersTable>

export type ComplaintStatusRow = 'open' | 'answered' | 'closed'
/** What a shopper wrote to the shop, and the operator's reply (migrations 0014 and 0017). */
export interface ComplaintsTable {
  id: Generated<number>
  user_id: number
  topic: 'order' | 'prize' | 'shipping' | 'payment' | 'account' | 'other'
  text: string
  contact: string | null
  /** The related order, parcel or tracking number (the contract's orderNo). */
  reference: string | null
  status: ComplaintStatusRow
  reply: string | null
  replied_by: number | null
  /** Who closed it, and when (migration 0017). */
  closed_by: ColumnType<number | null, number | null | undefined, number | null>
  created_at: Timestamp
  replied_at: Timestamp | null
  closed_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>
  updated_at: Timestamp
}

/** The player show (migration 0028, types/show.ts). */
export type ShowStatusRow = 'visible' | 'reported' | 'hidden'
export interface ShowPostsTable {
  id: Generated<number>
  user_id: number
  text: string
  /** JSON array of /media/u/... URLs. */
  images: string
  status: ShowStatusRow
  hidden_reason: string | null
  like_count: ColumnType<number, number | undefined, number>
  comment_count: ColumnType<number, number | undefined, number>
  report_count: ColumnType<number, number | undefined, number>
  created_at: Timestamp
  updated_at: Timestamp
}
export interface ShowPostPrizesTable {
  post_id: number
  prize_id: number
  series_id: number
  position: number
}
export interface ShowLikesTable {
  post_id: number
  user_id: number
  created_at: Timestamp
}
export interface ShowCommentsTable {
  id: Generated<number>
  post_id: number
  parent_id: number | null
  user_id: number
  text: string
  status: ShowStatusRow
  hidden_reason: string | null
  report_count: ColumnType<number, number | undefined, number>
  created_at: Timestamp
  updated_at: Timestamp
}
export interface ShowReportsTable {
  id: Generated<number>
  target: 'post' | 'comment'
  target_id: number
  user_id: number
  reason: 'spam' | 'fake' | 'offensive' | 'personal' | 'other'
  note: string | null
  created_at: Timestamp
  /** 1: the reporter had something at stake (migration 0034); only these count toward hiding. */
  weighted: ColumnType<number, number | undefined, number>
  /** When an operator's restore dealt with it (the report stays: its reporter cannot report again). */
  reviewed_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>
}
