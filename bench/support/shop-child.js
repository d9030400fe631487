/**
 * What the shopper benches (launch.js, drop.js) share: the shop as a child process of the bench, on
 * 127.0.0.1, with SHOPPERS real accounts past the age gate and money from settled top-ups, spoken to by
 * messages; and the shoppers' side: an HTTP client, the child's messages, and the server's own times.
 *
 * Child messages every shop answers: 'server times' (every request's time since the last ask, by call),
 * 'audit' (the books: test/server/support/invariants.ts, and every case of `seriesId` recomputed from its
 * arrangement and salt), 'stop'. A bench adds its own through `handlers`.
 */
const { fork } = require('node:child_process')
const { createHash } = require('node:crypto')
const fs = require('node:fs')
const http = require('node:http')
const path = require('node:path')
const { quantile } = require('./quantile')

const PREFIX = '/dev-api'

/** A server module that moved from services/ to domain/: found in either (--server-root may be an older checkout). */
function layerOf (src, name) {
  // domain/<subject>/<name>.ts since issue 49; domain/<name>.ts or services/<name>.ts in older server code
  const subject = fs.existsSync(path.join(src, 'domain')) && fs.readdirSync(path.join(src, 'domain')).find(d => fs.existsSync(path.join(src, 'domain', d, `${name}.ts`)))
  if (subject) return path.join(src, 'domain', subject, name)
  return fs.existsSync(path.join(src, 'domain', `${name}.ts`)) ? path.join(src, 'domain', name) : path.join(src, 'services', name)
}

// ---- child: the shop ------------------------------------------------------------------------------

/**
 * Runs the shop of `root` (SQLite in `dir`, or PostgreSQL at `databaseUrl` with a pool of `pool`) with
 * `shoppers` accounts (0: a further process on the same database), and answers the parent's messages.
 * `handlers[type](msg, shop)` answers a bench's own; `shop` is { db, database, clock, src, config }.
 */
