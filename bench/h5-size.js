#!/usr/bin/env node
/**
 * H5 budget (ARCHITECTURE.md): the login and home pages load <= 150 KB of gzip JavaScript before
 * first render. Opens each page in Chromium against dist/h5, records every script it loads until the
 * network is idle, and gzips those files (level 9, as a static server would precompress them).
 */
const fs = require('node:fs')
const path = require('node:path')
const zlib = require('node:zlib')
const { launchPhone } = require('../test/e2e/browser')
const { createServer } = require('../scripts/serve-h5')

const BUDGET_KB = 150
const dist = path.resolve(__dirname, '..', 'dist', 'h5')
const PAGES = { login: '/', home: '/pagesA/home/index' }

;(async () => {
  const server = createServer(dist)
  await new Promise(r => server.listen(0, '127.0.0.1', r))
  const base = `http://127.0.0.1:${server.address().port}`
  const { ctx, close } = await launchPhone()
  let failed = false
  try {
    for (const [name, route] of Object.entries(PAGES)) {
      const page = await ctx.newPage()
      const scripts = new Set()
      page.on('request', r => { if (r.resourceType() === 'script') scripts.add(new URL(r.url()).pathname) })
      await page.goto(base + route, { waitUntil: 'networkidle' })
      let raw = 0
      let gz = 0
      for (const p of scripts) {
        const buf = fs.readFileSync(path.join(dist, p))
        raw += buf.length
        gz += zlib.gzipSync(buf, { level: 9 }).length
      }
      const over = gz / 1024 > BUDGET_KB
      failed = failed || over
      console.log(`${over ? 'OVER' : 'ok  '} ${name.padEnd(6)} ${scripts.size} scripts, ${(raw / 1024).toFixed(1)} KB raw, ${(gz / 1024).toFixed(1)} KB gzip (budget ${BUDGET_KB} KB)`)
      await page.close()
    }
  } finally {
    await close()
    server.close()
  }
  process.exit(failed ? 1 : 0)
})().catch(e => { console.error(e); process.exit(1) })
