/**
 * The server's metrics, for Prometheus (GET /metrics, docs/metrics.md): one registry per app, plus
 * prom-client's default metrics of the process (CPU, memory, event loop, garbage collection) in a
 * registry of their own, started once per process.
 *
 * What is counted where:
 *  - requests: by method, route pattern (never the raw URL), HTTP status and the envelope's code, and
 *    their duration (app.ts, onResponse); a 429 of a rate limit, by route;
 *  - purchases and their refusals by reason (routes/purchase.ts), after the commit;
 *  - money: the cents each ledger account received and gave, told by the database once the transaction
 *    that wrote the lines has committed (domain/ledger.ts, db/events.ts);
 *  - the database: PostgreSQL's pool (waits for a connection; connections and waiting callers on
 *    scrape), SQLite's commit groups (transactions per commit);
 *  - the PDF task line (on scrape) and every run of a local engine by engine and outcome (engines.ts);
 *  - provider calls by provider and outcome (providers/calls.ts);
 *  - the books: what the ledger and the wallets are out of balance by, on scrape (booksImbalance).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { DatabaseHandle } from '../db'
import { onProviderCall } from '../providers/calls'
import type { ClusterMetrics } from './cluster'

let processRegistry: Registry | null = null

/** prom-client's default metrics of this process, started at the first call (once per process). */
export function processMetrics (): Registry {
  if (!processRegistry) {
    processRegistry = new Registry()
    collectDefaultMetrics({ register: processRegistry })
  }
  return processRegistry
}

/** Seconds: from a millisecond to ten seconds (the purchase budget is a p99 of 15 ms). */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.015, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const POOL_BUCKETS = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5]
/** A commit group holds at most GROUP_MAX_MEMBERS (32) transactions. */
const GROUP_BUCKETS = [1, 2, 4, 8, 16, 32]
const SLOW_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]

/** Where the app's answers to the scrape come from (the engines' runs are told by engines.ts). */
export interface MetricsSources {
  database: Pick<DatabaseHandle, 'db' | 'events' | 'pool' | 'readAside'>
  /** The PDF task line of this process. */
  tasks: () => { waiting: number; running: number }
  log: FastifyBaseLogger
  /** With WORKERS > 1: the worker's side of the cluster's metrics (metrics/cluster.ts). */
  cluster?: ClusterMetrics
}

/**
 * The books' check of test/server/support/invariants.ts (checkLedger) in aggregate: every line of the
 * ledger sums to zero, and the wallets' balances sum to the users' lines. One statement, so one snapshot:
 * a purchase committing meanwhile is wholly in or wholly out.
 */
const BOOKS_SQL = `
  select l.total, l.user_lines, w.wallets
  from (select coalesce(sum(amount_cents), 0) as total,
               coalesce(sum(case when account in ('user_cash', 'user_credit') then amount_cents else 0 end), 0) as user_lines
        from ledger_lines) l,
       (select coalesce(sum(cash_cents + credit_cents), 0) as wallets from wallets) w`

/**
 * The books out of balance, in cents (0 and 0 when they hold). It reads every ledger line: on a SQLite
 * file in a worker thread (db/readAside.ts), so the scan holds no request; on PostgreSQL the server scans.
 */
export async function booksImbalance (database: Pick<DatabaseHandle, 'db' | 'readAside'>): Promise<{ ledger: number; wallets: number }> {
  const rows = database.readAside
    ? await database.readAside.all(BOOKS_SQL)
    : (await sql.raw<Record<string, unknown>>(BOOKS_SQL).execute(database.db)).rows
  const row = rows[0]
  return { ledger: Number(row.total), wallets: Number(row.wallets) - Number(row.user_lines) }
}

export class Metrics {
  readonly registry = new Registry()
  private readonly stops: Array<() => void> = []
  private readonly requests: Counter<'method' | 'route' | 'status' | 'code'>
  private readonly requestSeconds: Histogram<'method' | 'route'>
  private readonly rateLimited: Counter<'route'>
  private readonly purchases: Counter
  private readonly refusals: Counter<'reason' | 'code'>
  private readonly engineRuns: Counter<'engine' | 'outcome'>
  private readonly engineSeconds: Histogram<'engine'>

  private readonly cluster?: ClusterMetrics