async function serveShop ({ root, dialect, databaseUrl, pool, dir, shoppers, handlers = {} }) {
  require('tsx/cjs/api').register()
  const src = path.join(root, 'server', 'src')
  const { loadConfig } = require(path.join(src, 'config'))
  const { openDatabase, sqlitePathIn } = require(path.join(src, 'db'))
  const { migrateToLatest } = require(path.join(src, 'db', 'migrate'))
  const { buildApp } = require(path.join(src, 'app'))
  const { issueOrderNo, createOrder, settleOrder } = require(layerOf(src, 'orders'))
  const { insertUser } = require(layerOf(src, 'users'))
  const { hashPassword } = require(path.join(src, 'security', 'passwords'))
  const { SessionService } = require(layerOf(src, 'sessions'))
  // the audit of the books is this repository's (it reads tables every version has)
  const { invariantViolations } = require(path.join(__dirname, '..', '..', 'test', 'server', 'support', 'invariants'))

  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, STATIC_DIR: path.join(dir, 'no-h5'), TRUST_PROXY: 'on', LOG_LEVEL: 'silent' })
  const database = dialect === 'sqlite' ? openDatabase({ sqlitePath: sqlitePathIn(config.dataDir) }) : openDatabase({ databaseUrl, poolSize: pool })
  await migrateToLatest(database.db, database.dialect)
  const db = database.db
  const clock = () => Date.now()
  // one password hash for every account (hashing is made slow on purpose)
  const hash = await hashPassword('launch-password')
  const sessions = new SessionService(db, clock)
  const tokens = new Array(shoppers)
  const userIds = new Array(shoppers)
  const makeShopper = async i => {
    const user = await insertUser(db, clock, { user_name: `shopper${i}`, nickname: `Shopper ${i}`, password_hash: hash })
    const userId = Number(user.id)
    const now = new Date().toISOString()
    await db.insertInto('age_checks').values({ user_id: userId, birth_date: '1990-01-01', guardian_consent: 0, created_at: now, updated_at: now }).execute()
    const opId = await issueOrderNo(db, clock, userId, 'wallet_topup')
    await createOrder(db, clock, config, userId, { productId: 'wallet_topup', userId, opId, amountCents: 100000, channel: 'sandbox' })
    await settleOrder(db, clock, opId, ['created'])
    tokens[i] = await sessions.create(userId, { ip: '127.0.0.1', userAgent: 'launch' })
    userIds[i] = userId
  }
  // PostgreSQL commits several accounts at once over its pool; SQLite writes one at a time anyway
  const lanes = dialect === 'postgres' ? Math.max(1, Math.min(8, pool)) : 1
  let made = 0
  await Promise.all(Array.from({ length: lanes }, async () => { while (made < shoppers) await makeShopper(made++) }))

  const app = await buildApp({ config, database, maintenance: false, logger: false })
  // the server's own time per request (from its arrival to the answer), by call
  const serverMs = {}
  // the process's event loop: a request waiting behind others is late before the server's own time starts
  const loop = require('node:perf_hooks').monitorEventLoopDelay({ resolution: 10 })
  loop.enable()
  // how long after the client sent it each request reached the server's code (same machine, one clock):
  // a request waiting in the kernel (the listen queue, the socket) is not seen by the event-loop delay
  const arrivalLag = []
  let cpuFrom = process.cpuUsage()
  let cpuSince = performance.now()
  app.addHook('onRequest', async (request) => {
    const sent = Number(request.headers['x-sent-at'])
    if (sent) arrivalLag.push(Date.now() - sent)
  })
  app.addHook('onResponse', async (request, reply) => {
    const key = request.url.replace(PREFIX, '')
    ;(serverMs[key] ??= []).push(reply.elapsedTime)
  })
  // the server's own listen backlog (server/src/http/listen.ts; Node's default in a checkout without it)
  const listen = path.join(src, 'http', 'listen.ts')
  const backlog = fs.existsSync(listen) ? require(listen).LISTEN_BACKLOG : undefined
  await app.listen({ port: 0, host: '127.0.0.1', backlog })
  const shop = { db, database, clock, src, config, userIds }

  process.on('message', async (msg) => {
    try {
      if (handlers[msg.type]) {
        process.send(await handlers[msg.type](msg, shop))
      } else if (msg.type === 'server times') {
        // every request's time, so that the parent can merge several processes before taking quantiles
        const out = { ...serverMs }
        for (const k of Object.keys(serverMs)) serverMs[k] = []
        const cpu = process.cpuUsage(cpuFrom)
        const delay = {
          p99: loop.percentile(99) / 1e6,
          max: loop.max / 1e6,
          arrival: { p50: quantile(arrivalLag, 0.5), p99: quantile(arrivalLag, 0.99), max: arrivalLag.reduce((a, b) => Math.max(a, b), 0), over1s: arrivalLag.filter(x => x > 1000).length },
          // the process's CPU since the last ask, as a share of one core (its one event loop)
          cpuShare: (cpu.user + cpu.system) / 1000 / (performance.now() - cpuSince)
        }
        arrivalLag.length = 0
        cpuFrom = process.cpuUsage()
        cpuSince = performance.now()
        loop.reset()
        process.send({ type: 'server times', times: out, loop: delay })
      } else if (msg.type === 'audit') {
        const problems = await invariantViolations(db)
        const cases = await db.selectFrom('cases').select(['id', 'status', 'commit_hash', 'arrangement', 'salt', 'sold_count', 'size']).where('series_id', '=', msg.seriesId).execute()
        for (const c of cases) {
          const expected = createHash('sha256').update(`${c.id}:${JSON.parse(c.arrangement).join(',')}:${c.salt}`).digest('hex')
          if (expected !== c.commit_hash) problems.push(`case ${c.id}: commitment ${c.commit_hash} is not sha256(id:arrangement:salt) = ${expected}`)
        }
        const sold = await db.selectFrom('case_slots').innerJoin('cases', 'cases.id', 'case_slots.case_id').select(eb => eb.fn.countAll().as('n'))
          .where('cases.series_id', '=', msg.seriesId).where('case_slots.sold_to', 'is not', null).executeTakeFirstOrThrow()
        const purchases = await db.selectFrom('purchases').select(['id', 'slots']).where('series_id', '=', msg.seriesId).execute()
        process.send({
          type: 'audited',
          problems,
          cases: { total: cases.length, soldOut: cases.filter(c => c.status === 'sold_out').length, open: cases.filter(c => c.status === 'on_sale').length },
          slots: cases.reduce((n, c) => n + Number(c.size), 0),
          soldSlots: Number(sold.n),
          purchases: purchases.length,
          boxes: purchases.reduce((n, p) => n + JSON.parse(p.slots).length, 0)
        })
      } else if (msg.type === 'stop') {
        await app.close()
        await database.close()
        process.exit(0)
      }
    } catch (err) {
      console.error(err)
      process.exit(1)
    }
  })
  process.send({ type: 'ready', port: app.server.address().port, tokens, userIds })
}

// ---- parent: the shoppers -----------------------------------------------------------------------

/** The shoppers' client: node's http with keep-alive (lighter than fetch, so the client measures the shop). */
const agent = new http.Agent({ keepAlive: true, maxSockets: 2000 })

/**
 * POST to the shop's API as `token`: answers { ms, status, body }. Rejects when the answer is not JSON
 * (with its HTTP status), and when `timeoutMs` pass from the call without an answer (err.timeout = true;
 * waiting for a free socket of the agent counts). `agent`: the http.Agent to use. A kept-alive
 * socket the server closed just as the request went out (ECONNRESET on a reused socket, before any
 * answer) is tried once more on a new one, as node's documentation advises; that request never reached
 * the shop's code.
 */
