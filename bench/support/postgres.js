/**
 * A throw-away PostgreSQL for the benchmarks, on 127.0.0.1: initdb into a temp dir, postgres with its
 * production defaults for durability (fsync on, synchronous_commit on: every commit is flushed; off on
 * request), run as the `postgres` user when we are root. PG_BENCH_URL=postgres://... uses an existing server instead.
 * BENCH_PG_SETTINGS='-c name=value ...' adds server settings (an experiment: what a setting changes).
 * Answers { url(dbName), createDatabase(name), settings, stop() }, or null when PostgreSQL is not installed.
 */
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { freePort } = require('./shop-server')

function binDir () {
  const root = '/usr/lib/postgresql'
  if (!fs.existsSync(root)) return null
  const v = fs.readdirSync(root).filter(d => fs.existsSync(path.join(root, d, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a))[0]
  return v ? path.join(root, v, 'bin') : null
}

function run (prefix, cmd, args) {
  const all = [...prefix, cmd, ...args]
  const r = spawnSync(all[0], all.slice(1), { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stdout}${r.stderr}`)
  return r.stdout
}

async function withClient (url, fn) {
  const { Client } = require('pg')
  const client = new Client({ connectionString: url })
  await client.connect()
  try { return await fn(client) } finally { await client.end() }
}

/** `synchronousCommit: 'off'` trades the last fraction of a second of commits on a crash for speed (SQLite's NORMAL is alike). */
async function startPostgres ({ synchronousCommit = 'on', statementStats = false } = {}) {
  if (process.env.PG_BENCH_URL) {
    const base = new URL(process.env.PG_BENCH_URL)
    const url = name => { const u = new URL(base); u.pathname = `/${name}`; return u.toString() }
    return {
      url,
      settings: 'an existing server (PG_BENCH_URL)',
      createDatabase: name => withClient(base.toString(), async c => { await c.query(`drop database if exists "${name}"`); await c.query(`create database "${name}"`) }),
      stop: async () => {}
    }
  }
  const bin = binDir()
  if (!bin) return null
  const root = typeof process.getuid === 'function' && process.getuid() === 0
  if (root && spawnSync('id', ['-u', 'postgres']).status !== 0) spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'])
  const prefix = root ? ['runuser', '-u', 'postgres', '--'] : []
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pg-'))
  const data = path.join(dir, 'data')
  if (root) spawnSync('chown', ['-R', 'postgres:', dir])
  run(prefix, path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-instructions'])
  const port = await freePort()
  // statementStats: pg_stat_statements (Debian's PostgreSQL has it), for topStatements() below
  const settings = `-c max_connections=200 -c shared_buffers=128MB -c synchronous_commit=${synchronousCommit === 'off' ? 'off' : 'on'}${statementStats ? ' -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all -c pg_stat_statements.track_planning=on' : ''}${process.env.BENCH_PG_SETTINGS ? ' ' + process.env.BENCH_PG_SETTINGS : ''}`
  run(prefix, path.join(bin, 'pg_ctl'), ['-D', data, '-l', path.join(dir, 'postgres.log'), '-w', '-t', '30', '-o', `-h 127.0.0.1 -p ${port} -k ${dir} ${settings}`, 'start'])
  const admin = `postgres://postgres@127.0.0.1:${port}/postgres`
  const version = await withClient(admin, async c => (await c.query('show server_version')).rows[0].server_version)
  let stopped = false
  const pgCtl = (...args) => { const all = [...prefix, path.join(bin, 'pg_ctl'), '-D', data, ...args]; spawnSync(all[0], all.slice(1), { encoding: 'utf8' }) }
  const stop = async () => {
    if (stopped) return
    stopped = true
    pgCtl('-m', 'fast', '-w', 'stop')
    fs.rmSync(dir, { recursive: true, force: true })
  }
  // a benchmark that dies leaves no postgres behind
  process.once('exit', () => { if (!stopped) { pgCtl('-m', 'immediate', 'stop'); fs.rmSync(dir, { recursive: true, force: true }) } })
  return {
    url: name => `postgres://postgres@127.0.0.1:${port}/${name}`,
    settings: `PostgreSQL ${version}, fsync on, ${settings.replace(/-c /g, '')}`,
    createDatabase: name => withClient(admin, async c => { await c.query(`drop database if exists "${name}"`); await c.query(`create database "${name}"`) }),
    /** The statements that took the most of the server's time in database `name` since the last reset. */
    topStatements: (name, n = 12) => withClient(`postgres://postgres@127.0.0.1:${port}/${name}`, async c => {
      await c.query('create extension if not exists pg_stat_statements')
      return (await c.query(`select calls, total_exec_time, mean_exec_time, plans, total_plan_time, rows, query from pg_stat_statements
        where dbid = (select oid from pg_database where datname = $1) order by total_exec_time desc limit $2`, [name, n])).rows
    }),
    resetStatements: name => withClient(`postgres://postgres@127.0.0.1:${port}/${name}`, async c => {
      await c.query('create extension if not exists pg_stat_statements')
      await c.query('select pg_stat_statements_reset()')
    }),
    stop
  }
}

module.exports = { startPostgres }
