/**
 * What every area of the configuration shares: the schema's building blocks (each variable with its
 * format, default and meaning), reading a variable (trimmed, blank counts as unset, the schema's default
 * on request), URL checks and the error that lists every bad variable. Imports nothing of the server.
 */
import { Type, type TProperties } from 'typebox'

/** The environment as process.env gives it. */
export type Env = Record<string, string | undefined>

/** What is wrong so far: one sentence per problem, naming its variable. */
export type Problems = string[]

export class ConfigError extends Error {
  readonly problems: string[]
  constructor (problems: string[]) {
    super(`Invalid configuration:\n${problems.map(p => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
    this.problems = problems
  }
}

/** The variables of one area (or of all), as the schema declares them. */
export interface Reader<N extends string> {
  /** The variable, trimmed; undefined when unset or blank. */
  readonly get: (name: N) => string | undefined
  /** The variable, or when unset its default in the schema (a variable without a default is a bug here). */
  readonly value: (name: N) => string
}

/** Reads `env` through the schema's `variables`: a parser may only name variables the schema declares. */
export function reader<P extends TProperties> (env: Env, variables: P): Reader<keyof P & string> {
  const get = (name: string): string | undefined => {
    const v = env[name]
    if (v === undefined) return undefined
    const trimmed = v.trim()
    return trimmed === '' ? undefined : trimmed
  }
  const value = (name: string): string => {
    const v = get(name)
    if (v !== undefined) return v
    const fallback = (variables[name] as { default?: string | number } | undefined)?.default
    if (fallback === undefined) throw new Error(`${name} has no default in the configuration schema`)
    return String(fallback)
  }
  return { get, value }
}

export function isUrl (raw: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(raw).protocol)
  } catch {
    return false
  }
}

/** An http(s) API base (its default from the schema), without trailing slashes. */
export function apiBase<N extends string> (env: Reader<N>, name: N, problems: Problems): string {
  const base = env.value(name).replace(/\/+$/, '')
  if (!isUrl(base, ['http:', 'https:'])) problems.push(`${name} must be an http:// or https:// URL`)
  return base
}

/** An e-mail address as the operators' accounts and the complaint mailbox take it. */
export const EMAIL_ADDRESS = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{1,60}$/

/**
 * The schema's building blocks. Every variable is an optional string in the environment; its schema
 * says what it must hold (a word of a list, an integer in a range, a URL, a pattern), its default when
 * unset, and what it is for. The precise checks and their messages are the parsers' (one per area).
 */
export const variable = {
  /** Free text: a name, a key, a path, a list (`pattern`: the form the parser checks). */
  text (description: string, options: { default?: string, pattern?: RegExp } = {}) {
    const { pattern, ...rest } = options
    return Type.Optional(Type.String({ description, ...rest, ...(pattern ? { pattern: pattern.source } : {}) }))
  },
  /** A URL (http or https unless the description says otherwise). */
  url (description: string, fallback?: string) {
    return Type.Optional(Type.String({ format: 'uri', description, ...(fallback !== undefined ? { default: fallback } : {}) }))
  },
  /** One word of `words`. */
  oneOf (words: readonly string[], description: string, fallback?: string) {
    return Type.Optional(Type.Union(words.map(w => Type.Literal(w)), { description, ...(fallback !== undefined ? { default: fallback } : {}) }))
  },
  /** A whole number from `minimum` to `maximum`. */
  integer (description: string, minimum: number, maximum: number, fallback: number) {
    return Type.Optional(Type.Integer({ description, minimum, maximum, default: fallback }))
  }
}