async function post (base, path_, body, token, opts = {}) {
  try {
    return await postOnce(base, path_, body, token, opts)
  } catch (err) {
    if (err.code !== 'ECONNRESET' || !err.reusedSocket) throw err
    return postOnce(base, path_, body, token, opts)
  }
}

function postOnce (base, path_, body, token, { timeoutMs = 0, agent: via = agent } = {}) {
  const { port } = new URL(base)
  const payload = JSON.stringify(body)
  const t = performance.now()
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port, path: PREFIX + path_, method: 'POST', agent: via,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), authorization: `Bearer ${token}`, 'x-sent-at': String(Date.now()) }
    }, res => {
      const chunks = []
      res.on('data', c => chunks.push(c))
      res.on('end', () => {
        clearTimeout(deadline)
        const text = Buffer.concat(chunks).toString()
        const ms = performance.now() - t
        try {
          resolve({ ms, status: res.statusCode, body: JSON.parse(text) })
        } catch {
          const err = new Error(`${path_}: HTTP ${res.statusCode} ${text.slice(0, 200)}`)
          err.status = res.statusCode
          reject(err)
        }
      })
      res.on('error', reject)
    })
    const deadline = timeoutMs > 0 && setTimeout(() => {
      const err = new Error(`${path_}: no answer within ${timeoutMs} ms`)
      err.timeout = true
      req.destroy(err)
    }, timeoutMs)
    req.on('error', err => { clearTimeout(deadline); err.reusedSocket = req.reusedSocket; reject(err) })
    req.end(payload)
  })
}

/** A server process of the shop (`file --serve ...args`), spoken to by messages: `next()` is its next message. */
function shopProcess (file, args) {
  const child = fork(file, ['--serve', ...args], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const messages = []
  const waiters = []
  child.on('message', m => { const w = waiters.shift(); w ? w(m) : messages.push(m) })
  const next = () => new Promise((resolve, reject) => {
    const m = messages.shift()
    if (m) return resolve(m)
    waiters.push(resolve)
    child.once('exit', code => reject(new Error(`the shop exited with ${code}`)))
  })
  return { child, next }
}

/** Asks every process to stop and waits for them. */
async function stopAll (procs) {
  await Promise.all(procs.map(p => {
    if (p.child.exitCode === null) p.child.send({ type: 'stop' })
    return new Promise(resolve => { if (p.child.exitCode !== null) resolve(); else p.child.once('exit', resolve) })
  }))
}

/** Each process's times of each call, merged, as quantiles. */
function mergeTimes (all) {
  const merged = {}
  for (const times of all) for (const [k, xs] of Object.entries(times)) merged[k] = (merged[k] ?? []).concat(xs)
  const out = {}
  for (const [k, xs] of Object.entries(merged)) out[k] = { n: xs.length, p50: quantile(xs, 0.5), p99: quantile(xs, 0.99), sum: xs.reduce((a, b) => a + b, 0) }
  return out
}

/**
 * The kernel's count of connections dropped because a listening socket's backlog was full (Linux,
 * /proc/net/netstat TcpExt ListenOverflows; machine-wide): null where it cannot be read. A dropped
 * connect is tried again by TCP 1, 3, 7 s later, so a client sees those delays.
 */
/**
 * The kernel's TCP counters that tell of connections kept waiting (machine-wide, /proc/net/netstat):
 * ListenOverflows (a full accept queue), TCPReqQFullDoCookies (a full SYN queue, answered with a cookie),
 * TCPSynRetrans (SYNs the client sent again: 1, 3, 7 s after the first). Null where it cannot be read.
 */
function tcpCounters () {
  try {
    const lines = fs.readFileSync('/proc/net/netstat', 'utf8').split('\n').filter(l => l.startsWith('TcpExt:'))
    const names = lines[0].split(/\s+/)
    const values = lines[1].split(/\s+/)
    const out = {}
    for (const name of ['ListenOverflows', 'TCPReqQFullDoCookies', 'TCPSynRetrans']) {
      const i = names.indexOf(name)
      if (i > 0) out[name] = Number(values[i])
    }
    return out
  } catch {
    return null
  }
}

/** The server times of every process since the last ask, merged; `loops`: each one's event-loop delay (p99, max). */
async function serverTimes (procs) {
  for (const p of procs) p.child.send({ type: 'server times' })
  const answers = await Promise.all(procs.map(p => p.next()))
  // and each process's event-loop delay since the last ask (ms)
  return { ...mergeTimes(answers.map(m => m.times)), loops: answers.map(m => m.loop) }
}

module.exports = { layerOf, serveShop, agent, post, shopProcess, stopAll, mergeTimes, serverTimes, tcpCounters }
