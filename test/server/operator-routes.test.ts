/**
 * Authorization before validation, for every call of the contract (issue 10), on SQLite and
 * PostgreSQL. The route list is read from types/ itself: every exported route definition of every
 * module there, so a call added later is covered without touching this test. Each `operator` call
 * answers 401 to an anonymous caller and 403 to a shopper, and each `user` call 401 to an anonymous
 * caller, whatever the body (none, empty, malformed, wrong types, plausible): never a 400 naming a
 * field, never a 5xx. And nothing changes in the database.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { RouteDef } from '../../types/api'
import { testDialects } from './support/db'
import { call, createTestApp, makeUser, loginToken, type TestApp } from './support/app'

const TYPES = path.resolve(__dirname, '../../types')

function isRouteDef (v: unknown): v is RouteDef {
  return !!v && typeof v === 'object' && typeof (v as RouteDef).url === 'string' && typeof (v as RouteDef).auth === 'string' &&
    ((v as RouteDef).method === 'GET' || (v as RouteDef).method === 'POST')
}

/** Every route definition exported from types/*.ts (groups of routes, e.g. `securityRoutes`). */
function contractRoutes (): RouteDef[] {
  const found = new Map<string, RouteDef>()
  for (const file of fs.readdirSync(TYPES).filter(f => f.endsWith('.ts') && !f.endsWith('.d.ts'))) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(path.join(TYPES, file)) as Record<string, unknown>
    for (const value of Object.values(mod)) {
      if (!value || typeof value !== 'object') continue
      for (const def of Object.values(value as Record<string, unknown>)) {
        if (isRouteDef(def)) found.set(`${def.method} ${def.url}`, def)
      }
    }
  }
  return [...found.values()]
}

const BODIES: Array<[string, unknown]> = [
  ['no body', undefined],
  ['empty', {}],
  ['wrong types', { page: 'x', size: -1, id: 'nope', seriesId: [], amountCents: 'lots', status: 7, code: {}, settings: 'x' }],
  ['extra fields', { junk: true, __proto__: { admin: true } }],
  ['plausible', { page: 1, size: 10, seriesId: 1, correctionId: 1, approve: true, withdrawalId: 1, shipmentId: 1, carrier: 'shunfeng', trackingNo: 'SF1234567890', shipFeeCents: 0 }]
]

/** Rows of the tables an operator call could change. */
async function snapshot (t: TestApp): Promise<Record<string, number>> {
  const out: Record<string, number> = {}
  for (const table of ['audit_log', 'ledger_transactions', 'shop_settings', 'combine_recipes', 'withdrawals', 'shipments', 'birth_date_corrections', 'series', 'designs', 'users', 'sessions'] as const) {
    const r = await t.db.selectFrom(table).select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirst()
    out[table] = Number(r?.n ?? 0)
  }
  return out
}

const routes = contractRoutes()

test('the contract has operator calls and user calls to check', () => {
  expect(routes.filter(r => r.auth === 'operator').length).toBeGreaterThanOrEqual(10)
  expect(routes.filter(r => r.auth === 'user').length).toBeGreaterThanOrEqual(30)
})

describe.each(testDialects())('authorization before validation on %s', (dialect) => {
  let t: TestApp
  let shopper: string
  beforeAll(async () => {
    t = await createTestApp(dialect)
    const u = await makeUser(t.db, t.clock)
    shopper = await loginToken(t.app, u.user_name!, u.password)
  })
  afterAll(async () => { await t.close() })

  const send = (def: RouteDef, body: unknown, token?: string) => call(t.app, def.method, def.url.replace(/:(\w+)/g, 'x'), def.method === 'GET' ? undefined : body, { token })

  test('every operator call: 401 anonymous, 403 for a shopper, whatever the body; nothing changes', async () => {
    const before = await snapshot(t)
    const wrong: string[] = []
    for (const def of routes.filter(r => r.auth === 'operator')) {
      for (const [what, body] of BODIES) {
        const anon = await send(def, body)
        if (anon.status >= 500 || anon.body.code !== 401) wrong.push(`${def.method} ${def.url} (${what}) anonymous: ${anon.status} ${anon.body.code}`)
        const shop = await send(def, body, shopper)
        if (shop.status >= 500 || shop.body.code !== 403) wrong.push(`${def.method} ${def.url} (${what}) shopper: ${shop.status} ${shop.body.code} ${shop.body.message}`)
      }
    }
    expect(wrong).toEqual([])
    expect(await snapshot(t)).toEqual(before)
  })

  test('every user call: 401 anonymous whatever the body; nothing changes', async () => {
    const before = await snapshot(t)
    const wrong: string[] = []
    for (const def of routes.filter(r => r.auth === 'user')) {
      for (const [what, body] of BODIES) {
        const anon = await send(def, body)
        if (anon.status >= 500 || anon.body.code !== 401) wrong.push(`${def.method} ${def.url} (${what}): ${anon.status} ${anon.body.code}`)
      }
    }
    expect(wrong).toEqual([])
    expect(await snapshot(t)).toEqual(before)
  })
})
