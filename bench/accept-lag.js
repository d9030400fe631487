#!/usr/bin/env node
/**
 * How long a new connection waits to be taken (accept) by a busy Node HTTP server, with Node alone: no
 * shop, no database. Found by bench/drop.js: in a drop's busiest seconds every late room answer was the
 * first request of a new connection, which waited 3-8 s in the kernel's accept queue (`ss -ltn` showed
 * it growing to 1,245) while the shop's event loop stayed responsive (delay p99 50 ms) at 75 % of a core.
 *
 * A server process answers two kinds of request with `--work` ms of CPU each:
 *  - held ones, over `--held` keep-alive connections, each answered after 0-3 s at random and asked
 *    again at once (a waiting room's long polls);
 *  - `--new` requests over a connection each, sent at random over 10 s, whose wait from the client's send
 *    to the server's 'connection' event is the figure.
 * Printed: that wait (p50, p99, max), the server's event-loop delay (p99, max) and its CPU share, per
 * load; the first load (no work) is the reference.
 *
 * Usage: node bench/accept-lag.js [--held 2000] [--new 2000] [--work 0,0.2,0.4]
 */
const http = require('node:http')
const { fork } = require('node:child_process')
const { monitorEventLoopDelay } = require('node:perf_hooks')

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}
const quantile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : null
}
const SPREAD_MS = 10_000
const HOLD_MAX_MS = 3000

function spin (ms) {
  const end = performance.now() + ms
  while (performance.now() < end) { /* CPU, as a request's own work */ }
}

/** The server: answers held and new requests, and its figures when asked. */
function serve (workMs) {
  const waits = []
  const lag = monitorEventLoopDelay({ resolution: 20 })
  lag.enable()
  const server = http.createServer((req, res) => {
    spin(workMs)
    if (req.url === '/held') { setTimeout(() => res.end('held'), Math.random() * HOLD_MAX_MS); return }
    waits.push(req.socket.takenAt - Number(req.headers['x-sent-at']))
    res.end('new')
  })
  server.on('connection', socket => { socket.takenAt = Date.now() })
  let cpu = null
  let since = 0
  process.on('message', m => {
    if (m === 'start') { cpu = process.cpuUsage(); since = performance.now(); return }
    const used = process.cpuUsage(cpu)
    process.send({
      wait: { p50: quantile(waits, 0.5), p99: quantile(waits, 0.99), max: Math.max(...waits), n: waits.length },
      loop: { p99: lag.percentile(99) / 1e6, max: lag.max / 1e6 },
      cpuShare: (used.user + used.system) / 1000 / (performance.now() - since)
    })
  })
  server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => process.send(server.address().port))
}

function next (child) {
  return new Promise(resolve => child.once('message', resolve))
}

async function runLoad (workMs, held, fresh) {
  const child = fork(__filename, ['--serve', String(workMs)])
  try {
    const port = await next(child)
    const keep = new http.Agent({ keepAlive: true, maxFreeSockets: held })
    let stop = false
    const ask = () => {
      if (stop) return
      const req = http.request({ host: '127.0.0.1', port, path: '/held', agent: keep }, res => { res.resume(); res.on('end', ask) })
      req.on('error', () => {})
      req.end()
    }
    for (let i = 0; i < held; i++) ask()
    await new Promise(resolve => setTimeout(resolve, HOLD_MAX_MS))
    child.send('start')
    await Promise.all(Array.from({ length: fresh }, () => new Promise((resolve, reject) => setTimeout(() => {
      // a connection of its own (agent: false), as a phone arriving
      const req = http.request({ host: '127.0.0.1', port, path: '/new', agent: false, headers: { 'x-sent-at': String(Date.now()) } }, res => { res.resume(); res.on('end', resolve) })
      req.on('error', reject)
      req.end()
    }, Math.random() * SPREAD_MS))))
    stop = true
    child.send('figures')
    return await next(child)
  } finally {
    child.kill()
  }
}

async function main () {
  if (process.argv[2] === '--serve') return serve(Number(process.argv[3]))
  const held = Number(arg('held', 2000))
  const fresh = Number(arg('new', 2000))
  const loads = String(arg('work', '0,0.2,0.4')).split(',').map(Number)
  console.log(`accept lag: ${held} held connections (answered after 0-${HOLD_MAX_MS / 1000} s, asked again at once), ${fresh} new connections over ${SPREAD_MS / 1000} s; Node ${process.version}`)
  let reference = null
  for (const work of loads) {
    const r = await runLoad(work, held, fresh)
    reference ??= r
    const ratio = reference.wait.p50 > 0 ? ` (${(r.wait.p50 / reference.wait.p50).toFixed(0)}x the reference's p50)` : ''
    console.log(`  ${work} ms of CPU a request: server CPU ${(100 * r.cpuShare).toFixed(0)} % of a core; event loop delay p99 ${r.loop.p99.toFixed(0)} ms, max ${r.loop.max.toFixed(0)} ms; a new connection taken after p50 ${r.wait.p50} ms, p99 ${r.wait.p99} ms, max ${r.wait.max} ms${ratio} (${r.wait.n})`)
  }
}

main().catch(err => { console.error(err); process.exit(1) })
