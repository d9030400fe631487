/**
 * What the load benches share (server-purchase.js, series-search.js): a flag's value, autocannon as a
 * promise, a counter of the envelope's codes, a child process speaking by messages with a watchdog,
 * the summary of a run, and the child's own request times.
 */
const { fork } = require('node:child_process')

/** The value after --name on the command line, or `fallback`. */
function arg (name, fallback) {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}

function runCannon (autocannon, opts) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(opts, (err, result) => err ? reject(err) : resolve(result))
    instance.on('error', reject)
  })
}

/** Counts the answers by the envelope's code (or the HTTP status when the body is not JSON). */
function codeCounter () {
  const codes = {}
  return {
    codes,
    onResponse (status, body) {
      let code = `http ${status}`
      try { code = String(JSON.parse(body).code) } catch { /* not JSON */ }
      codes[code] = (codes[code] || 0) + 1
    }
  }
}

/**
 * `file` run again as a child with `args`, and a queue of its messages: next() answers the next one
 * (rejected if the child exits first); stop() asks it to stop and waits. A watchdog ends the whole
 * bench if the child takes longer than `timeoutMs`.
 */
function startChild (file, args, timeoutMs) {
  const child = fork(file, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const messages = []
  const waiters = []
  child.on('message', m => { const w = waiters.shift(); w ? w.resolve(m) : messages.push(m) })
  child.once('exit', code => { for (const w of waiters.splice(0)) w.reject(new Error(`${args[0]} exited with ${code}`)) })
  const watchdog = setTimeout(() => { console.error(`benchmark watchdog: ${args[0]} took too long`); child.kill('SIGKILL'); process.exit(2) }, timeoutMs)
  watchdog.unref()
  const next = () => new Promise((resolve, reject) => {
    const m = messages.shift()
    if (m) return resolve(m)
    waiters.push({ resolve, reject })
  })
  const stop = async () => {
    if (child.exitCode === null) {
      child.send({ type: 'stop' })
      await new Promise(resolve => child.once('exit', resolve))
    }
    clearTimeout(watchdog)
  }
  return { child, next, stop, send: m => child.send(m) }
}

/** A run's successful answers a second, latencies and codes. */
const summary = (result, counter) => ({
  rps: (counter.codes['200'] || 0) / (result.duration || 1),
  p50: result.latency.p50,
  p99: result.latency.p99,
  max: result.latency.max,
  codes: counter.codes,
  errors: result.errors + result.timeouts
})

/** The child's own request times since the last reset (its `times` message), and the reset. */
async function timesOf (c) { c.send({ type: 'times' }); return c.next() }
async function resetTimes (c) { c.send({ type: 'times-reset' }); await c.next() }

module.exports = { arg, runCannon, codeCounter, startChild, summary, timesOf, resetTimes }
