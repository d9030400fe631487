#!/usr/bin/env node
// Screenshots of every route in zh and en at 375 px, for looking at what we build.
// Usage: node scripts/screenshots.js [baseUrl] [outDir]   (default: serves dist/h5 itself)
const fs = require('node:fs')
const path = require('node:path')
const { launchPhone } = require('../test/e2e/browser')
const { createServer } = require('./serve-h5')

const ROUTES = ['/pages/login/index', '/pages/web_view/index?doc=service',
  ...['home', 'blind_box_detail', 'purchase', 'recharge', 'open_chest_animation', 'prize_show', 'prize_detail',
    'my_blind_box', 'combine', 'combine_result', 'editor', 'profile', 'props', 'security'].map(p => `/pagesA/${p}/index`)]

;(async () => {
  let base = process.argv[2]
  let server
  if (!base) {
    server = createServer(path.join(__dirname, '..', 'dist', 'h5'))
    await new Promise(r => server.listen(0, '127.0.0.1', r))
    base = `http://127.0.0.1:${server.address().port}`
  }
  const out = path.resolve(process.argv[3] || 'dist/screenshots')
  fs.mkdirSync(out, { recursive: true })
  for (const locale of ['zh', 'en']) {
    const { ctx, close } = await launchPhone({ locale: locale === 'zh' ? 'zh-CN' : 'en-US' })
    const page = ctx.pages()[0] || await ctx.newPage()
    const errors = []
    page.on('pageerror', e => errors.push(e.message))
    for (const route of ROUTES) {
      await page.goto(base + route, { waitUntil: 'networkidle' })
      await page.waitForTimeout(300)
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)
      const name = `${locale}-${route.split('/')[2]}.png`
      await page.screenshot({ path: path.join(out, name) })
      console.log(`${name}${overflow ? '  OVERFLOWS 375px' : ''}`)
    }
    if (errors.length) console.log('page errors:', errors)
    await close()
  }
  if (server) server.close()
})().catch(e => { console.error(e); process.exit(1) })
