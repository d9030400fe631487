#!/usr/bin/env node
/**
 * The purchase path against a bare reference, in the same run (ARCHITECTURE.md, issue 12): on SQLite with
 * 10 connections, box purchases >= 0.3x what a bare Fastify + better-sqlite3 route doing one insert and
 * one indexed select in a transaction serves, at p99 <= 15 ms; the same on PostgreSQL, with its pool size.
 *
 * Each server runs in a child process (its own core, as in production), driven by autocannon from here on
 * 127.0.0.1, one after the other, in rounds (bare, shop, bare, shop...; medians reported):
 *   bare   Fastify + better-sqlite3 (WAL, synchronous NORMAL like the shop), POST /bare: one insert and
 *          one indexed select in a transaction, answered as JSON (on PostgreSQL: the same through pg)
 *   shop   the real app (buildApp) on a fresh database: a bench series with 12-slot cases made in
 *          advance, users past the age gate holding money topped up through settled orders; every
 *          purchase a distinct (case, slot) and a fresh idempotency key (POST /api/casePurchase)
 * then, once, the other request types (seriesList, caseCurrent, walletBalance, login), and the books are
 * audited (every ledger transaction sums to zero, wallets match the ledger, one prize per box sold, no
 * negative balance): a broken book fails the run whatever the speed.
 *
 * --profile writes a CPU profile of the shop's purchase run and prints where the time went
 * (bench/support/profile-summary.js). --pg-stats loads pg_stat_statements (track all: the statements inside
 * shop_purchase too, with their planning) and prints where PostgreSQL spent its time. BENCH_SHOP_SQL='...' runs
 * SQL on the shop's database after its migrations (an experiment: what dropping a constraint or setting a
 * function option changes; docs/benchmarks.md keeps what was tried). --server-root DIR runs another checkout's server code (a before figure). Bounded: fixed durations and a watchdog; children and temp dirs go.
 *
 * Usage: node bench/server-purchase.js [--seconds 10] [--connections 10] [--rounds 2] [--db sqlite|postgres|both]
 *                                      [--pool 10] [--pg-sync on|off] [--profile] [--pg-stats] [--server-root DIR]
 */
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

/** A server module that moved from services/ to domain/: found in either (--server-root may be an older checkout). */
const layerOf = (src, name) => {
  // domain/<subject>/<name>.ts since issue 49; domain/<name>.ts or services/<name>.ts in older server code
  const subject = fs.existsSync(path.join(src, 'domain')) && fs.readdirSync(path.join(src, 'domain')).find(d => fs.existsSync(path.join(src, 'domain', d, `${name}.ts`)))
  if (subject) return path.join(src, 'domain', subject, name)
  return fs.existsSync(path.join(src, 'domain', `${name}.ts`)) ? path.join(src, 'domain', name) : path.join(src, 'services', name)
}
const { quantile } = require('./support/quantile')
const { arg, runCannon, codeCounter, startChild, summary, timesOf, resetTimes } = require('./support/load')

const GOAL = { ratio: 0.3, p99Ms: 15 }
const USERS = 20
const WARMUP_SECONDS = 2
const PASSWORD = 'bench-password'
const PREFIX = '/dev-api'

// ---- children ----------------------------------------------------------------------------------

/**
 * Each child's own time per request (Fastify's elapsed time, from the request's start to its answer), so
 * the p99 can be read without the load generator's stalls: it shares the machine's cores.
 */
const serverTimes = []
function timeRequests (app, url) {
  app.addHook('onResponse', async (request, reply) => { if (request.url === url) serverTimes.push(reply.elapsedTime) })
}

