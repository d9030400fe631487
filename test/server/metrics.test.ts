/**
 * Metrics (issue 26 item 3): GET /metrics answers Prometheus' text format to the scraper's METRICS_TOKEN
 * or an operator, and refuses everyone else as every operator call does (401, 403), whatever comes with
 * the request. What it counts is checked against what happened: a purchase and a refused one move the
 * counters by exactly that; the money counted per ledger account is what the ledger holds; a provider's
 * outage and refusal, a rate limit's refusal, an engine's run; the request histogram names the route
 * pattern, never the URL; the books' imbalance gauge reads the books. With WORKERS=2 (PostgreSQL) one
 * scrape shows both processes' requests. The Grafana dashboard and the alerting rules (ops/) name only
 * metrics the server has.
 */
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import YAML from 'yaml'
import { sql } from 'kysely'
import { testDialects } from './support/db'
import { createTestApp, get, loginToken, makeUser, nextIp, post, PREFIX, type TestApp } from './support/app'
import { buy, currentCaseId, makeSeries, makeShopper, topUp } from './support/shop'
import * as tencent from '../support/providers/tencent'
import { loadConfig } from '../../server/src/config'
import type { Db } from '../../server/src/db'
import { postTransaction } from '../../server/src/domain/money/ledger'
import { addToWallet } from '../../server/src/domain/money/wallet'
import { newStore, startServer, type ServerProcess, type Store } from './support/server-process'

const TOKEN = 'metrics-token-0123456789abcdefghijklmnopqrstuv'
const ROOT = path.resolve(__dirname, '../..')

// ---- reading Prometheus' text format --------------------------------------------------------------------

interface Sample { name: string; labels: Record<string, string>; value: number }

/** The samples of a scrape (comment lines left out), labels unescaped. */
export function parseSamples (text: string): Sample[] {
  const samples: Sample[] = []
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!m) throw new Error(`not a sample line: ${line}`)
    const labels: Record<string, string> = {}
    if (m[2]) {
      for (const l of m[2].matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
        labels[l[1]] = l[2].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c))
      }
    }
    samples.push({ name: m[1], labels, value: Number(m[3]) })
  }
  return samples
}

/** The families a scrape declares (# TYPE lines): name to type. */
function familiesOf (text: string): Map<string, string> {
  return new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(m => [m[1], m[2]]))
}

