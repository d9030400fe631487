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
import { AjvCompiler } from '@fastify/ajv-compiler'
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'

type Serializer = (data: unknown) => string
type SerializerFactory = (externalSchemas: unknown, options: unknown) => (route: { schema: object }) => Serializer

const buildValidator = AjvCompiler()
const defaultSerializers = SerializerSelector() as unknown as SerializerFactory
/** Serializers by the factory's arguments (the shared schemas and the options), then by schema. */
const serializers = new Map<string, WeakMap<object, Serializer>>()

const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  const key = JSON.stringify([externalSchemas, options])
  const cache = serializers.get(key) ?? new WeakMap<object, Serializer>()
  serializers.set(key, cache)
  const compile = defaultSerializers(externalSchemas, options)
  return (route) => {
    let serializer = cache.get(route.schema)
    if (!serializer) cache.set(route.schema, serializer = compile(route))
    return serializer
  }
}

export const sharedCompilers = { buildValidator, buildSerializer }
