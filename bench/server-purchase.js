#!/usr/bin/env node
/**
 * Server budget (ARCHITECTURE.md): on SQLite, >= 1,000 box purchases per second at p99 <= 25 ms, and a
 * measured figure for every other request type.
 *
 * The server runs in a child process (its own core, as in production): the real app on SQLite in a
 * temp dir, with a bench series (12-slot cases made in advance), users who passed the age gate and hold
 * a balance topped up through a settled order. The parent drives it with autocannon on 127.0.0.1:
 *   casePurchase  one box per request, every request a distinct (case, slot) and idempotency key (10 s)
 *   seriesList, caseCurrent, walletBalance (4 s each), login (argon2id, 4 s)
 * then asks the child to audit the books (every ledger transaction sums to zero, wallets match the
 * ledger, one prize per box sold). Bounded: fixed durations and a watchdog; the child and temp dir go away.
 *
 * Usage: node bench/server-purchase.js [--seconds 10] [--connections 10]
 */
const { fork } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const BUDGET = { purchasesPerSecond: 1000, p99Ms: 25 }
const USERS = 20
const WARMUP_SECONDS = 2
const PASSWORD = 'bench-password'
const PREFIX = '/dev-api'

function arg (name, fallback) {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}

// ---- child: the server -------------------------------------------------------------------------

