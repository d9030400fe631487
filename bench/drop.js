#!/usr/bin/env node
/**
 * A drop (issue 50 item 8): ARRIVALS simulated shoppers (10,000) arrive within SPREAD seconds (10) of the
 * start of a drop of CASES cases (500) of 12 boxes, with a waiting room of the editor's defaults, and
 * each tries to buy 1-3 boxes through the HTTP API as the app does (bench/support/drop-shopper.js: the
 * room polled as told, then the case, the check and the purchase, then they leave). On SQLite, and on
 * PostgreSQL with WORKERS API processes (2) on the one database, shoppers dealt to them in turn.
 *
 * Measured: the room's answer p50/p99 (goal p99 <= 1 s), the purchase p99 of those let in (goal <= 200
 * ms), the time from the start to sold out, the share of "slot sold" answers (goal < 1 %), 5xx and
 * timeouts (goal 0), and how long after the last box each shopper still there was told sold out (goal
 * <= 2 s; nobody left waiting). Afterwards the books and the warehouse are audited in the database
 * (test/server/support/invariants.ts, commitments recomputed): every box of the drop sold exactly once,
 * no more. Beside it, in the same run, today's path without a drop (bench/launch.js, REFERENCE arrivals
 * at once, 2,000): the drop's figures are also given as ratios to it (machines are noisy).
 *
 * The shop runs in child processes on 127.0.0.1 (bench/support/shop-child.js); a watchdog ends the run.
 * Ends with `drop: goals met` or `drop: goals missed: <which>`, and exits 1 then.
 *
 * Usage: node bench/drop.js [--db sqlite|postgres|both] [--arrivals 10000] [--reference 2000] [--pool 10] [--pg-stats]
 * Environment: DROP_ARRIVALS, WORKERS (PostgreSQL's API processes, default 2), DROP_CASES (default
 * arrivals / 20, i.e. 500 for 10,000), DROP_SPREAD_S (10), DROP_MAX_S (how long a shopper stays, 240).
 * --pg-stats: pg_stat_statements loaded, and the statements PostgreSQL spent most time on in the drop's
 * database printed (tracking costs time of its own: a diagnostic, not a measure).
 */
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { randomInt } = require('node:crypto')
const { quantile } = require('./support/quantile')
const { layerOf, serveShop, agent, shopProcess, stopAll, serverTimes, tcpCounters } = require('./support/shop-child')
const { dropShopper, newTally, upstream, opened, TIMEOUT_MS, HOLD_MS } = require('./support/drop-shopper')
const { runLaunch, launchSeries, warmUp } = require('./launch')

const GOALS = { queueP99Ms: 1000, purchaseP99Ms: 200, slotSoldShare: 0.01, soldOutToldMs: 2000 }
const CASE_SIZE = 12
const PRICE_CENTS = 2900
/** The drop starts this long after it is made, so the first arrivals come before the start. */
const LEAD_MS = 2000

function arg (name, fallback) {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}

// ---- child: the shop, with a drop -----------------------------------------------------------------

/** A series whose warehouse holds exactly the drop, and the drop (with the waiting room's settings). */
async function makeDrop (msg, shop) {
  const { createSeries } = require(layerOf(shop.src, 'catalogue'))
  const { createDrop } = require(layerOf(shop.src, 'drops'))
  const design = (rarity, i, value, stock) => ({ name: { zh: `${rarity}${i}`, en: `${rarity} ${i}` }, image: '/media/art/1f381.webp', rarity, referenceValueCents: value, recycleValueCents: 10, stock })
  const seriesId = await createSeries(shop.db, shop.clock, {
    title: { zh: '限量发售', en: 'Drop series' }, description: { zh: '', en: '' }, rules: { zh: '', en: '' }, cover: null,
    priceCents: PRICE_CENTS, hiddenCasePpm: 83333, status: 'on_sale',
    designs: [...Array.from({ length: 9 }, (_, i) => design('regular', i + 1, 3000, msg.cases)), ...Array.from({ length: 3 }, (_, i) => design('rare', i + 1, 9000, msg.cases)), design('hidden', 1, 50000, msg.hiddenCases)]
  })
  const info = await createDrop(shop.db, shop.clock, shop.userIds[0], {
    seriesId, cases: msg.cases, hiddenCases: msg.hiddenCases, startsAt: new Date(Date.now() + msg.leadMs).toISOString(), waitingRoom: msg.room
  })
  return { type: 'dropped', seriesId, dropId: info.dropId, startsAt: info.startsAt, boxes: info.boxes }
}

