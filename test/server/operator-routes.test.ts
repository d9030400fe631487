/**
 * Roles, table-driven (issue 10, item 6): every route of the contract is found by reading types/ (each
 * module's exported route groups, so that a route added later is in the table without touching this
 * file), and then:
 *
 *  - every `operator` route answers an anonymous caller 401 and a shopper 403, and every `user` route an
 *    anonymous caller 401, whatever comes with the request: no body, an empty body, an invalid body, a
 *    valid body (built from the route's own schema and checked valid by Ajv), a file upload
 *    (multipart), raw bytes, a body over the size limit, a bad bearer token; never a 400, 413 or 415;
 *  - nothing in the database changed (every table, row for row);
 *  - the contract and the server agree: every contract route is registered, every route the server
 *    registers under the API is in the contract (or is one of the few documented exceptions), and a
 *    path under /api/operator/ is declared `operator`. A route registered by hand (outside defineRoute)
 *    is caught: the check is run on an app with such a route added.
 */
import fs from 'node:fs'
import path from 'node:path'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import { sql } from 'kysely'
import type { FastifyInstance } from 'fastify'
import type { RouteDef } from '../../types/api'
import { registeredRoutes } from '../../server/src/http/openapi'
import type { Db } from '../../server/src/db'
import type { Dialect } from '../../server/src/db/dialect'
import { buildApp } from '../../server/src/app'
import { loadConfig } from '../../server/src/config'
import { createTestDatabase, testDialects } from './support/db'
import { createTestApp, envFor, loginToken, makeUser, nextIp, PREFIX, type TestApp } from './support/app'
import { makeSeries } from './support/shop'

// ---- the contract, read from types/ ---------------------------------------------------------------------

interface ContractRoute { id: string; def: RouteDef }

const isRouteDef = (v: unknown): v is RouteDef => {
  const d = v as Partial<RouteDef> | null
  return !!d && typeof d === 'object' && typeof d.url === 'string' && (d.method === 'GET' || d.method === 'POST') &&
    ['none', 'optional', 'user', 'operator'].includes(d.auth as string) && typeof d.tag === 'string'
}

/** Every RouteDef exported by a module of types/ (in route groups: objects whose values are routes). */
export function contractRoutes (): ContractRoute[] {
  const dir = path.resolve(__dirname, '../../types')
  const found = new Map<string, ContractRoute>()
  for (const file of fs.readdirSync(dir).filter(f => f.endsWith('.ts') && !f.endsWith('.d.ts')).sort()) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(path.join(dir, file)) as Record<string, unknown>
    for (const [groupName, group] of Object.entries(mod)) {
      if (!group || typeof group !== 'object') continue
      for (const [name, def] of Object.entries(group as Record<string, unknown>)) {
        if (!isRouteDef(def)) continue
        const key = `${def.method} ${def.url}`
        if (!found.has(key)) found.set(key, { id: `${file.replace(/\.ts$/, '')}.${groupName}.${name} (${key})`, def })
      }
    }
  }
  return [...found.values()]
}

/** Registered under the API but not calls of the contract: the document, its docs page, WeChat Pay's notification (signed by WeChat Pay). */
const OUTSIDE_CONTRACT = [/^\/openapi\.json$/, /^\/docs(\/|$)/, /^\/generalOrder\/notify\/wechat$/]

/** What does not hold between the contract and the routes an app registered (empty: all is well). */
export function contractProblems (app: FastifyInstance, routes: ContractRoute[]): string[] {
  const problems: string[] = []
  const registered = registeredRoutes(app).filter(r => r.method !== 'HEAD' && r.url.startsWith(`${PREFIX}/`))
  const contract = new Map(routes.map(r => [`${r.def.method} ${PREFIX}${r.def.url}`, r]))
  for (const r of registered) {
    const local = r.url.slice(PREFIX.length)
    if (contract.has(`${r.method} ${r.url}`)) continue
    if (OUTSIDE_CONTRACT.some(re => re.test(local))) continue
    problems.push(`${r.method} ${r.url} is registered but is not a route of the contract (types/): nothing checks who may call it`)
  }
  const have = new Set(registered.map(r => `${r.method} ${r.url}`))
  for (const [key, r] of contract) {
    if (!have.has(key) && !r.def.devOnly) problems.push(`${r.id} is in the contract but not registered`)
    if (/\/operator\//.test(r.def.url) && r.def.auth !== 'operator') problems.push(`${r.id} is under /operator/ but declared auth '${r.def.auth}'`)
  }
  return problems
}

// ---- bodies ------------------------------------------------------------------------------------------------

interface Schema {
  type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; items?: Schema; anyOf?: Schema[]
  enum?: unknown[]; const?: unknown; minimum?: number; maximum?: number; minLength?: number; maxLength?: number
  pattern?: string; format?: string; minItems?: number
}

/** Strings tried for a string field, the first that fits its pattern and length is taken. */
const STRING_CANDIDATES = ['abcdEFGH1234wxyz', '北京南', 'SHA', 'abcdefgh', '13800000001', '2000-01-01', '1234', 'x', '/pages/home/index', 'a=1', '/media/art/1f381.webp', 'https://shop.example/a.png', `/media/u/${'0'.repeat(64)}.pdf`]

/** A valid value of a schema (every property, optional ones included), or undefined when none is found. */
export function sample (s: Schema): unknown {
  if (s.const !== undefined) return s.const
  if (s.enum) return s.enum[0]
  if (s.anyOf) return sample(s.anyOf.find(o => o.type !== 'null') ?? s.anyOf[0])
  const type = Array.isArray(s.type) ? s.type[0] : s.type
  switch (type) {
    case 'object': return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, sample(v)]))
    case 'array': return Array.from({ length: Math.max(1, s.minItems ?? 1) }, (_, i) => {
      const v = sample(s.items ?? {})
      return typeof v === 'number' ? v + i : v
    })
    case 'integer': case 'number': return Math.max(s.minimum ?? 1, 1)
    case 'boolean': return true
    case 'null': return null
    case 'string': {
      if (s.format === 'email') return 'someone@example.com'
      if (s.format === 'date-time') return '2026-03-01T08:00:00.000Z'
      return STRING_CANDIDATES.find(c => c.length >= (s.minLength ?? 0) && c.length <= (s.maxLength ?? Infinity) &&
        (!s.pattern || new RegExp(s.pattern, 'u').test(c)))
    }
    default: return {}
  }
}

