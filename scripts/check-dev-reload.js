#!/usr/bin/env node
/**
 * Checks what `npm run dev` promises a developer, in Debian's Chromium: an edited component updates in
 * place through React Fast Refresh (no page reload, the text typed into the login form kept), and an
 * edited server file restarts the API (tsx watch), whose next answer shows the change.
 *
 * It runs `npm run dev` on free ports with a throwaway data directory, edits a copy of the login page
 * and a server file in place, and puts both back however it ends. Not part of `npm test` (the dev
 * build takes a minute); run it after changing the dev set-up: `node scripts/check-dev-reload.js`.
 */
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const http = require('node:http')
const { spawn } = require('node:child_process')
const { launchPhone } = require('../test/e2e/browser')
const { freePort } = require('../test/support/processes')

const root = path.resolve(__dirname, '..')
const LOGIN = path.join(root, 'src', 'pages', 'login', 'index.tsx')
const SERVER_FILE = path.join(root, 'server', 'src', 'routes', 'settings.ts')
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))

function get (url) {
  return new Promise((resolve, reject) => {
    http.get(url, res => {
      let body = ''
      res.on('data', c => { body += c })
      res.on('end', () => resolve({ status: res.statusCode, body }))
    }).on('error', reject)
  })
}

async function until (what, check, timeout) {
  const start = Date.now()
  for (;;) {
    try { const v = await check(); if (v) return v } catch { /* not yet */ }
    if (Date.now() - start > timeout) throw new Error(`timed out waiting for ${what}`)
    await sleep(250)
  }
}

async function main () {
  const originals = new Map([[LOGIN, fs.readFileSync(LOGIN, 'utf8')], [SERVER_FILE, fs.readFileSync(SERVER_FILE, 'utf8')]])
  const restore = () => { for (const [file, text] of originals) fs.writeFileSync(file, text) }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-reload-'))
  const apiPort = await freePort()
  const dev = spawn(process.execPath, [path.join(root, 'scripts', 'dev.js')], {
    cwd: root,
    env: { ...process.env, PORT: String(apiPort), DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true
  })
  let log = ''
  dev.stdout.on('data', c => { log += c })
  dev.stderr.on('data', c => { log += c })
  let phone
  const results = []
  try {
    const t0 = Date.now()
    await until('the dev server on 10086', async () => (await get('http://127.0.0.1:10086/')).status === 200, 240000)
    await until('the API', async () => (await get(`http://127.0.0.1:${apiPort}/dev-api/system/setting/login`)).status === 200, 120000)
    console.log(`dev server and API up in ${((Date.now() - t0) / 1000).toFixed(0)} s`)

    phone = await launchPhone({ locale: 'en-US' })
    const page = await phone.ctx.newPage()
    const pageErrors = []
    page.on('pageerror', e => pageErrors.push(e.message))
    page.on('console', m => { if (m.type() === 'error') pageErrors.push(m.text()) })
    await page.goto('http://127.0.0.1:10086/', { waitUntil: 'load' })
    const account = page.locator('input.input-account, .input-account input').first()
    await account.waitFor({ timeout: 60000 }).catch(async e => {
      await page.screenshot({ path: path.join(os.tmpdir(), 'dev-reload.png') })
      throw new Error(`the login form did not show (screenshot in ${os.tmpdir()}/dev-reload.png; page errors: ${pageErrors.join(' | ') || 'none'}): ${e.message}`)
    })
    await account.fill('kept-through-refresh')
    await page.evaluate(() => { window.__beforeEdit = true })

    // 1. a component edited: Fast Refresh
    const edited = originals.get(LOGIN).replace("<View className='login-logo'>🎁</View>", "<View className='login-logo'>🎁<Text className='hot-probe'>hot-probe</Text></View>")
    if (edited === originals.get(LOGIN)) throw new Error('the login page no longer has the line this check edits')
    const t1 = Date.now()
    fs.writeFileSync(LOGIN, edited)
    await page.locator('.hot-probe').waitFor({ timeout: 60000 })
    const refreshMs = Date.now() - t1
    const sameDocument = await page.evaluate(() => window.__beforeEdit === true)
    const value = await account.inputValue()
    results.push(['component edit shown without a reload', sameDocument], ['typed text kept', value === 'kept-through-refresh'])
    console.log(`component edit on screen after ${refreshMs} ms; same document: ${sameDocument}; input kept: ${value === 'kept-through-refresh'}`)

    // 2. a server file edited: tsx watch restarts the API
    const before = (await get(`http://127.0.0.1:${apiPort}/dev-api/system/setting/login`)).body
    const t2 = Date.now()
    fs.writeFileSync(SERVER_FILE, `${originals.get(SERVER_FILE)}\n// dev reload probe ${Date.now()}\n`)
    // the restart drops the listening socket for a moment: wait for that, then for the answer
    await until('the API to restart', async () => /Restarting|restart/i.test(log) || Date.now() - t2 > 20000, 30000)
    await until('the API after the restart', async () => (await get(`http://127.0.0.1:${apiPort}/dev-api/system/setting/login`)).body === before, 60000)
    const restarted = /Restarting|restart/i.test(log)
    results.push(['API restarted on a server edit', restarted])
    console.log(`server edit: ${restarted ? 'restarted' : 'NOT restarted'} and answering again after ${Date.now() - t2} ms`)
  } finally {
    restore()
    if (phone) await phone.close()
    try { process.kill(-dev.pid, 'SIGTERM') } catch { /* gone */ }
    await sleep(1000)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  const failed = results.filter(([, ok]) => !ok)
  for (const [what, ok] of results) console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`)
  if (failed.length) {
    console.log(log.split('\n').slice(-40).join('\n'))
    process.exit(1)
  }
}

main().catch(e => { console.error(e); process.exit(1) })
