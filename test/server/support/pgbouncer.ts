/**
 * A real pgbouncer (Debian's package) in transaction mode in front of the test PostgreSQL
 * (test/server/pg.js), on 127.0.0.1 only, for the tests that hold the server to what such a pooler
 * allows: a server connection serves one client only for the length of a transaction, so anything
 * kept on a session between transactions (named prepared statements on pgbouncer before 1.21, session
 * advisory locks, SET, LISTEN, temporary tables) would reach another client's connection.
 * https://www.pgbouncer.org/features.html ("SQL feature map for pooling modes")
 * https://www.pgbouncer.org/config.html
 *
 * The pool is smaller than the clients' pools (default 3 server connections for a pool of 10 per
 * client), so transactions of different clients really do share server connections.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'

const CANDIDATES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer']

export function pgbouncerBinary (): string | null {
  const found = CANDIDATES.find(p => fs.existsSync(p))
  if (found) return found
  const which = spawnSync('sh', ['-c', 'command -v pgbouncer'], { encoding: 'utf8' })
  return which.status === 0 && which.stdout.trim() ? which.stdout.trim() : null
}

export interface PgBouncer {
  /** The same database as `directUrl`, reached through the pooler. */
  via: (directUrl: string) => string
  /** Rows of the admin console's SHOW <what> (POOLS, SERVERS, CLIENTS, CONFIG). */
  show: (what: string) => Promise<Array<Record<string, unknown>>>
  log: () => string
  stop: () => Promise<void>
}

function freePort (): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo
      srv.close(() => resolve(port))
    })
  })
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0

export async function startPgBouncer (options: { poolSize?: number } = {}): Promise<PgBouncer> {
  const base = process.env.DATABASE_URL
  if (!base) throw new Error('DATABASE_URL is not set: the pgbouncer tests need test/server/pg.js')
  const bin = pgbouncerBinary()
  if (!bin) throw new Error('pgbouncer is not installed: apt-get install pgbouncer (.ci/run does), or PGBOUNCER_TESTS=off')
  const target = new URL(base)
  const user = decodeURIComponent(target.username || 'postgres')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgbouncer-'))
  const port = await freePort()
  const ini = path.join(dir, 'pgbouncer.ini')
  fs.writeFileSync(path.join(dir, 'users.txt'), `"${user}" ""\n`)
  fs.writeFileSync(ini, [
    '[databases]',
    // every database name goes to the test server under the same name
    `* = host=${target.hostname} port=${target.port || 5432}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${path.join(dir, 'users.txt')}`,
    `admin_users = ${user}`,
    'pool_mode = transaction',
    `default_pool_size = ${options.poolSize ?? 3}`,
    'reserve_pool_size = 0',
    'max_client_conn = 1000',
    // node-postgres sends none of these today; a client that does must not be refused
    'ignore_startup_parameters = extra_float_digits,options,application_name',
    `logfile = ${path.join(dir, 'pgbouncer.log')}`,
    'log_connections = 0',
    'log_disconnections = 0'
  ].join('\n') + '\n')
  // pgbouncer refuses to run as root: it switches to the postgres user itself (-u)
  if (isRoot()) spawnSync('chown', ['-R', 'postgres:', dir])
  const child: ChildProcess = spawn(bin, isRoot() ? ['-u', 'postgres', ini] : [ini], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout?.on('data', d => { output += String(d) })
  child.stderr?.on('data', d => { output += String(d) })
  const log = () => {
    const file = path.join(dir, 'pgbouncer.log')
    return output + (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '')
  }

  const via = (directUrl: string) => {
    const url = new URL(directUrl)
    url.hostname = '127.0.0.1'
    url.port = String(port)
    return url.toString()
  }
  const adminUrl = () => {
    const url = new URL(via(base))
    url.pathname = '/pgbouncer'
    return url.toString()
  }
  const show = async (what: string) => {
    if (!/^[A-Z_]+$/.test(what)) throw new Error(`SHOW ${what}?`)
    const client = new pg.Client({ connectionString: adminUrl() })
    await client.connect()
    try {
      // the admin console speaks only the simple query protocol
      const r = await client.query({ text: `SHOW ${what}`, queryMode: 'simple' } as pg.QueryConfig & { queryMode: 'simple' })
      return r.rows as Array<Record<string, unknown>>
    } finally {
      await client.end()
    }
  }

  // up when a query goes through it to the server
  const deadline = Date.now() + 15000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited with ${child.exitCode}:\n${log()}`)
    try {
      const client = new pg.Client({ connectionString: via(base) })
      await client.connect()
      try { await client.query('select 1') } finally { await client.end() }
      break
    } catch (err) {
      if (Date.now() > deadline) {
        child.kill('SIGKILL')
        throw new Error(`pgbouncer did not answer on 127.0.0.1:${port}: ${(err as Error).message}\n${log()}`)
      }
      await new Promise(r => setTimeout(r, 100))
    }
  }

  return {
    via,
    show,
    log,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise(r => child.once('exit', r))
        // SIGINT: pgbouncer's "safe shutdown" (waits for clients to finish)
        child.kill('SIGINT')
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
        await exited
        clearTimeout(timer)
      }
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
}
