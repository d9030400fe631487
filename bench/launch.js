#!/usr/bin/env node
/**
 * Launch day (issue 12): a new series goes on sale and SHOPPERS simulated shoppers, all at once, each try
 * to buy 1-3 boxes: look at the case the shop shows them (POST /api/caseCurrent), pick that many free
 * slots at random, buy them (POST /api/casePurchase with an idempotency key); told "slot sold" (or the
 * case sold out), they look again and retry, up to ATTEMPTS times. Measured: successful purchases per
 * second over the burst, the share of purchase answers that were "slot sold" (goal: below 5 %), p50/p99
 * of both calls, and how many cases the series opened. Afterwards the books are audited in the database
 * (test/server/support/invariants.ts: every ledger transaction sums to zero, balances match the ledger
 * and are not negative, each slot sold once with one prize, each purchase costs its price...), and every
 * case's commitment is recomputed from its arrangement and salt; anything off fails the run loudly.
 *
 * The server is the real app in a child process on 127.0.0.1 (SQLite in a temp dir, or a throw-away
 * PostgreSQL with production durability and a pool of --pool); shoppers are real accounts past the age
 * gate with money from settled top-ups. Before the launch the shop serves WARM_UP_PURCHASES purchases
 * of an older series (not counted), so its code is warm as a running shop's is. Bounded: a watchdog stops everything; the child and temp dirs go.
 * --server-root DIR runs another checkout's server code (e.g. the main branch, for a before figure).
 * --workers N (PostgreSQL only) runs N API processes on the one database, as behind a load balancer: the
 * shoppers are dealt to them in turn (shopper i talks to process i mod N), each with its own pool of --pool.
 *
 * Usage: node bench/launch.js [--shoppers 500] [--attempts 3] [--db sqlite|postgres|both] [--pool 10] [--pg-sync on|off]
 *                             [--workers 1] [--server-root DIR] [--pg-stats] [--open-ahead N]
 * --open-ahead N: N cases of the launch series are open before the shoppers come (as an operator does
 * with the series editor's "open cases ahead"), so arrivals are given ready cases.
 * --pg-stats loads pg_stat_statements and prints the statements PostgreSQL spent the most time on.
 */
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { randomInt } = require('node:crypto')
const { quantile } = require('./support/quantile')
const { layerOf, serveShop, agent, post, shopProcess, stopAll, serverTimes } = require('./support/shop-child')

/** Issue 25: below 1 % of the purchase answers (issue 12 had asked below 5 %). */
const GOAL_SLOT_SOLD = 0.01
/** Purchases on an older series before the launch, so the server is warm as a running shop is. */
const WARM_UP_PURCHASES = 300

function arg (name, fallback) {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}

// ---- child: the shop (bench/support/shop-child.js), with a series to launch -------------------------

/** Makes the launch series ('launch') or an older one on sale ('warm-up series'), with cases open ahead on request. */
async function launchSeries (msg, shop) {
  const { createSeries } = require(layerOf(shop.src, 'catalogue'))
  // a warehouse that holds more than any launch here can sell (the stock rules are the drop bench's)
  const design = (rarity, i, value) => ({ name: { zh: `${rarity}${i}`, en: `${rarity} ${i}` }, image: '/media/art/1f381.webp', rarity, referenceValueCents: value, recycleValueCents: 10, stock: 100000 })
  const seriesId = await createSeries(shop.db, shop.clock, {
    title: { zh: '新品首发', en: msg.type === 'launch' ? 'Launch series' : 'Yesterday\'s series' }, description: { zh: '', en: '' }, rules: { zh: '', en: '' }, cover: null,
    priceCents: 2900, hiddenCasePpm: 83333, status: 'on_sale',
    designs: [...Array.from({ length: 9 }, (_, i) => design('regular', i + 1, 3000)), ...Array.from({ length: 3 }, (_, i) => design('rare', i + 1, 9000)), design('hidden', 1, 50000)]
  })
  // --open-ahead N: the operator opened cases before the launch (domain/editor.ts openCasesAhead)
  for (let left = (msg.openAhead || 1) - 1; left > 0;) {
    const { openCasesAhead } = require(layerOf(shop.src, 'editor'))
    const r = await openCasesAhead(shop.db, shop.database.dialect, shop.clock, null, seriesId, Math.min(1000, left))
    if (r.opened === 0) break
    left -= r.opened
  }
  return { type: 'launched', seriesId }
}

function serve (root, dialect, databaseUrl, pool, dir, shoppers) {
  return serveShop({ root, dialect, databaseUrl, pool, dir, shoppers, handlers: { launch: launchSeries, 'warm-up series': launchSeries } })
}

// ---- parent: the shoppers -----------------------------------------------------------------------

/**
 * The shop has been open before the launch: a series already on sale, bought from by a few shoppers at
 * a time (the server's code is warm, as it would be), not counted (the server times are dropped).
 */
