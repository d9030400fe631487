/**
 * The OpenAPI 3.1 document, generated from the routes as they are registered (every call of the contract
 * carries its schemas, summary and tag), served at `${API_PREFIX}/openapi.json`; outside production a
 * readable docs page (Swagger UI, served from the package, no third-party requests) at `${API_PREFIX}/docs`.
 * Routes without a tag (the H5 files, /media) are not part of the API and stay out of the document.
 *
 * Why 3.1: its schemas are JSON Schema 2020-12, so the contract's `null` (`anyOf [X, {type: 'null'}]`) and
 * its tuples (a polyline's index pair, an OCR box) are published as they are, and generators give integrators
 * the exact types (`X | null`, `[number, number]`); OpenAPI 3.0 has neither `type: 'null'` nor tuples. The
 * server validates requests with the TypeBox schemas as written (Ajv, draft-07), untouched: only the
 * published copy is rewritten (draft-07 tuples to 2020-12, see `toJsonSchema2020`).
 */
import type { FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { Config } from '../config'
import { DATA_ROWS } from '../../../types/data'

export const OPENAPI_PATH = '/openapi.json'
export const DOCS_PATH = '/docs'

const DESCRIPTION = [
  'The API of the blind-box shop (spec section 7 and the shop\'s own calls).',
  '',
  'Every handled outcome is HTTP 200 with the envelope `{code, message, data}`: `code` 200 is success;',
  '400 bad input (`data.field` names the field, `data.rule` the broken rule), 401 not logged in,',
  '403 forbidden, 404 not found, 409 conflict, 422 business rule, 429 too many requests (`data.retryAfter`).',
  'Messages follow `Accept-Language` (zh or en). HTTP error statuses mean an infrastructure failure.',
  'Objects are strict: an unknown field is a 400. Log in through one of the /login calls and send',
  '`Authorization: Bearer <token>`. The headers APP_ID, APP_TYPE and X_Env identify the client.'
].join('\n')

export interface RegisteredRoute { method: string; url: string; documented: boolean }

const registered = new WeakMap<FastifyInstance, RegisteredRoute[]>()

/** Every route registered on the app after registerOpenApi, and whether it is part of the document. */
export function registeredRoutes (app: FastifyInstance): RegisteredRoute[] {
  return registered.get(app) ?? []
}

/** Before the routes: the document is collected from every route registered afterwards. */
export async function registerOpenApi (app: FastifyInstance): Promise<void> {
  const routes: RegisteredRoute[] = []
  registered.set(app, routes)
  app.addHook('onRoute', (options) => {
    const tags = (options.schema as { tags?: string[] } | undefined)?.tags
    for (const method of ([] as string[]).concat(options.method)) {
      routes.push({ method, url: options.url, documented: Boolean(tags?.length) })
    }
  })
  await app.register(swagger, {
    hideUntagged: true,
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Pickbox shop API', version: '1', description: DESCRIPTION },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The token of a login call' } },
        // the rows the table API answers (its `data` depends on the table and method)
        schemas: Object.fromEntries(Object.entries(DATA_ROWS).map(([table, row]) => [`DataRow_${table}`, row as object]))
      }
    },
    transformObject: (collected) => publishedDocument(('openapiObject' in collected ? collected.openapiObject : collected.swaggerObject) as Json)
  })
}

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Keywords whose value is one schema, a list of schemas, or a map of names to schemas. */
const ONE_SCHEMA = ['items', 'additionalItems', 'additionalProperties', 'unevaluatedItems', 'unevaluatedProperties',
  'not', 'contains', 'propertyNames', 'if', 'then', 'else']
const SCHEMA_LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']
const SCHEMA_MAP = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']

/**
 * One schema as JSON Schema 2020-12 (OpenAPI 3.1), in place: a draft-07 tuple (`items` a list, closed by
 * `additionalItems`) becomes `prefixItems` closed by `items`, which accepts exactly the same arrays.
 */
function toJsonSchema2020 (schema: unknown): void {
  if (!isObject(schema)) return
  for (const key of ONE_SCHEMA) if (isObject(schema[key])) toJsonSchema2020(schema[key])
  for (const key of SCHEMA_LIST) if (Array.isArray(schema[key])) (schema[key] as unknown[]).forEach(toJsonSchema2020)
  for (const key of SCHEMA_MAP) if (isObject(schema[key])) Object.values(schema[key] as Json).forEach(toJsonSchema2020)
  if (Array.isArray(schema.items)) {
    schema.prefixItems = schema.items
    delete schema.items
    // draft-07: without additionalItems, items after the tuple are free; 2020-12's default is the same
    if ('additionalItems' in schema) schema.items = schema.additionalItems
  }
  // draft-07 ignores additionalItems without a list in items; 2020-12 does not know the keyword
  delete schema.additionalItems
}

/** The schemas of a parameter, header or media-type map (`content`). */
function convertContent (holder: unknown): void {
  if (!isObject(holder)) return
  if ('schema' in holder) toJsonSchema2020(holder.schema)
  if (isObject(holder.content)) for (const media of Object.values(holder.content)) if (isObject(media)) toJsonSchema2020(media.schema)
  if (isObject(holder.headers)) Object.values(holder.headers).forEach(convertContent)
}

function convertOperation (operation: unknown): void {
  if (!isObject(operation)) return
  if (Array.isArray(operation.parameters)) operation.parameters.forEach(convertContent)
  convertContent(operation.requestBody)
  if (isObject(operation.responses)) Object.values(operation.responses).forEach(convertContent)
}

/**
 * The document as published: a copy of what @fastify/swagger collected (the route schemas themselves,
 * compiled by the server's Ajv, are never touched), with every schema in JSON Schema 2020-12.
 */
function publishedDocument (collected: Json): Json {
  const doc = JSON.parse(JSON.stringify(collected)) as Json
  if (isObject(doc.paths)) {
    for (const item of Object.values(doc.paths)) {
      if (!isObject(item)) continue
      if (Array.isArray(item.parameters)) item.parameters.forEach(convertContent)
      for (const [key, operation] of Object.entries(item)) if (key !== 'parameters') convertOperation(operation)
    }
  }
  const components = doc.components
  if (isObject(components)) {
    if (isObject(components.schemas)) Object.values(components.schemas).forEach(toJsonSchema2020)
    for (const key of ['parameters', 'headers', 'requestBodies', 'responses']) {
      if (isObject(components[key])) Object.values(components[key] as Json).forEach(convertContent)
    }
  }
  return doc
}

/** After the routes: the document and (outside production) the docs page. */
export async function serveOpenApi (app: FastifyInstance, config: Config): Promise<void> {
  const prefix = config.apiPrefix
  app.get(`${prefix}${OPENAPI_PATH}`, async (_request, reply) => reply.header('cache-control', 'no-cache').send(app.swagger()))
  if (config.isProduction) return
  await app.register(swaggerUi, {
    routePrefix: `${prefix}${DOCS_PATH}`,
    uiConfig: { docExpansion: 'list', deepLinking: true, validatorUrl: null, defaultModelsExpandDepth: 0 },
    staticCSP: true,
    transformSpecification: () => app.swagger()
  })
}
