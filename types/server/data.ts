/**
 * The generic table API (POST /api/data/invoke?table=&method=, POST /api/data/export?table=):
 * the tables it exposes, their rows as the API shows them, and the `param` of each method.
 * Timestamps are ISO-8601 UTC strings; money is integer cents.
 */
import type { PageQuery } from '../schema'

export type DataMethod = 'add' | 'delete' | 'update' | 'get' | 'page' | 'list'

export interface SeriesRow {
  id: number
  name: string
  description: string
  cover: string | null
  price_cents: number
  case_size: number
  /** Chance (parts per million) that a case carries the hidden design. */
  hidden_ppm: number
  status: 'on_sale' | 'retired'
  created_at: string
  updated_at: string
}

export interface DesignRow {
  id: number
  series_id: number
  name: string
  rarity: 'regular' | 'rare' | 'hidden'
  image: string | null
  reference_value_cents: number
  recycle_value_cents: number
  sort: number
}

/** A case as the public sees it: its commitment, never its arrangement. */
export interface CaseRow {
  id: number
  series_id: number
  size: number
  commit_hash: string
  status: 'on_sale' | 'sold_out' | 'retired'
  created_at: string
  revealed_at: string | null
}

export interface AddressRow {
  id: number
  name: string
  phone: string
  region: string
  detail: string
  is_default: boolean
  created_at: string
  updated_at: string
}

export interface PrizeRow {
  id: number
  series_id: number
  design_id: number
  case_id: number | null
  slot: number | null
  status: 'warehouse' | 'shipping' | 'received' | 'combined' | 'recycled'
  created_at: string
  updated_at: string
}

export interface DataTables {
  series: SeriesRow
  designs: DesignRow
  cases: CaseRow
  addresses: AddressRow
  prizes: PrizeRow
}
export type DataTable = keyof DataTables

/** Methods each table allows; export: series, designs, addresses, prizes. */
export const DATA_METHODS: { readonly [T in DataTable]: readonly DataMethod[] } = {
  series: ['get', 'list', 'page'],
  designs: ['get', 'list', 'page'],
  cases: ['get', 'list', 'page'],
  addresses: ['add', 'delete', 'update', 'get', 'page', 'list'],
  prizes: ['get', 'list', 'page']
}

/** Equality filters (only some fields are filterable) and sorting (only some are sortable). */
export interface DataQuery<Row> {
  where?: Partial<Row>
  orderBy?: keyof Row
  order?: 'asc' | 'desc'
}
export interface DataListParam<Row> extends DataQuery<Row> { limit?: number }
export interface DataPageParam<Row> extends DataQuery<Row>, PageQuery {}
export interface DataIdParam { id: number }
export type AddressInput = Pick<AddressRow, 'name' | 'phone' | 'region' | 'detail'> & { is_default?: boolean }
export type AddressUpdate = DataIdParam & Partial<AddressInput>
