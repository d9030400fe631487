#!/usr/bin/env node
/**
 * Lighthouse mobile (its default: a mid-range phone, simulated slow 4G and 4x CPU slowdown) of the
 * shop's login and home pages against an empty Taro app with Taro's defaults, built in the same run
 * (bench/support/empty-taro-app.js) and served by the same server: the shop's own, as `npm start` runs
 * it (bench/support/shop-server.js, precompressed brotli/gzip), one instance per build. Runs are
 * interleaved (empty, login, home, rotating who goes first), so drift on this shared machine falls on
 * every page alike; the figures are medians and ratios to the empty app of the same run.
 *
 * Goals (issue 23) for login and home: performance score 100, LCP <= 0.5x the empty app's, TBT no
 * higher than the empty app's, bytes <= 1.3x the empty app's; and no request leaves 127.0.0.1. Exit
 * code 1 when a goal is missed. The header gives the date, the machine and the load average before
 * and after the runs (the benchmarks page records them with each row).
 *
 * Usage: node bench/lighthouse.mjs [--runs 5] [--build] [--also DIR] [--requests] [--tasks] [--cpu 8]   (--build rebuilds dist/h5 first;
 * --requests lists each page's requests with their transferred bytes, from its last run; --tasks lists
 * each page's long tasks of its last run as Lighthouse simulated them (start, duration, script), the ones TBT counts;
 * --also measures another H5 build of the shop too, e.g. one made with STAGED_BOOT=0, as "login (DIR)" and
 * "home (DIR)", interleaved with the rest; --cpu N simulates an N-times slowdown of this host's CPU instead of
 * Lighthouse's mobile default of 4: a diagnostic of the margin, e.g. 8 stands for a host half as fast, not the goal's figure)
 * Chromium: CHROME_PATH, else Debian's /usr/bin/chromium (as the e2e tests).
 */
import { createRequire } from 'node:module'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import lighthouse from 'lighthouse'
import { launch } from 'chrome-launcher'

const require = createRequire(import.meta.url)
const { buildEmptyApp, run } = require('./support/empty-taro-app.js')
const { startShopServer } = require('./support/shop-server.js')
const { CHROMIUM } = require('../test/e2e/browser.js')

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}
const RUNS = Number(arg('runs', 5))
const CPU = arg('cpu') === undefined ? undefined : Number(arg('cpu'))
if (CPU !== undefined && !(CPU >= 1 && CPU <= 20)) throw new Error('--cpu: a slowdown between 1 and 20')
const GOALS = { score: 100, lcpRatio: 0.5, bytesRatio: 1.3 }
const median = xs => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2 }

