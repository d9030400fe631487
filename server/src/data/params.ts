/**
 * The `param` of each (table, method), as strict schemas built from the allow-list, compiled once.
 *   add     {<writable fields>}
 *   update  {id, <writable fields>...}          at least one field besides id
 *   get     {id}            delete  {id}
 *   list    {where?, orderBy?, order?, limit?}  limit 1-100 (default 100)
 *   page    {page, size, where?, orderBy?, order?}   size 1-100
 *   export  {where?, orderBy?, order?}
 * `where` holds equality filters on the filterable fields.
 */
import { Type, type TProperties, type TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import { Id, PageFields, strict } from '../../../types/schema'
import { validationFailure, type SchemaError } from '../http/validation'
import { schemaOf, type Method, type TableSpec } from './tables'

export const LIST_MAX = 100
export const EXPORT_MAX_ROWS = 5000

export type Operation = Method | 'export'

export interface QueryParam {
  where?: Record<string, unknown>
  orderBy?: string
  order?: 'asc' | 'desc'
  limit?: number
  page?: number
  size?: number
}

function querySchema (spec: TableSpec, extra: TProperties): TSchema {
  const filters: TProperties = {}
  const sortable: string[] = []
  for (const [name, field] of Object.entries(spec.fields)) {
    if (field.filter) filters[name] = Type.Optional(schemaOf(spec, name))
    if (field.sort) sortable.push(name)
  }
  return Type.Object({
    ...extra,
    where: Type.Optional(Type.Object(filters, strict)),
    orderBy: Type.Optional(Type.Enum(sortable)),
    order: Type.Optional(Type.Enum(['asc', 'desc']))
  }, strict)
}

function paramSchema (spec: TableSpec, op: Operation): TSchema {
  const id = Type.Object({ id: Id }, strict)
  const writable = Object.entries(spec.fields).filter(([, f]) => f.write)
  switch (op) {
    case 'get':
    case 'delete':
      return id
    case 'add': {
      const props: TProperties = {}
      for (const [name, f] of writable) props[name] = f.write === 'required' ? schemaOf(spec, name) : Type.Optional(schemaOf(spec, name))
      return Type.Object(props, strict)
    }
    case 'update': {
      const props: TProperties = { id: Id }
      for (const [name] of writable) props[name] = Type.Optional(schemaOf(spec, name))
      return Type.Object(props, { ...strict, minProperties: 2 })
    }
    case 'list':
      return querySchema(spec, { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LIST_MAX })) })
    case 'page':
      return querySchema(spec, PageFields)
    case 'export':
      return querySchema(spec, {})
  }
}

type Validator = ReturnType<typeof Compile>
const compiled = new Map<string, Validator>()

/** Checks a param against its schema (compiled on first use); throws the 400 naming the field. */
export function checkParam (tableName: string, spec: TableSpec, op: Operation, param: unknown): void {
  const key = `${tableName}.${op}`
  let validator = compiled.get(key)
  if (!validator) {
    validator = Compile(paramSchema(spec, op))
    compiled.set(key, validator)
  }
  if (!validator.Check(param)) {
    throw validationFailure([...validator.Errors(param)] as unknown as SchemaError[], 'param')
  }
}
