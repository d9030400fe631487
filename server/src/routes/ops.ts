/**
 * Health (types/ops.ts): liveness, and readiness: one query to the database, the migrations applied
 * against those this code knows, and which engines and providers are on. Not ready is a 503 naming why.
 * Metrics for Prometheus, for an operator or the METRICS_TOKEN (compared in constant time).
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { Migrator, sql } from 'kysely'
import { opsRoutes as r, type Readiness } from '../../../types/ops'
import type { Api, AppContext } from '../context'
import { migrations as migrationsOf } from '../db/migrate'
import { ApiFailure } from '../core/errors'
import { defineRoute } from '../http/route'
import { helperFeatures } from '../http/helperFeatures'
import { bearerToken } from '../security/tokens'

const STARTED = Date.now()

export async function readiness (ctx: AppContext): Promise<Readiness> {
  let database: Readiness['database'] = 'ok'
  let migrations = { applied: 0, known: 0 }
  try {
    await sql`select 1`.execute(ctx.db)
    const known = await new Migrator({ db: ctx.db, provider: { getMigrations: async () => migrationsOf(ctx.dialect) }, allowUnorderedMigrations: true }).getMigrations()
    migrations = { applied: known.filter(m => m.executedAt !== undefined).length, known: known.length }
  } catch {
    database = 'unreachable'
  }
  const helpers = helperFeatures(ctx)
  return {
    ready: database === 'ok' && migrations.applied === migrations.known,
    database,
    migrations,
    engines: { tts: helpers.tts, ocr: helpers.ocr, pdf: helpers.pdf },
    providers: {
      mail: ctx.mailer !== null,
      sms: ctx.sms !== null,
      wechatPay: ctx.wechatPay !== null,
      tencentMap: ctx.maps.tencent !== null,
      amap: ctx.maps.amap !== null,
      feishu: ctx.robots.feishu !== null,
      wecom: ctx.robots.wecom !== null,
      ai: helpers.ai,
      word2pic: helpers.word2pic,
      video: helpers.video,
      music: helpers.music,
      priceCompare: helpers.priceCompare,
      tickets: helpers.tickets,
      flights: helpers.flights
    }
  }
}

/** Prometheus' text format, version 0.0.4 (what prom-client writes). */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest()

/**
 * Whether the request's bearer token is the metrics token: compared as SHA-256 digests in constant time
 * (equal lengths whatever was sent), so the time taken tells nothing of the token.
 */
export function metricsTokenOf (expected: string | undefined): (request: FastifyRequest) => boolean {
  if (!expected) return () => false
  const want = sha256(expected)
  return (request) => {
    const given = bearerToken(request.headers.authorization)
    return given !== null && timingSafeEqual(sha256(given), want)
  }
}

export function opsRoutesOf (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.healthz, async () => ({ status: 'ok' as const, uptimeS: Math.floor((Date.now() - STARTED) / 1000) }))
  defineRoute(app, ctx, r.readyz, async () => {
    const state = await readiness(ctx)
    if (!state.ready) {
      if (state.database !== 'ok') throw new ApiFailure(503, 'health.databaseDown', {}, state, 503)
      throw new ApiFailure(503, 'health.migrationsPending', { n: state.migrations.known - state.migrations.applied }, state, 503)
    }
    return state
  })
  defineRoute(app, ctx, r.metrics, async ({ reply }) => {
    let text: string
    try {
      text = await ctx.metrics.scrape()
    } catch (err) {
      // (WORKERS > 1: the primary process did not gather the workers' metrics in time)
      const failure = new ApiFailure(503, 'metrics.unavailable', {}, null, 503)
      failure.cause = err
      throw failure
    }
    return reply.header('content-type', METRICS_CONTENT_TYPE).send(text)
  }, { admit: metricsTokenOf(ctx.config.metricsToken) })
}
