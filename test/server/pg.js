/**
 * Jest globalSetup: a throw-away PostgreSQL for the server suites.
 *
 * Unless PG_TESTS=off, finds PostgreSQL's binaries (Debian: /usr/lib/postgresql/<v>/bin; installs the
 * `postgresql` package with apt-get when missing and running as root), runs initdb into a temp dir,
 * starts postgres on 127.0.0.1 on a free port (as the `postgres` user when running as root), creates
 * a database and exports DATABASE_URL. pg-teardown.js stops it and removes the directory.
 * PG_TEST_URL=postgres://... uses an existing server instead of starting one.
 */
const { execFileSync, spawnSync } = require('node:child_process')
const fs = require('node:fs')
const net = require('node:net')
const os = require('node:os')
const path = require('node:path')

const TEST_DB = 'blindbox_test'

function log (msg) {
  if (process.env.PG_TESTS_QUIET !== '1') process.stderr.write(`[pg] ${msg}\n`)
}

function findBinDir () {
  const root = '/usr/lib/postgresql'
  if (fs.existsSync(root)) {
    const versions = fs.readdirSync(root)
      .filter(v => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a))
    if (versions.length) return path.join(root, versions[0], 'bin')
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' })
  if (which.status === 0 && which.stdout.trim()) return path.dirname(which.stdout.trim())
  return null
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0

function ensureInstalled () {
  let bin = findBinDir()
  if (bin) return bin
  if (!isRoot()) {
    throw new Error('PostgreSQL is not installed (no initdb found). Install the `postgresql` package, or run with PG_TESTS=off for SQLite only.')
  }
  log('PostgreSQL not found: apt-get install -y postgresql')
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'postgresql'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  })
  bin = findBinDir()
  if (!bin) throw new Error('apt-get installed postgresql but initdb is still missing')
  return bin
}

/** As root, postgres refuses to run: use the `postgres` system user (created if needed). */
function runAsPrefix () {
  if (!isRoot()) return []
  if (spawnSync('id', ['-u', 'postgres']).status !== 0) {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'])
  }
  return ['runuser', '-u', 'postgres', '--']
}

function run (prefix, cmd, args) {
  const [file, ...rest] = prefix.length ? [...prefix, cmd, ...args] : [cmd, ...args]
  const r = spawnSync(file, rest, { encoding: 'utf8' })
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`)
  }
  return r.stdout
}

function freePort () {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.unref()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address()
      srv.close(() => resolve(port))
    })
  })
}

async function createDatabase (adminUrl, name) {
  const { Client } = require('pg')
  const client = new Client({ connectionString: adminUrl })
  await client.connect()
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [name])
    if (!exists.rowCount) await client.query(`create database "${name}"`)
  } finally {
    await client.end()
  }
}

module.exports = async function setup () {
  // the name of this run's migrated templates (support/db.ts makes them; pg-teardown.js removes them)
  process.env.TEST_DB_TEMPLATE = `tmpl_${require('node:crypto').randomBytes(6).toString('hex')}`
  if (process.env.PG_TESTS === 'off') {
    delete process.env.DATABASE_URL
    log('PG_TESTS=off: SQLite only')
    return
  }
  const started = Date.now()
  if (process.env.PG_TEST_URL) {
    const url = new URL(process.env.PG_TEST_URL)
    await createDatabase(url.toString(), TEST_DB)
    url.pathname = `/${TEST_DB}`
    process.env.DATABASE_URL = url.toString()
    return
  }

  const bin = ensureInstalled()
  const prefix = runAsPrefix()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blindbox-pg-'))
  const data = path.join(dir, 'data')
  if (prefix.length) execFileSync('chown', ['-R', 'postgres:', dir])
  const state = { bin, prefix, dir, data, stopped: false }
  globalThis.__BLINDBOX_PG__ = state
  // if Jest dies without its teardown, do not leave a postgres behind
  process.once('exit', () => stop(state))

  run(prefix, path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'])

  let lastError
  for (let attempt = 1; attempt <= 3; attempt++) {
    const port = await freePort()
    const options = [
      `-h 127.0.0.1 -p ${port} -k ${dir}`,
      '-c fsync=off -c synchronous_commit=off -c full_page_writes=off',
      '-c max_connections=200 -c shared_buffers=64MB'
    ].join(' ')
    try {
      run(prefix, path.join(bin, 'pg_ctl'), ['-D', data, '-l', path.join(dir, 'postgres.log'), '-w', '-t', '30', '-o', options, 'start'])
      state.port = port
      break
    } catch (err) {
      lastError = err
      log(`start on port ${port} failed, retrying`)
    }
  }
  if (!state.port) {
    const logFile = path.join(dir, 'postgres.log')
    const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-2000) : ''
    stop(state)
    throw new Error(`could not start PostgreSQL: ${lastError && lastError.message}\n${tail}`)
  }

  const admin = `postgres://postgres@127.0.0.1:${state.port}/postgres`
  await createDatabase(admin, TEST_DB)
  process.env.DATABASE_URL = `postgres://postgres@127.0.0.1:${state.port}/${TEST_DB}`
  log(`PostgreSQL (${path.basename(path.dirname(bin))}) on 127.0.0.1:${state.port} in ${Date.now() - started} ms`)
}

function stop (state) {
  if (!state || state.stopped) return
  state.stopped = true
  if (state.port) {
    const cpu = cpuSeconds(state.data)
    if (cpu != null) log(`PostgreSQL used ${cpu.toFixed(1)} s of CPU (its own and its finished backends')`)
    spawnSync(...splitCmd(state.prefix, path.join(state.bin, 'pg_ctl'), ['-D', state.data, '-m', 'immediate', '-w', 'stop']), { encoding: 'utf8' })
  }
  fs.rmSync(state.dir, { recursive: true, force: true })
}

/**
 * The postmaster's processor time and that of the backends it reaped, from /proc (Linux; null elsewhere):
 * pg_ctl detaches the server, so the test run's own CPU time does not include it.
 */
function cpuSeconds (data) {
  try {
    const pid = fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0].trim()
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // utime, stime, cutime, cstime (fields 14-17), in clock ticks of 1/100 s
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100
  } catch {
    return null
  }
}

function splitCmd (prefix, cmd, args) {
  const all = [...prefix, cmd, ...args]
  return [all[0], all.slice(1)]
}

module.exports.stop = stop
