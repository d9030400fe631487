/** Row types of the catalogue: series, designs, cases and their slots, leases, daily counters, search (see ../schema.ts). */
import type { ColumnType, Generated } from 'kysely'
import type { Timestamp } from './columns'

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
  /** 'case': the blind-box case model; 'kuji': 一番赏 sets of tickets in tiers (domain/catalogue/kuji.ts). */
  kind: ColumnType<SeriesKind, SeriesKind | undefined, SeriesKind>
  /** A kuji series: how long one shopper's turn at its set lasts, and the next place in its line. */
  turn_s: ColumnType<number, number | undefined, number>
  turn_next: ColumnType<number, number | undefined, number>
  /** A kuji series' Double Chance winners per set (0: none). */
  dc_winners: ColumnType<number, number | undefined, number>
}
export type SeriesKind = 'case' | 'kuji'

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
  /** Figures on hand in the warehouse (domain/catalogue/stock.ts). */
  stock: ColumnType<number, number | undefined, number>
  /** Of those, spoken for: unsold slots of cases on sale and prizes not yet out of the warehouse. */
  committed: ColumnType<number, number | undefined, number>
  /** A kuji design's tier ('A'..'Z', 'last_one' or 'double_chance'), and how many tickets of a set hold it; null and 0 otherwise. */
  tier: ColumnType<string | null, string | null | undefined, string | null>
  tickets: ColumnType<number, number | undefined, number>
}

export type KujiTurnState = 'waiting' | 'drawing' | 'left'
/** One account's place in a kuji series' line: one shopper draws at a time. */
export interface KujiTurnsTable {
  series_id: number
  user_id: number
  position: number
  state: ColumnType<KujiTurnState, KujiTurnState | undefined, KujiTurnState>
  until: Timestamp | null
  joined_at: Timestamp
}

/** scheduled: a case of a drop whose sale has not started (nothing sells from it). */
export type CaseStatus = 'scheduled' | 'on_sale' | 'sold_out' | 'retired'
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
  /** The drop the case was made for (domain/catalogue/drops.ts); null: made on demand. */
  drop_id: ColumnType<number | null, number | null | undefined, number | null>
  /** A kuji set's Double Chance (kuji.ts): the seed, its hash, and at sell-out the list's hash and the winning tickets (JSON). */
  dc_seed: ColumnType<string | null, string | null | undefined, string | null>
  dc_seed_hash: ColumnType<string | null, string | null | undefined, string | null>
  dc_list_hash: ColumnType<string | null, string | null | undefined, string | null>
  dc_winning: ColumnType<string | null, string | null | undefined, string | null>
}

/** A limited run of a series, every case made and committed before the sale (domain/catalogue/drops.ts). */
export interface DropsTable {
  id: Generated<number>
  series_id: number
  case_count: number
  /** Exactly how many of the cases carry the hidden design. */
  hidden_cases: number
  case_size: number
  starts_at: Timestamp
  /** sha256 over the cases' commitments in case order (types/drop.ts). */
  root: string
  created_by: number | null
  created_at: Timestamp
  /** The waiting room (domain/catalogue/dropQueue.ts); queue_size null: the drop has none. */
  queue_size: ColumnType<number | null, number | null | undefined, number | null>
  queue_window_s: ColumnType<number | null, number | null | undefined, number | null>
  queue_shop_s: ColumnType<number | null, number | null | undefined, number | null>
  queue_seed: ColumnType<string | null, string | null | undefined, string | null>
  queue_seed_hash: ColumnType<string | null, string | null | undefined, string | null>
  queue_ordered_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>
  queue_next: ColumnType<number, number | undefined, number>
  queue_frontier: ColumnType<number, number | undefined, number>
  queue_advanced_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>
  /** Limits per account (domain/catalogue/dropLimits.ts); null: none. need_phone 1: a verified phone is needed. */
  limit_boxes: ColumnType<number | null, number | null | undefined, number | null>
  limit_cases: ColumnType<number | null, number | null | undefined, number | null>
  need_phone: ColumnType<number, number | undefined, number>
  min_account_hours: ColumnType<number | null, number | null | undefined, number | null>
  /** A raffle drop (domain/catalogue/raffle.ts): registration closes, each winner's time to buy, the seed and its hash, the list's hash, rounds drawn. */
  raffle_closes_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>
  raffle_claim_s: ColumnType<number | null, number | null | undefined, number | null>
  raffle_seed: ColumnType<string | null, string | null | undefined, string | null>
  raffle_seed_hash: ColumnType<string | null, string | null | undefined, string | null>
  raffle_list_hash: ColumnType<string | null, string | null | undefined, string | null>
  raffle_rounds: ColumnType<number, number | undefined, number>
}

/** One account's entry in a raffle drop: its code on the published list, and what it won. */
export interface RaffleEntriesTable {
  drop_id: number
  user_id: number
  code: string
  entered_at: Timestamp
  won_round: number | null
  claim_until: Timestamp | null
}

/** What an account has bought (or is buying now) in a drop, against the drop's limits. */
export interface DropBuysTable {
  drop_id: number
  user_id: number
  boxes: number
  cases: number
}

export type DropQueueState = 'waiting' | 'shopping' | 'left'
/** One account's place in a drop's waiting room. */
export interface DropQueueTable {
  drop_id: number
  user_id: number
  /** HMAC-SHA256(drop's queue seed, `${dropId}:${userId}`), hex: the order of the window's arrivals. */
  lot: string
  arrived_at: Timestamp
  position: number | null
  state: ColumnType<DropQueueState, DropQueueState | undefined, DropQueueState>
  until: Timestamp | null
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