/** IPC shared by both children: CPU profile on demand, the server's own times, stop. */
function control (extra, close) {
  let session = null
  process.on('message', async (msg) => {
    try {
      if (msg.type === 'profile-start') {
        const inspector = require('node:inspector')
        session = new inspector.Session()
        session.connect()
        const post = (m, p) => new Promise((resolve, reject) => session.post(m, p, (err, r) => err ? reject(err) : resolve(r)))
        await post('Profiler.enable')
        await post('Profiler.setSamplingInterval', { interval: 200 })
        await post('Profiler.start')
        session.postAsync = post
        process.send({ type: 'profiling' })
      } else if (msg.type === 'profile-stop') {
        const { profile } = await session.postAsync('Profiler.stop')
        fs.writeFileSync(msg.file, JSON.stringify(profile))
        session.disconnect()
        process.send({ type: 'profiled', file: msg.file })
      } else if (msg.type === 'times-reset') {
        serverTimes.length = 0
        process.send({ type: 'times-reset' })
      } else if (msg.type === 'times') {
        process.send({ type: 'times', n: serverTimes.length, p50: quantile(serverTimes, 0.5), p99: quantile(serverTimes, 0.99) })
      } else if (msg.type === 'stop') {
        await close()
        process.exit(0)
      } else {
        await extra(msg)
      }
    } catch (err) {
      console.error(err)
      process.exit(1)
    }
  })
}

/** The bare reference: Fastify and the database driver, one transaction per request. */
async function serveBare (dialect, databaseUrl, pool) {
  const Fastify = require('fastify')
  const app = Fastify({ logger: false })
  let handler
  let close
  if (dialect === 'sqlite') {
    const Sqlite = require('better-sqlite3')
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bare-'))
    const db = new Sqlite(path.join(dir, 'bare.sqlite'))
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.exec('create table items (id integer primary key autoincrement, user_id integer not null, value integer not null, created_at text not null)')
    db.exec('create index items_user_id_idx on items (user_id, id)')
    const insert = db.prepare('insert into items (user_id, value, created_at) values (?, ?, ?)')
    const latest = db.prepare('select id, user_id, value, created_at from items where user_id = ? order by id desc limit 1')
    const tx = db.transaction((userId, value) => {
      insert.run(userId, value, new Date().toISOString())
      return latest.get(userId)
    })
    handler = async (request) => ({ code: 200, message: 'ok', data: tx(request.body.user, request.body.value) })
    close = async () => { db.close(); fs.rmSync(dir, { recursive: true, force: true }) }
  } else {
    const pg = require('pg')
    const p = new pg.Pool({ connectionString: databaseUrl, max: pool })
    await p.query('create table items (id bigint generated by default as identity primary key, user_id bigint not null, value bigint not null, created_at timestamptz not null)')
    await p.query('create index items_user_id_idx on items (user_id, id)')
    handler = async (request) => {
      const client = await p.connect()
      try {
        await client.query('begin')
        await client.query('insert into items (user_id, value, created_at) values ($1, $2, now())', [request.body.user, request.body.value])
        const { rows } = await client.query('select id, user_id, value, created_at from items where user_id = $1 order by id desc limit 1', [request.body.user])
        await client.query('commit')
        return { code: 200, message: 'ok', data: rows[0] }
      } catch (err) {
        await client.query('rollback').catch(() => undefined)
        throw err
      } finally {
        client.release()
      }
    }
    close = async () => { await p.end() }
  }
  app.post('/bare', {
    schema: { body: { type: 'object', required: ['user', 'value'], properties: { user: { type: 'integer' }, value: { type: 'integer' } } } }
  }, handler)
  timeRequests(app, '/bare')
  await app.listen({ port: 0, host: '127.0.0.1' })
  control(async () => {}, async () => { await app.close(); await close() })
  process.send({ type: 'ready', port: app.server.address().port })
}

