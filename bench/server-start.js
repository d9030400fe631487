#!/usr/bin/env node
/**
 * Start-up time and memory of the server run from TypeScript under tsx against the compiled server
 * (dist/server, `npm run build:server`), both in production mode on a fresh SQLite database:
 *  - start: from spawn to the first 200 of GET /dev-api/healthz (polled every 5 ms), migrations included;
 *  - RSS after start: the server process's resident memory 300 ms after that first 200;
 *  - RSS after 200 requests: after 200 more calls, 10 at a time, a quarter each of /healthz, /readyz,
 *    GET /system/setting/login and POST /api/seriesList.
 * Each run is one process: `node --import tsx server/src/main.ts` (tsx as a loader; the `tsx` command
 * would add a second, supervising process) or `node dist/server/server/src/main.js`. The two alternate
 * (tsx first in odd rounds, compiled first in even ones) after one uncounted warm-up run of each (tsx
 * keeps a cache of what it compiled; the file cache is warm for both). Prints the medians and the ratios
 * compiled/tsx, and the machine (nproc, load average, date).
 *
 * Usage: node bench/server-start.js [--runs 5]
 */
const { spawn, execFileSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { freePort } = require('../test/support/processes')
const { ensureServerBuilt } = require('../scripts/build-server')

const ROOT = path.resolve(__dirname, '..')
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}
const median = xs => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2 }
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))

const compiledMain = ensureServerBuilt({ log: m => console.log(m) })
const WAYS = {
  tsx: [process.execPath, '--import', 'tsx', path.join(ROOT, 'server', 'src', 'main.ts')],
  compiled: [process.execPath, compiledMain]
}

/** Resident memory of a live process, in MB (Linux /proc). */
function rssMb (pid) {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find(l => l.startsWith('VmRSS:'))
  return Number(line.split(/\s+/)[1]) / 1024
}

const CALLS = [
  origin => fetch(`${origin}/dev-api/healthz`),
  origin => fetch(`${origin}/dev-api/readyz`),
  origin => fetch(`${origin}/dev-api/system/setting/login`),
  origin => fetch(`${origin}/dev-api/api/seriesList`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ page: 1, size: 10 }) })
]

async function run (way) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-start-'))
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const [cmd, ...args] = WAYS[way]
  const t0 = performance.now()
  const child = spawn(cmd, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, STATIC_DIR: path.join(dataDir, 'no-h5'), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe']
  })
  let stderr = ''
  child.stderr.on('data', d => { stderr += d })
  try {
    let startMs
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${way}: the server exited with ${child.exitCode}\n${stderr}`)
      try {
        const res = await fetch(`${origin}/dev-api/healthz`)
        if (res.status === 200) { startMs = performance.now() - t0; break }
      } catch { /* not listening yet */ }
      if (performance.now() - t0 > 60000) throw new Error(`${way}: no /healthz within 60 s\n${stderr}`)
      await sleep(5)
    }
    await sleep(300)
    const rssStart = rssMb(child.pid)
    let next = 0
    const worker = async () => {
      while (next < 200) {
        const i = next++
        const res = await CALLS[i % CALLS.length](origin)
        const body = await res.json()
        if (res.status !== 200 || body.code !== 200) throw new Error(`${way}: call ${i} answered ${res.status} ${JSON.stringify(body).slice(0, 200)}`)
      }
    }
    await Promise.all(Array.from({ length: 10 }, worker))
    const rssAfter = rssMb(child.pid)
    return { startMs, rssStart, rssAfter }
  } finally {
    const exited = new Promise(resolve => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

;(async () => {
  const runs = Number(arg('runs', 5))
  const loadBefore = os.loadavg().map(x => x.toFixed(2)).join(', ')
  await run('tsx')
  await run('compiled')
  const results = { tsx: [], compiled: [] }
  for (let r = 0; r < runs; r++) {
    const order = r % 2 === 0 ? ['tsx', 'compiled'] : ['compiled', 'tsx']
    for (const way of order) {
      const m = await run(way)
      results[way].push(m)
      console.log(`run ${r + 1} ${way.padEnd(8)} start ${m.startMs.toFixed(0).padStart(5)} ms   RSS ${m.rssStart.toFixed(1)} MB, after 200 requests ${m.rssAfter.toFixed(1)} MB`)
    }
  }
  const med = way => ({
    startMs: median(results[way].map(m => m.startMs)),
    rssStart: median(results[way].map(m => m.rssStart)),
    rssAfter: median(results[way].map(m => m.rssAfter))
  })
  const tsx = med('tsx')
  const compiled = med('compiled')
  const row = (label, key, unit, digits) =>
    `${label.padEnd(24)} ${tsx[key].toFixed(digits).padStart(8)} ${unit}   ${compiled[key].toFixed(digits).padStart(8)} ${unit}   ${(compiled[key] / tsx[key]).toFixed(2)}`
  const loadAfter = os.loadavg().map(x => x.toFixed(2)).join(', ')
  console.log(`\nmedians of ${runs} runs each      tsx          compiled     compiled/tsx`)
  console.log(row('start to /healthz', 'startMs', 'ms', 0))
  console.log(row('RSS after start', 'rssStart', 'MB', 1))
  console.log(row('RSS after 200 requests', 'rssAfter', 'MB', 1))
  console.log(`\nmachine: nproc ${execFileSync('nproc').toString().trim()}, load average ${loadBefore} before, ${loadAfter} after, ${new Date().toISOString()}, Node ${process.versions.node}`)
})().catch(err => {
  console.error(err)
  process.exit(1)
})
