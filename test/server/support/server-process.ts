/**
 * The shop's real server as a child process on 127.0.0.1 (crash and scale-out tests): the compiled
 * server (node alone, as production runs it; test/server/global-setup.js compiles it into
 * dist/server-test) on a given database, spoken to over HTTP, stopped gently or killed with SIGKILL.
 */
import http from 'node:http'
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { sqlitePathIn } from '../../../server/src/db'
import { TOPUP_PRODUCT_ID } from '../../../types/limits'
// eslint-disable-next-line @typescript-eslint/no-require-imports
const processes = require('../../support/processes') as {
  compiledEntry: (dir: string, entry: string) => string
  freePort: () => Promise<number>
  waitForApi: (origin: string, child: ChildProcess, ms: number) => Promise<void>
  stop: (child: ChildProcess) => Promise<void>
}
const { freePort, waitForApi, stop } = processes

const ROOT = path.resolve(__dirname, '../../..')

/** A command of the compiled server: 'main', 'ops/backup', 'ops/restore' (built by test/server/global-setup.js). */
export const compiledEntry = (entry: string): string => processes.compiledEntry('dist/server-test', entry)

/** Where a server keeps its data: a SQLite directory or a PostgreSQL database of its own. */
export interface Store { env: Record<string, string>; sqlitePath?: string; databaseUrl?: string; drop: () => Promise<void> }

export async function newStore (dialect: 'sqlite' | 'postgres'): Promise<Store> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-proc-'))
    return { env: { DATA_DIR: dir, DATABASE_URL: '' }, sqlitePath: sqlitePathIn(dir), drop: async () => fs.rmSync(dir, { recursive: true, force: true }) }
  }
  const base = process.env.DATABASE_URL
  if (!base) throw new Error('DATABASE_URL is not set (test/server/pg.js)')
  const name = `p_${randomBytes(6).toString('hex')}`
  const admin = async (q: string) => { const c = new pg.Client({ connectionString: base }); await c.connect(); try { await c.query(q) } finally { await c.end() } }
  await admin(`create database ${name}`)
  const url = new URL(base)
  url.pathname = `/${name}`
  return { env: { DATABASE_URL: url.toString() }, databaseUrl: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) }
}

export interface ServerProcess {
  origin: string
  child: ChildProcess
  kill9: () => Promise<void>
  stop: () => Promise<void>
  /** The last of what it printed (stdout and stderr): the banner says when every API process listens. */
  output: () => string
}

/** What TTS_ENGINE=auto and OCR_ENGINE=auto come to here, asked once for the run (global-setup.js). */
function enginesOfTheRun (): Record<string, string> {
  const env: Record<string, string> = {}
  if (process.env.TEST_TTS_ENGINE) env.TTS_ENGINE = process.env.TEST_TTS_ENGINE
  if (process.env.TEST_OCR_ENGINE) env.OCR_ENGINE = process.env.TEST_OCR_ENGINE
  return env
}

export async function startServer (store: Store, extraEnv: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort()
  // node itself: one process, so SIGKILL kills the server
  const child = spawn(process.execPath, [compiledEntry('main')], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: process.env.CHILD_LOG_LEVEL ?? 'warn', STATIC_DIR: '/nonexistent-h5', SMTP_URL: '', ...enginesOfTheRun(), ...store.env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  // the last of what it printed, for the error when it does not come up
  let stderr = ''
  const keep = (d: unknown) => { stderr = (stderr + String(d)).slice(-4000) }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const origin = `http://127.0.0.1:${port}`
  try {
    // up to 110 s: a start is about 3 s of a processor, but the server tests run beside the e2e on 2
    // cores, and three API processes starting on PostgreSQL (reliability/workers.test.ts) once took
    // longer than 60 s there; a caller's own Jest timeout still bounds it
    await waitForApi(origin, child, 110000)
  } catch (err) {
    child.kill('SIGKILL')
    throw new Error(`${(err as Error).message}\n${stderr}`)
  }
  return {
    origin,
    child,
    kill9: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise(r => child.once('exit', r))
      child.kill('SIGKILL')
      await exited
    },
    stop: () => stop(child),
    output: () => stderr
  }
}

export interface Answer { ok: boolean; body?: { code: number; message: string; data: any }; error?: string }

/** A call over HTTP; a lost answer (connection reset by a killed server) is `ok: false`. */
export async function call (origin: string, method: 'GET' | 'POST', url: string, body?: unknown, token?: string): Promise<Answer> {
  try {
    const res = await fetch(`${origin}/dev-api${url}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20000)
    })
    return { ok: true, body: await res.json() as Answer['body'] }
  } catch (err) {
    // fetch says only "fetch failed": the transport's reason is its cause (ECONNRESET, "other side closed"...)
    const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause
    return { ok: false, error: cause ? `${(err as Error).message}: ${cause.code ?? cause.message}` : (err as Error).message }
  }
}

/**
 * A call like `call`, on a connection of its own (closed after the answer). fetch keeps idle
 * connections for the next call: one to a process killed since is closed under the next request that
 * takes it ("other side closed"), which a browser would send again on a new connection.
 */
export function callOnNewConnection (origin: string, method: 'GET' | 'POST', url: string, body?: unknown, token?: string): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body)
  return new Promise(resolve => {
    const req = http.request(`${origin}/dev-api${url}`, {
      method,
      agent: false,
      timeout: 20000,
      headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }), ...(token ? { authorization: `Bearer ${token}` } : {}) }
    }, res => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', d => { text += d })
      res.on('end', () => {
        try { resolve({ ok: true, body: JSON.parse(text) as Answer['body'] }) } catch { resolve({ ok: false, error: `not JSON (${res.statusCode}): ${text.slice(0, 200)}` }) }
      })
      res.on('error', e => resolve({ ok: false, error: e.message }))
    })
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', e => resolve({ ok: false, error: `${e.message}${(e as NodeJS.ErrnoException).code ? `: ${(e as NodeJS.ErrnoException).code}` : ''}` }))
    req.end(payload)
  })
}

/** The answer's data when it is a 200 envelope; else throws, naming `what` and the answer. */
export async function ok (answer: Promise<Answer>, what: string): Promise<any> {
  const a = await answer
  if (!a.ok || a.body?.code !== 200) throw new Error(`${what}: ${JSON.stringify(a)}`)
  return a.body.data
}

/**
 * A new shopper through a server process: registered with `password`, past the age gate, and with
 * `topUps` sandbox top-ups of `amountCents` each, settled.
 */
export async function newShopper (origin: string, name: string, password: string, o: { amountCents?: number; topUps?: number } = {}): Promise<{ id: number; token: string }> {
  const login = await ok(call(origin, 'POST', '/login/register?table=user', { user_name: name, password }), 'register')
  await ok(call(origin, 'POST', '/api/ageVerify', { birthDate: '1990-01-01' }, login.token), 'ageVerify')
  for (let i = 0; i < (o.topUps ?? 1); i++) {
    const opId = await ok(call(origin, 'POST', '/generalOrder/getUniqueOrderNo', { productId: TOPUP_PRODUCT_ID, userId: login.user.id }, login.token), 'order number')
    await ok(call(origin, 'POST', '/generalOrder/create', { productId: TOPUP_PRODUCT_ID, userId: login.user.id, opId, amountCents: o.amountCents ?? 100000, channel: 'sandbox' }, login.token), 'create')
    await ok(call(origin, 'POST', '/api/sandboxPay', { opId }, login.token), 'pay')
  }
  return { id: login.user.id as number, token: login.token as string }
}
