/**
 * Health (issue 26 item 2), for a load balancer and an orchestrator, under the API base:
 *  - GET /healthz: liveness: the process answers;
 *  - GET /readyz: readiness: the database answers, its migrations are all applied, and which local
 *    engines and providers this server has (each only as on or off: no address, key or version).
 *    Not ready is a 503 whose message says why (the same body, so a probe's log shows what failed).
 *  - GET /metrics: Prometheus' text format, not public: an operator's session, or the METRICS_TOKEN
 *    the server is configured with as a bearer token (docs/metrics.md).
 */
import { Type, type Static } from 'typebox'
import { route } from './api'

export const Health = Type.Object({
  status: Type.Literal('ok'),
  /** Seconds since this process started. */
  uptimeS: Type.Integer({ minimum: 0 })
})
export type Health = Static<typeof Health>

export const Readiness = Type.Object({
  ready: Type.Boolean(),
  database: Type.Union([Type.Literal('ok'), Type.Literal('unreachable')]),
  migrations: Type.Object({ applied: Type.Integer(), known: Type.Integer() }),
  /** Local engines: on (installed and not turned off) or off. */
  engines: Type.Object({ tts: Type.Boolean(), ocr: Type.Boolean(), pdf: Type.Boolean() }),
  /** Providers configured here (on) or not (off). */
  providers: Type.Record(Type.String(), Type.Boolean())
})
export type Readiness = Static<typeof Readiness>

const tag = 'operations'
export const opsRoutes = {
  healthz: route({ method: 'GET', url: '/healthz', auth: 'none', tag, data: Health, summary: 'Liveness: the process answers' }),
  readyz: route({
    method: 'GET', url: '/readyz', auth: 'none', tag, data: Readiness,
    summary: 'Readiness: the database answers, migrations are current, engines and providers known',
    description: 'Not ready: 503 with the reason as the message and the same body as data. Nothing of the configuration is shown but on or off.'
  }),
  metrics: route({
    method: 'GET', url: '/metrics', auth: 'operator', tag, data: Type.Null(),
    raw: { contentType: 'text/plain', description: 'Prometheus\' text exposition format (version 0.0.4); with WORKERS > 1, every API process\'s metrics summed' },
    summary: 'Metrics for Prometheus: an operator, or the scraper\'s METRICS_TOKEN',
    description: 'Authorization: Bearer <METRICS_TOKEN> (the server\'s configuration), or an operator\'s session. Anyone else gets the refusal of every operator call (401 or 403). docs/metrics.md names every metric.'
  })
}
