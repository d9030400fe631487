/**
 * The shop's real server as `npm start` runs it (server/src/main.ts under tsx: migrations, the demo
 * seed outside production, the H5 build at "/" with its precompressed copies, the API under /dev-api),
 * in a child process on 127.0.0.1 with a throw-away data directory. `staticDir` picks the H5 build it
 * serves, so the benchmarks serve the shop and the empty reference app through the same code.
 */
const { spawn } = require('node:child_process')
const fs = require('node:fs')
const net = require('node:net')
const os = require('node:os')
const path = require('node:path')

const ROOT = path.resolve(__dirname, '..', '..')

function freePort () {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address()
      srv.close(() => resolve(port))
    })
  })
}

/** Starts the server; answers { origin, stop }. Fails after `timeoutMs` without a listening server. */
async function startShopServer ({ staticDir, env = {}, timeoutMs = 60000 } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-shop-'))
  const port = await freePort()
  const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), [path.join(ROOT, 'server', 'src', 'main.ts')], {
    cwd: dataDir, // no .env of the repository is read
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      STATIC_DIR: staticDir || path.join(ROOT, 'dist', 'h5'),
      LOG_LEVEL: 'warn',
      ...env
    },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let log = ''
  child.stdout.on('data', d => { log += d })
  child.stderr.on('data', d => { log += d })
  const exited = new Promise(resolve => child.once('exit', resolve))
  const origin = `http://127.0.0.1:${port}`
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the shop's server exited with ${child.exitCode}:\n${log.slice(-3000)}`)
    try {
      const res = await fetch(`${origin}/dev-api/openapi.json`, { signal: AbortSignal.timeout(2000) })
      if (res.ok) break
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`the shop's server did not listen within ${timeoutMs} ms:\n${log.slice(-3000)}`)
    }
    await new Promise(resolve => setTimeout(resolve, 250))
  }
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 10000)
      await exited
      clearTimeout(timer)
    }
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  return { origin, stop, log: () => log }
}

module.exports = { startShopServer, freePort }