async function warmUp (procs, bases, tokens) {
  const { child, next } = procs[0]
  child.send({ type: 'warm-up series' })
  const warm = (await next()).seriesId
  let w = 0
  await Promise.all(Array.from({ length: 10 }, async () => {
    while (w < WARM_UP_PURCHASES) {
      const token = tokens[w++ % tokens.length]
      const via = bases[w % bases.length]
      const view = await post(via, '/api/caseCurrent', { seriesId: warm }, token)
      const free = view.body.data.slots.filter(x => !x.sold).map(x => x.slot)
      if (free.length) await post(via, '/api/casePurchase', { caseId: view.body.data.caseId, slots: [free[0]], acknowledged: true, idempotencyKey: `warm-${w}` }, token)
    }
  }))
  await serverTimes(procs)
}

async function runLaunch ({ root, dialect, databaseUrl, pool, shoppers, attempts, workers = 1, openAhead = 0 }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-launch-'))
  // the first process migrates and makes the shoppers; the others only serve
  const first = shopProcess(__filename, [root, dialect, databaseUrl || '-', String(pool), dir, String(shoppers)])
  const procs = [first]
  const { child, next } = first
  const watchdog = setTimeout(() => { console.error('launch benchmark watchdog: took too long, stopping'); for (const p of procs) p.child.kill('SIGKILL'); fs.rmSync(dir, { recursive: true, force: true }); process.exit(2) }, 600000)
  try {
    const ready = await next()
    for (let i = 1; i < workers; i++) procs.push(shopProcess(__filename, [root, dialect, databaseUrl || '-', String(pool), dir, '0']))
    const ports = [ready.port, ...(await Promise.all(procs.slice(1).map(p => p.next()))).map(m => m.port)]
    const bases = ports.map(port => `http://127.0.0.1:${port}`)
    await warmUp(procs, bases, ready.tokens)
    child.send({ type: 'launch', openAhead })
    const { seriesId } = await next()

    const views = []
    const buys = []
    const answers = {}
    let okPurchases = 0
    let boxesBought = 0
    let gaveUp = 0
    const wanted = ready.tokens.map(() => randomInt(1, 4))
    const t0 = performance.now()
    let lastSuccess = t0
    await Promise.all(ready.tokens.map(async (token, i) => {
      const base = bases[i % bases.length]
      for (let attempt = 1; attempt <= attempts; attempt++) {
        const view = await post(base, '/api/caseCurrent', { seriesId }, token)
        views.push(view.ms)
        if (view.body.code !== 200) throw new Error(`caseCurrent: ${JSON.stringify(view.body)}`)
        const free = view.body.data.slots.filter(s => !s.sold).map(s => s.slot)
        const pick = []
        while (pick.length < Math.min(wanted[i], free.length)) pick.push(...free.splice(randomInt(0, free.length), 1))
        if (!pick.length) continue
        const buy = await post(base, '/api/casePurchase', { caseId: view.body.data.caseId, slots: pick.sort((a, b) => a - b), acknowledged: true, idempotencyKey: `launch-${i}-${attempt}` }, token)
        buys.push(buy.ms)
        const d = buy.body.data || {}
        const key = buy.body.code === 200 ? 'ok' : buy.body.code === 409 ? (d.slot !== undefined ? (d.field === 'slots' && /reserv/i.test(buy.body.message) ? 'slot reserved' : 'slot sold') : 'case sold out') : `${buy.body.code} ${d.reason ?? d.field ?? ''}`.trim()
        answers[key] = (answers[key] || 0) + 1
        if (buy.body.code === 200) {
          okPurchases++
          boxesBought += buy.body.data.prizes.length
          lastSuccess = performance.now()
          return
        }
        if (buy.body.code !== 409) throw new Error(`casePurchase: ${JSON.stringify(buy.body)}`)
      }
      gaveUp++
    }))
    const seconds = (lastSuccess - t0) / 1000
    const server = await serverTimes(procs)
    child.send({ type: 'audit', seriesId })
    const audit = await next()
    const purchaseAnswers = Object.values(answers).reduce((a, b) => a + b, 0)
    // "slot sold": a slot bought by someone else first; a case that sold out under them counts too
    const slotSold = (answers['slot sold'] || 0) + (answers['case sold out'] || 0)
    return {
      dialect, seconds, okPurchases, boxesBought, gaveUp, answers, purchaseAnswers, slotSold,
      share: slotSold / Math.max(1, purchaseAnswers),
      view: { p50: quantile(views, 0.5), p99: quantile(views, 0.99), n: views.length },
      buy: { p50: quantile(buys, 0.5), p99: quantile(buys, 0.99), n: buys.length },
      audit,
      server
    }
  } finally {
    await stopAll(procs)
    clearTimeout(watchdog)
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

async function main () {
  const shoppers = Number(arg('shoppers', 500))
  const attempts = Number(arg('attempts', 3))
  const openAhead = Number(arg('open-ahead', 0))
  const pool = Number(arg('pool', 10))
  const root = path.resolve(arg('server-root', path.join(__dirname, '..')))
  const which = arg('db', 'both')
  const workers = Number(arg('workers', 1))
  const dbs = which === 'both' ? ['sqlite', 'postgres'] : [which]
  if (workers > 1 && dbs.includes('sqlite')) throw new Error('--workers above 1 needs --db postgres (SQLite is written by one process)')
  const { startPostgres } = require('./support/postgres')
  let postgres = null
  if (dbs.includes('postgres')) {
    postgres = await startPostgres({ synchronousCommit: arg('pg-sync', 'on'), statementStats: process.argv.includes('--pg-stats') })
    if (!postgres) { console.log('PostgreSQL is not installed: SQLite only'); dbs.splice(dbs.indexOf('postgres'), 1) }
  }
  let failed = false
  try {
    for (const dialect of dbs) {
      let url = null
      if (dialect === 'postgres') { await postgres.createDatabase('bench_launch'); url = postgres.url('bench_launch') }
      const r = await runLaunch({ root, dialect, databaseUrl: url, pool, shoppers, attempts, workers, openAhead })
      const where = dialect === 'sqlite' ? 'SQLite (WAL, synchronous NORMAL)' : `${postgres.settings}, pool ${pool}${workers > 1 ? ` per process, ${workers} API processes` : ''}`
      console.log(`\nLaunch on ${where}: server code of ${root}; ${os.cpus().length} cores, Node ${process.version}, 127.0.0.1`)
      console.log(`${shoppers} shoppers at once, 1-3 boxes each, up to ${attempts} tries: ${r.okPurchases} purchases (${r.boxesBought} boxes) in ${r.seconds.toFixed(2)} s = ${(r.okPurchases / r.seconds).toFixed(0)} purchases/s (${(r.boxesBought / r.seconds).toFixed(0)} boxes/s); ${r.gaveUp} gave up`)
      console.log(`purchase answers: ${r.purchaseAnswers} (${Object.entries(r.answers).map(([k, v]) => `${k}: ${v}`).join(', ')}); "slot sold" or "case sold out" ${(100 * r.share).toFixed(1)} % (goal < ${100 * GOAL_SLOT_SOLD} %)`)
      console.log(`latency: casePurchase p50 ${r.buy.p50.toFixed(0)} ms, p99 ${r.buy.p99.toFixed(0)} ms; caseCurrent p50 ${r.view.p50.toFixed(0)} ms, p99 ${r.view.p99.toFixed(0)} ms (${r.view.n} views)`)
      const st = k => r.server[k] ? `${k} p50 ${r.server[k].p50.toFixed(1)} ms, p99 ${r.server[k].p99.toFixed(1)} ms` : ''
      console.log(`in the server (arrival to answer, so the queue on its event loop included): ${st('/api/casePurchase')}; ${st('/api/caseCurrent')}`)
      console.log(`cases of the series: ${r.audit.cases.total}${openAhead ? ` (${openAhead} open before the launch)` : ''} (${r.audit.cases.soldOut} sold out, ${r.audit.cases.open} open); ${r.audit.purchases} purchases and ${r.audit.soldSlots} slots sold in the database`)
      const mismatch = r.audit.purchases !== r.okPurchases || r.audit.soldSlots !== r.boxesBought || r.audit.boxes !== r.boxesBought
      if (mismatch) r.audit.problems.push(`answered ${r.okPurchases} purchases of ${r.boxesBought} boxes, the database holds ${r.audit.purchases} purchases of ${r.audit.boxes} boxes and ${r.audit.soldSlots} sold slots`)
      if (r.audit.problems.length) {
        failed = true
        console.error(`BOOKS DO NOT BALANCE (${r.audit.problems.length} problems):\n  ${r.audit.problems.slice(0, 20).join('\n  ')}`)
      } else {
        console.log('books: balanced (ledger, wallets, one prize per slot, purchases priced and debited once, commitments recomputed)')
      }
      console.log(`goal "slot sold" < ${100 * GOAL_SLOT_SOLD} %: ${r.share < GOAL_SLOT_SOLD ? 'met' : 'MISSED'}`)
      if (dialect === 'postgres' && process.argv.includes('--pg-stats')) {
        console.log('where PostgreSQL spent its time (pg_stat_statements, the whole run: set-up, warm-up and launch):')
        for (const s of await postgres.topStatements('bench_launch')) {
          console.log(`  ${(s.total_exec_time / 1000).toFixed(2).padStart(7)} s ${String(s.calls).padStart(7)} calls ${s.mean_exec_time.toFixed(2).padStart(7)} ms  ${s.query.replace(/\s+/g, ' ').slice(0, 150)}`)
        }
      }
    }
  } finally {
    if (postgres) await postgres.stop()
  }
  agent.destroy()
  if (failed) {
    console.error('\nlaunch benchmark FAILED: the books do not balance')
    process.exit(1)
  }
}

if (require.main !== module) {
  // required by another bench (drop.js): only its functions
} else if (process.argv[2] === '--serve') {
  const [, , , root, dialect, url, pool, dir, shoppers] = process.argv
  serve(root, dialect, url === '-' ? null : url, Number(pool), dir, Number(shoppers)).catch(err => { console.error(err); process.exit(1) })
} else {
  main().catch(err => { console.error(err); process.exit(1) })
}

module.exports = { runLaunch, launchSeries, warmUp, GOAL_SLOT_SOLD }
