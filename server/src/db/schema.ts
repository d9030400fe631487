/**
 * Row types of the database, as Kysely sees them. Timestamps are ISO-8601 UTC strings on both dialects
 * (TEXT on SQLite, timestamptz on PostgreSQL read back as ISO), money is integer cents, booleans are 0/1.
 *
 * The tables' row types are in tables/<subject>.ts; this file re-exports them and keeps `Database`.
 */
import type { Insertable, Selectable } from 'kysely'
import type { UsersTable, IdentitiesTable, SessionsTable, OneTimeCodesTable, RateLimitsTable, ErrorReportsTable, AddressesTable, AgeChecksTable, SpendingLimitsTable, BirthDateCorrectionsTable } from './tables/account'
import type { SeriesTable, DesignsTable, CasesTable, CaseSlotsTable, CaseChoicesTable, CaseLeasesTable, DailyCountersTable, SeriesSearchTable, SeriesSearchTermsTable, ThemeTagsTable, SeriesThemeTagsTable, DropsTable, DropQueueTable, DropBuysTable, KujiTurnsTable, RaffleEntriesTable } from './tables/catalogue'
import type { WalletsTable, LedgerTransactionsTable, LedgerLinesTable, IdempotencyKeysTable, OrdersTable, WithdrawalsTable, WithdrawalRefundsTable } from './tables/money'
import type { PurchasesTable, PrizesTable, ShipmentsTable, ShipmentItemsTable, PickupPointsTable, FairSeedsTable, CombineRecipesTable, CombinesTable, PropInventoryTable, PropUsesTable, SlotReservationsTable } from './tables/prizes'
import type { AuditLogTable, ShopSettingsTable, LaunchEventsTable, EventRemindersTable, RestockRemindersTable, AiUsageTable } from './tables/ops'
import type { MediaTable, MediaErasuresTable, HelperTasksTable } from './tables/media'
import type { ComplaintsTable, ShowPostsTable, ShowPostPrizesTable, ShowLikesTable, ShowCommentsTable, ShowReportsTable } from './tables/community'

export type * from './tables/columns'
export type * from './tables/account'
export type * from './tables/catalogue'
export type * from './tables/money'
export type * from './tables/prizes'
export type * from './tables/ops'
export type * from './tables/media'
export type * from './tables/community'

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
  drops: DropsTable
  drop_queue: DropQueueTable
  kuji_turns: KujiTurnsTable
  raffle_entries: RaffleEntriesTable
  drop_buys: DropBuysTable
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
  restock_reminders: RestockRemindersTable
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

export type UserRow = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type SessionRow = Selectable<SessionsTable>
export type SeriesRowDb = Selectable<SeriesTable>
export type DesignRowDb = Selectable<DesignsTable>
export type CaseRowDb = Selectable<CasesTable>
export type OrderRow = Selectable<OrdersTable>
