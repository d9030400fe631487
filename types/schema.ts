/**
 * The building blocks of the contract's schemas (TypeBox). Every object is strict (an unknown field is a
 * 400, never dropped), every integer has a maximum that fits the database, every string refuses control
 * characters. The app imports types from types/ only (`import type`), never this code.
 */
import { Type, type Static, type TObject, type TProperties, type TSchema } from 'typebox'
import {
  MAX_ID, MONEY_MAX_CENTS, MULTI_LINE_PATTERN, PAGE_MAX, PAGE_SIZE_MAX, SINGLE_LINE_PATTERN
} from './limits'

export { Type, type Static, type TSchema }

/** Objects are strict everywhere: an unknown field is a 400, never dropped. */
export const strict = { additionalProperties: false } as const

/** A strict object of the contract. */
export const Obj = <P extends TProperties>(properties: P, options: Record<string, unknown> = {}): TObject<P> =>
  Type.Object(properties, { ...strict, ...options })

/** A one-line text without control characters. */
export const Text = (options: { minLength?: number; maxLength: number; description?: string }) =>
  Type.String({ pattern: SINGLE_LINE_PATTERN, ...options })

/** A text that may span lines (tab, line feed and carriage return allowed; other control characters not). */
export const MultilineText = (options: { minLength?: number; maxLength: number; description?: string }) =>
  Type.String({ pattern: MULTI_LINE_PATTERN, ...options })

/** A row id: a positive integer that fits both JavaScript and a PostgreSQL bigint. */
export const Id = Type.Integer({ minimum: 1, maximum: MAX_ID })

/** A non-negative amount of money in cents, in an answer. */
export const Cents = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })
/** A signed amount of money in cents, in an answer. */
export const SignedCents = Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER })
/** An amount of money in cents, in a request. */
export const CentsInput = Type.Integer({ minimum: 0, maximum: MONEY_MAX_CENTS })

/** ISO-8601 UTC timestamp. */
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO-8601 UTC' })

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

/** A literal string enum: `{enum: [...]}` in JSON Schema, the union of the literals in TypeScript. */
export const StringEnum = <const V extends readonly string[]>(values: V, options: { description?: string } = {}) =>
  Type.Unsafe<V[number]>({ enum: [...values], ...options })

export const PageFields = {
  page: Type.Integer({ minimum: 1, maximum: PAGE_MAX }),
  size: Type.Integer({ minimum: 1, maximum: PAGE_SIZE_MAX })
}
export const PageQuery = Obj(PageFields)
export type PageQuery = Static<typeof PageQuery>

/** A page of results: the rows and the total count. */
export const PageResult = <T extends TSchema>(item: T) => Type.Object({ list: Type.Array(item), total: Type.Integer({ minimum: 0 }) })
export interface PageResult<T> { list: T[]; total: number }

/** The body of a call that takes nothing (POST {}). */
export const EmptyBody = Obj({})
