/**
 * The OpenAPI 3 document, generated from the routes as they are registered (every call of the contract
 * carries its schemas, summary and tag), served at `${API_PREFIX}/openapi.json`; outside production a
 * readable docs page (Swagger UI, served from the package, no third-party requests) at `${API_PREFIX}/docs`.
 * Routes without a tag (the H5 files, /media) are not part of the API and stay out of the document.
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
      openapi: '3.0.3',
      info: { title: 'Pickbox shop API', version: '1', description: DESCRIPTION },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The token of a login call' } },
        // the rows the table API answers (its `data` depends on the table and method)
        schemas: Object.fromEntries(Object.entries(DATA_ROWS).map(([table, row]) => [`DataRow_${table}`, row as object]))
      }
    }
  })
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