/** The shop: the real app on a fresh database with a bench series, users and money. */
async function serveShop (root, dialect, databaseUrl, pool, dir, casesWanted) {
  require('tsx/cjs/api').register()
  const src = path.join(root, 'server', 'src')
  const { loadConfig } = require(path.join(src, 'config'))
  const { openDatabase, sqlitePathIn } = require(path.join(src, 'db'))
  const { migrateToLatest } = require(path.join(src, 'db', 'migrate'))
  const { seedCatalogue } = require(fs.existsSync(path.join(src, 'seed.ts')) ? path.join(src, 'seed') : path.join(src, 'db', 'seed'))
  const { buildApp } = require(path.join(src, 'app'))
  const { createSeries } = require(layerOf(src, 'catalogue'))
  const { createCase } = require(layerOf(src, 'cases'))
  const { issueOrderNo, createOrder, settleOrder } = require(layerOf(src, 'orders'))
  const { checkLedger } = require(layerOf(src, 'ledger'))
  const { insertUser } = require(layerOf(src, 'users'))
  const { hashPassword } = require(path.join(src, 'security', 'passwords'))
  const { SessionService } = require(layerOf(src, 'sessions'))

  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, STATIC_DIR: path.join(dir, 'no-h5'), TRUST_PROXY: 'on', LOG_LEVEL: 'silent' })
  const database = dialect === 'sqlite'
    ? openDatabase({ sqlitePath: sqlitePathIn(config.dataDir) })
    : openDatabase({ databaseUrl, poolSize: pool })
  await migrateToLatest(database.db, database.dialect)
  const db = database.db
  if (process.env.BENCH_SHOP_SQL) { const { sql } = require('kysely'); await sql.raw(process.env.BENCH_SHOP_SQL).execute(db) }
  const clock = () => Date.now()
  await seedCatalogue(db, clock)

  const designs = (rarity, n, value) => Array.from({ length: n }, (_, i) => ({
    name: { zh: `${rarity}${i + 1}`, en: `${rarity} ${i + 1}` }, image: '/media/art/1f381.webp', rarity, referenceValueCents: value, recycleValueCents: 10,
    // enough in the warehouse for every case the bench opens
    stock: casesWanted + 10
  }))
  const seriesId = await createSeries(db, clock, {
    title: { zh: '压测系列', en: 'Bench series' }, description: { zh: '', en: '' }, rules: { zh: '', en: '' }, cover: null,
    priceCents: 100, hiddenCasePpm: 83333, status: 'on_sale',
    designs: [...designs('regular', 9, 100), ...designs('rare', 3, 300), ...designs('hidden', 1, 2000)]
  })
  const caseIds = []
  while (caseIds.length < casesWanted) {
    await db.transaction().execute(async trx => {
      for (let i = 0; i < 200 && caseIds.length < casesWanted; i++) {
        const id = await createCase(trx, clock, seriesId)
        if (id === null) throw new Error('the bench series ran out of stock')
        caseIds.push(id)
      }
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
  timeRequests(app, `${PREFIX}/api/casePurchase`)
  const sessions = new SessionService(db, clock)
  const tokens = []
  for (const u of users) tokens.push(await sessions.create(u.id, { ip: '127.0.0.1', userAgent: 'bench' }))
  await app.listen({ port: 0, host: '127.0.0.1' })

  control(async (msg) => {
    if (msg.type !== 'check') return
    const ledger = await checkLedger(db)
    const count = async (table, where) => {
      let q = db.selectFrom(table).select(eb => eb.fn.countAll().as('n'))
      if (where) q = where(q)
      return Number((await q.executeTakeFirstOrThrow()).n)
    }
    process.send({
      type: 'checked',
      ledger: { transactions: ledger.transactions, unbalanced: ledger.unbalanced.length, walletMismatches: ledger.walletMismatches.length, totalCents: ledger.totalCents },
      prizes: await count('prizes'),
      purchases: await count('purchases'),
      soldSlots: await count('case_slots', q => q.where('sold_to', 'is not', null)),
      negative: await count('wallets', q => q.where(eb => eb.or([eb('cash_cents', '<', 0), eb('credit_cents', '<', 0)]))),
      // SQLite: transactions per commit (server/src/db/sqlite-driver.ts); absent in older server code
      groupCommit: database.groupCommit ? { ...database.groupCommit } : null,
      // PostgreSQL: purchases per statement (server/src/domain/purchaseBatch.ts); absent in older server code
      purchaseBatches: dialect === 'postgres' && fs.existsSync(`${layerOf(src, 'purchaseBatch')}.ts`)
        ? require(layerOf(src, 'purchaseBatch')).purchaseBatchStats(db)
        : null
    })
  }, async () => { await app.close(); await database.close() })
  process.send({ type: 'ready', port: app.server.address().port, seriesId, caseIds, tokens, users })
}

// ---- parent: the load ----------------------------------------------------------------------------

async function benchBare (autocannon, dialect, databaseUrl, pool, seconds, connections) {
  const c = startChild(__filename, ['--bare', dialect, databaseUrl || '-', String(pool)], (seconds + 120) * 1000)
  const ready = await c.next()
  let n = 0
  const run = (duration, counter) => runCannon(autocannon, {
    url: `http://127.0.0.1:${ready.port}`,
    connections,
    duration,
    requests: [{ method: 'POST', path: '/bare', headers: { 'content-type': 'application/json' }, setupRequest: req => ({ ...req, body: JSON.stringify({ user: (n++ % USERS) + 1, value: n }) }), onResponse: counter.onResponse }]
  })
  await run(WARMUP_SECONDS, codeCounter())
  const counter = codeCounter()
  await resetTimes(c)
  const result = summary(await run(seconds, counter), counter)
  result.server = await timesOf(c)
  await c.stop()
  return result
}

/**
 * The n-th purchase's (case index, slot), every one distinct. --pattern one-case (the default, the worst
 * case): boxes are bought in case order, so the 10 connections buy the slots of one case at the same
 * time and take turns on its row lock. --pattern leased: as the shop's case leases arrange it, each
 * buyer (request n is buyer n % users) buys the slots of a case of their own, then the next.
 */
const PATTERN = arg('pattern', 'one-case')
function boxOf (n, users) {
  if (PATTERN !== 'leased') return [Math.floor(n / 12), (n % 12) + 1]
  const user = n % users
  const k = Math.floor(n / users)
  return [Math.floor(k / 12) * users + user, (k % 12) + 1]
}

async function benchShop (autocannon, dialect, databaseUrl, pool, seconds, connections, { others, profile, root }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-purchase-'))
  // enough cases for 4,000 boxes a second
  const casesWanted = Math.ceil(((seconds + WARMUP_SECONDS) * 4000) / 12)
  const c = startChild(__filename, ['--serve', root, dialect, databaseUrl || '-', String(pool), dir, String(casesWanted)], (seconds * 3 + 240) * 1000)
  const started = Date.now()
  try {
    const ready = await c.next()
    if (ready.type !== 'ready') throw new Error(`unexpected ${JSON.stringify(ready)}`)
    const base = `http://127.0.0.1:${ready.port}`
    const auth = i => ({ 'content-type': 'application/json', authorization: `Bearer ${ready.tokens[i % ready.tokens.length]}` })
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
          const [caseIndex, slot] = boxOf(n, ready.tokens.length)
          return { ...req, headers: auth(n), body: JSON.stringify({ caseId: ready.caseIds[caseIndex], slots: [slot], acknowledged: true, idempotencyKey: `bench-${n}-${started}` }) }
        },
        onResponse: counter.onResponse
      }]
    })
    const warm = codeCounter()
    await purchaseRun(WARMUP_SECONDS, warm)
    if (profile) { c.send({ type: 'profile-start' }); await c.next() }
    const counter = codeCounter()
    await resetTimes(c)
    const purchases = summary(await purchaseRun(seconds, counter), counter)
    purchases.server = await timesOf(c)
    let profileFile = null
    if (profile) {
      profileFile = path.join(os.tmpdir(), `purchase-${dialect}-${Date.now()}.cpuprofile`)
      c.send({ type: 'profile-stop', file: profileFile })
      await c.next()
    }
    const rows = [['casePurchase (1 box)', purchases]]
    if (others) {
      const simple = async (name, opts, duration = 4) => {
        const cc = codeCounter()
        const result = await runCannon(autocannon, { url: base, connections, duration, ...opts, requests: opts.requests.map(r => ({ ...r, onResponse: cc.onResponse })) })
        rows.push([name, summary(result, cc)])
      }
      await simple('seriesList', { requests: [{ method: 'POST', path: `${PREFIX}/api/seriesList`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ page: 1, size: 10 }) }] })
      let k = 0
      await simple('caseCurrent (logged in)', { requests: [{ method: 'POST', path: `${PREFIX}/api/caseCurrent`, setupRequest: req => ({ ...req, headers: auth(k++), body: JSON.stringify({ seriesId: ready.seriesId }) }) }] })
      await simple('walletBalance', { requests: [{ method: 'POST', path: `${PREFIX}/api/walletBalance`, setupRequest: req => ({ ...req, headers: auth(k++), body: '{}' }) }] })
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
      })
    }
    c.send({ type: 'check' })
    const check = await c.next()
    // boxes answered 200 (measured run and warm-up; answers in flight when a run ends are not counted)
    const boxes = (counter.codes['200'] || 0) + (warm.codes['200'] || 0)
    const booksOk = check.ledger.unbalanced === 0 && check.ledger.walletMismatches === 0 && check.ledger.totalCents === 0 &&
      check.prizes === check.purchases && check.soldSlots === check.purchases && check.negative === 0 &&
      check.purchases >= boxes && check.purchases <= boxes + 2 * connections
    return { rows, check, booksOk, profileFile }
  } finally {
    await c.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

const median = xs => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2 }
const pad = (s, n) => String(s).padEnd(n)
const lpad = (s, n) => String(s).padStart(n)

