/**
 * Starts the server: configuration, database (migrated), demo seed on a first start outside
 * production, then listen. SIGINT/SIGTERM close it gracefully (in-flight requests finish). WORKERS=N
 * (PostgreSQL only) runs N API processes on the port under node:cluster.
 */
import cluster from 'node:cluster'
import { ConfigError, loadConfig, type Config } from './config'
import { openDatabase, sqlitePathIn, type DatabaseHandle as Database } from './db'
import { migrateToLatest } from './db/migrate'
import { seedCatalogue, seedDemo, DEMO_KUJI, DEMO_LOGINS, DEMO_SERIES } from './seed'
import { buildApp } from './app'
import { loggerOptions } from './http/logging'
import { systemClock } from './core/clock'
import type { FastifyBaseLogger } from 'fastify'
import { findUserBy } from './domain/account/users'
import { promoteConfiguredOperators } from './domain/ops/operators'
import { loadDotEnv } from './dotenv'
import { processMetrics } from './metrics/metrics'
import { serveClusterMetrics, workerMetrics } from './metrics/cluster'
import { LISTEN_BACKLOG } from './http/listen'

function readConfig (): Config {
  try {
    return loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message)
      process.exit(1)
    }
    throw err
  }
}

const SHUTDOWN_TIMEOUT_MS = 10_000

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>

/**
 * What a start does once, before any request: migrations, the demo seed outside production, the
 * operators of OPERATOR_ACCOUNTS. With WORKERS > 1 the primary does it, then forks the API processes.
 */
async function prepare (database: Database, config: Config, log: Log): Promise<typeof DEMO_LOGINS> {
  const applied = await migrateToLatest(database.db, database.dialect)
  const where = database.dialect === 'postgres' ? 'PostgreSQL' : sqlitePathIn(config.dataDir)
  log.info({ applied }, `database ready (${where})`)

  let demo: typeof DEMO_LOGINS = []
  if (!config.isProduction) {
    const series = await seedCatalogue(database.db, systemClock)
    if (series) log.info(`seeded the demo catalogue: ${[...DEMO_SERIES, DEMO_KUJI].map(s => s.title.en).join(', ')}`)
    const seeded = await seedDemo(database.db, systemClock)
    if (seeded.length) log.info('seeded the demo accounts')
    // shown while the demo accounts exist (they are created on a first start only)
    const present = await Promise.all(DEMO_LOGINS.map(d => findUserBy(database.db, 'user_name', d.userName)))
    demo = DEMO_LOGINS.filter((_, i) => present[i])
  }
  // the first operator of a shop (and any other) from OPERATOR_ACCOUNTS, at every start
  if (config.operatorAccounts.length) {
    const report = await promoteConfiguredOperators(database.db, systemClock, config.operatorAccounts)
    if (report.promoted.length) log.info(`OPERATOR_ACCOUNTS: made operators of ${report.promoted.join(', ')}`)
    if (report.missing.length) log.warn(`OPERATOR_ACCOUNTS: no account yet for ${report.missing.join(', ')} (promoted at the next start after signing up)`)
  }
  const operators = await database.db.selectFrom('users').select('id').where('role', '=', 'operator').limit(1).execute()
  if (!operators.length) log.warn('no operator yet: name an account in OPERATOR_ACCOUNTS (user name, phone or e-mail) and restart')
  if (config.isProduction && !config.sms.providerUrl) {
    log.warn('SMS_PROVIDER_URL is not set: no SMS login, and minors cannot get a guardian\'s consent (no code can reach the guardian), so they cannot buy')
  }
  return demo
}

