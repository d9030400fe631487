/**
 * The process itself: its mode and logs, where it listens, where the data lives (SQLite or PostgreSQL),
 * how many API processes, the API prefix, and who may be trusted for the client address and the metrics.
 */
import { isIP } from 'node:net'
import path from 'node:path'
import { variable, type Problems, type Reader } from './env'

export type NodeEnv = 'development' | 'production' | 'test'

/** `false`: use the socket address; `true`: trust every proxy; a number: hops; a list: trusted proxies. */
export type TrustProxy = boolean | number | string[]

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = typeof LOG_LEVELS[number]

const DEFAULT_PORT = 3000
const API_PREFIX = /^\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/
const METRICS_TOKEN = /^[A-Za-z0-9_-]{32,200}$/

export const serverVariables = {
  NODE_ENV: variable.oneOf(['development', 'production', 'test'], 'development | production | test; outside production demo accounts are seeded and one-time codes are logged', 'development'),
  LOG_LEVEL: variable.oneOf(LOG_LEVELS, 'The log level; set in development, it also turns on a log line per request', 'info'),
  PORT: variable.integer('Where the server listens: the port', 0, 65535, DEFAULT_PORT),
  HOST: variable.text('Where the server listens: the address', { default: '127.0.0.1' }),
  DATA_DIR: variable.text('The folder of the SQLite database (shop.sqlite), relative to the working directory', { default: '.data' }),
  DATABASE_URL: variable.text('A PostgreSQL URL (postgres://user:password@host:port/database) to use instead of SQLite', { pattern: /^postgres(ql)?:\/\//i }),
  DATABASE_PREPARED_STATEMENTS: variable.oneOf(['on', 'off'], 'PostgreSQL runs the hot statements by name; off behind pgbouncer before 1.21 in transaction mode', 'on'),
  WORKERS: variable.integer('API processes sharing the port (node:cluster); more than one needs PostgreSQL', 1, 64, 1),
  STATIC_DIR: variable.text('The H5 build served at "/", relative to the working directory', { default: 'dist/h5' }),
  API_PREFIX: variable.text('The prefix of every API route', { default: '/dev-api', pattern: API_PREFIX }),
  TRUST_PROXY: variable.text('Whose X-Forwarded-For decides the client IP: off, on, a hop count, or proxies\' addresses/CIDRs (comma-separated)', { default: 'off' }),
  SCHEMA_CODE_DIR: variable.text('A folder where the server keeps the code it compiles from the routes\' schemas, read again at the next start instead of compiling (unset: none kept)'),
  METRICS_TOKEN: variable.text('The bearer token a Prometheus server sends to scrape GET /metrics; unset: operators only', { pattern: METRICS_TOKEN })
}
type Name = keyof typeof serverVariables

/** Where the shop keeps its data: all `npm run backup` and `npm run restore` need. */
export interface StorageConfig {
  dataDir: string
  /** PostgreSQL connection string; SQLite in dataDir when unset. */
  databaseUrl?: string
}

export interface ServerConfig extends StorageConfig {
  nodeEnv: NodeEnv
  logLevel: LogLevel
  /**
   * A log line per request ("incoming request", "request completed", at info): in production (and the
   * tests' NODE_ENV=test), and in development only when LOG_LEVEL is set (the end-to-end run sets LOG_LEVEL=info and scans them);
   * `npm start` in development keeps its console for the banner and what goes wrong.
   */
  requestLogs: boolean
  isProduction: boolean
  port: number
  host: string
  /**
   * DATABASE_PREPARED_STATEMENTS (on, off; default on): PostgreSQL runs the hot statements as named
   * statements (server/src/db/named.ts). Off when DATABASE_URL points at pgbouncer before 1.21 in
   * transaction mode.
   */
  databasePreparedStatements: boolean
  /** WORKERS: API processes (node:cluster) sharing the port; more than one needs PostgreSQL. */
  workers: number
  staticDir: string
  apiPrefix: string
  /**
   * SCHEMA_CODE_DIR: where the code compiled from the routes' schemas is kept between starts
   * (http/compilers.ts); a folder only the server writes. Unset: compiled at every start.
   */
  schemaCodeDir?: string
}

export interface AccessConfig {
  trustProxy: TrustProxy
  /**
   * METRICS_TOKEN: a secret a Prometheus server sends as `Authorization: Bearer <token>` to scrape
   * GET /metrics (docs/metrics.md); unset, only an operator's session may read the metrics.
   */
  metricsToken?: string
}

export function parseStorage (env: Reader<'DATA_DIR' | 'DATABASE_URL'>, cwd: string, problems: Problems): StorageConfig {
  const databaseUrl = env.get('DATABASE_URL')
  if (databaseUrl && !/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:port/database)')
  }
  return { dataDir: path.resolve(cwd, env.value('DATA_DIR')), databaseUrl }
}

/** NODE_ENV, LOG_LEVEL, PORT, HOST, the storage, DATABASE_PREPARED_STATEMENTS, WORKERS, STATIC_DIR, API_PREFIX and SCHEMA_CODE_DIR. */
export function parseServer (env: Reader<Name>, cwd: string, problems: Problems): ServerConfig {
  const nodeEnvRaw = env.value('NODE_ENV')
  let nodeEnv: NodeEnv = 'development'
  if (nodeEnvRaw === 'development' || nodeEnvRaw === 'production' || nodeEnvRaw === 'test') {
    nodeEnv = nodeEnvRaw
  } else {
    problems.push(`NODE_ENV must be development, production or test (got "${nodeEnvRaw}")`)
  }

  const logLevelRaw = env.value('LOG_LEVEL')
  const logLevel = (LOG_LEVELS as readonly string[]).includes(logLevelRaw) ? logLevelRaw as LogLevel : 'info'
  if (logLevel !== logLevelRaw) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevelRaw}")`)

  const port = parsePort(env.value('PORT'), problems)
  const host = env.value('HOST')

  const { dataDir, databaseUrl } = parseStorage(env, cwd, problems)
  const preparedRaw = env.value('DATABASE_PREPARED_STATEMENTS').toLowerCase()
  if (preparedRaw !== 'on' && preparedRaw !== 'off') problems.push(`DATABASE_PREPARED_STATEMENTS must be on or off (off when DATABASE_URL points at pgbouncer before 1.21 in transaction mode), got "${preparedRaw.slice(0, 20)}"`)

  const workersRaw = env.value('WORKERS')
  const workers = Number(workersRaw)
  if (!/^[0-9]+$/.test(workersRaw) || workers < 1 || workers > 64) problems.push(`WORKERS must be a whole number of API processes from 1 to 64 (got "${workersRaw.slice(0, 20)}")`)
  else if (workers > 1 && !databaseUrl) problems.push(`WORKERS=${workers} needs PostgreSQL (DATABASE_URL): the embedded SQLite database is written by one process; unset WORKERS, or set DATABASE_URL`)

  const apiPrefix = env.value('API_PREFIX')
  if (!API_PREFIX.test(apiPrefix)) {
    problems.push(`API_PREFIX must start with "/" and not end with "/" (e.g. /dev-api), got "${apiPrefix}"`)
  }

  return {
    nodeEnv,
    isProduction: nodeEnv === 'production',
    logLevel,
    requestLogs: nodeEnv !== 'development' || env.get('LOG_LEVEL') !== undefined,
    port,
    host,
    dataDir,
    databaseUrl,
    databasePreparedStatements: preparedRaw !== 'off',
    workers: Number.isInteger(workers) && workers >= 1 ? workers : 1,
    staticDir: path.resolve(cwd, env.value('STATIC_DIR')),
    apiPrefix,
    ...(env.get('SCHEMA_CODE_DIR') ? { schemaCodeDir: path.resolve(cwd, env.get('SCHEMA_CODE_DIR') as string) } : {})
  }
}

