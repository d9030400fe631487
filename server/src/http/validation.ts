/**
 * Turns schema errors (Ajv's from Fastify, or TypeBox's, which share the shape) into a 400 that names
 * the field and the reason.
 */
import { MULTI_LINE_PATTERN, SINGLE_LINE_PATTERN } from '../../../types/limits'
import type { MessageKey, MessageParams } from '../i18n/messages'
import { ApiFailure } from '../core/errors'

export interface SchemaError {
  keyword: string
  instancePath: string
  schemaPath?: string
  params: Record<string, unknown>
  message?: string
}

const TYPE_NAMES = new Set(['string', 'integer', 'number', 'boolean', 'object', 'array', 'null'])

function fieldOf (instancePath: string, child?: string): string {
  const parts = instancePath.split('/').filter(Boolean).map(p => p.replace(/~1/g, '/').replace(/~0/g, '~'))
  if (child !== undefined) parts.push(child)
  return parts.join('.')
}

/** The first error, as a message key with its params; `root` names the whole body or query. */
export function describeSchemaError (error: SchemaError, root = 'body'): { field: string; key: MessageKey; params: MessageParams } {
  const p = error.params
  const at = (child?: string) => fieldOf(error.instancePath, child) || root
  switch (error.keyword) {
    case 'required': {
      const missing = (p.missingProperty as string | undefined) ?? (p.requiredProperties as string[] | undefined)?.[0]
      const field = at(missing)
      return { field, key: 'validation.required', params: { field } }
    }
    case 'additionalProperties': {
      const extra = (p.additionalProperty as string | undefined) ?? (p.additionalProperties as string[] | undefined)?.[0]
      const field = at(extra)
      return { field, key: 'validation.unknownField', params: { field } }
    }
    case 'boolean':
      // TypeBox reports an unknown field as the `false` schema of additionalProperties
      if (error.schemaPath?.endsWith('/additionalProperties')) {
        const field = at()
        return { field, key: 'validation.unknownField', params: { field } }
      }
      break
    case 'type': {
      const field = at()
      const types = ([] as unknown[]).concat(p.type).map(String).filter(t => TYPE_NAMES.has(t))
      return { field, key: 'validation.type', params: { field, type: `@type.${types[0] ?? 'string'}` } }
    }
    case 'minLength':
    case 'maxLength':
    case 'minimum':
    case 'maximum':
    case 'minProperties': {
      const field = at()
      return { field, key: `validation.${error.keyword}` as MessageKey, params: { field, limit: Number(p.limit) } }
    }
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const field = at()
      return { field, key: 'validation.invalid', params: { field } }
    }
    case 'pattern':
    case 'format': {
      const field = at()
      const controlChars = p.pattern === SINGLE_LINE_PATTERN || p.pattern === MULTI_LINE_PATTERN
      return { field, key: controlChars ? 'validation.controlChars' : 'validation.format', params: { field } }
    }
    case 'enum':
    case 'const': {
      const field = at()
      return { field, key: 'validation.enum', params: { field } }
    }
  }
  const field = at()
  return { field, key: 'validation.invalid', params: { field } }
}

export function validationFailure (errors: SchemaError[], root = 'body'): ApiFailure {
  // an unknown field is the most useful thing to name; then whatever came first
  const first = errors.find(e => e.keyword === 'additionalProperties') ?? errors[0]
  if (!first) return new ApiFailure(400, 'request.bad')
  const { field, key, params } = describeSchemaError(first, root)
  return new ApiFailure(400, key, params, { field, rule: first.keyword })
}
