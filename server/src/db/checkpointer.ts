/**
 * SQLite's WAL checkpoints off the request thread. In WAL mode a commit appends pages to the log, and
 * every so many pages (wal_autocheckpoint) the committing request also copies the log back into the
 * database file and flushes it: that request, and every one queued behind it on the event loop, waits
 * for disk. Here a worker thread with its own connection runs PASSIVE checkpoints (they never block
 * writers or readers) every CHECKPOINT_EVERY_MS, and the request connection keeps only a distant
 * automatic checkpoint (SQLITE_WAL_FALLBACK_PAGES) in case the worker falls behind or dies.
 * Transactions, their order and their durability (synchronous NORMAL) are exactly as before.
 * Measured by bench/server-purchase.js (see README, Benchmarks).
 */
import { Worker } from 'node:worker_threads'

export const CHECKPOINT_EVERY_MS = 200
/** The request connection's own automatic checkpoint, a safety net: 16,000 pages (64 MB of log). */
export const SQLITE_WAL_FALLBACK_PAGES = 16_000

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const db = new Database(workerData.file)
db.pragma('busy_timeout = 1000')
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)') } catch (err) { parentPort.postMessage({ error: String(err && err.message || err) }) }
}, workerData.everyMs)
parentPort.on('message', msg => {
  if (msg === 'stop') { clearInterval(timer); try { db.close() } finally { parentPort.postMessage('stopped'); parentPort.close() } }
})
`

export interface Checkpointer { stop: () => Promise<void> }

/** Starts the checkpoint worker for a database file; `onError` hears a failed checkpoint or a dead worker. */
export function startCheckpointer (file: string, onError: (err: Error) => void): Checkpointer {
  const worker = new Worker(WORKER, { eval: true, workerData: { file, everyMs: CHECKPOINT_EVERY_MS, driver: require.resolve('better-sqlite3') } })
  worker.unref()
  let stopped = false
  worker.on('message', msg => { if (msg && typeof msg === 'object' && 'error' in msg) onError(new Error(`WAL checkpoint failed: ${(msg as { error: string }).error}`)) })
  worker.on('error', err => onError(err))
  worker.on('exit', code => { if (!stopped && code !== 0) onError(new Error(`the WAL checkpoint worker exited with ${code}`)) })
  return {
    stop: () => new Promise<void>(resolve => {
      if (stopped) return resolve()
      stopped = true
      const done = () => { clearTimeout(timer); resolve() }
      const timer = setTimeout(() => { void worker.terminate().then(done, done) }, 2000)
      worker.once('exit', done)
      worker.postMessage('stop')
    })
  }
}