/** The sum of the samples of `name` whose labels include `labels` (0 when there is none). */
function valueOf (samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples.filter(s => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((a, s) => a + s.value, 0)
}

// ---- the tests --------------------------------------------------------------------------------------------

describe.each(testDialects())('metrics on %s', (dialect) => {
  let t: TestApp
  let tx: tencent.FakeTencent
  let operator: string
  let shopperToken: string

  const scrapeAs = (headers: Record<string, string>, url = `${PREFIX}/metrics`) =>
    t.app.inject({ method: 'GET', url, headers, remoteAddress: '127.0.0.1' })
  const scrape = async (): Promise<{ text: string; samples: Sample[] }> => {
    const res = await scrapeAs({ authorization: `Bearer ${TOKEN}` })
    expect(res.statusCode).toBe(200)
    return { text: res.body, samples: parseSamples(res.body) }
  }

  beforeAll(async () => {
    tx = await tencent.start({ sk: tencent.SK })
    // (SQLite in a file, as the server runs it: a scrape reads the books on the reading connection, so it
    // need not wait for a transaction under way)
    t = await createTestApp(dialect, {
      env: { METRICS_TOKEN: TOKEN, TENCENT_MAP_KEY: tencent.KEY, TENCENT_MAP_SK: tencent.SK, TENCENT_MAP_API_BASE: tx.url },
      sqliteFile: true
    })
    const op = await makeUser(t.db, t.clock, { role: 'operator' })
    operator = await loginToken(t.app, op.user_name!, op.password)
    const shopper = await makeUser(t.db, t.clock)
    shopperToken = await loginToken(t.app, shopper.user_name!, shopper.password)
  })
  afterAll(async () => {
    await t?.close()
    await tx?.close()
  })

  test('refused without the token and to a shopper, as every operator call refuses (before anything is read)', async () => {
    const wrongToken = TOKEN.slice(0, -1) + (TOKEN.endsWith('v') ? 'w' : 'v')
    const cases: Array<[string, Record<string, string>, string, number]> = [
      ['nobody', {}, '', 401],
      ['a wrong token of the same length', { authorization: `Bearer ${wrongToken}` }, '', 401],
      ['the token with a character more', { authorization: `Bearer ${TOKEN}x` }, '', 401],
      ['the token in another scheme', { authorization: `Basic ${TOKEN}` }, '', 401],
      ['the token as a query parameter', {}, `?token=${TOKEN}`, 401],
      ['a shopper', { authorization: `Bearer ${shopperToken}` }, '', 403],
      ['a shopper with a query string and a body', { authorization: `Bearer ${shopperToken}`, 'content-type': 'application/json' }, '?name[]=%00&x=1', 403]
    ]
    for (const [who, headers, query, code] of cases) {
      const res = await scrapeAs(headers, `${PREFIX}/metrics${query}`)
      expect([who, res.statusCode, res.json()]).toEqual([who, 200, expect.objectContaining({ code, data: null })])
      expect(res.body).not.toContain('pickbox_')
    }
    // the token opens the metrics and nothing else: it is no session
    const other = await t.app.inject({ method: 'POST', url: `${PREFIX}/api/operator/users`, payload: {}, headers: { authorization: `Bearer ${TOKEN}` } })
    expect(other.json()).toMatchObject({ code: 401 })
  })

  test('answered to the token and to an operator: Prometheus\' text format, the shop\'s and the process\'s metrics', async () => {
    for (const headers of [{ authorization: `Bearer ${TOKEN}` }, { authorization: `Bearer ${operator}` }]) {
      const res = await scrapeAs(headers)
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8')
      const families = familiesOf(res.body)
      expect(families.get('pickbox_http_requests_total')).toBe('counter')
      expect(families.get('pickbox_http_request_duration_seconds')).toBe('histogram')
      expect(families.get('pickbox_books_imbalance_cents')).toBe('gauge')
      // prom-client's default metrics of the process
      expect(families.get('process_cpu_user_seconds_total')).toBe('counter')
      expect(families.get('nodejs_eventloop_lag_seconds')).toBe('gauge')
      expect(() => parseSamples(res.body)).not.toThrow()
    }
    // without METRICS_TOKEN only an operator may scrape: the token is nothing then
    const bare = await createTestApp(dialect)
    try {
      const res = await bare.app.inject({ method: 'GET', url: `${PREFIX}/metrics`, headers: { authorization: `Bearer ${TOKEN}` } })
      expect(res.json()).toMatchObject({ code: 401 })
    } finally {
      await bare.close()
    }
  })

  test('a purchase and a refused one move the counters by exactly that, and the money counted is what the ledger holds', async () => {
    const seriesId = await makeSeries(t.db, t.clock, { priceCents: 1250 })
    const buyer = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, buyer, 1250)
    const caseId = await currentCaseId(t.app, seriesId)
    const route = { method: 'POST', route: `${PREFIX}/api/casePurchase` }

    const before = (await scrape()).samples
    expect((await buy(t.app, buyer, { caseId, slots: [3] })).body.code).toBe(200)
    // the same slot again: sold (409), and to this very buyer (issue 48: slot.soldToYou, not "sold")
    expect((await buy(t.app, buyer, { caseId, slots: [3] })).body).toMatchObject({ code: 409, data: { slot: 3, boughtByYou: expect.any(Object) } })
    const after = (await scrape()).samples
    const moved = (name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels)

    expect(moved('pickbox_purchases_total')).toBe(1)
    expect(moved('pickbox_purchase_refusals_total')).toBe(1)
    expect(moved('pickbox_purchase_refusals_total', { reason: 'slot.soldToYou', code: '409' })).toBe(1)
    expect(moved('pickbox_http_requests_total', { ...route, status: '200', code: '200' })).toBe(1)
    expect(moved('pickbox_http_requests_total', { ...route, status: '200', code: '409' })).toBe(1)
    expect(moved('pickbox_http_request_duration_seconds_count', route)).toBe(2)
    // the money: 12.50 from the buyer's cash to the house's sales, nothing else
    expect(moved('pickbox_ledger_cents_total', { account: 'user_cash', direction: 'out' })).toBe(1250)
    expect(moved('pickbox_ledger_cents_total', { account: 'house_sales', direction: 'in' })).toBe(1250)
    expect(moved('pickbox_ledger_cents_total')).toBe(2500)

    // every account, in and out, as the ledger has it (this app has counted every line since the database was made)
    const lines = await t.db.selectFrom('ledger_lines').select(['account', 'amount_cents']).execute()
    expect(lines.length).toBeGreaterThanOrEqual(4)
    const ledger = new Map<string, { in: number; out: number }>()
    for (const l of lines) {
      const a = ledger.get(l.account) ?? { in: 0, out: 0 }
      if (Number(l.amount_cents) > 0) a.in += Number(l.amount_cents)
      else a.out -= Number(l.amount_cents)
      ledger.set(l.account, a)
    }
    const counted = new Map<string, { in: number; out: number }>()
    for (const s of after.filter(s => s.name === 'pickbox_ledger_cents_total')) {
      const a = counted.get(s.labels.account) ?? { in: 0, out: 0 }
      a[s.labels.direction as 'in' | 'out'] += s.value
      counted.set(s.labels.account, a)
    }
    expect(Object.fromEntries(counted)).toEqual(Object.fromEntries(ledger))

    // the database's side of the purchases
    if (dialect === 'sqlite') {
      expect(moved('pickbox_sqlite_group_commit_transactions_count')).toBeGreaterThanOrEqual(1)
      expect(valueOf(after, 'pickbox_sqlite_group_commit_transactions_sum')).toBeGreaterThanOrEqual(valueOf(after, 'pickbox_sqlite_group_commit_transactions_count'))
    } else {
      expect(moved('pickbox_db_pool_acquire_seconds_count')).toBeGreaterThanOrEqual(2)
      expect(valueOf(after, 'pickbox_db_pool_connections')).toBeGreaterThanOrEqual(1)
      expect(after.filter(s => s.name === 'pickbox_db_pool_waiting')).toEqual([expect.objectContaining({ value: 0 })])
    }
  })

  test('ledger lines count once their transaction has committed, and never when it rolls back', async () => {
    const user = await makeShopper(t.app, t.db, t.clock)
    const credit = (trx: Db, cents: number) => postTransaction(trx, t.clock.now, {
      kind: 'reward', reference: 'metrics test', idempotencyKey: null, userId: user.id,
      lines: [{ account: 'house_credit', amountCents: -cents }, { account: 'user_credit', userId: user.id, amountCents: cents }]
    })
    const counted = async () => valueOf((await scrape()).samples, 'pickbox_ledger_cents_total', { account: 'user_credit', direction: 'in' })
    const before = await counted()
    let seenInside = -1
    await expect(t.db.transaction().execute(async trx => {
      await credit(trx, 40)
      await addToWallet(trx, t.clock.now, user.id, { creditCents: 40 })
      seenInside = await counted()
      throw new Error('rolled back on purpose')
    })).rejects.toThrow('rolled back on purpose')
    // written but not committed: not counted, neither inside the transaction nor after its rollback
    expect(seenInside).toBe(before)
    expect(await counted()).toBe(before)
    await t.db.transaction().execute(async trx => {
      await credit(trx, 60)
      await addToWallet(trx, t.clock.now, user.id, { creditCents: 60 })
    })
    expect(await counted()).toBe(before + 60)
  })

  test('a provider\'s outage and refusal count against it; an engine\'s run counts by outcome', async () => {
    const token = (await makeShopper(t.app, t.db, t.clock)).token
    const before = (await scrape()).samples
    tx.next = 'http500'
    const down = await post(t.app, '/api/geocoder', { location: '39.984154,116.30749' }, { token })
    expect(down.status).toBe(502)
    tx.next = { json: { status: 311, message: 'key format error' } }
    expect((await post(t.app, '/api/geocoder', { location: '39.984154,116.30749' }, { token })).body).toMatchObject({ code: 422 })
    expect((await post(t.app, '/api/geocoder', { location: '39.984154,116.30749' }, { token })).body.code).toBe(200)
    const spoken = await post(t.app, '/api/text/tts', { text: 'hello' }, { token })
    expect(spoken.body.code).toBe(200)
    const after = (await scrape()).samples
    const moved = (name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels)
    expect(moved('pickbox_provider_calls_total', { provider: 'tencentMap', outcome: 'unavailable' })).toBe(1)
    expect(moved('pickbox_provider_calls_total', { provider: 'tencentMap', outcome: 'refused' })).toBe(1)
    expect(moved('pickbox_provider_calls_total', { provider: 'tencentMap', outcome: 'ok' })).toBe(1)
    expect(moved('pickbox_provider_call_duration_seconds_count', { provider: 'tencentMap' })).toBe(3)
    // the 502 is a 5xx answer of its route
    expect(moved('pickbox_http_requests_total', { route: `${PREFIX}/api/geocoder`, status: '502', code: '502' })).toBe(1)
    // text to speech: a run of the local engine, and a call of the provider the code calls 'tts'
    expect(moved('pickbox_engine_runs_total', { engine: 'tts', outcome: 'ok' })).toBe(1)
    expect(moved('pickbox_engine_run_duration_seconds_count', { engine: 'tts' })).toBe(1)
    expect(moved('pickbox_provider_calls_total', { provider: 'tts', outcome: 'ok' })).toBe(1)
    expect(after.filter(s => s.name === 'pickbox_task_queue_depth').map(s => [s.labels.queue, s.labels.state, s.value]).sort())
      .toEqual([['pdf', 'running', 0], ['pdf', 'waiting', 0]])
  })

  test('a rate limit\'s refusal counts by route', async () => {
    const phone = `139${String(Date.now()).slice(-8)}`
    const before = (await scrape()).samples
    const answers: number[] = []
    for (let i = 0; i < 3; i++) answers.push((await get(t.app, '/login/sms/code', { query: { phone }, ip: nextIp() })).body.code)
    // one code a minute per number: the first is sent, the next two refused
    expect(answers).toEqual([200, 429, 429])
    const after = (await scrape()).samples
    const route = `${PREFIX}/login/sms/code`
    expect(valueOf(after, 'pickbox_rate_limit_refusals_total', { route }) - valueOf(before, 'pickbox_rate_limit_refusals_total', { route })).toBe(2)
    expect(valueOf(after, 'pickbox_rate_limit_refusals_total') - valueOf(before, 'pickbox_rate_limit_refusals_total')).toBe(2)
    // the code went out through the SMS stand-in: one call of the provider
    expect(valueOf(after, 'pickbox_provider_calls_total', { provider: 'sms', outcome: 'ok' }) - valueOf(before, 'pickbox_provider_calls_total', { provider: 'sms', outcome: 'ok' })).toBe(1)
  })

  test('requests are labelled by their route pattern, never by the URL they came with', async () => {
    const secret = 'serverTime'
    expect((await post(t.app, `/api/${secret}`, {})).body.code).toBe(200)
    expect((await get(t.app, '/no-such/place-1234', { query: { phone: '13800138000' } })).body.code).toBe(404)
    const { text, samples } = await scrape()
    const generic = { method: 'POST', route: `${PREFIX}/api/:method_name` }
    expect(valueOf(samples, 'pickbox_http_request_duration_seconds_count', generic)).toBeGreaterThanOrEqual(1)
    expect(valueOf(samples, 'pickbox_http_request_duration_seconds_bucket', { ...generic, le: '+Inf' })).toBe(valueOf(samples, 'pickbox_http_request_duration_seconds_count', generic))
    expect(valueOf(samples, 'pickbox_http_requests_total', { method: 'GET', route: 'unmatched', code: '404' })).toBeGreaterThanOrEqual(1)
    const routes = new Set(samples.filter(s => s.name.startsWith('pickbox_http_')).map(s => s.labels.route))
    for (const r of routes) expect(r === 'unmatched' || r.startsWith('/')).toBe(true)
    for (const leak of [secret, 'no-such', 'place-1234', '13800138000', TOKEN]) expect(text).not.toContain(leak)
  })

  test('the books\' imbalance is read from the books on scrape: 0 while they hold, the cents they are out by when not', async () => {
    const imbalance = async () => Object.fromEntries((await scrape()).samples.filter(s => s.name === 'pickbox_books_imbalance_cents').map(s => [s.labels.check, s.value]))
    expect(await imbalance()).toEqual({ ledger: 0, wallets: 0 })
    const user = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, user, 500)
    // a line written past the ledger's rules (a transaction of one line), then a wallet changed by hand
    const { id } = await t.db.insertInto('ledger_transactions').values({ kind: 'reward', reference: 'broken on purpose', idempotency_key: null, user_id: null, created_at: new Date().toISOString() }).returning('id').executeTakeFirstOrThrow()
    await t.db.insertInto('ledger_lines').values({ tx_id: Number(id), account: 'house_credit', user_id: null, amount_cents: 7 }).execute()
    expect(await imbalance()).toEqual({ ledger: 7, wallets: 0 })
    await sql`update wallets set cash_cents = cash_cents + 30 where user_id = ${user.id}`.execute(t.db)
    expect(await imbalance()).toEqual({ ledger: 7, wallets: 30 })
    await sql`update wallets set cash_cents = cash_cents - 30 where user_id = ${user.id}`.execute(t.db)
    await t.db.deleteFrom('ledger_lines').where('tx_id', '=', Number(id)).execute()
    await t.db.deleteFrom('ledger_transactions').where('id', '=', Number(id)).execute()
    expect(await imbalance()).toEqual({ ledger: 0, wallets: 0 })
  })

  test('the dashboard and the alerting rules name only metrics the server has', async () => {
    const families = familiesOf((await scrape()).text)
    const dashboard = JSON.parse(fs.readFileSync(path.join(ROOT, 'ops/grafana-dashboard.json'), 'utf8')) as { title: string; panels: Array<{ title: string; targets?: Array<{ expr: string }> }> }
    const rules = YAML.parse(fs.readFileSync(path.join(ROOT, 'ops/alerts.yml'), 'utf8')) as { groups: Array<{ name: string; rules: Array<{ alert: string; expr: string; labels?: object; annotations?: { summary?: string } }> }> }
    const exprs: Array<[string, string]> = [
      ...dashboard.panels.flatMap(p => (p.targets ?? []).map(x => [`panel ${p.title}`, x.expr] as [string, string])),
      ...rules.groups.flatMap(g => g.rules.map(r => [`alert ${r.alert}`, r.expr] as [string, string]))
    ]
    expect(dashboard.panels.filter(p => p.targets?.length).length).toBeGreaterThanOrEqual(8)
    expect(rules.groups.flatMap(g => g.rules.map(r => r.alert)).sort()).toEqual(['BooksOutOfBalance', 'HighServerErrorRate', 'ProviderDown'])
    for (const g of rules.groups) for (const r of g.rules) expect(r.annotations?.summary).toBeTruthy()
    const unknown: string[] = []
    for (const [where, expr] of exprs) {
      const names = [...expr.matchAll(/\b((?:pickbox|process|nodejs)_[a-z0-9_]+)/g)].map(m => m[1])
      expect([where, names.length > 0]).toEqual([where, true])
      for (const name of names) {
        const family = families.has(name) ? name : name.replace(/_(bucket|count|sum)$/, '')
        const histogramPart = family !== name
        if (!families.has(family) || (histogramPart && families.get(family) !== 'histogram')) unknown.push(`${where}: ${name}`)
      }
      // brackets balance (a cheap check that the expression is whole)
      let depth = 0
      for (const c of expr) {
        depth += c === '(' || c === '{' || c === '[' ? 1 : c === ')' || c === '}' || c === ']' ? -1 : 0
        expect([where, depth >= 0]).toEqual([where, true])
      }
      expect([where, depth]).toEqual([where, 0])
    }
    expect(unknown).toEqual([])
  })
})

