/**
 * Several API processes and graceful stops (issue 25 item 2), on the real server as `npm start` runs it:
 *  - WORKERS=3 on PostgreSQL runs three API processes on one port (node:cluster); a session made
 *    through one is used through the others; one killed is replaced;
 *  - WORKERS=2 with the embedded SQLite is refused, with the reason;
 *  - SIGTERM in the middle of a purchase burst (3 processes on PostgreSQL, one on SQLite): the server
 *    stops taking requests, answers those it took, and exits 0; every purchase answered 200 is in the
 *    books, the books hold, and each request sent replays or retries by its key without applying twice.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { testDialects } from '../support/db'
import { openDatabase } from '../../../server/src/db'
import { invariantViolations } from '../support/invariants'
import { TOPUP_PRODUCT_ID } from '../../../types/limits'
import { call, callOnNewConnection, compiledEntry, newStore, startServer, type Answer, type ServerProcess, type Store } from '../support/server-process'

const ROOT = path.resolve(__dirname, '../../..')
const describeOnPostgres = testDialects().includes('postgres') ? describe : describe.skip

async function ok (answer: Promise<Answer>, what: string): Promise<any> {
  const a = await answer
  if (!a.ok || a.body?.code !== 200) throw new Error(`${what}: ${JSON.stringify(a)}`)
  return a.body.data
}

/** The live API processes forked by `pid` (Linux: /proc/<pid>/stat's parent; the primary forks each with SHOP_PREPARED=1; the workers only). */
function childrenOf (pid: number): number[] {
  const found: number[] = []
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(fields[1]) !== pid || fields[0] === 'Z') continue
      if (fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes('SHOP_PREPARED=1')) found.push(Number(entry))
    } catch { /* gone meanwhile */ }
  }
  return found
}

