#!/usr/bin/env node
/**
 * End-to-end tests in Chromium against the shop as `npm start` runs it: scripts/start.js (the API
 * server serving the H5 build) on a free port, a fresh SQLite database in a temp dir, mail going to a
 * local SMTP server, SMS to a local relay, and the map, parcel, WeChat OAuth and chat-robot (Feishu, WeCom) providers as local
 * fakes on 127.0.0.1.
 * Everything started here is stopped here.
 */
const { spawn } = require('node:child_process')
const crypto = require('node:crypto')
const http = require('node:http')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { startSmtp } = require('./smtp')
const tencent = require('../support/providers/tencent')
const amap = require('../support/providers/amap')
const kuaidi100 = require('../support/providers/kuaidi100')
const wechat = require('../support/providers/wechat')
const dify = require('../support/providers/dify')
const images = require('../support/providers/images')
const cogvideo = require('../support/providers/cogvideo')
const suno = require('../support/providers/suno')
const jdunion = require('../support/providers/jdunion')
const feishu = require('../support/providers/feishu')
const wecom = require('../support/providers/wecom')
const sms = require('../support/providers/sms')
const tencentMapJs = require('../support/providers/tencentMapJs')
const juhe = require('../support/providers/juhe')
const { scanLog, CANARY_REQUESTS } = require('./logScan')
const { freePort, stop, waitForApi } = require('../support/processes')
const { shareOneBrowser, closeSharedBrowser } = require('./browser')

const root = path.resolve(__dirname, '../..')
// the suites, test/e2e/<name>.e2e.js, in the order they run on one shop
const SUITE_FILES = [
  'h5-shell', 'prerender', 'auth', 'shop', 'lost-answer', 'long-press', 'layout', 'after-draw',
  'combine', 'shipments', 'withdraw', 'security', 'forms', 'routes', 'routes-en', 'operators', 'editor-series', 'kuji-editor', 'low-value',
  'sold-out', 'drops', 'raffle', 'kuji-board', 'complaints', 'my-orders', 'ai-editor', 'vision', 'tasks', 'prize-market', 'first-visit',
  'finder', 'pickup', 'share', 'notify', 'data-tab', 'walk-looks', 'events', 'show', 'web-domains',
  'a11y'
]
const ALL_SUITES = SUITE_FILES.map(file => ({ file, ...require(`./${file}.e2e`) }))
// E2E_SUITES=after,shop runs the suites whose names contain one of the words (all by default)
const only = (process.env.E2E_SUITES ?? '').split(',').map(s => s.trim()).filter(Boolean)
const SUITES = only.length ? ALL_SUITES.filter(s => only.some(w => s.name.includes(w))) : ALL_SUITES

// E2E_WORKERS=n: suites on n shops side by side, each shop with its own server, database, mail and
// fakes (2 by default; 1 runs them all on one shop, in the order listed)
const WORKERS = Math.max(1, Math.min(SUITES.length, Number(process.env.E2E_WORKERS) || 2))

/**
 * The suites of each worker. A suite never sees another worker's data; within a worker the suites run
 * in the order of ALL_SUITES. Suites go to the worker with the least work so far (by the seconds they
 * took on CI, SECONDS), the longest first; a suite that reads what an earlier one made is listed in
 * TOGETHER with it and goes where that one went. (A file's suite object gets its `file`.)
 */
function partition (suites, n) {
  const cost = s => SECONDS[s.file] ?? 20
  const lanes = Array.from({ length: n }, () => ({ suites: [], cost: 0 }))
  const placed = new Map()
  for (const s of [...suites].sort((a, b) => cost(b) - cost(a))) {
    const mate = suites.find(m => placed.has(m) && TOGETHER.some(g => g.includes(s.file) && g.includes(m.file)))
    const lane = mate ? placed.get(mate) : lanes.reduce((a, b) => (b.cost < a.cost ? b : a))
    lane.suites.push(s)
    lane.cost += cost(s)
    placed.set(s, lane)
  }
  return lanes.filter(l => l.suites.length).map(l => suites.filter(s => l.suites.includes(s)))
}

/** Seconds each suite took on 2 cores with 2 shops (2026-11-27), by file; 20 for the others. */
const SECONDS = { routes: 190, 'routes-en': 80, prerender: 96, shop: 85, 'first-visit': 73, withdraw: 70, security: 65, pickup: 59, vision: 52, forms: 50, tasks: 49, complaints: 48, combine: 47, operators: 42, finder: 41 }
/** Suites that must share a shop (by file), in the listed order. */
const TOGETHER = []

