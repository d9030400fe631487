/**
 * Health (types/ops.ts): liveness, and readiness: one query to the database, the migrations applied
 * against those this code knows, and which engines and providers are on. Not ready is a 503 naming why.
 */
import { Migrator, sql } from 'kysely'
import { opsRoutes as r, type Readiness } from '../../../types/ops'
import type { Api, AppContext } from '../context'
import { migrations as migrationsOf } from '../db/migrate'
import { ApiFailure } from '../http/envelope'
import { defineRoute } from '../http/route'
import { helperFeatures } from './vision'

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
}
