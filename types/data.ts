/**
 * The generic table API (spec 7; PRODUCT.md): POST /api/data/invoke?table=&method= with `param` as the
 * body, and POST /api/data/export?table= answering an xlsx file. The rows of each table as the API shows
 * them are schemas here: the server takes every field's schema (for `where` filters and writes) from
 * them, and OpenAPI shows them. Timestamps are ISO-8601 UTC strings; money is integer cents.
 *
 * `param` by method:
 *   add     {<writable fields>}                          update  {id, <writable fields>...}
 *   get     {id}            delete  {id}
 *   list    {where?, orderBy?, order?, limit?}           limit 1-100 (default 100)
 *   page    {page, size, where?, orderBy?, order?}       size 1-100
 *   export  {where?, orderBy?, order?}
 */
import { Type, type Static, type TSchema } from 'typebox'
import { route } from './api'
import { DATA_TABLE_NAMES, LOGIN_LIMITS } from './limits'
import { Cents, Id, Nullable, Obj, StringEnum, Text, Timestamp } from './schema'
import type { PageQuery } from './schema'

export const DATA_METHOD_NAMES = ['add', 'delete', 'update', 'get', 'page', 'list'] as const
export type DataMethod = typeof DATA_METHOD_NAMES[number]

const SmallInt = Type.Integer({ minimum: 0, maximum: 2_147_483_647 })

export const SeriesRow = Type.Object({
  id: Id,
  name: Type.String(),
  description: Type.String(),
  cover: Nullable(Type.String()),
  price_cents: Cents,
  case_size: SmallInt,
  hidden_ppm: Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Chance (ppm) that a case carries the hidden design' }),
  status: StringEnum(['on_sale', 'retired'] as const),
  created_at: Timestamp,
  updated_at: Timestamp
})
export type SeriesRow = Static<typeof SeriesRow>

export const DesignRow = Type.Object({
  id: Id,
  series_id: Id,
  name: Type.String(),
  rarity: StringEnum(['regular', 'rare', 'hidden'] as const),
  image: Nullable(Type.String()),
  reference_value_cents: Cents,
  recycle_value_cents: Cents,
  sort: SmallInt
})
export type DesignRow = Static<typeof DesignRow>

/** A case as the public sees it: its commitment, never its arrangement. */
export const CaseRow = Type.Object({
  id: Id,
  series_id: Id,
  size: SmallInt,
  commit_hash: Type.String(),
  status: StringEnum(['scheduled', 'on_sale', 'sold_out', 'retired'] as const),
  created_at: Timestamp,
  revealed_at: Nullable(Timestamp)
})
export type CaseRow = Static<typeof CaseRow>

/** The shopper's own address book (at most 20, one default). */
export const AddressRow = Type.Object({
  id: Id,
  name: Text({ minLength: 1, maxLength: 50 }),
  phone: Type.String({ pattern: LOGIN_LIMITS.phonePattern }),
  region: Text({ minLength: 1, maxLength: 100 }),
  detail: Text({ minLength: 1, maxLength: 200 }),
  is_default: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp
})
export type AddressRow = Static<typeof AddressRow>

export const PrizeRow = Type.Object({
  id: Id,
  series_id: Id,
  design_id: Id,
  case_id: Nullable(Id),
  slot: Nullable(SmallInt),
  status: StringEnum(['warehouse', 'shipping', 'received', 'combined', 'recycled'] as const),
  created_at: Timestamp,
  updated_at: Timestamp
})
export type PrizeRow = Static<typeof PrizeRow>

/** Every table the API knows, with the schema of its rows. */
export const DATA_ROWS = {
  series: SeriesRow,
  designs: DesignRow,
  cases: CaseRow,
  addresses: AddressRow,
  prizes: PrizeRow
} as const satisfies Record<typeof DATA_TABLE_NAMES[number], TSchema>

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

// ---- the calls ------------------------------------------------------------------------------------

const TableName = Text({ minLength: 1, maxLength: 64, description: `One of ${Object.keys(DATA_ROWS).join(', ')} (anything else is a 404)` })
/** The param: checked per table and method on the server (strict schemas built from the rows above), a 400 naming `param...`. */
const Param = Type.Unknown({ description: 'The param of the method, an object (see the description of the call)' })

export const dataRoutes = {
  invoke: route({
    method: 'POST', url: '/api/data/invoke', auth: 'optional', tag: 'tables',
    querystring: Obj({ table: TableName, method: StringEnum(DATA_METHOD_NAMES) }), body: Param,
    data: Type.Unknown({ description: 'get/add/update: a row; list: rows; page: {list, total}; delete: null. Rows: see the components DataRow schemas.' }),
    summary: 'Read (and for addresses, write) an allowed table',
    description: 'Catalogue tables (series, designs, cases) are readable by everyone; addresses and prizes are the caller\'s own (login needed). param: add {<writable fields>}; update {id, <fields>}; get/delete {id}; list {where?, orderBy?, order?, limit?}; page {page, size, where?, orderBy?, order?}.'
  }),
  export: route({
    method: 'POST', url: '/api/data/export', auth: 'optional', tag: 'tables',
    querystring: Obj({ table: TableName }), body: Param, data: Type.Null(),
    raw: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', description: 'The rows as an xlsx file (a refusal is the usual JSON envelope)' },
    summary: 'Export an allowed table as xlsx', description: 'param: {where?, orderBy?, order?}; at most 5,000 rows.'
  })
}
