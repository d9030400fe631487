/** Row types of prizes: purchases, prizes, parcels, pickup points, the fair draw, combines, prop cards (see ../schema.ts). */
import type { ColumnType, Generated } from 'kysely'
import type { Timestamp } from './columns'
import type { Rarity } from './catalogue'

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