async function main () {
  const seconds = Number(arg('seconds', 10))
  const connections = Number(arg('connections', 10))
  const rounds = Number(arg('rounds', 2))
  const pool = Number(arg('pool', 10))
  const profile = process.argv.includes('--profile')
  const which = arg('db', 'both')
  const root = path.resolve(arg('server-root', path.join(__dirname, '..')))
  const autocannon = require('autocannon')
  const { startPostgres } = require('./support/postgres')

  const dbs = which === 'both' ? ['sqlite', 'postgres'] : [which]
  let postgres = null
  if (dbs.includes('postgres')) {
    postgres = await startPostgres({ synchronousCommit: arg('pg-sync', 'on'), statementStats: process.argv.includes('--pg-stats') })
    if (!postgres) {
      console.log('PostgreSQL is not installed: SQLite only')
      dbs.splice(dbs.indexOf('postgres'), 1)
    }
  }
  let failed = false
  try {
    for (const dialect of dbs) {
      const bare = []
      const shop = []
      let last = null
      for (let r = 1; r <= rounds; r++) {
        let urlBare = null
        let urlShop = null
        if (dialect === 'postgres') {
          await postgres.createDatabase('bench_bare')
          await postgres.createDatabase('bench_shop')
          urlBare = postgres.url('bench_bare')
          urlShop = postgres.url('bench_shop')
        }
        bare.push(await benchBare(autocannon, dialect, urlBare, pool, seconds, connections))
        last = await benchShop(autocannon, dialect, urlShop, pool, seconds, connections, { others: r === rounds, profile: profile && r === 1, root })
        shop.push(last.rows[0][1])
        process.stdout.write(`${dialect} round ${r}: bare ${bare[r - 1].rps.toFixed(0)}/s, purchases ${shop[r - 1].rps.toFixed(0)}/s (p99 ${shop[r - 1].p99} ms; in the server p99 ${shop[r - 1].server.p99.toFixed(1)} ms, bare ${bare[r - 1].server.p99.toFixed(1)} ms)\n`)
        if (last.profileFile) {
          const { summarize } = require('./support/profile-summary')
          const { busyMs, rows } = summarize(last.profileFile, path.resolve(__dirname, '..'))
          console.log(`  where the shop's time went during ${seconds} s of purchases (CPU busy ${busyMs.toFixed(0)} ms; ${last.profileFile}):`)
          for (const row of rows.slice(0, 14)) console.log(`  ${(100 * row.share).toFixed(1).padStart(6)} %  ${row.group}`)
        }
        if (!last.booksOk) failed = true
      }
      const b = { rps: median(bare.map(x => x.rps)), p99: median(bare.map(x => x.p99)), serverP99: median(bare.map(x => x.server.p99)) }
      const s = { rps: median(shop.map(x => x.rps)), p99: median(shop.map(x => x.p99)), serverP50: median(shop.map(x => x.server.p50)), serverP99: median(shop.map(x => x.server.p99)) }
      console.log('')
      console.log(`${dialect === 'sqlite' ? 'SQLite (better-sqlite3, WAL, synchronous NORMAL)' : `${postgres.settings}, pool ${pool}`}; server code of ${root}; ${os.cpus().length} cores, Node ${process.version}, ${connections} connections, 127.0.0.1, median of ${rounds} rounds of ${seconds} s`)
      console.log(`${pad('request', 30)}${lpad('ok req/s', 10)}${lpad('p50 ms', 8)}${lpad('p99 ms', 8)}${lpad('max ms', 8)}  answers`)
      const line = (name, r) => console.log(`${pad(name, 30)}${lpad(r.rps.toFixed(0), 10)}${lpad(r.p50, 8)}${lpad(r.p99, 8)}${lpad(r.max, 8)}  ${Object.entries(r.codes).map(([c, n]) => `${c}:${n}`).join(' ')}${r.errors ? ` errors:${r.errors}` : ''}`)
      bare.forEach((r, i) => line(`bare transaction (round ${i + 1})`, r))
      shop.forEach((r, i) => line(`casePurchase 1 box (round ${i + 1})`, r))
      for (const [name, r] of last.rows.slice(1)) line(name, r)
      // the ratio of each round (its bare run and its shop run, back to back), then their median: load
      // that drifts on this shared machine falls on both halves of a round, not on a whole column
      const ratio = median(shop.map((x, i) => x.rps / bare[i].rps))
      const c = last.check
      console.log(`books after the last round: ${c.ledger.transactions} ledger transactions, ${c.ledger.unbalanced} unbalanced, ${c.ledger.walletMismatches} wallet mismatches, ` +
        `sum ${c.ledger.totalCents}; ${c.purchases} purchases, ${c.prizes} prizes, ${c.soldSlots} slots sold, ${c.negative} negative balances -> ${last.booksOk ? 'OK' : 'BROKEN'}`)
      if (c.groupCommit && c.groupCommit.groups) {
        const g = c.groupCommit
        console.log(`group commit (the shop's whole last run): ${g.members} transactions in ${g.groups} commits, ${(g.members / g.groups).toFixed(1)} a commit on average, at most ${g.largest}; ` +
          `statements: ${g.direct} run directly, ${g.throughKysely} through Kysely's executor`)
      }
      if (c.purchaseBatches && c.purchaseBatches.statements) {
        const b = c.purchaseBatches
        console.log(`purchase batches (the shop's whole last run): ${b.purchases} purchases in ${b.statements} statements, ${(b.purchases / b.statements).toFixed(1)} a statement on average, ` +
          `at most ${b.largest}; ${b.fellBack} statements undone and their purchases run again alone`)
      }
      const goal = dialect === 'sqlite' ? ` goal >= ${GOAL.ratio}x at p99 <= ${GOAL.p99Ms} ms: ${ratio >= GOAL.ratio && s.p99 <= GOAL.p99Ms ? 'met' : 'MISSED'}` : ''
      console.log(`purchases ${s.rps.toFixed(0)}/s at p99 ${s.p99} ms, the bare transaction ${b.rps.toFixed(0)}/s at p99 ${b.p99} ms (medians); ` +
        `ratio ${ratio.toFixed(2)}x (median of the rounds' ${shop.map((x, i) => (x.rps / bare[i].rps).toFixed(2)).join(', ')});${goal}`)
      console.log(`in the server (Fastify's elapsed time of each request, without the load generator's stalls): purchases p50 ${s.serverP50.toFixed(1)} ms, ` +
        `p99 ${s.serverP99.toFixed(1)} ms; the bare transaction p99 ${b.serverP99.toFixed(1)} ms (medians of the rounds)`)
      if (dialect === 'postgres' && process.argv.includes('--pg-stats')) {
        console.log('where PostgreSQL spent its time in the shop\'s database (pg_stat_statements with nested statements, the last round: set-up, purchases, the other requests):')
        for (const st of await postgres.topStatements('bench_shop', 25)) {
          console.log(`  ${(st.total_exec_time / 1000).toFixed(2).padStart(7)} s ${String(st.calls).padStart(7)} calls ${st.mean_exec_time.toFixed(3).padStart(8)} ms${st.plans ? ` (planned ${st.plans}x, ${(st.total_plan_time / 1000).toFixed(2)} s)` : ''}  ${st.query.replace(/\s+/g, ' ').slice(0, 140)}`)
        }
      }
      console.log('')
    }
  } finally {
    if (postgres) await postgres.stop()
  }
  process.exit(failed ? 1 : 0)
}

if (process.argv[2] === '--serve') {
  const [, , , root, dialect, url, pool, dir, cases] = process.argv
  serveShop(root, dialect, url === '-' ? null : url, Number(pool), dir, Number(cases)).catch(err => { console.error(err); process.exit(1) })
} else if (process.argv[2] === '--bare') {
  const [, , , dialect, url, pool] = process.argv
  serveBare(dialect, url === '-' ? null : url, Number(pool)).catch(err => { console.error(err); process.exit(1) })
} else {
  main().catch(err => { console.error(err); process.exit(1) })
}