/** After the drop: when its last box was sold, what is left, and where the room's rows ended. */
async function dropAfter (msg, shop) {
  const { db } = shop
  const cases = await db.selectFrom('cases').select(['status', eb => eb.fn.countAll().as('n'), eb => eb.fn.sum('sold_count').as('sold')]).where('drop_id', '=', msg.dropId).groupBy('status').execute()
  const last = await db.selectFrom('case_slots').innerJoin('cases', 'cases.id', 'case_slots.case_id').select(eb => eb.fn.max('case_slots.sold_at').as('at')).where('cases.drop_id', '=', msg.dropId).executeTakeFirstOrThrow()
  const room = await db.selectFrom('drop_queue').select(['state', eb => eb.fn.countAll().as('n')]).where('drop_id', '=', msg.dropId).groupBy('state').execute()
  const designs = await db.selectFrom('designs').select(['rarity', 'stock', 'committed']).where('series_id', '=', msg.seriesId).execute()
  return {
    type: 'after',
    cases: Object.fromEntries(cases.map(c => [c.status, { n: Number(c.n), sold: Number(c.sold ?? 0) }])),
    lastSoldAt: last.at ? new Date(last.at).getTime() : null,
    room: Object.fromEntries(room.map(r => [r.state, Number(r.n)])),
    designs: designs.map(d => ({ rarity: d.rarity, stock: Number(d.stock), committed: Number(d.committed) }))
  }
}

function serve (root, dialect, databaseUrl, pool, dir, shoppers) {
  return serveShop({ root, dialect, databaseUrl, pool, dir, shoppers, handlers: { drop: makeDrop, 'drop after': dropAfter, 'warm-up series': launchSeries } })
}

// ---- parent: the shoppers -----------------------------------------------------------------------

const q = (xs, p) => quantile(xs, p)