async function until (check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`)
    await new Promise(r => setTimeout(r, 100))
  }
}

async function shopper (origin: string, name: string, cents: number): Promise<{ id: number; token: string }> {
  const login = await ok(call(origin, 'POST', '/login/register?table=user', { user_name: name, password: 'workers-pw' }), 'register')
  await ok(call(origin, 'POST', '/api/ageVerify', { birthDate: '1990-01-01' }, login.token), 'ageVerify')
  const opId = await ok(call(origin, 'POST', '/generalOrder/getUniqueOrderNo', { productId: TOPUP_PRODUCT_ID, userId: login.user.id }, login.token), 'order number')
  await ok(call(origin, 'POST', '/generalOrder/create', { productId: TOPUP_PRODUCT_ID, userId: login.user.id, opId, amountCents: cents, channel: 'sandbox' }, login.token), 'create')
  await ok(call(origin, 'POST', '/api/sandboxPay', { opId }, login.token), 'pay')
  return { id: login.user.id, token: login.token }
}

test('WORKERS=2 with the embedded SQLite is refused, with the reason', async () => {
  const child = spawn(process.execPath, [compiledEntry('main')], {
    cwd: ROOT, env: { ...process.env, NODE_ENV: 'development', PORT: '0', DATABASE_URL: '', WORKERS: '2', DATA_DIR: '/nonexistent-workers' }, stdio: ['ignore', 'pipe', 'pipe']
  })
  let err = ''
  child.stderr.on('data', d => { err += String(d) })
  const code = await new Promise(r => child.on('exit', r))
  expect(code).toBe(1)
  expect(err).toContain('WORKERS=2 needs PostgreSQL (DATABASE_URL)')
}, 30000)

describeOnPostgres('WORKERS=3 on PostgreSQL', () => {
  let store: Store
  let server: ServerProcess
  beforeAll(async () => {
    store = await newStore('postgres')
    server = await startServer(store, { WORKERS: '3' })
  }, 120000)
  afterAll(async () => {
    await server?.stop()
    await store?.drop()
  })

  test('three API processes on one port share the sessions; one killed is replaced', async () => {
    await until(() => childrenOf(server.child.pid!).length === 3, 30000, `three workers (now ${JSON.stringify(childrenOf(server.child.pid!))} of ${server.child.pid})`)
    // and all three listening: the primary prints its banner once they are. The API answers as soon as
    // the first one listens; were that one killed while the others still start, the primary would close
    // the port (no process left on it) until the next one listens, and the calls below would be refused.
    await until(() => /listening on .*, 3 API processes/.test(server.output()), 30000, `the banner of three listening API processes:\n${server.output()}`)
    const s = await shopper(server.origin, 'workers_session', 10000)
    // many calls, spread over the processes by the primary: each knows the session
    const answers = await Promise.all(Array.from({ length: 30 }, () => call(server.origin, 'POST', '/api/walletBalance', {}, s.token)))
    expect(answers.every(a => a.ok && a.body?.code === 200 && a.body.data.cashCents === 10000)).toBe(true)

    const [victim] = childrenOf(server.child.pid!)
    process.kill(victim, 'SIGKILL')
    await until(() => { const now = childrenOf(server.child.pid!); return now.length === 3 && !now.includes(victim) }, 30000, 'a replacement')
    // each on a new connection: fetch's idle ones to the killed process are closed (see callOnNewConnection)
    const after = await Promise.all(Array.from({ length: 12 }, () => callOnNewConnection(server.origin, 'POST', '/api/walletBalance', {}, s.token)))
    // the answers that are not a 200, each in full: what went wrong shows in the failure
    expect(after.filter(a => !(a.ok && a.body?.code === 200))).toEqual([])
  }, 90000)

  // on the same three processes (one of them the replacement): a start of three costs about 8 s of a processor
  test('SIGTERM during a purchase burst, 3 process(es): answered purchases are in the books, nothing is half done, the exit is clean', async () => {
    await sigtermDuringBurst('postgres', store, server, 3)
  }, 120000)
})

/**
 * A purchase burst on a server that is up (`workers` API processes on `store`), SIGTERM in the middle of
 * it, then the books checked and every request sent again to a server started anew on the same store.
 */
async function sigtermDuringBurst (dialect: string, store: Store, server: ServerProcess, workers: number): Promise<void> {
  const shoppers = [await shopper(server.origin, `term_${dialect}_a`, 100000), await shopper(server.origin, `term_${dialect}_b`, 100000)]
  const series = (await ok(call(server.origin, 'POST', '/api/seriesList', { page: 1, size: 10 }), 'seriesList')).list.map((x: { id: number }) => x.id)
  const bodies: Array<{ token: string; body: Record<string, unknown> }> = []
  let key = 0
  for (const [n, s] of shoppers.entries()) {
    for (let i = 0; i < 20; i++) {
      const current = await ok(call(server.origin, 'POST', '/api/caseCurrent', { seriesId: series[(i + n) % series.length] }, s.token), 'caseCurrent')
      const free = current.slots.filter((x: { sold: boolean }) => !x.sold).map((x: { slot: number }) => x.slot)
      bodies.push({ token: s.token, body: { caseId: current.caseId, slots: [free[(i * 5 + n) % free.length] ?? 1], acknowledged: true, idempotencyKey: `term-${dialect}-${++key}` } })
    }
  }
  const exited = new Promise<number | null>(r => server.child.once('exit', code => r(code)))
  let answered = 0
  let signalled = false
  const sent = await Promise.all(bodies.map(async b => {
    const answer = await call(server.origin, 'POST', '/api/casePurchase', b.body, b.token)
    if (answer.ok && ++answered === 5 && !signalled) { signalled = true; server.child.kill('SIGTERM') }
    return { ...b, answer }
  }))
  if (!signalled) server.child.kill('SIGTERM')
  expect(await exited).toBe(0)
  const arrived = sent.filter(s => s.answer.ok)
  expect(arrived.length).toBeGreaterThanOrEqual(5)
  // nothing answered was a server failure
  expect(arrived.filter(s => (s.answer.body?.code ?? 0) >= 500)).toEqual([])

  const peek = openDatabase({ sqlitePath: store.sqlitePath, databaseUrl: store.databaseUrl, poolSize: 1 })
  try {
    expect(await invariantViolations(peek.db)).toEqual([])
    // every purchase answered 200 is in the books
    const paid = arrived.filter(s => s.answer.body?.code === 200).map(s => s.body.idempotencyKey as string)
    if (paid.length) {
      const stored = await peek.db.selectFrom('idempotency_keys').select('key').where('key', 'in', paid).execute()
      expect(stored.map(r => r.key).sort()).toEqual([...paid].sort())
    }
  } finally {
    await peek.close()
  }

  // back up on the same database: answered requests replay to their answer, the others apply at most once
  const again = await startServer(store, { WORKERS: String(workers) })
  try {
    for (const s of sent) {
      const replay = await call(again.origin, 'POST', '/api/casePurchase', s.body, s.token)
      expect(replay.ok).toBe(true)
      if (s.answer.ok && s.answer.body?.code === 200) expect(replay.body).toEqual(s.answer.body)
      else expect([200, 409, 422]).toContain(replay.body?.code)
    }
    const check = openDatabase({ sqlitePath: store.sqlitePath, databaseUrl: store.databaseUrl, poolSize: 1 })
    try { expect(await invariantViolations(check.db)).toEqual([]) } finally { await check.close() }
  } finally {
    await again.stop()
  }
  console.log(`SIGTERM on ${dialect} with ${workers} process(es): sent ${sent.length}, answered ${arrived.length}, 200 ${arrived.filter(s => s.answer.body?.code === 200).length}`)
}

const describeOnSqlite = testDialects().includes('sqlite') ? describe : describe.skip

describeOnSqlite('SIGTERM during a purchase burst on sqlite', () => {
  let store: Store
  beforeAll(async () => { store = await newStore('sqlite') })
  afterAll(async () => { await store?.drop() })

  test('1 process(es): answered purchases are in the books, nothing is half done, the exit is clean', async () => {
    await sigtermDuringBurst('sqlite', store, await startServer(store, { WORKERS: '1' }), 1)
  }, 120000)
})
