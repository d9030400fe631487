/**
 * A read of a SQLite database file on a connection of its own in a worker thread. better-sqlite3 runs
 * each statement synchronously on the calling thread: a long scan (the metrics' books check reads every
 * ledger line, about 55 ms a million lines here) would hold every request for that long. In a worker
 * thread it holds nobody: WAL lets it read what was committed while the writer writes.
 *
 * The worker starts at the first read, is unref'd (it never keeps the process alive) and is stopped with
 * the database.
 */
import { Worker } from 'node:worker_threads'

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const db = new Database(workerData.file, { readonly: true, fileMustExist: true })
db.pragma('busy_timeout = 5000')
parentPort.on('message', msg => {
  if (msg === 'stop') { try { db.close() } finally { parentPort.close() } return }
  try {
    parentPort.postMessage({ id: msg.id, rows: db.prepare(msg.sql).all(msg.params) })
  } catch (err) {
    parentPort.postMessage({ id: msg.id, error: String((err && err.message) || err) })
  }
})
`

export type Rows = Array<Record<string, unknown>>

export interface ReadAside {
  /** The rows of one SELECT, read in the worker thread. */
  all: (sql: string, params?: unknown[]) => Promise<Rows>
  stop: () => Promise<void>
}

export function readAside (file: string): ReadAside {
  let worker: Worker | null = null
  let next = 0
  const waiting = new Map<number, { resolve: (rows: Rows) => void; reject: (err: Error) => void }>()
  const failAll = (err: Error) => {
    for (const w of waiting.values()) w.reject(err)
    waiting.clear()
  }
  const start = (): Worker => {
    const w = new Worker(WORKER, { eval: true, workerData: { file, driver: require.resolve('better-sqlite3') } })
    w.unref()
    w.on('message', (msg: { id: number; rows?: Rows; error?: string }) => {
      const p = waiting.get(msg.id)
      if (!p) return
      waiting.delete(msg.id)
      if (msg.rows) p.resolve(msg.rows)
      else p.reject(new Error(`SQLite (read aside): ${msg.error}`))
    })
    w.on('error', err => { failAll(err); worker = null })
    w.on('exit', () => { failAll(new Error('SQLite (read aside): the worker stopped')); worker = null })
    return w
  }
  return {
    all: (sql, params = []) => new Promise<Rows>((resolve, reject) => {
      worker ??= start()
      const id = next++
      waiting.set(id, { resolve, reject })
      worker.postMessage({ id, sql, params })
    }),
    stop: async () => {
      const w = worker
      worker = null
      if (!w) return
      const exited = new Promise<void>(resolve => w.once('exit', () => resolve()))
      w.postMessage('stop')
      const timer = setTimeout(() => { void w.terminate() }, 2000)
      await exited
      clearTimeout(timer)
    }
  }
}
