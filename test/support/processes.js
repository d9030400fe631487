// Helpers for tests that start the shop's server as a separate process on 127.0.0.1.
const fs = require('node:fs')
const http = require('node:http')
const net = require('node:net')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const ROOT = path.resolve(__dirname, '../..')

/**
 * The compiled server in `dir` (inside the repository), built when missing or older than the sources
 * (scripts/build-server.js --if-stale --out <dir>, about a second). The test suites that start the
 * server as a process run it as production does, node alone with no tsx (a start costs 2.5 s of CPU
 * instead of 3.8 s), each suite from a copy of its own (dist/server-test, dist/server-weapp), so that
 * no rebuild swaps the files of a copy others are running. Call it from a Jest globalSetup (esbuild's
 * API does not load inside Jest's environment; this runs the script as a process anyway).
 */
function buildCompiledServer (dir) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-server.js'), '--if-stale', '--out', dir], { cwd: ROOT, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`the tests need the compiled server, which did not build:\n${r.stdout}${r.stderr}`)
}

/** The file of a command of the compiled server in `dir`: 'main', 'ops/backup', 'ops/restore'. */
function compiledEntry (dir, entry) {
  const file = path.join(ROOT, dir, 'server', 'src', `${entry}.js`)
  if (!fs.existsSync(file)) throw new Error(`${dir}/server/src/${entry}.js is missing: the suite's globalSetup builds it (node scripts/build-server.js --out ${dir})`)
  return file
}

/** A TCP port nobody listens on right now. */
const freePort = () => new Promise((resolve, reject) => {
  const s = net.createServer()
  s.once('error', reject)
  s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)) })
})

/** Waits until GET {origin}/dev-api/system/setting/login answers 200, or the child exits, or time runs out. */
async function waitForApi (origin, child, timeoutMs) {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`)
    const up = await new Promise(resolve => {
      http.get(`${origin}/dev-api/system/setting/login`, res => { res.resume(); resolve(res.statusCode === 200) })
        .on('error', () => resolve(false))
    })
    if (up) return
    await new Promise(r => setTimeout(r, 200))
  }
  throw new Error(`the server did not answer within ${timeoutMs} ms`)
}

/** Stops a child process and waits for it to exit. */
async function stop (child) {
  if (!child || child.exitCode !== null) return
  child.kill('SIGTERM')
  await new Promise(r => child.once('exit', r))
}

module.exports = { freePort, waitForApi, stop, buildCompiledServer, compiledEntry }
