/**
 * The OpenAPI document is generated from the routes: every API route the server registers is in it,
 * every call of the contract (types/) is registered, and each operation carries its request and
 * answer schemas. The docs page exists outside production only.
 */
import { accountRoutes } from '../../types/accounts'
import { orderRoutes, shopRoutes } from '../../types/shop'
import { dataRoutes } from '../../types/data'
import { geoRoutes } from '../../types/geo'
import { expressRoutes } from '../../types/express'
import { withdrawRoutes } from '../../types/withdraw'
import type { RouteDef } from '../../types/api'
import Fastify from 'fastify'
import { Type } from 'typebox'
import { route } from '../../types/api'
import { Obj } from '../../types/schema'
import { registeredRoutes } from '../../server/src/http/openapi'
import { defineRoute } from '../../server/src/http/route'
import type { Api, AppContext } from '../../server/src/context'
import { createTestApp, PREFIX, type TestApp } from './support/app'

const CONTRACT: Record<string, RouteDef> = { ...accountRoutes, ...shopRoutes, ...orderRoutes, ...dataRoutes, ...geoRoutes, ...expressRoutes, ...withdrawRoutes }

interface Operation {
  summary?: string
  tags?: string[]
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }
  parameters?: Array<{ in: string; name: string; required?: boolean }>
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>
  security?: unknown[]
}
interface Doc { openapi: string; paths: Record<string, Record<string, Operation>> }

async function documentOf (t: TestApp): Promise<Doc> {
  const res = await t.app.inject({ method: 'GET', url: `${PREFIX}/openapi.json` })
  expect(res.statusCode).toBe(200)
  return res.json() as Doc
}

/** Fastify writes path parameters as :name, OpenAPI as {name}. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')

describe('the OpenAPI document', () => {
  let t: TestApp
  let doc: Doc
  beforeAll(async () => {
    t = await createTestApp('sqlite')
    doc = await documentOf(t)
  })
  afterAll(async () => { await t.close() })

  test('is OpenAPI 3 and lists every API route the server registered, with its method', () => {
    expect(doc.openapi).toMatch(/^3\./)
    const api = registeredRoutes(t.app).filter(r => r.url.startsWith(`${PREFIX}/`) && r.method !== 'HEAD')
    // the document itself and the docs page are not calls of the API
    const calls = api.filter(r => r.url !== `${PREFIX}/openapi.json` && !r.url.startsWith(`${PREFIX}/docs`))
    expect(calls.length).toBeGreaterThanOrEqual(Object.keys(CONTRACT).length)
    const missing = calls.filter(r => !doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()])
    expect(missing).toEqual([])
    expect(calls.filter(r => !r.documented)).toEqual([])
  })

  test('every call of the contract is registered and documented with its schemas', () => {
    for (const [name, def] of Object.entries(CONTRACT)) {
      const op = doc.paths[`${PREFIX}${def.url}`]?.[def.method.toLowerCase()]
      if (!op) throw new Error(`${name} (${def.method} ${def.url}) is not in the document`)
      expect(op.summary).toBe(def.summary)
      expect(op.tags).toEqual([def.tag])
      if (def.body) expect(op.requestBody?.content['application/json'].schema).toBeDefined()
      if (def.querystring) {
        const names = Object.keys((def.querystring as { properties: object }).properties)
        expect(op.parameters?.filter(p => p.in === 'query').map(p => p.name).sort()).toEqual(names.sort())
      }
      if (def.raw) {
        expect(op.responses['200']?.content?.[def.raw.contentType]).toBeDefined()
      } else {
        const answer = op.responses['200']?.content?.['application/json']?.schema as { properties?: Record<string, unknown> } | undefined
        expect(answer?.properties && Object.keys(answer.properties).sort()).toEqual(['code', 'data', 'message'])
      }
      if (def.auth === 'user' || def.auth === 'operator') expect(op.security).toEqual([{ bearer: [] }])
    }
  })

  test('the rows of the table API are documented as components', () => {
    const schemas = (doc as unknown as { components: { schemas: Record<string, { properties: object }> } }).components.schemas
    for (const table of ['series', 'designs', 'cases', 'addresses', 'prizes']) {
      expect(Object.keys(schemas[`DataRow_${table}`].properties)).toContain('id')
    }
  })

  test('the docs page is served from the package (no third-party host)', async () => {
    const page = await t.app.inject({ method: 'GET', url: `${PREFIX}/docs/` })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('swagger-ui')
    expect(page.body).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost)[a-z0-9.-]+\.[a-z]{2,}\/[^"']*\.(js|css)/i)
    const init = await t.app.inject({ method: 'GET', url: `${PREFIX}/docs/swagger-initializer.js` })
    expect(init.statusCode).toBe(200)
  })
})

describe('the OpenAPI document in production', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { NODE_ENV: 'production' } })
  })
  afterAll(async () => { await t.close() })

  test('is served, leaves out the development-only calls, and there is no docs page', async () => {
    const doc = await documentOf(t)
    expect(doc.paths[`${PREFIX}/api/casePurchase`]).toBeDefined()
    expect(doc.paths[`${PREFIX}/api/sandboxPay`]).toBeUndefined()
    const page = await t.app.inject({ method: 'GET', url: `${PREFIX}/docs/` })
    expect(page.json()).toMatchObject({ code: 404 })
  })
})

describe('answers are serialised by their schema', () => {
  test('a field the schema does not name never leaves the server', async () => {
    const app = Fastify()
    app.decorateRequest('locale', 'en')
    const def = route({
      method: 'POST', url: '/leak', auth: 'none', tag: 'test', summary: 'leak', body: Obj({}),
      data: Type.Object({ id: Type.Integer(), name: Type.String() })
    })
    const ctx = { config: { isProduction: false } } as unknown as AppContext
    // a handler that returns more than its schema says (a row with its secrets)
    defineRoute(app as unknown as Api, ctx, def, async () => ({ id: 7, name: 'Ada', password_hash: 'argon2id$secret' }) as unknown as { id: number; name: string })
    const res = await app.inject({ method: 'POST', url: '/leak', payload: {} })
    expect(res.json()).toEqual({ code: 200, message: 'OK', data: { id: 7, name: 'Ada' } })
    expect(res.body).not.toContain('secret')
    await app.close()
  })
})