  constructor (sources: MetricsSources) {
    const registers = [this.registry]
    const { database } = sources

    this.requests = new Counter({
      name: 'pickbox_http_requests_total',
      help: 'Requests answered, by method, route pattern, HTTP status and the envelope\'s code (the HTTP status where there is no envelope)',
      labelNames: ['method', 'route', 'status', 'code'],
      registers
    })
    this.requestSeconds = new Histogram({
      name: 'pickbox_http_request_duration_seconds',
      help: 'Time from a request\'s arrival to its answer, by method and route pattern',
      labelNames: ['method', 'route'],
      buckets: REQUEST_BUCKETS,
      registers
    })
    this.rateLimited = new Counter({
      name: 'pickbox_rate_limit_refusals_total',
      help: 'Requests refused by a rate limit (429 request.rateLimited), by route pattern',
      labelNames: ['route'],
      registers
    })
    this.purchases = new Counter({ name: 'pickbox_purchases_total', help: 'Purchases of boxes committed (a replay of one by its idempotency key is not counted again)', registers })
    this.refusals = new Counter({
      name: 'pickbox_purchase_refusals_total',
      help: 'Purchases refused by a rule, by reason (the refusal\'s message key) and the envelope\'s code',
      labelNames: ['reason', 'code'],
      registers
    })

    const moved = new Counter({
      name: 'pickbox_ledger_cents_total',
      help: 'Cents moved through each ledger account, after the commit: direction="in" the sum of its positive lines, "out" of its negative ones (net = in - out)',
      labelNames: ['account', 'direction'],
      registers
    })
    this.stops.push(database.events.on('ledgerLines', lines => {
      for (const l of lines) {
        if (l.amountCents > 0) moved.inc({ account: l.account, direction: 'in' }, l.amountCents)
        else if (l.amountCents < 0) moved.inc({ account: l.account, direction: 'out' }, -l.amountCents)
      }
    }))

    const acquire = new Histogram({
      name: 'pickbox_db_pool_acquire_seconds',
      help: 'PostgreSQL: time each query or transaction waited for a connection from the pool',
      buckets: POOL_BUCKETS,
      registers
    })
    this.stops.push(database.events.on('poolAcquire', ms => acquire.observe(ms / 1000)))
    const pool = database.pool
    new Gauge({ // eslint-disable-line no-new
      name: 'pickbox_db_pool_waiting',
      help: 'PostgreSQL: callers waiting for a connection from the pool now',
      registers,
      collect () { if (pool) this.set(pool().waiting) }
    })
    new Gauge({ // eslint-disable-line no-new
      name: 'pickbox_db_pool_connections',
      help: 'PostgreSQL: the pool\'s connections now, idle or busy',
      labelNames: ['state'],
      registers,
      collect () {
        if (!pool) return
        const now = pool()
        this.set({ state: 'idle' }, now.idle)
        this.set({ state: 'busy' }, now.busy)
      }
    })
    const groups = new Histogram({
      name: 'pickbox_sqlite_group_commit_transactions',
      help: 'SQLite: transactions committed together by one COMMIT (db/sqlite-driver.ts)',
      buckets: GROUP_BUCKETS,
      registers
    })
    this.stops.push(database.events.on('groupCommit', n => groups.observe(n)))

    new Gauge({ // eslint-disable-line no-new
      name: 'pickbox_task_queue_depth',
      help: 'Tasks in this server\'s line for a local engine, waiting or running (summed over processes)',
      labelNames: ['queue', 'state'],
      registers,
      collect () {
        const depth = sources.tasks()
        this.set({ queue: 'pdf', state: 'waiting' }, depth.waiting)
        this.set({ queue: 'pdf', state: 'running' }, depth.running)
      }
    })
    this.engineRuns = new Counter({
      name: 'pickbox_engine_runs_total',
      help: 'Runs of a local engine (ocr, tts, pdf), by engine and outcome (ok, or the reason it failed)',
      labelNames: ['engine', 'outcome'],
      registers
    })
    this.engineSeconds = new Histogram({
      name: 'pickbox_engine_run_duration_seconds',
      help: 'Time a local engine took for one run, by engine',
      labelNames: ['engine'],
      buckets: SLOW_BUCKETS,
      registers
    })

    const calls = new Counter({
      name: 'pickbox_provider_calls_total',
      help: 'Calls to third parties, by provider and outcome (ok, refused, unavailable, error)',
      labelNames: ['provider', 'outcome'],
      registers
    })
    const callSeconds = new Histogram({
      name: 'pickbox_provider_call_duration_seconds',
      help: 'Time a call to a third party took, by provider',
      labelNames: ['provider'],
      buckets: SLOW_BUCKETS,
      registers
    })
    this.stops.push(onProviderCall(e => {
      calls.inc({ provider: e.provider, outcome: e.outcome })
      callSeconds.observe({ provider: e.provider }, e.seconds)
    }))

    const log = sources.log
    new Gauge({ // eslint-disable-line no-new
      name: 'pickbox_books_imbalance_cents',
      help: 'What the books are out of balance by, in cents, read on scrape: check="ledger" the sum of every ledger line, check="wallets" the wallets\' balances less their ledger lines (both 0 when the books hold)',
      labelNames: ['check'],
      // every process reads the same database: one answer, not their sum
      aggregator: 'first',
      registers,
      async collect () {
        try {
          const books = await booksImbalance(database)
          this.set({ check: 'ledger' }, books.ledger)
          this.set({ check: 'wallets' }, books.wallets)
        } catch (err) {
          // no figure rather than an old one: the alert then waits, and the scrape still answers
          this.reset()
          log.warn({ err }, 'metrics: the books could not be read')
        }
      }
    })

    this.cluster = sources.cluster
    this.cluster?.share(this.registries())
  }

  /** One answered request (Fastify's onResponse). */
  observeRequest (request: FastifyRequest, reply: FastifyReply): void {
    const route = request.routeOptions.url ?? 'unmatched'
    const status = reply.statusCode
    const failure = request.failure
    this.requests.inc({ method: request.method, route, status, code: failure ? failure.code : status })
    this.requestSeconds.observe({ method: request.method, route }, reply.elapsedTime / 1000)
    if (failure?.key === 'request.rateLimited') this.rateLimited.inc({ route })
  }

  purchased (): void { this.purchases.inc() }

  purchaseRefused (reason: string, code: number): void { this.refusals.inc({ reason, code }) }

  engineRan (engine: string, outcome: string, seconds: number): void {
    this.engineRuns.inc({ engine, outcome })
    this.engineSeconds.observe({ engine }, seconds)
  }

  /** The registries a scrape answers: this process's default metrics, then the app's. */
  registries (): Registry[] {
    return [processMetrics(), this.registry]
  }

  /** This process's metrics in Prometheus' text format. */
  async text (): Promise<string> {
    const parts = await Promise.all(this.registries().map(r => r.metrics()))
    return parts.join('\n')
  }

  /** What a scrape answers: the cluster's metrics under WORKERS > 1, else this process's. */
  scrape (): Promise<string> {
    return this.cluster ? this.cluster.gather() : this.text()
  }

  /** Stops listening to the database and the providers (the app is closing). */
  close (): void {
    for (const stop of this.stops.splice(0)) stop()
  }
}
