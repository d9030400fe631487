/** Row types of the community: complaints and the player show (see ../schema.ts). */
import type { ColumnType, Generated } from 'kysely'
import type { Timestamp } from './columns'

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