const chromePath = process.env.CHROME_PATH || CHROMIUM
if (!chromePath) throw new Error('no Chromium: set CHROME_PATH or apt-get install -y chromium')

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lh-'))
const servers = []
let chrome
let exitCode = 0
try {
  const loadBefore = os.loadavg()[0].toFixed(2)
  const t0 = Date.now()
  if (process.argv.includes('--build')) {
    console.log('building the shop (npm run build:h5)…')
    await run('npm', ['run', 'build:h5'], { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production' } })
  }
  const shopDist = path.join(ROOT, 'dist', 'h5')
  if (!fs.existsSync(path.join(shopDist, 'index.html'))) throw new Error('no dist/h5: run npm run build:h5 (or pass --build)')
  require('../scripts/precompress.js').precompressDir(shopDist)
  console.log('building the empty Taro app (template default of @tarojs/cli, taro build --type h5)…')
  const emptyDist = await buildEmptyApp(work)
  console.log(`built in ${((Date.now() - t0) / 1000).toFixed(0)} s; starting the servers…`)

  const emptyServer = await startShopServer({ staticDir: emptyDist })
  servers.push(emptyServer)
  const shopServer = await startShopServer({ staticDir: shopDist })
  servers.push(shopServer)
  const targets = [
    { name: 'empty Taro app', url: `${emptyServer.origin}/` },
    { name: 'login', url: `${shopServer.origin}/` },
    { name: 'home', url: `${shopServer.origin}/pagesA/home/index` }
  ]
  const also = arg('also')
  if (also) {
    const alsoDist = path.resolve(also)
    if (!fs.existsSync(path.join(alsoDist, 'index.html'))) throw new Error(`--also ${also}: no index.html there`)
    require('../scripts/precompress.js').precompressDir(alsoDist)
    const alsoServer = await startShopServer({ staticDir: alsoDist })
    servers.push(alsoServer)
    const tag = path.basename(path.dirname(alsoDist)) === 'dist' ? path.basename(path.dirname(path.dirname(alsoDist))) : path.basename(alsoDist)
    targets.push({ name: `login (${tag})`, url: `${alsoServer.origin}/` }, { name: `home (${tag})`, url: `${alsoServer.origin}/pagesA/home/index` })
  }

  const profile = path.join(work, 'chrome-profile')
  fs.mkdirSync(profile)
  chrome = await launch({
    chromePath,
    userDataDir: profile,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync']
  })
  const rows = Object.fromEntries(targets.map(t => [t.name, []]))
  for (let i = 0; i < RUNS; i++) {
    for (let k = 0; k < targets.length; k++) {
      const t = targets[(i + k) % targets.length]
      const flags = { port: chrome.port, onlyCategories: ['performance'], logLevel: 'error' }
      if (CPU !== undefined) flags.throttling = { cpuSlowdownMultiplier: CPU }
      const { lhr } = await lighthouse(t.url, flags)
      if (CPU !== undefined && lhr.configSettings.throttling.cpuSlowdownMultiplier !== CPU) throw new Error('Lighthouse ignored --cpu')
      const a = lhr.audits
      const requests = a['network-requests'].details?.items ?? []
      const origin = new URL(t.url).origin
      rows[t.name].push({
        score: Math.round(lhr.categories.performance.score * 100),
        fcp: a['first-contentful-paint'].numericValue,
        lcp: a['largest-contentful-paint'].numericValue,
        tbt: a['total-blocking-time'].numericValue,
        si: a['speed-index'].numericValue,
        cls: a['cumulative-layout-shift'].numericValue,
        bytes: a['total-byte-weight'].numericValue,
        requests: requests.length,
        foreign: requests.filter(r => !r.url.startsWith(origin) && !r.url.startsWith('data:')).map(r => r.url),
        each: requests.map(r => [r.url.replace(origin, ''), r.transferSize || 0, r.resourceType]),
        tasks: (a['long-tasks'].details?.items ?? []).map(x => [x.startTime, x.duration, String(x.url).replace(origin, '')])
      })
      process.stdout.write('.')
    }
  }
  process.stdout.write('\n')

  const med = Object.fromEntries(Object.entries(rows).map(([name, rs]) => [name, {
    score: median(rs.map(r => r.score)),
    fcp: median(rs.map(r => r.fcp)),
    lcp: median(rs.map(r => r.lcp)),
    tbt: median(rs.map(r => r.tbt)),
    si: median(rs.map(r => r.si)),
    cls: median(rs.map(r => r.cls)),
    bytes: median(rs.map(r => r.bytes)),
    requests: median(rs.map(r => r.requests)),
    scores: rs.map(r => r.score),
    foreign: [...new Set(rs.flatMap(r => r.foreign))]
  }]))
  const ref = med['empty Taro app']
  const s = ms => `${(ms / 1000).toFixed(2)} s`
  const kb = b => `${(b / 1024).toFixed(0)} KB`
  console.log('')
  console.log(`Lighthouse ${lhVersion()} mobile (simulated throttling${CPU === undefined ? '' : `, CPU slowdown ${CPU}x instead of 4x: a diagnostic, not the goal`}), median of ${RUNS} interleaved runs, Chromium ${chromeVersion(chromePath)}`)
  console.log(`${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; ${os.cpus().length} x ${os.cpus()[0]?.model || 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GB; load average ${loadBefore} before the runs, ${os.loadavg()[0].toFixed(2)} after`)
  console.log(`${'page'.padEnd(22)}${'score'.padStart(6)}${'FCP'.padStart(9)}${'LCP'.padStart(9)}${'LCP x'.padStart(7)}${'TBT'.padStart(8)}${'SI'.padStart(9)}${'CLS'.padStart(7)}${'bytes'.padStart(9)}${'bytes x'.padStart(9)}${'req'.padStart(5)}  scores`)
  for (const [name, m] of Object.entries(med)) {
    console.log(`${name.padEnd(22)}${String(m.score).padStart(6)}${s(m.fcp).padStart(9)}${s(m.lcp).padStart(9)}${(m.lcp / ref.lcp).toFixed(2).padStart(7)}${`${Math.round(m.tbt)} ms`.padStart(8)}${s(m.si).padStart(9)}${m.cls.toFixed(3).padStart(7)}${kb(m.bytes).padStart(9)}${(m.bytes / ref.bytes).toFixed(2).padStart(9)}${String(m.requests).padStart(5)}  ${m.scores.join(' ')}`)
  }
  console.log('')
  if (process.argv.includes('--requests')) {
    // what each page's last run transferred, request by request (where its bytes are)
    for (const [name, rs] of Object.entries(rows)) {
      const each = rs[rs.length - 1].each
      console.log(`${name}: ${each.length} requests, ${kb(each.reduce((n, [, b]) => n + b, 0))}`)
      for (const [url, b, type] of [...each].sort((x, y) => y[1] - x[1])) console.log(`  ${(b / 1024).toFixed(1).padStart(7)} KB  ${String(type).padEnd(10)} ${url.slice(0, 90)}`)
    }
    console.log('')
  }
  if (process.argv.includes('--tasks')) {
    for (const [name, rs] of Object.entries(rows)) {
      const { tasks, tbt } = rs[rs.length - 1]
      console.log(`${name}: ${tasks.length} long tasks in its last run (TBT ${Math.round(tbt)} ms)`)
      for (const [start, duration, url] of tasks) console.log(`  at ${String(Math.round(start)).padStart(5)} ms  ${String(Math.round(duration)).padStart(4)} ms  ${url.slice(0, 80)}`)
    }
    console.log('')
  }
  for (const name of ['login', 'home']) {
    const m = med[name]
    const checks = [
      [`score ${m.score} >= ${GOALS.score}`, m.score >= GOALS.score],
      [`LCP ${(m.lcp / ref.lcp).toFixed(2)}x <= ${GOALS.lcpRatio}x`, m.lcp / ref.lcp <= GOALS.lcpRatio],
      [`TBT ${Math.round(m.tbt)} ms <= the empty app's ${Math.round(ref.tbt)} ms`, m.tbt <= ref.tbt],
      [`bytes ${(m.bytes / ref.bytes).toFixed(2)}x <= ${GOALS.bytesRatio}x`, m.bytes / ref.bytes <= GOALS.bytesRatio],
      [`third-party requests ${m.foreign.length}`, m.foreign.length === 0]
    ]
    for (const [, ok] of checks) if (!ok) exitCode = 1
    console.log(`${name.padEnd(6)} ${checks.map(([text, ok]) => `${ok ? 'met' : 'MISSED'}: ${text}`).join('; ')}`)
    if (m.foreign.length) console.log(`       third-party: ${m.foreign.join(', ')}`)
  }
} finally {
  if (chrome) await chrome.kill()
  for (const srv of servers) await srv.stop()
  fs.rmSync(work, { recursive: true, force: true })
}
process.exit(exitCode)

function lhVersion () {
  return require('lighthouse/package.json').version
}

function chromeVersion (bin) {
  try {
    return require('node:child_process').execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim().replace(/^\D+/, '')
  } catch {
    return '?'
  }
}
