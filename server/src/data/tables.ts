/**
 * The allow-list of the generic table API (/api/data/invoke, /api/data/export). Nothing outside it is
 * reachable: tables, methods and fields not listed here do not exist for the API. Users, sessions,
 * codes, rate limits, error reports, case arrangements and salts, and (later) wallets, the ledger and
 * seeds are deliberately absent.
 *
 * Access:
 *  - public  catalogue rows, readable by everyone (drafts hidden)
 *  - owner   rows whose user_id is the caller's: a logged-in user sees and (where the methods allow)
 *            edits only their own; user_id is never read from or written by the client
 */
import { type Expression, type ExpressionBuilder, type SqlBool } from 'kysely'
import type { TObject, TSchema } from 'typebox'
import { DATA_METHODS, DATA_ROWS } from '../../../types/data'

export const METHODS = ['add', 'delete', 'update', 'get', 'page', 'list'] as const
export type Method = typeof METHODS[number]

export type FieldKind = 'id' | 'text' | 'integer' | 'cents' | 'boolean' | 'timestamp'

/** What the API does with a field; its schema (for filters and writes) is the row's in types/data.ts. */
export interface FieldSpec {
  kind: FieldKind
  write?: 'required' | 'optional'
  filter?: boolean
  sort?: boolean
}

// a filter over whichever table the spec names
type AnyEb = ExpressionBuilder<any, any> // eslint-disable-line @typescript-eslint/no-explicit-any

export interface TableSpec {
  /** The table in the database. */
  table: 'series' | 'designs' | 'cases' | 'addresses' | 'prizes'
  access: 'public' | 'owner'
  /** The row as the API shows it (types/data.ts): the schema of every field. */
  row: TObject
  methods: readonly Method[]
  export: boolean
  /** The only columns ever selected, filtered, sorted or written. */
  fields: Record<string, FieldSpec>
  defaultOrder: { field: string; direction: 'asc' | 'desc' }
  /** Rows of a public table that exist for the API. */
  visible?: (eb: AnyEb) => Expression<SqlBool>
  /** At most this many rows per owner (422 beyond). */
  maxRowsPerOwner?: number
  /** A boolean field at most one row per owner may have set (the default address). */
  singleTrueFlag?: string
}

const PUBLISHED = ['on_sale', 'retired'] as const

const publishedSeries = (eb: AnyEb) => eb('status', 'in', PUBLISHED)
const ofPublishedSeries = (eb: AnyEb) =>
  eb('series_id', 'in', eb.selectFrom('series').select('id').where('status', 'in', PUBLISHED))

export const TABLES: Record<string, TableSpec> = {
  series: {
    table: 'series',
    row: DATA_ROWS.series,
    access: 'public',
    methods: DATA_METHODS.series,
    export: true,
    fields: {
      id: { kind: 'id', sort: true },
      name: { kind: 'text' },
      description: { kind: 'text' },
      cover: { kind: 'text' },
      price_cents: { kind: 'cents', sort: true },
      case_size: { kind: 'integer' },
      hidden_ppm: { kind: 'integer' },
      status: { kind: 'text', filter: true },
      created_at: { kind: 'timestamp', sort: true },
      updated_at: { kind: 'timestamp' }
    },
    defaultOrder: { field: 'id', direction: 'desc' },
    visible: publishedSeries
  },
  designs: {
    table: 'designs',
    row: DATA_ROWS.designs,
    access: 'public',
    methods: DATA_METHODS.designs,
    export: true,
    fields: {
      id: { kind: 'id', sort: true },
      series_id: { kind: 'id', filter: true },
      name: { kind: 'text' },
      rarity: { kind: 'text', filter: true },
      image: { kind: 'text' },
      reference_value_cents: { kind: 'cents', sort: true },
      recycle_value_cents: { kind: 'cents' },
      sort: { kind: 'integer', sort: true }
    },
    defaultOrder: { field: 'sort', direction: 'asc' },
    visible: ofPublishedSeries
  },
  cases: {
    table: 'cases',
    row: DATA_ROWS.cases,
    access: 'public',
    methods: DATA_METHODS.cases,
    export: false,
    // arrangement and salt are secret until a dedicated reveal; they are not fields here
    fields: {
      id: { kind: 'id', sort: true },
      series_id: { kind: 'id', filter: true },
      size: { kind: 'integer' },
      commit_hash: { kind: 'text' },
      status: { kind: 'text', filter: true },
      created_at: { kind: 'timestamp', sort: true },
      revealed_at: { kind: 'timestamp' }
    },
    defaultOrder: { field: 'id', direction: 'asc' },
    visible: ofPublishedSeries
  },
  addresses: {
    table: 'addresses',
    row: DATA_ROWS.addresses,
    access: 'owner',
    methods: DATA_METHODS.addresses,
    export: true,
    fields: {
      id: { kind: 'id', sort: true },
      name: { kind: 'text', write: 'required' },
      phone: { kind: 'text', write: 'required' },
      region: { kind: 'text', write: 'required' },
      detail: { kind: 'text', write: 'required' },
      is_default: { kind: 'boolean', write: 'optional', filter: true },
      created_at: { kind: 'timestamp', sort: true },
      updated_at: { kind: 'timestamp', sort: true }
    },
    defaultOrder: { field: 'id', direction: 'desc' },
    maxRowsPerOwner: 20,
    singleTrueFlag: 'is_default'
  },
  prizes: {
    table: 'prizes',
    row: DATA_ROWS.prizes,
    access: 'owner',
    methods: DATA_METHODS.prizes,
    export: true,
    fields: {
      id: { kind: 'id', sort: true },
      series_id: { kind: 'id', filter: true },
      design_id: { kind: 'id', filter: true },
      case_id: { kind: 'id' },
      slot: { kind: 'integer' },
      status: { kind: 'text', filter: true },
      created_at: { kind: 'timestamp', sort: true },
      updated_at: { kind: 'timestamp', sort: true }
    },
    defaultOrder: { field: 'id', direction: 'desc' }
  }
}

/** The spec of a table the API knows, or undefined (unknown and hidden tables look the same). */
export function tableSpec (name: string): TableSpec | undefined {
  return Object.prototype.hasOwnProperty.call(TABLES, name) ? TABLES[name] : undefined
}

/** The schema of a field of a table: the row's (types/data.ts). */
export function schemaOf (spec: TableSpec, name: string): TSchema {
  const schema = spec.row.properties[name]
  if (!schema) throw new Error(`${spec.table}.${name} is not a field of its row schema`)
  return schema
}
