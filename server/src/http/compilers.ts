/**
 * The schema compilers every app of this process shares (Fastify's `schemaController.compilersFactory`,
 * https://fastify.dev/docs/latest/Reference/Server/#schemacontroller). They are Fastify's own defaults,
 * made once per process instead of once per app: the validators come from one Ajv per set of options
 * (Ajv keeps what it compiled, by schema), and each response schema's serializer is compiled once.
 * A process builds one app, so in production nothing changes; a test file builds dozens, and each
 * build used to compile every route's schemas again (about half of the 0.6 s of CPU a build takes).
 *
 * No route declares a header schema, so Fastify's one difference for custom compilers (it leaves
 * header names as written instead of lower-casing them) does not apply.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { AjvCompiler, AjvReference } from '@fastify/ajv-compiler'
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import { _ } from 'ajv'
import standaloneCode from 'ajv/dist/standalone'

type Serializer = (data: unknown) => string
type SerializerFactory = (externalSchemas: unknown, options: unknown) => (route: { schema: object }) => Serializer
type Validator = (data: unknown) => boolean
type ValidatorFactory = (externalSchemas: unknown, options: { customOptions?: Record<string, unknown> }) => (route: { schema: object }) => Validator

const defaultValidators = AjvCompiler() as unknown as ValidatorFactory
const defaultSerializers = SerializerSelector() as unknown as SerializerFactory

/**
 * A folder where the code of every compiled schema is kept (Ajv's and fast-json-stringify's standalone
 * code, one CommonJS file per schema, named by a hash of the schema, the compiler's options and the
 * compilers' versions), or null (the default: nothing kept). SCHEMA_CODE_DIR sets it (each app built
 * sets it from its config): a start with the folder filled skips compiling. The server tests set one
 * for the run (test/server/global-setup.js): a test file is a module registry of its own, so each of
 * them compiled every route's schemas again for its first app, and each server process they start did
 * too. The code kept is the code the compilers generate; a schema not yet in the folder is compiled as
 * always, then kept.
 */
let codeCache: string | null = null
export function keepSchemaCode (folder: string | null): void {
  codeCache = folder
  if (folder) fs.mkdirSync(folder, { recursive: true })
}

const VERSIONS = ['ajv', 'fast-json-stringify', '@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler']
  .map(name => { try { const file = require.resolve(`${name}/package.json`); return `${file}@${(JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version}` } catch { return name } }).join(' ')
const fileKeys = new WeakMap<object, string>()
function codeFile (kind: 'v' | 's', setup: string, schema: object): string {
  let key = fileKeys.get(schema)
  if (!key) fileKeys.set(schema, key = createHash('sha256').update(JSON.stringify(schema)).digest('hex'))
  const name = createHash('sha256').update(`${VERSIONS}\n${kind}\n${setup}\n${key}`).digest('hex').slice(0, 32)
  return path.join(codeCache as string, `${kind}-${name}.cjs`)
}
/**
 * The generated code requires the compilers' runtime helpers by package name (ajv/dist/runtime/...,
 * ajv-formats, fast-json-stringify/lib/serializer), which a folder outside the project could not
 * resolve: they are written as the files this server resolves them to (the folder's names include
 * where the packages are, in VERSIONS).
 */
const resolvedRequires = (code: string): string =>
  code.replace(/require\((['"])([^'"./][^'"]*)\1\)/g, (_whole, _quote, spec: string) => `require(${JSON.stringify(require.resolve(spec))})`)

function keep (file: string, code: string): void {
  const tmp = `${file}.${process.pid}.tmp`
  fs.writeFileSync(tmp, resolvedRequires(code))
  fs.renameSync(tmp, file)
}
function kept<T> (file: string): T | null {
  if (!fs.existsSync(file)) return null
  return require(file) as T // eslint-disable-line @typescript-eslint/no-require-imports -- the kept code is CommonJS, loaded when the schema is
}

/** Where @fastify/ajv-compiler keeps a pool's Ajv (set when the options ask for code) */
const AJV_REFERENCE = AjvReference as unknown as symbol

/** Ajv set to write standalone code: its formats are required from ajv-formats by the code itself. */
const sourceValidators = AjvCompiler() as unknown as ValidatorFactory
const buildValidator: ValidatorFactory = (externalSchemas, options) => {
  if (!codeCache) return defaultValidators(externalSchemas, options)
  const setup = JSON.stringify([externalSchemas, options])
  const withSource = { ...options, customOptions: { ...options.customOptions, code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` } } }
  const compile = sourceValidators(externalSchemas, withSource) as ReturnType<ValidatorFactory> & Record<symbol, { ajv: Parameters<typeof standaloneCode>[0] } | undefined>
  return (route) => {
    const file = codeFile('v', setup, route.schema)
    const found = kept<Validator>(file)
    if (found) return found
    const validate = compile(route)
    const ajv = compile[AJV_REFERENCE]?.ajv
    if (ajv) keep(file, standaloneCode(ajv, validate as Parameters<typeof standaloneCode>[1]))
    return validate
  }
}
/** Serializers by the factory's arguments (the shared schemas and the options), then by schema. */
const serializers = new Map<string, WeakMap<object, Serializer>>()

const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  const key = JSON.stringify([externalSchemas, options])
  const cache = serializers.get(key) ?? new WeakMap<object, Serializer>()
  serializers.set(key, cache)
  const compile = defaultSerializers(externalSchemas, options)
  const setup = JSON.stringify([externalSchemas, options])
  const source = codeCache ? defaultSerializers(externalSchemas, { ...(options as object), mode: 'standalone' }) as unknown as (route: { schema: object }) => string : null
  return (route) => {
    let serializer = cache.get(route.schema)
    if (!serializer) cache.set(route.schema, serializer = source ? keptSerializer(route, setup, source) : compile(route))
    return serializer
  }
}

function keptSerializer (route: { schema: object }, setup: string, source: (route: { schema: object }) => string): Serializer {
  const file = codeFile('s', setup, route.schema)
  const found = kept<Serializer>(file)
  if (found) return found
  keep(file, source(route))
  return require(file) as Serializer // eslint-disable-line @typescript-eslint/no-require-imports -- fast-json-stringify's standalone code is a CommonJS module
}

export const sharedCompilers = { buildValidator, buildSerializer }