test('METRICS_TOKEN must be a long random word (it opens the metrics)', () => {
  const env = { NODE_ENV: 'test' }
  expect(() => loadConfig({ ...env, METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be 32 to 200 letters/)
  expect(() => loadConfig({ ...env, METRICS_TOKEN: `${'a'.repeat(31)} b` })).toThrow(/METRICS_TOKEN/)
  expect(loadConfig({ ...env, METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN)
  expect(loadConfig(env).metricsToken).toBeUndefined()
})

const describeOnPostgres = testDialects().includes('postgres') ? describe : describe.skip

describeOnPostgres('metrics with WORKERS=2 (node:cluster)', () => {
  let store: Store
  let server: ServerProcess
  beforeAll(async () => {
    store = await newStore('postgres')
    server = await startServer(store, { WORKERS: '2', METRICS_TOKEN: TOKEN })
  }, 120000)
  afterAll(async () => {
    await server?.stop()
    await store?.drop()
  })

  /** One request on a connection of its own (the primary hands connections to the workers in turn). */
  const fresh = (url: string, headers: Record<string, string> = {}) => new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.get(`${server.origin}${PREFIX}${url}`, { agent: false, headers }, res => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', d => { body += d })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
  })

  test('one scrape, whichever process answers it, counts the requests of both', async () => {
    // the server answers as soon as one process listens; the primary's banner says when both do
    const end = Date.now() + 30000
    while (!server.output().includes('2 API processes')) {
      if (Date.now() > end) throw new Error(`the second API process did not start:\n${server.output()}`)
      await new Promise(r => setTimeout(r, 100))
    }
    // connections are handed to the two processes in turn: five requests each
    for (let i = 0; i < 10; i++) expect((await fresh('/healthz')).status).toBe(200)
    for (let i = 0; i < 4; i++) {
      const res = await fresh('/metrics', { authorization: `Bearer ${TOKEN}` })
      expect(res.status).toBe(200)
      const samples = parseSamples(res.body)
      expect(valueOf(samples, 'pickbox_http_requests_total', { route: `${PREFIX}/healthz`, status: '200' })).toBe(10)
      // the scrapes before this one, summed over the processes that answered them
      const scrapes = valueOf(samples, 'pickbox_http_requests_total', { route: `${PREFIX}/metrics`, code: '200' })
      expect(scrapes === i || scrapes === i - 1).toBe(true)
      // one answer of the books, not one per process
      expect(samples.filter(s => s.name === 'pickbox_books_imbalance_cents')).toHaveLength(2)
    }
    // without the token: the same refusal, from whichever process
    expect(JSON.parse((await fresh('/metrics')).body)).toMatchObject({ code: 401 })
  }, 60000)
})