/** METRICS_TOKEN and TRUST_PROXY. */
export function parseAccess (env: Reader<Name>, problems: Problems): AccessConfig {
  const metricsToken = env.get('METRICS_TOKEN')
  if (metricsToken !== undefined && !METRICS_TOKEN.test(metricsToken)) {
    problems.push('METRICS_TOKEN must be 32 to 200 letters, digits, - or _ (e.g. the output of `openssl rand -hex 32`)')
  }
  const trustProxy = parseTrustProxy(env.value('TRUST_PROXY'), problems)
  return { trustProxy, ...(metricsToken ? { metricsToken } : {}) }
}

function parsePort (raw: string, problems: Problems): number {
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    problems.push(`PORT must be an integer from 0 to 65535 (got "${raw}")`)
    return DEFAULT_PORT
  }
  return Number(raw)
}

/**
 * TRUST_PROXY: off (default) | on | a hop count | a comma-separated list of proxy addresses or CIDRs.
 * Only turn it on behind a proxy you run: a trusted X-Forwarded-For decides the client IP that the
 * per-IP rate limits count.
 */
function parseTrustProxy (raw: string, problems: Problems): TrustProxy {
  const v = raw.toLowerCase()
  if (['off', 'false', 'no', '0'].includes(v)) return false
  if (['on', 'true', 'yes'].includes(v)) return true
  if (/^\d+$/.test(v)) return Number(v)
  const entries = raw.split(',').map(s => s.trim()).filter(Boolean)
  const bad = entries.filter(e => {
    const [addr, bits, extra] = e.split('/')
    if (extra !== undefined || !isIP(addr)) return true
    if (bits === undefined) return false
    const max = isIP(addr) === 4 ? 32 : 128
    return !/^\d+$/.test(bits) || Number(bits) > max
  })
  if (bad.length || !entries.length) {
    problems.push(`TRUST_PROXY must be off, on, a hop count or a list of IP addresses/CIDRs (bad: ${bad.join(', ') || raw})`)
    return false
  }
  return entries
}