async function serve (dir, casesWanted) {
  require('tsx/cjs/api').register()
  const src = path.join(__dirname, '..', 'server', 'src')
  const { loadConfig } = require(path.join(src, 'config'))
  const { openDatabase, sqlitePathIn } = require(path.join(src, 'db'))
  const { migrateToLatest } = require(path.join(src, 'db', 'migrate'))
  const { seedCatalogue } = require(path.join(src, 'db', 'seed'))
  const { buildApp } = require(path.join(src, 'app'))
  const { createSeries } = require(path.join(src, 'domain', 'catalogue'))
  const { createCase } = require(path.join(src, 'domain', 'cases'))
  const { issueOrderNo, createOrder, settleOrder } = require(path.join(src, 'domain', 'orders'))
  const { checkLedger } = require(path.join(src, 'domain', 'ledger'))
  const { insertUser } = require(path.join(src, 'services', 'users'))
  const { hashPassword } = require(path.join(src, 'security', 'passwords'))
  const { SessionService } = require(path.join(src, 'services', 'sessions'))

  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, STATIC_DIR: path.join(dir, 'no-h5'), TRUST_PROXY: 'on', LOG_LEVEL: 'silent' })
  const database = openDatabase({ sqlitePath: sqlitePathIn(config.dataDir) })
  await migrateToLatest(database.db, database.dialect)
  const db = database.db
  const clock = () => Date.now()
  await seedCatalogue(db, clock)

  const designs = (rarity, n, value) => Array.from({ length: n }, (_, i) => ({
    name: { zh: `${rarity}${i + 1}`, en: `${rarity} ${i + 1}` }, image: '/media/art/1f381.webp', rarity, referenceValueCents: value, recycleValueCents: 10
  }))
  const seriesId = await createSeries(db, clock, {
    title: { zh: '压测系列', en: 'Bench series' }, description: { zh: '', en: '' }, rules: { zh: '', en: '' }, cover: null,
    priceCents: 100, hiddenCasePpm: 83333, status: 'on_sale',
    designs: [...designs('regular', 9, 100), ...designs('rare', 3, 300), ...designs('hidden', 1, 2000)]
  })
  const caseIds = []
  while (caseIds.length < casesWanted) {
    await db.transaction().execute(async trx => {
      for (let i = 0; i < 200 && caseIds.length < casesWanted; i++) caseIds.push(await createCase(trx, clock, seriesId))
    })
  }

  const hash = await hashPassword(PASSWORD)
  const users = []
  for (let i = 0; i < USERS; i++) {
    const user = await insertUser(db, clock, { user_name: `bench${i}`, nickname: `Bench ${i}`, password_hash: hash })
    const userId = Number(user.id)
    const now = new Date().toISOString()
    await db.insertInto('age_checks').values({ user_id: userId, birth_date: '1990-01-01', guardian_consent: 0, created_at: now, updated_at: now }).execute()
    for (let k = 0; k < 4; k++) {
      const opId = await issueOrderNo(db, clock, userId, 'wallet_topup')
      await createOrder(db, clock, config, userId, { productId: 'wallet_topup', userId, opId, amountCents: 500000, channel: 'sandbox' })
      await settleOrder(db, clock, opId, ['created'])
    }
    users.push({ id: userId, userName: `bench${i}` })
  }

  const app = await buildApp({ config, database, maintenance: false, logger: false })
  const sessions = new SessionService(db, clock)
  const tokens = []
  for (const u of users) tokens.push(await sessions.create(u.id, { ip: '127.0.0.1', userAgent: 'bench' }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address()

  process.on('message', async (msg) => {
    if (msg.type === 'check') {
      const ledger = await checkLedger(db)
      const count = async (table) => Number((await db.selectFrom(table).select(eb => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
      const soldSlots = Number((await db.selectFrom('case_slots').where('sold_to', 'is not', null).select(eb => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
      const negative = Number((await db.selectFrom('wallets').where(eb => eb.or([eb('cash_cents', '<', 0), eb('credit_cents', '<', 0)])).select(eb => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
      process.send({ type: 'checked', ledger: { transactions: ledger.transactions, unbalanced: ledger.unbalanced.length, walletMismatches: ledger.walletMismatches.length, totalCents: ledger.totalCents }, prizes: await count('prizes'), purchases: await count('purchases'), soldSlots, negative })
    } else if (msg.type === 'stop') {
      await app.close()
      await database.close()
      process.exit(0)
    }
  })
  process.send({ type: 'ready', port, seriesId, caseIds, tokens, users })
}

// ---- parent: the load ----------------------------------------------------------------------------

function runCannon (autocannon, opts) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(opts, (err, result) => err ? reject(err) : resolve(result))
    instance.on('error', reject)
  })
}

function codeCounter () {
  const codes = {}
  return {
    codes,
    onResponse (status, body) {
      let code = `http ${status}`
      try { code = String(JSON.parse(body).code) } catch { /* not JSON */ }
      codes[code] = (codes[code] || 0) + 1
    }
  }
}

async function main () {
  const seconds = arg('seconds', 10)
  const connections = arg('connections', 10)
  const autocannon = require('autocannon')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-purchase-'))
  // enough cases for 4,000 boxes a second
  const casesWanted = Math.ceil(((seconds + WARMUP_SECONDS) * 4000) / 12)
  const execArgv = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : []
  const child = fork(__filename, ['--serve', dir, String(casesWanted)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv })
  const watchdog = setTimeout(() => {
    console.error('benchmark watchdog: took too long, stopping')
    child.kill('SIGKILL')
    fs.rmSync(dir, { recursive: true, force: true })
    process.exit(2)
  }, (seconds + 120) * 1000)
  watchdog.unref()
  const messages = []
  const waiters = []
  child.on('message', m => { const w = waiters.shift(); w ? w(m) : messages.push(m) })
  const next = () => new Promise(resolve => { const m = messages.shift(); m ? resolve(m) : waiters.push(resolve) })
  child.on('exit', code => { if (code) console.error(`server exited with ${code}`) })

  const started = Date.now()
  const ready = await next()
  if (ready.type !== 'ready') throw new Error(`unexpected ${JSON.stringify(ready)}`)
  console.log(`server ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${ready.caseIds.length} cases of 12 boxes, ${ready.users.length} users`)
  const base = `http://127.0.0.1:${ready.port}`
  const auth = i => ({ 'content-type': 'application/json', authorization: `Bearer ${ready.tokens[i % ready.tokens.length]}` })

  const rows = []
  const record = (name, result, counter, extra = {}) => {
    const ok = counter.codes['200'] || 0
    const rps = ok / (result.duration || 1)
    rows.push({ name, rps, ...extra, p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max, codes: counter.codes, errors: result.errors + result.timeouts })
  }

  // purchases: every request a distinct (case, slot), a fresh idempotency key, users in turn
  let cursor = 0
  const total = ready.caseIds.length * 12
  const purchaseRun = (duration, counter) => runCannon(autocannon, {
    url: base,
    connections,
    duration,
    requests: [{
      method: 'POST',
      path: `${PREFIX}/api/casePurchase`,
      setupRequest (req) {
        const n = cursor++ % total
        const caseId = ready.caseIds[Math.floor(n / 12)]
        return {
          ...req,
          headers: auth(n),
          body: JSON.stringify({ caseId, slots: [(n % 12) + 1], acknowledged: true, idempotencyKey: `bench-${n}-${started}` })
        }
      },
      onResponse: counter.onResponse
    }]
  })
  // warm-up (JIT, statement cache), not recorded
  const warm = codeCounter()
  await purchaseRun(WARMUP_SECONDS, warm)
  const purchase = codeCounter()
  const purchaseResult = await purchaseRun(seconds, purchase)
  record('casePurchase (1 box)', purchaseResult, purchase)

  const simple = async (name, opts, counter, duration = 4) => {
    const result = await runCannon(autocannon, { url: base, connections, duration, ...opts, requests: opts.requests.map(r => ({ ...r, onResponse: counter.onResponse })) })
    record(name, result, counter)
  }
  await simple('seriesList', { requests: [{ method: 'POST', path: `${PREFIX}/api/seriesList`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ page: 1, size: 10 }) }] }, codeCounter())
  let k = 0
  await simple('caseCurrent (logged in)', {
    requests: [{ method: 'POST', path: `${PREFIX}/api/caseCurrent`, setupRequest: req => ({ ...req, headers: auth(k++), body: JSON.stringify({ seriesId: 1 }) }) }]
  }, codeCounter())
  await simple('walletBalance', {
    requests: [{ method: 'POST', path: `${PREFIX}/api/walletBalance`, setupRequest: req => ({ ...req, headers: auth(k++), body: '{}' }) }]
  }, codeCounter())
  let ip = 0
  await simple('login/passwd (argon2id)', {
    connections: 4,
    requests: [{
      method: 'POST',
      path: `${PREFIX}/login/passwd`,
      setupRequest: req => {
        ip++
        return { ...req, headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}` }, body: JSON.stringify({ user_name: `bench${ip % USERS}`, password: PASSWORD }) }
      }
    }]
  }, codeCounter())

  child.send({ type: 'check' })
  const check = await next()
  child.send({ type: 'stop' })
  await new Promise(resolve => child.once('exit', resolve))
  fs.rmSync(dir, { recursive: true, force: true })

  const pad = (s, n) => String(s).padEnd(n)
  const lpad = (s, n) => String(s).padStart(n)
  console.log('')
  console.log(`Server on SQLite, ${os.cpus().length} cores, Node ${process.version}, ${connections} connections (login: 4), 127.0.0.1`)
  console.log(`${pad('request', 26)}${lpad('ok req/s', 10)}${lpad('p50 ms', 8)}${lpad('p99 ms', 8)}${lpad('max ms', 8)}  answers`)
  for (const r of rows) {
    console.log(`${pad(r.name, 26)}${lpad(r.rps.toFixed(0), 10)}${lpad(r.p50, 8)}${lpad(r.p99, 8)}${lpad(r.max, 8)}  ${Object.entries(r.codes).map(([c, n]) => `${c}:${n}`).join(' ')}${r.errors ? ` errors:${r.errors}` : ''}`)
  }
  const p = rows[0]
  // boxes answered 200 (the measured run, the warm-up; answers still in flight when a run ends are not counted)
  const boxes = (p.codes['200'] || 0) + (warm.codes['200'] || 0)
  console.log('')
  console.log(`books after the run: ${check.ledger.transactions} ledger transactions, ${check.ledger.unbalanced} unbalanced, ${check.ledger.walletMismatches} wallet mismatches, ` +
    `sum ${check.ledger.totalCents}; ${check.purchases} purchases, ${check.prizes} prizes, ${check.soldSlots} slots sold, ${check.negative} negative balances`)
  const booksOk = check.ledger.unbalanced === 0 && check.ledger.walletMismatches === 0 && check.ledger.totalCents === 0 &&
    check.prizes === check.purchases && check.soldSlots === check.purchases && check.negative === 0 &&
    check.purchases >= boxes && check.purchases <= boxes + 2 * connections
  const budgetOk = p.rps >= BUDGET.purchasesPerSecond && p.p99 <= BUDGET.p99Ms
  console.log(`budget: >= ${BUDGET.purchasesPerSecond} purchases/s at p99 <= ${BUDGET.p99Ms} ms: ${p.rps.toFixed(0)}/s at p99 ${p.p99} ms -> ${budgetOk ? 'PASS' : 'FAIL'}; books ${booksOk ? 'OK' : 'BROKEN'}`)
  clearTimeout(watchdog)
  process.exit(budgetOk && booksOk ? 0 : 1)
}

if (process.argv[2] === '--serve') {
  serve(process.argv[3], Number(process.argv[4])).catch(err => {
    console.error(err)
    process.exit(1)
  })
} else {
  main().catch(err => {
    console.error(err)
    process.exit(1)
  })
}