/** Wrong in every field it can be: each field the wrong type, plus one the schema does not know. */
function invalid (s: Schema): Record<string, unknown> {
  return { ...Object.fromEntries(Object.keys(s.properties ?? {}).map(k => [k, [{ wrong: true }]])), notAField: '\u0000' }
}

interface Variant { name: string; payload?: string | Buffer; contentType?: string; query?: string; token?: string }

const MULTIPART = [
  '--XyZ', 'Content-Disposition: form-data; name="file"; filename="a.png"', 'Content-Type: image/png', '', '\u0089PNG fake', '--XyZ--', ''
].join('\r\n')

function variantsFor (def: RouteDef): Variant[] {
  const body = (def.body ?? { type: 'object', properties: {} }) as Schema
  const query = (def.querystring ?? { type: 'object', properties: {} }) as Schema
  const qs = (v: Record<string, unknown>) => new URLSearchParams(Object.entries(v).map(([k, x]): [string, string] => [k, typeof x === 'string' ? x : JSON.stringify(x)])).toString()
  const json = 'application/json'
  const list: Variant[] = [
    { name: 'no body' },
    { name: 'empty body', payload: '{}', contentType: json },
    { name: 'invalid body', payload: JSON.stringify(invalid(body)), contentType: json },
    { name: 'valid body', payload: JSON.stringify(sample(body)), contentType: json },
    { name: 'malformed JSON', payload: '{"a":', contentType: json },
    { name: 'file upload (multipart)', payload: MULTIPART, contentType: 'multipart/form-data; boundary=XyZ' },
    { name: 'raw bytes', payload: Buffer.from([0, 1, 2, 254, 255]), contentType: 'application/octet-stream' },
    { name: 'a body over the size limit', payload: JSON.stringify({ pad: 'x'.repeat(200 * 1024) }), contentType: json },
    { name: 'invalid query', query: qs(invalid(query)) },
    { name: 'valid query', query: qs(sample(query) as Record<string, unknown>) },
    { name: 'a token that is no session', payload: JSON.stringify(sample(body)), contentType: json, token: 'a'.repeat(64) }
  ]
  return def.method === 'GET' ? list.filter(v => v.payload === undefined || v.name === 'a token that is no session') : list
}

// ---- the database ----------------------------------------------------------------------------------------------

/** Every table, row for row (ordered), as JSON. */
async function snapshot (db: Db, dialect: Dialect): Promise<Record<string, string>> {
  const tables = dialect === 'sqlite'
    ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)).rows.map(r => r.name)
    : (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)).rows.map(r => r.name)
  const out: Record<string, string> = {}
  for (const table of tables.sort()) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db)).rows
    out[table] = JSON.stringify(rows.map(r => JSON.stringify(r, (_k, v) => typeof v === 'bigint' ? String(v) : v)).sort())
  }
  return out
}

// ---- the tests -------------------------------------------------------------------------------------------------

const ROUTES = contractRoutes()
const OPERATOR = ROUTES.filter(r => r.def.auth === 'operator')
const USER = ROUTES.filter(r => r.def.auth === 'user')

test('the table is read from types/: every operator route of the contract is in it', () => {
  // the operator calls that existed when this test was written; any later one joins by itself
  const urls = OPERATOR.map(r => r.def.url)
  for (const url of ['/api/operator/users', '/api/operator/roleSave', '/api/operator/audit', '/api/operator/recipeSave',
    '/api/operator/settingsSave', '/api/operator/withdrawApprove', '/generalOrder/deliver']) expect(urls).toContain(url)
  expect(OPERATOR.length).toBeGreaterThanOrEqual(13)
  expect(USER.length).toBeGreaterThanOrEqual(30)
})

