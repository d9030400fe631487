#!/usr/bin/env node
/**
 * Lighthouse mobile performance of the login and home pages (budget: >= 90 each, ARCHITECTURE.md).
 * Serves dist/h5 on 127.0.0.1, runs Lighthouse (simulated mobile throttling, its default) in Debian's
 * Chromium RUNS times per page and prints the median score with FCP, LCP and TBT.
 * Usage: node bench/lighthouse.mjs [runs=5]
 */
import { createRequire } from 'node:module'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import lighthouse from 'lighthouse'
import { launch } from 'chrome-launcher'

const require = createRequire(import.meta.url)
const { createServer } = require('../scripts/serve-h5.js')
const { CHROMIUM } = require('../test/e2e/browser.js')

const RUNS = Number(process.argv[2] || 5)
const BUDGET = 90
const PAGES = { login: '/', home: '/pagesA/home/index' }
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const dist = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'dist', 'h5')
const server = createServer(dist)
await new Promise(r => server.listen(0, '127.0.0.1', r))
const base = `http://127.0.0.1:${server.address().port}`
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-profile-'))
const chrome = await launch({
  chromePath: CHROMIUM,
  userDataDir: profile,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync']
})
let failed = false
try {
  for (const [name, route] of Object.entries(PAGES)) {
    const rows = []
    for (let i = 0; i < RUNS; i++) {
      const { lhr } = await lighthouse(base + route, { port: chrome.port, onlyCategories: ['performance'], logLevel: 'error', formFactor: 'mobile' })
      const a = lhr.audits
      rows.push({ score: Math.round(lhr.categories.performance.score * 100), fcp: a['first-contentful-paint'].numericValue, lcp: a['largest-contentful-paint'].numericValue, tbt: a['total-blocking-time'].numericValue })
    }
    const m = { score: median(rows.map(r => r.score)), fcp: median(rows.map(r => r.fcp)), lcp: median(rows.map(r => r.lcp)), tbt: median(rows.map(r => r.tbt)) }
    const over = m.score < BUDGET
    failed = failed || over
    console.log(`${over ? 'UNDER' : 'ok   '} ${name.padEnd(6)} score ${m.score} (runs: ${rows.map(r => r.score).join(' ')}), FCP ${(m.fcp / 1000).toFixed(2)} s, LCP ${(m.lcp / 1000).toFixed(2)} s, TBT ${Math.round(m.tbt)} ms`)
  }
} finally {
  await chrome.kill()
  server.close()
  fs.rmSync(profile, { recursive: true, force: true })
}
process.exit(failed ? 1 : 0)
