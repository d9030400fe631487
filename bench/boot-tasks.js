#!/usr/bin/env node
/**
 * The first load's long tasks in Chromium at 4x CPU slowdown (as Lighthouse's mobile profile), next to
 * the staged start's steps (performance.measure 'boot:*', see scripts/webpack/staged-boot.js), and the
 * blocking time of the tasks over 50 ms. A diagnostic for the Lighthouse bench's TBT: which part of
 * the start is a long task. Runs the page `--runs` times (default 3) and prints the medians.
 *
 * Usage: node bench/boot-tasks.js [--dist dist/h5] [--path /] [--runs 3] [--rate 4]   (served by the shop's server)
 */
const path = require('node:path')
const { chromium } = require('playwright-core')
const { startShopServer } = require('./support/shop-server.js')
const { CHROMIUM } = require('../test/e2e/browser.js')

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}
const median = xs => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2 }

;(async () => {
  const dist = path.resolve(arg('dist', path.join(__dirname, '..', 'dist', 'h5')))
  const page0 = arg('path', '/')
  const runs = Number(arg('runs', 3))
  // 4: Lighthouse's mobile slowdown; 1: the durations Lighthouse's simulation starts from (it multiplies them by 4)
  const rate = Number(arg('rate', 4))
  const srv = await startShopServer({ staticDir: dist })
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
  const steps = {}
  const tbts = []
  const longest = []
  try {
    for (let r = 0; r < runs; r++) {
      const ctx = await browser.newContext({ viewport: { width: 375, height: 700 } })
      await ctx.addInitScript(() => {
        window.__longTasks = []
        new PerformanceObserver(list => { for (const e of list.getEntries()) window.__longTasks.push([Math.round(e.startTime), Math.round(e.duration)]) })
          .observe({ type: 'longtask', buffered: true })
      })
      const page = await ctx.newPage()
      const cdp = await ctx.newCDPSession(page)
      await cdp.send('Emulation.setCPUThrottlingRate', { rate })
      page.on('pageerror', e => console.log('page error:', e.message))
      await page.goto(srv.origin + page0)
      // the app has started once its router is created (the last step); then two seconds for the first page
      await page.waitForFunction(() => performance.getEntriesByName('boot:router created').length > 0, null, { timeout: 30000, polling: 200 })
        .catch(() => console.log('the app did not start within 30 s (no boot:router created measure)'))
      await page.waitForTimeout(2000)
      const { measures, tasks } = await page.evaluate(() => ({
        measures: performance.getEntriesByType('measure').filter(m => m.name.startsWith('boot:')).map(m => [m.name.slice(5), m.duration]),
        tasks: window.__longTasks
      }))
      for (const [name, d] of measures) (steps[name] ??= []).push(d)
      tbts.push(tasks.reduce((s, [, d]) => s + Math.max(0, d - 50), 0))
      longest.push(tasks.reduce((m, [, d]) => Math.max(m, d), 0))
      if (r === 0) console.log('long tasks of the first run (start ms, duration ms):', tasks.map(([s, d]) => `${s}:${d}`).join(' '))
      await ctx.close()
    }
    console.log(`${page0}, ${runs} runs at ${rate}x CPU, medians:`)
    for (const [name, ds] of Object.entries(steps)) console.log(`  ${median(ds).toFixed(0).padStart(5)} ms  ${name}`)
    console.log(`  blocking time of long tasks ${median(tbts).toFixed(0)} ms, longest task ${median(longest).toFixed(0)} ms`)
  } finally {
    await browser.close()
    await srv.stop()
  }
})()