async function runDrop ({ root, dialect, databaseUrl, pool, workers, arrivals, cases, spreadMs, maxMs, room, afterWarmUp = async () => {} }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-drop-'))
  const first = shopProcess(__filename, [root, dialect, databaseUrl || '-', String(pool), dir, String(arrivals)])
  const procs = [first]
  const watchdog = setTimeout(() => { console.error('drop benchmark watchdog: took too long, stopping'); for (const p of procs) p.child.kill('SIGKILL'); fs.rmSync(dir, { recursive: true, force: true }); process.exit(2) }, 900000)
  try {
    const setUp = performance.now()
    const ready = await first.next()
    for (let i = 1; i < workers; i++) procs.push(shopProcess(__filename, [root, dialect, databaseUrl || '-', String(pool), dir, '0']))
    const ports = [ready.port, ...(await Promise.all(procs.slice(1).map(p => p.next()))).map(m => m.port)]
    const bases = ports.map(port => `http://127.0.0.1:${port}`)
    console.log(`(${arrivals} accounts made in ${((performance.now() - setUp) / 1000).toFixed(0)} s)`)
    await warmUp(procs, bases, ready.tokens)
    await afterWarmUp()
    first.child.send({ type: 'drop', cases, hiddenCases: Math.round(cases / CASE_SIZE), leadMs: LEAD_MS, room })
    const drop = await first.next()
    const start = Date.parse(drop.startsAt)
    const tally = newTally()
    const tcpBefore = tcpCounters()
    // the load generator's own event loop: a late answer may be late here, not in the shop
    const lag = require('node:perf_hooks').monitorEventLoopDelay({ resolution: 20 })
    lag.enable()
    const progress = setInterval(() => {
      const shopping = tally.states.shopping || 0
      console.log(`  ${((Date.now() - start) / 1000).toFixed(0)} s: ${tally.ms.queue.length} room answers (shopping ${shopping}, sold out ${tally.states.sold_out || 0}), ${tally.purchases} purchases of ${tally.boxes} boxes`)
    }, 5000)
    // arrivals spread evenly at random over the first spreadMs from the start (some before it: the lead)
    const ends = await Promise.all(ready.tokens.map((token, i) => dropShopper({
      i, token, base: bases[i % bases.length], dropId: drop.dropId, seriesId: drop.seriesId, priceCents: PRICE_CENTS,
      wanted: randomInt(1, 4), arriveAt: start - LEAD_MS / 2 + randomInt(0, spreadMs), endAt: start + maxMs
    }, tally)))
    clearInterval(progress)
    lag.disable()
    tally.clientLag = { p99: lag.percentile(99) / 1e6, max: lag.max / 1e6 }
    const tcpAfter = tcpCounters()
    // new connections by second from the start (both agents), the busy seconds only
    tally.opened = [...opened].reduce((o, [second, n]) => { const k = second - Math.floor(start / 1000); o[k] = (o[k] || 0) + n; return o }, {})
    tally.tcp = tcpBefore === null || tcpAfter === null ? null : Object.fromEntries(Object.keys(tcpAfter).map(k => [k, tcpAfter[k] - (tcpBefore[k] ?? 0)]))
    const server = await serverTimes(procs)
    first.child.send({ type: 'audit', seriesId: drop.seriesId })
    const audit = await first.next()
    first.child.send({ type: 'drop after', dropId: drop.dropId, seriesId: drop.seriesId })
    const after = await first.next()
    return { drop, start, tally, ends, server, audit, after }
  } finally {
    await stopAll(procs)
    clearTimeout(watchdog)
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** The drop's figures, the goals met or missed, and the audit's problems. */
function judge (r, ref) {
  const t = r.tally
  const allAnswers = [...Object.values(t.answers.check), ...Object.values(t.answers.buy)].reduce((a, b) => a + b, 0)
  const slotSold = ['slot sold', 'case sold out'].reduce((n, k) => n + (t.answers.check[k] || 0) + (t.answers.buy[k] || 0), 0)
  const lastSoldAt = r.after.lastSoldAt
  const told = r.ends.filter(e => e.soldOutAt !== null).map(e => Math.max(0, e.soldOutAt - lastSoldAt))
  const stillWaiting = r.ends.filter(e => e.end === 'still waiting').length
  const f = {
    queue: { p50: q(t.ms.queue, 0.5), p99: q(t.ms.queue, 0.99), n: t.ms.queue.length },
    // how long after the draw those there before it were told their place
    placeTold: { p50: q(t.ms.placeTold, 0.5), p99: q(t.ms.placeTold, 0.99), n: t.ms.placeTold.length },
    // held answers given at the end of their hold (the server holds for half to all of waitMs): how late
    // past the longest hold
    heldLate: { p50: q(t.ms.heldLate, 0.5), p99: q(t.ms.heldLate, 0.99), n: t.ms.heldLate.length, held: t.ms.held.length },
    view: { p50: q(t.ms.view, 0.5), p99: q(t.ms.view, 0.99), n: t.ms.view.length },
    check: { p50: q(t.ms.check, 0.5), p99: q(t.ms.check, 0.99), n: t.ms.check.length },
    buy: { p50: q(t.ms.buy, 0.5), p99: q(t.ms.buy, 0.99), n: t.ms.buy.length },
    soldOutS: lastSoldAt === null || r.audit.soldSlots !== r.drop.boxes ? null : (lastSoldAt - r.start) / 1000,
    slotSoldShare: slotSold / Math.max(1, allAnswers),
    slotSold,
    allAnswers,
    failures: t.http5xx + t.timeouts,
    told: { n: told.length, p50: q(told, 0.5), p99: q(told, 0.99), max: told.reduce((a, b) => Math.max(a, b), 0) },
    stillWaiting,
    letIn: r.ends.filter(e => e.letIn).length,
    ends: r.ends.reduce((o, e) => { o[e.end] = (o[e.end] || 0) + 1; return o }, {})
  }
  const missed = []
  if (f.queue.p99 > GOALS.queueP99Ms) missed.push('queue p99')
  if (f.placeTold.n && f.placeTold.p99 > GOALS.queueP99Ms) missed.push('place told p99')
  if (f.heldLate.n && f.heldLate.p99 > GOALS.queueP99Ms) missed.push('held answers late')
  if (f.buy.p99 > GOALS.purchaseP99Ms) missed.push('purchase p99')
  if (f.slotSoldShare >= GOALS.slotSoldShare) missed.push('slot sold share')
  if (f.failures > 0) missed.push('5xx or timeouts')
  if (f.told.max > GOALS.soldOutToldMs || stillWaiting > 0 || lastSoldAt === null) missed.push('sold out told')
  // the audit: the books, and every box of the drop sold exactly once
  const problems = [...r.audit.problems]
  const boxes = r.drop.boxes
  if (r.audit.soldSlots !== boxes) problems.push(`${r.audit.soldSlots} boxes sold of the drop's ${boxes}`)
  // a purchase whose answer was lost may have been made: the database may hold up to that many more
  const lost = r.audit.purchases - t.purchases
  if (lost > 0) f.unansweredMade = lost
  if (r.audit.boxes !== r.audit.soldSlots || lost < 0 || lost > t.buysUnanswered || (lost === 0 && r.audit.boxes !== t.boxes)) problems.push(`answered ${t.purchases} purchases of ${t.boxes} boxes; the database holds ${r.audit.purchases} purchases of ${r.audit.boxes} boxes and ${r.audit.soldSlots} sold slots`)
  const dropCases = boxes / CASE_SIZE
  const soldOutCases = r.after.cases.sold_out?.n ?? 0
  if (soldOutCases !== dropCases) problems.push(`${dropCases - soldOutCases} of the drop's ${dropCases} cases not sold out: ${JSON.stringify(r.after.cases)}`)
  if (t.unexpected.length) problems.push(`unexpected answers (${t.unexpected.length}): ${t.unexpected.slice(0, 3).join(' | ')}`)
  const ratio = (a, b) => b > 0 ? `${(a / b).toFixed(2)}x` : '-'
  f.ratios = {
    buyP50: ratio(f.buy.p50, ref.buy.p50),
    buyP99: ratio(f.buy.p99, ref.buy.p99),
    queueVsViewP50: ratio(f.queue.p50, ref.view.p50),
    queueVsViewP99: ratio(f.queue.p99, ref.view.p99),
    boxesPerS: f.soldOutS ? ratio(boxes / f.soldOutS, ref.boxesBought / ref.seconds) : '-'
  }
  return { f, missed, problems }
}

function report (where, arrivals, spreadMs, room, r, ref, { f, missed, problems }) {
  const ms = x => `${x.toFixed(0)} ms`
  console.log(`\nDrop on ${where}; ${os.cpus().length} cores (shared), Node ${process.version}, 127.0.0.1`)
  console.log(`reference, today's path without a drop: ${ref.okPurchases} purchases of ${ref.boxesBought} boxes by ${ref.okPurchases + ref.gaveUp} shoppers at once in ${ref.seconds.toFixed(2)} s (${(ref.boxesBought / ref.seconds).toFixed(0)} boxes/s); casePurchase p50 ${ms(ref.buy.p50)}, p99 ${ms(ref.buy.p99)}; caseCurrent p50 ${ms(ref.view.p50)}, p99 ${ms(ref.view.p99)}; "slot sold" ${(100 * ref.share).toFixed(1)} %`)
  console.log(`drop: ${arrivals} shoppers within ${spreadMs / 1000} s of the start, over one pool of kept connections (a proxy's upstream pool); ${r.drop.boxes} boxes in ${r.drop.boxes / CASE_SIZE} cases; room: window ${room.windowSeconds} s, ${room.shoppersAtOnce} at once, ${room.minutesEach} min each`)
  console.log(`  the room's answer: p50 ${ms(f.queue.p50)}, p99 ${ms(f.queue.p99)} (${f.queue.n} answers; goal p99 <= ${GOALS.queueP99Ms} ms); vs the reference's caseCurrent p50 ${f.ratios.queueVsViewP50}, p99 ${f.ratios.queueVsViewP99}`)
  console.log(`  there before the draw, told their place after it: p50 ${ms(f.placeTold.p50)}, p99 ${ms(f.placeTold.p99)} (${f.placeTold.n} answers; goal p99 <= ${GOALS.queueP99Ms} ms)`)
  console.log(`  held asks (in line, waitMs ${HOLD_MS / 1000} s): ${f.heldLate.held}; of those answered at the end of their hold (${f.heldLate.n}), late past the longest hold p50 ${ms(f.heldLate.p50)}, p99 ${ms(f.heldLate.p99)} (goal p99 <= ${GOALS.queueP99Ms} ms)`)
  console.log(`  room answers by state: ${Object.entries(r.tally.states).map(([k, v]) => `${k} ${v}`).join(', ')}`)
  console.log(`  purchase (let in: ${f.letIn}): casePurchase p50 ${ms(f.buy.p50)}, p99 ${ms(f.buy.p99)} (${f.buy.n}; goal p99 <= ${GOALS.purchaseP99Ms} ms; vs the reference p50 ${f.ratios.buyP50}, p99 ${f.ratios.buyP99}); purchaseCheck p50 ${ms(f.check.p50)}, p99 ${ms(f.check.p99)}; caseCurrent p50 ${ms(f.view.p50)}, p99 ${ms(f.view.p99)}`)
  console.log(`  answers: check ${JSON.stringify(r.tally.answers.check)}, purchase ${JSON.stringify(r.tally.answers.buy)}; "slot sold" or "case sold out" ${(100 * f.slotSoldShare).toFixed(2)} % of ${f.allAnswers} (goal < ${100 * GOALS.slotSoldShare} %)`)
  console.log(`  sold out ${f.soldOutS === null ? `NOT (${r.audit.soldSlots} of ${r.drop.boxes} boxes sold)` : `${f.soldOutS.toFixed(1)} s after the start`}: ${r.tally.purchases} purchases of ${r.tally.boxes} boxes answered (${f.ratios.boxesPerS} the reference's boxes/s)`)
  console.log(`  told sold out after the last box: ${f.told.n} shoppers, p50 ${ms(f.told.p50)}, p99 ${ms(f.told.p99)}, last ${ms(f.told.max)} (goal <= ${GOALS.soldOutToldMs} ms); still waiting at the end: ${f.stillWaiting}`)
  if (f.unansweredMade) console.log(`  ${f.unansweredMade} of the ${r.tally.buysUnanswered} purchases that got no answer were made (the audit counts them)`)
  console.log(`  how shoppers ended: ${Object.entries(f.ends).map(([k, v]) => `${k} ${v}`).join(', ')}; 5xx ${r.tally.http5xx}, timeouts (${TIMEOUT_MS / 1000} s; held asks ${TIMEOUT_MS / 1000} s past their hold) ${r.tally.timeouts} ${JSON.stringify(r.tally.timeoutsBy)}`)
  const st = k => r.server[k] ? `${k} p50 ${r.server[k].p50.toFixed(1)} ms, p99 ${r.server[k].p99.toFixed(1)} ms (${r.server[k].n})` : ''
  // the slow unheld calls by the second of the run they were sent in (from the start)
  for (const key of [...new Set(r.tally.slow.map(x => x.key))]) {
    const bySecond = {}
    for (const x of r.tally.slow.filter(x => x.key === key)) { const k = Math.floor((x.sentAt - r.start) / 1000); bySecond[k] = (bySecond[k] || 0) + 1 }
    console.log(`  ${key}: answered more than 1 s late, by the second from the start they were sent: ${Object.entries(bySecond).sort((a, b) => Number(a[0]) - Number(b[0])).map(([k, v]) => `${k}s ${v}`).join(', ')}`)
  }
  if (r.tally.slowPurchase.length) {
    const bySecond = {}
    for (const sentAt of r.tally.slowPurchase) { const k = Math.floor((sentAt - r.start) / 1000); bySecond[k] = (bySecond[k] || 0) + 1 }
    console.log(`  purchase calls (case, check, purchase) over 200 ms, by the second from the start they were sent: ${Object.entries(bySecond).sort((a, b) => Number(a[0]) - Number(b[0])).map(([k, v]) => `${k}s ${v}`).join(', ')}`)
  }
  console.log(`  the load generator's own event loop (the 10,000 shoppers, on the same cores): delay p99 ${ms(r.tally.clientLag.p99)}, max ${ms(r.tally.clientLag.max)}`)
  console.log(`  the shop's event loop${r.server.loops.length > 1 ? 's' : ''}: delay p99 ${r.server.loops.map(l => ms(l.p99)).join(', ')}, max ${r.server.loops.map(l => ms(l.max)).join(', ')}; connections kept waiting by the kernel (machine-wide; TCP tries again 1, 3, 7 s later): ${r.tally.tcp ? `${r.tally.tcp.ListenOverflows} dropped at a full accept queue, ${r.tally.tcp.TCPReqQFullDoCookies} SYN cookies at a full SYN queue, ${r.tally.tcp.TCPSynRetrans} SYNs sent again` : 'not known'}`)
  const a = r.server.loops.map(l => l.arrival)
  const busy = Object.entries(r.tally.opened).filter(([, n]) => n >= 100).sort((x, y) => Number(x[0]) - Number(y[0]))
  console.log(`  connections opened by the shoppers: ${Object.values(r.tally.opened).reduce((x, y) => x + y, 0)}${busy.length ? `; seconds from the start with 100 or more: ${busy.map(([k, n]) => `${k}s ${n}`).join(', ')}` : ''}`)
  console.log(`  from the client's send to the server's code (waiting in the kernel: the listen queue, the socket): p50 ${a.map(x => ms(x.p50)).join(', ')}, p99 ${a.map(x => ms(x.p99)).join(', ')}, max ${a.map(x => ms(x.max)).join(', ')}; over 1 s: ${a.map(x => x.over1s).join(', ')}; the shop's CPU during the drop, of one core: ${r.server.loops.map(l => `${(100 * l.cpuShare).toFixed(0)} %`).join(', ')}`)
  console.log(`  in the server: ${['/api/dropQueue', '/api/caseCurrent', '/api/purchaseCheck', '/api/casePurchase'].map(st).filter(Boolean).join('; ')}`)
  console.log(`  warehouse: ${r.after.designs.map(d => `${d.rarity} ${d.committed}/${d.stock}`).join(', ')} committed/stock; room rows: ${JSON.stringify(r.after.room)}`)
  if (problems.length) console.error(`  AUDIT FAILED (${problems.length} problems):\n    ${problems.slice(0, 20).join('\n    ')}`)
  else console.log(`  audit: every box of the drop sold once (${r.audit.soldSlots} = ${r.drop.boxes}), books balanced (ledger, wallets, one prize per slot, warehouse counts, commitments recomputed)`)
  console.log(`  goals: ${missed.length ? `missed ${missed.join(', ')}` : 'met'}`)
}

async function main () {
  require('tsx/cjs/api').register()
  const { DROP_LIMITS } = require('../types/limits')
  const arrivals = Number(arg('arrivals', process.env.DROP_ARRIVALS || 10000))
  const reference = Number(arg('reference', 2000))
  const cases = Number(process.env.DROP_CASES || Math.max(1, Math.round(arrivals / 20)))
  const spreadMs = Number(process.env.DROP_SPREAD_S || 10) * 1000
  const maxMs = Number(process.env.DROP_MAX_S || 240) * 1000
  const pool = Number(arg('pool', 10))
  const pgWorkers = Number(process.env.WORKERS || 2)
  const root = path.resolve(arg('server-root', path.join(__dirname, '..')))
  const which = arg('db', 'both')
  const dbs = which === 'both' ? ['sqlite', 'postgres'] : [which]
  // the editor's defaults: what an operator gets without changing them
  const room = { ...DROP_LIMITS.defaults }
  const { startPostgres } = require('./support/postgres')
  let postgres = null
  if (dbs.includes('postgres')) {
    postgres = await startPostgres({ statementStats: process.argv.includes('--pg-stats') })
    if (!postgres) { console.log('PostgreSQL is not installed: SQLite only'); dbs.splice(dbs.indexOf('postgres'), 1) }
  }
  const missedAll = []
  let auditFailed = false
  try {
    for (const dialect of dbs) {
      const workers = dialect === 'postgres' ? pgWorkers : 1
      let refUrl = null
      let dropUrl = null
      if (dialect === 'postgres') {
        await postgres.createDatabase('bench_launch')
        await postgres.createDatabase('bench_drop')
        refUrl = postgres.url('bench_launch')
        dropUrl = postgres.url('bench_drop')
      }
      const ref = await runLaunch({ root, dialect, databaseUrl: refUrl, pool, shoppers: reference, attempts: 3, workers })
      // --pg-stats: the drop's statements only, not the warm-up's (a series of its own, sold case by case)
      const afterWarmUp = dialect === 'postgres' && process.argv.includes('--pg-stats') ? () => postgres.resetStatements('bench_drop') : undefined
      const r = await runDrop({ root, dialect, databaseUrl: dropUrl, pool, workers, arrivals, cases, spreadMs, maxMs, room, afterWarmUp })
      const judged = judge(r, ref)
      const where = dialect === 'sqlite' ? 'SQLite (WAL, synchronous NORMAL), 1 API process' : `${postgres.settings}, pool ${pool} per process, ${workers} API process${workers > 1 ? 'es' : ''}`
      report(where, arrivals, spreadMs, room, r, ref, judged)
      if (dialect === 'postgres' && process.argv.includes('--pg-stats')) {
        console.log('  where PostgreSQL spent its time in the drop\'s database from the end of the warm-up (pg_stat_statements):')
        for (const s of await postgres.topStatements('bench_drop', 16)) {
          console.log(`  ${(s.total_exec_time / 1000).toFixed(2).padStart(7)} s ${String(s.calls).padStart(7)} calls ${s.mean_exec_time.toFixed(2).padStart(7)} ms  ${s.query.replace(/\s+/g, ' ').slice(0, 150)}`)
        }
      }
      for (const m of judged.missed) missedAll.push(`${m} (${dialect})`)
      if (judged.problems.length) { auditFailed = true; missedAll.push(`audit (${dialect})`) }
    }
  } finally {
    if (postgres) await postgres.stop()
  }
  agent.destroy()
  upstream.destroy()
  console.log(missedAll.length ? `drop: goals missed: ${missedAll.join(', ')}` : 'drop: goals met')
  if (missedAll.length || auditFailed) process.exit(1)
}

if (process.argv[2] === '--serve') {
  const [, , , root, dialect, url, pool, dir, shoppers] = process.argv
  serve(root, dialect, url === '-' ? null : url, Number(pool), dir, Number(shoppers)).catch(err => { console.error(err); process.exit(1) })
} else {
  main().catch(err => { console.error(err); process.exit(1) })
}
