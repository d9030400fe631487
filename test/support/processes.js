// Helpers for tests that start the shop's server as a separate process on 127.0.0.1.
const http = require('node:http')
const net = require('node:net')

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

module.exports = { freePort, waitForApi, stop }