test('a valid body is built for every route (checked by Ajv as Fastify checks it)', () => {
  const ajv = new Ajv({ strict: false, allErrors: true })
  addFormats(ajv)
  const refused: string[] = []
  for (const r of [...OPERATOR, ...USER]) {
    for (const [part, schema] of [['body', r.def.body], ['query', r.def.querystring]] as const) {
      if (!schema) continue
      const validate = ajv.compile(schema as object)
      if (!validate(sample(schema as Schema))) refused.push(`${r.id} ${part}: ${ajv.errorsText(validate.errors)} (add a fitting string to STRING_CANDIDATES)`)
    }
  }
  expect(refused).toEqual([])
})

describe.each(testDialects())('roles on %s', (dialect) => {
  let t: TestApp
  let shopper: string
  beforeAll(async () => {
    t = await createTestApp(dialect)
    // something for the calls to change if they got through: a series, an operator, a shopper
    await makeSeries(t.db, t.clock)
    await makeUser(t.db, t.clock, { role: 'operator' })
    const s = await makeUser(t.db, t.clock)
    shopper = await loginToken(t.app, s.user_name!, s.password)
  }, 60000)
  afterAll(async () => { await t?.close() })

  test('the contract and the registered routes agree (nothing is registered outside the contract)', () => {
    expect(contractProblems(t.app, ROUTES)).toEqual([])
  })

  const send = (def: RouteDef, v: Variant, token: string | undefined) => t.app.inject({
    method: def.method,
    url: `${PREFIX}${def.url}${v.query ? `?${v.query}` : ''}`,
    headers: { ...(v.contentType ? { 'content-type': v.contentType } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}), 'accept-language': 'en' },
    remoteAddress: nextIp(),
    ...(v.payload !== undefined ? { payload: v.payload } : {})
  })

  test(`every operator route: anonymous 401, shopper 403, before anything about the request is read; nothing changes (${OPERATOR.length} routes)`, async () => {
    const before = await snapshot(t.db, dialect)
    const wrong: string[] = []
    let sent = 0
    for (const r of OPERATOR) {
      for (const v of variantsFor(r.def)) {
        for (const [who, token, want, message] of [
          ['anonymous', v.token, 401, 'Not logged in, or the session has expired'],
          ['shopper', v.token ?? shopper, v.token ? 401 : 403, v.token ? 'Not logged in, or the session has expired' : 'Only an operator can do this']
        ] as const) {
          const res = await send(r.def, v, token)
          sent++
          let body: { code?: number; message?: string } = {}
          try { body = res.json() } catch { /* reported below */ }
          if (res.statusCode !== 200 || body.code !== want || body.message !== message) {
            wrong.push(`${r.id} ${who} with ${v.name}: HTTP ${res.statusCode} ${res.body.slice(0, 160)} (want code ${want})`)
          }
        }
      }
    }
    expect(wrong).toEqual([])
    expect(sent).toBeGreaterThanOrEqual(OPERATOR.length * 2 * 3)
    expect(await snapshot(t.db, dialect)).toEqual(before)
  }, 120000)

  test(`every user route: anonymous 401 before any 400 (${USER.length} routes); nothing changes`, async () => {
    const before = await snapshot(t.db, dialect)
    const wrong: string[] = []
    for (const r of USER) {
      for (const v of variantsFor(r.def)) {
        const res = await send(r.def, v, v.token)
        let body: { code?: number } = {}
        try { body = res.json() } catch { /* reported below */ }
        if (res.statusCode !== 200 || body.code !== 401) wrong.push(`${r.id} anonymous with ${v.name}: HTTP ${res.statusCode} ${res.body.slice(0, 160)}`)
      }
    }
    expect(wrong).toEqual([])
    expect(await snapshot(t.db, dialect)).toEqual(before)
  }, 120000)

  test('the checks can fail: a route registered by hand (not through defineRoute) is reported, and it does let anyone in', async () => {
    const database = await createTestDatabase(dialect)
    const app = await buildApp({ config: loadConfig(envFor({})), database: database.handle, maintenance: false })
    // the mistake the table guards against: an upload added with app.post instead of defineRoute
    app.post(`${PREFIX}/api/operator/rogueUpload`, async () => ({ code: 200, message: 'OK', data: 'changed' }))
    await app.ready()
    try {
      expect(contractProblems(app, ROUTES)).toEqual([`POST ${PREFIX}/api/operator/rogueUpload is registered but is not a route of the contract (types/): nothing checks who may call it`])
      const res = await app.inject({ method: 'POST', url: `${PREFIX}/api/operator/rogueUpload`, payload: '{}', headers: { 'content-type': 'application/json' } })
      expect(res.json()).toMatchObject({ code: 200, data: 'changed' })
      // and a contract route declared under /operator/ with a weaker auth is reported too
      const strong = OPERATOR.find(r => r.def.url.includes('/operator/'))!
      const weak = { id: 'made-up', def: { ...strong.def, auth: 'user' as const } }
      expect(contractProblems(app, [...ROUTES.filter(r => r !== strong), weak])).toContain('made-up is under /operator/ but declared auth \'user\'')
    } finally {
      await app.close()
      await database.drop()
    }
  }, 60000)
})