;(async () => {
  if (!fs.existsSync(path.join(root, 'dist', 'h5', 'index.html'))) throw new Error('dist/h5 is missing: run npm run build:h5 first')
  const t0 = Date.now()
  const lanes = partition(SUITES, WORKERS)
  if (lanes.length > 1) lanes.forEach((suites, i) => console.log(`shop ${i + 1}: ${suites.map(s => s.file).join(', ')}`))
  const state = { failed: null }
  // one Chromium for every phone of every shop, each phone a context of its own (browser.js)
  await shareOneBrowser()
  const shops = await Promise.all(lanes.map((suites, i) => runShop(suites, i + 1, lanes.length, state)))
  await closeSharedBrowser()
  if (state.failed) {
    const shop = shops.find(s => s.failed)
    console.error(`server output (shop ${shop.n}):\n` + shop.log.slice(-4000))
    console.error(`e2e FAILED (shop ${shop.n}, ${shop.failedSuite ?? 'starting'}):`, shop.failed)
    process.exit(1)
  }
  // the server's log of the whole run holds no personal data (issue 26 item 5)
  let lines = 0
  for (const shop of shops) {
    const leaks = scanLog(shop.log, { secret: shop.secret })
    if (leaks.length) {
      console.error(`e2e FAILED: the server's log (shop ${shop.n}) holds personal data (${leaks.length}):\n` + leaks.slice(0, 20).map(l => `  ${l.kind} ${l.match}: ${l.line}`).join('\n'))
      process.exit(1)
    }
    lines += shop.log.split('\n').length
  }
  console.log(`e2e: ${SUITES.length} suites passed on ${shops.length} shop(s) in ${((Date.now() - t0) / 1000).toFixed(1)} s; the servers' logs (${lines} lines) hold no phone, e-mail, token, openid, code or query secret`)
})().catch(e => { console.error('e2e FAILED:', e); process.exit(1) })

/**
 * One shop as `npm start` runs it, with its own mail server and fakes, running `suites` in order; stops
 * early when another shop failed (state.failed). Answers the server's log and what failed.
 */
async function runShop (suites, n, of, state) {
  const tag = of > 1 ? `[shop ${n}] ` : ''
  const smtp = await startSmtp()
  // the map and parcel providers, as local servers that speak their APIs
  const fakes = { tencent: await tencent.start({ sk: tencent.SK }), amap: await amap.start(), kuaidi100: await kuaidi100.start(), wechat: await wechat.start(), feishu: await feishu.start(), wecom: await wecom.start(), dify: await dify.start(), images: await images.start(), video: await cogvideo.start(), music: await suno.start(), jd: await jdunion.start(), sms: await sms.start(), tmap: await tencentMapJs.start(), juhe: await juhe.start() }
  // the suites together make more operator alerts a minute than WeCom's 20 (robots.test.ts tests that limit)
  fakes.wecom.perMinute = fakes.feishu.perMinute = fakes.feishu.perSecond = 10000
  const providerEnv = {
    // WeChat web OAuth (the H5 WeChat login): its authorize page and API
    ...fakes.wechat.env,
    TENCENT_MAP_KEY: tencent.KEY, TENCENT_MAP_SK: tencent.SK, TENCENT_MAP_API_BASE: fakes.tencent.url,
    AMAP_KEY: amap.KEY, AMAP_API_BASE: fakes.amap.url,
    // Tencent's web map (JavaScript API GL) for the H5 map of the pickup points
    ...fakes.tmap.env,
    KUAIDI100_CUSTOMER: kuaidi100.CUSTOMER, KUAIDI100_KEY: kuaidi100.KEY, KUAIDI100_API_BASE: fakes.kuaidi100.url,
    // a Dify-compatible AI
    ...dify.envFor(fakes.dify),
    // an OpenAI-compatible Images API (the editor's cover from words)
    ...images.envFor(fakes.images),
    // video (Zhipu CogVideoX) and music (a Suno-style API)
    ...cogvideo.envFor(fakes.video), ...suno.envFor(fakes.music),
    // JD Union's open API (the price comparison on a prize's page)
    ...jdunion.envFor(fakes.jd),
    // the operators' chat robots and complaint mailbox (operator alerts; the complaints suite reads them)
    ...fakes.feishu.env, ...fakes.wecom.env,
    // SMS through the shop's adapter to a local relay (a guardian's consent code; the shop suite reads it)
    ...fakes.sms.env,
    COMPLAINT_MAILBOX: require('./complaints.e2e').MAILBOX,
    // trains and flights (Juhe) for the launch events' page; due reminders looked for every second
    ...juhe.envFor(fakes.juhe),
    EVENT_REMINDER_SWEEP_MS: '1000'
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-e2e-'))
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const log = []
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'start.js')], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SMTP_URL: smtp.url, LOG_LEVEL: process.env.E2E_LOG_LEVEL || 'info', DATABASE_URL: '', ...providerEnv },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  child.stdout.on('data', d => log.push(String(d)))
  child.stderr.on('data', d => log.push(String(d)))
  // a secret of this run, sent in query values: the log must not hold it (logScan.js)
  const secret = `e2eSecret${crypto.randomBytes(12).toString('hex')}`
  const shop = { n, secret, log: '', failed: null, failedSuite: null }
  try {
    await waitForApi(base, child, 180000)
    for (const r of CANARY_REQUESTS(secret)) await rawGet(`${base}${r.url}`)
    for (const suite of suites) {
      if (state.failed) break
      const t = Date.now()
      shop.failedSuite = suite.name
      await suite.run({ base, smtp, fakes, dataDir })
      shop.failedSuite = null
      console.log(`${tag}✓ ${suite.name} (${((Date.now() - t) / 1000).toFixed(1)} s)`)
    }
  } catch (e) {
    shop.failed = state.failed = e
  } finally {
    await stop(child)
    await smtp.close()
    for (const f of Object.values(fakes)) await f.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  shop.log = log.join('')
  if (process.env.E2E_LOG_FILE) fs.writeFileSync(of > 1 ? `${process.env.E2E_LOG_FILE}.${n}` : process.env.E2E_LOG_FILE, shop.log)
  return shop
}

/** A GET of the URL exactly as written (fetch would normalise a malformed path); any answer will do. */
function rawGet (url) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, res => { res.resume(); res.on('end', resolve) })
    req.on('error', reject)
  })
}
