/**
 * The shop's real API server for the mini-program suites, compiled: one process per test file on a free port
 * of 127.0.0.1 with its own data directory, and `api()` to call it from the test (jsdom has no fetch,
 * so node's http). The harness maps the mini-program's absolute API origin to this server.
 */
const fs = require('node:fs')
const http = require('node:http')
const os = require('node:os')
const { spawn } = require('node:child_process')
const path = require('node:path')
const { compiledEntry, freePort, stop, waitForApi } = require('../support/processes')

const root = path.resolve(__dirname, '../..')

/**
 * Starts the server for harness `h` (sets `h.state.apiOrigin` unless `setOrigin` is false) with
 * `env` added to a development environment without outside providers. Returns { origin, dataDir,
 * child, stop }.
 */
async function startShop (h, env = {}, { prefix = 'shop-weapp-', setOrigin = true } = {}) {
  if (!fs.existsSync(path.join(h.DIST, 'app.js'))) throw new Error('dist/weapp is missing: run npm run build:weapp first')
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  const port = await freePort()
  // the compiled server (test/weapp/global-setup.js builds dist/server-weapp)
  const child = spawn(process.execPath, [compiledEntry('dist/server-weapp', 'main')], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', SMTP_URL: '', ...env },
    stdio: 'ignore'
  })
  const origin = `http://127.0.0.1:${port}`
  if (setOrigin) h.state.apiOrigin = origin
  await waitForApi(origin, child, 60000)
  return {
    origin,
    dataDir,
    child,
    async stop () {
      await stop(child)
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/**
 * Sends `route` to the server at `origin` (GET without a body, else a JSON POST) as `token`; resolves
 * { status, body } whatever the answer.
 */
function request (origin, route, body, token) {
  return new Promise((resolve, reject) => {
    const req = http.request(`${origin}/dev-api${route}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) }
    }, res => {
      let text = ''
      res.on('data', c => { text += c })
      res.on('end', () => {
        try { resolve({ status: res.statusCode, body: JSON.parse(text) }) } catch { reject(new Error(`${route}: ${res.statusCode} ${text.slice(0, 200)}`)) }
      })
    })
    req.on('error', reject)
    req.end(body === undefined ? undefined : JSON.stringify(body))
  })
}

/** As request(), resolving the envelope's data; rejects when its code is not 200. */
async function callApi (origin, route, body, token) {
  const { body: json } = await request(origin, route, body, token)
  if (json.code !== 200) throw new Error(`${route}: ${JSON.stringify(json)}`)
  return json.data
}

/** waitFor takes a synchronous check: this one awaits an asynchronous one until it passes. */
async function eventually (check, timeout = 10000) {
  const start = Date.now()
  for (;;) {
    try { return await check() } catch (e) { if (Date.now() - start > timeout) throw e }
    await new Promise(r => setTimeout(r, 50))
  }
}

module.exports = { startShop, request, callApi, eventually, root }
