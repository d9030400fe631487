/**
 * Starts the server: configuration, database (migrated), demo seed on a first start outside
 * production, then listen. SIGINT/SIGTERM close it gracefully (in-flight requests finish).
 */
import fs from 'node:fs'
import path from 'node:path'
import { parseEnv } from 'node:util'
import { ConfigError, loadConfig, type Config } from './config'
import { openDatabase, sqlitePathIn } from './db'
import { migrateToLatest } from './db/migrate'
import { seedCatalogue, seedDemo, DEMO_LOGINS, DEMO_SERIES } from './db/seed'
import { buildApp } from './app'
import { loggerOptions } from './http/logging'
import { systemClock } from './clock'
import { findUserBy } from './services/users'
import { promoteConfiguredOperators } from './domain/operators'

/** Variables from ./.env, without overriding the real environment. */
function loadDotEnv (): void {
  const file = path.resolve('.env')
  if (!fs.existsSync(file)) return
  const parsed = parseEnv(fs.readFileSync(file, 'utf8')) as Record<string, string>
  for (const [k, v] of Object.entries(parsed)) if (process.env[k] === undefined) process.env[k] = v
}

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

async function main (): Promise<void> {
  loadDotEnv()
  const config = readConfig()
  const database = openDatabase({ databaseUrl: config.databaseUrl, sqlitePath: sqlitePathIn(config.dataDir) })
  const applied = await migrateToLatest(database.db, database.dialect)

  const app = await buildApp({
    config,
    database,
    logger: loggerOptions(config.logLevel)
  })
  const where = database.dialect === 'postgres' ? 'PostgreSQL' : sqlitePathIn(config.dataDir)
  app.log.info({ applied }, `database ready (${where})`)

  let demo: typeof DEMO_LOGINS = []
  if (!config.isProduction) {
    const series = await seedCatalogue(database.db, systemClock)
    if (series) app.log.info(`seeded the demo catalogue: ${DEMO_SERIES.map(s => s.title.en).join(', ')}`)
    const seeded = await seedDemo(database.db, systemClock)
    if (seeded.length) app.log.info('seeded the demo accounts')
    // shown while the demo accounts exist (they are created on a first start only)
    const present = await Promise.all(DEMO_LOGINS.map(d => findUserBy(database.db, 'user_name', d.userName)))
    demo = DEMO_LOGINS.filter((_, i) => present[i])
  }
  // the first operator of a shop (and any other) from OPERATOR_ACCOUNTS, at every start
  if (config.operatorAccounts.length) {
    const report = await promoteConfiguredOperators(database.db, systemClock, config.operatorAccounts)
    if (report.promoted.length) app.log.info(`OPERATOR_ACCOUNTS: made operators of ${report.promoted.join(', ')}`)
    if (report.missing.length) app.log.warn(`OPERATOR_ACCOUNTS: no account yet for ${report.missing.join(', ')} (promoted at the next start after signing up)`)
  }
  const operators = await database.db.selectFrom('users').select('id').where('role', '=', 'operator').limit(1).execute()
  if (!operators.length) app.log.warn('no operator yet: name an account in OPERATOR_ACCOUNTS (user name, phone or e-mail) and restart')
  if (config.isProduction && !config.sms.providerUrl) {
    app.log.warn('SMS_PROVIDER_URL is not set: no SMS login, and minors cannot get a guardian\'s consent (no code can reach the guardian), so they cannot buy')
  }

  let closing = false
  const shutdown = (signal: string) => {
    if (closing) {
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
    app.close()
      .then(() => database.close())
      .then(() => process.exit(0))
      .catch(err => {
        app.log.error({ err }, 'shutdown failed')
        process.exit(1)
      })
  }
  process.on('SIGINT', () => shutdown('SIGINT'))
  process.on('SIGTERM', () => shutdown('SIGTERM'))

  await app.listen({ port: config.port, host: config.host })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host
  const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`
  const lines = [
    '',
    `  Blind-box shop listening on ${url}  (API under ${url}${config.apiPrefix})`,
    ...(demo.length
      ? ['  Demo logins (password login; development only):',
          ...demo.map(d => `    ${d.role.padEnd(8)}  user_name ${d.userName} / password ${d.password}   (phone ${d.phone}, e-mail ${d.email})`),
          '  Money: top up through the sandbox channel (test money, settles at once).']
      : []),
    ''
  ]
  process.stdout.write(lines.join('\n') + '\n')
}

main().catch(err => {
  console.error(err)
  process.exit(1)
})