function banner (config: Config, port: number, demo: typeof DEMO_LOGINS, workers: number): void {
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host
  const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`
  const lines = [
    '',
    `  Blind-box shop listening on ${url}  (API under ${url}${config.apiPrefix})${workers > 1 ? `, ${workers} API processes` : ''}`,
    ...(demo.length
      ? ['  Demo logins (password login; development only):',
          ...demo.map(d => `    ${d.role.padEnd(8)}  user_name ${d.userName} / password ${d.password}   (phone ${d.phone}, e-mail ${d.email})`),
          '  Money: top up through the sandbox channel (test money, settles at once).']
      : []),
    ''
  ]
  process.stdout.write(lines.join('\n') + '\n')
}

/** One API process: the app on the port (shared with the other workers under node:cluster). */
async function serve (config: Config, demo: typeof DEMO_LOGINS | null, database?: Database): Promise<void> {
  const db = database ?? openDatabase({ databaseUrl: config.databaseUrl, sqlitePath: sqlitePathIn(config.dataDir), preparedStatements: config.databasePreparedStatements })
  // the process's own metrics (CPU, memory, event loop, GC) from the start; under WORKERS > 1 a scrape
  // answers every worker's metrics, gathered by the primary (metrics/cluster.ts)
  processMetrics()
  const clusterMetrics = cluster.isWorker && config.workers > 1 ? workerMetrics() : undefined
  const app = await buildApp({ config, database: db, logger: loggerOptions(config.logLevel), clusterMetrics })
  if (demo === null) demo = await prepare(db, config, app.log)

  // SIGTERM or SIGINT: stop taking requests, finish those in flight (Fastify's close), close the
  // database, exit; a process that takes longer than SHUTDOWN_TIMEOUT_MS is ended
  let closing = false
  const shutdown = (signal: string) => {
    if (closing) {
      // alone in a terminal, a second Ctrl-C means now; a worker also gets its primary's SIGTERM
      if (cluster.isWorker) return
      app.log.warn(`${signal} again: exiting now`)
      process.exit(1)
    }
    closing = true
    app.log.info(`${signal}: closing`)
    const force = setTimeout(() => {
      app.log.error('shutdown took too long: exiting')
      process.exit(1)
    }, SHUTDOWN_TIMEOUT_MS)
    force.unref()
    // a keep-alive connection whose request finished after the close began would hold the close until
    // its client let go: each is closed as soon as it is idle
    const idle = setInterval(() => app.server.closeIdleConnections(), 50)
    idle.unref()
    app.close()
      .then(() => db.close())
      .then(() => process.exit(0))
      .catch(err => {
        app.log.error({ err }, 'shutdown failed')
        process.exit(1)
      })
  }
  process.on('SIGINT', () => shutdown('SIGINT'))
  process.on('SIGTERM', () => shutdown('SIGTERM'))

  await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  if (cluster.isWorker) process.send?.({ type: 'listening', port })
  else banner(config, port, demo, 1)
}

/** A worker that dies this many times within RESTART_WINDOW_MS is not started again: the primary exits. */
const RESTARTS_MAX = 5
const RESTART_WINDOW_MS = 60_000

/**
 * WORKERS > 1: this process prepares the database once, then forks the API processes (node:cluster:
 * they share the port; the primary hands out connections in turn). A worker that dies is started again;
 * SIGTERM or SIGINT goes on to every worker, and the primary exits when they all have.
 */
async function primary (config: Config): Promise<void> {
  const log: Log = {
    info: (...a: unknown[]) => console.log('[primary]', ...a.map(x => (typeof x === 'string' ? x : JSON.stringify(x)))),
    warn: (...a: unknown[]) => console.warn('[primary]', ...a.map(x => (typeof x === 'string' ? x : JSON.stringify(x)))),
    error: (...a: unknown[]) => console.error('[primary]', ...a.map(x => (typeof x === 'string' ? x : JSON.stringify(x))))
  } as Log
  const database = openDatabase({ databaseUrl: config.databaseUrl, sqlitePath: sqlitePathIn(config.dataDir), preparedStatements: config.databasePreparedStatements })
  const demo = await prepare(database, config, log)
  await database.close()

  let closing = false
  let listening = 0
  let announced = false
  const deaths: number[] = []
  const alive = new Set<number>()
  const fork = () => {
    const worker = cluster.fork({ SHOP_PREPARED: '1' })
    alive.add(worker.id)
    worker.on('message', (m: { type?: string; port?: number }) => {
      if (m?.type !== 'listening' || announced) return
      if (++listening === config.workers) { announced = true; banner(config, m.port ?? config.port, demo, config.workers) }
    })
  }
  cluster.on('exit', (worker, code, signal) => {
    alive.delete(worker.id)
    if (closing) {
      if (alive.size === 0) process.exit(0)
      return
    }
    const now = Date.now()
    deaths.push(now)
    while (deaths.length && deaths[0] < now - RESTART_WINDOW_MS) deaths.shift()
    if (deaths.length > RESTARTS_MAX) {
      log.error(`API processes keep dying (${deaths.length} within ${RESTART_WINDOW_MS / 1000} s): stopping`)
      process.exit(1)
    }
    log.warn(`API process ${worker.process.pid} ended (${signal ?? code}): starting another`)
    fork()
  })
  const shutdown = (signal: string) => {
    if (closing) return
    closing = true
    log.info(`${signal}: closing ${config.workers} API processes`)
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM')
    const force = setTimeout(() => {
      log.error('the API processes took too long: exiting')
      process.exit(1)
    }, SHUTDOWN_TIMEOUT_MS + 2000)
    force.unref()
    if (alive.size === 0) process.exit(0)
  }
  process.on('SIGINT', () => shutdown('SIGINT'))
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  serveClusterMetrics()
  for (let i = 0; i < config.workers; i++) fork()
}

async function main (): Promise<void> {
  loadDotEnv()
  const config = readConfig()
  if (cluster.isPrimary && config.workers > 1) return primary(config)
  // a worker's primary prepared the database already
  return serve(config, cluster.isWorker && process.env.SHOP_PREPARED === '1' ? [] : null)
}

main().catch(err => {
  console.error(err)
  process.exit(1)
})
