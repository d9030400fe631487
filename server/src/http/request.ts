/** Per-request state: the locale of the messages and the (lazily resolved) session. */
import type { FastifyRequest } from 'fastify'
import type { Locale } from '../i18n/messages'
import type { AppContext } from '../context'
import type { ActiveSession, ClientMeta } from '../domain/account/sessions'
import type { RateRule } from '../security/rateLimiter'
import { bearerToken } from '../security/tokens'
import { fail, type ApiFailure } from '../core/errors'

declare module 'fastify' {
  interface FastifyRequest {
    locale: Locale
    /** undefined: not looked up yet; null: no valid session. */
    session: ActiveSession | null | undefined
    /** The session is what the process remembered of the token, not read for this request (SessionService.resolveRechecked). */
    sessionRemembered: boolean
    /** The failure the request was answered with (an envelope other than code 200), for the metrics. */
    failure: ApiFailure | null
  }
}

/**
 * The session of the request's bearer token, if any (looked up once per request). `rechecked`: the
 * route's own statement checks the session again, so what the process read of it lately will do
 * (SessionService.resolveRechecked).
 */
export async function currentSession (request: FastifyRequest, ctx: AppContext, rechecked = false): Promise<ActiveSession | null> {
  if (request.session !== undefined) return request.session
  const token = bearerToken(request.headers.authorization)
  if (!token) return (request.session = null)
  if (!rechecked) return (request.session = await ctx.sessions.resolve(token))
  const { session, remembered } = await ctx.sessions.resolveRechecked(token)
  request.sessionRemembered = remembered
  return (request.session = session)
}

/**
 * A request let in on a remembered session whose answer is a refusal: is the session still live? (a
 * fresh read; true when it was read for this request anyway). Its refusal is then its answer, else 401.
 */
export async function sessionStillLive (request: FastifyRequest, ctx: AppContext): Promise<boolean> {
  if (!request.sessionRemembered) return true
  const token = bearerToken(request.headers.authorization)
  return !!token && !!await ctx.sessions.resolve(token)
}

/** The logged-in session, or a 401 envelope. */
export async function requireSession (request: FastifyRequest, ctx: AppContext, rechecked = false): Promise<ActiveSession> {
  const session = await currentSession(request, ctx, rechecked)
  if (!session) throw fail.unauthorized()
  return session
}

export function clientMeta (request: FastifyRequest): ClientMeta {
  const ua = request.headers['user-agent']
  // the app's APP_TYPE header (h5, weapp...), kept as sent when it is a short plain word
  const app = request.headers.app_type
  const appType = typeof app === 'string' && /^[A-Za-z0-9_.-]{1,32}$/.test(app) ? app : null
  return { ip: request.ip ?? null, userAgent: typeof ua === 'string' ? ua : null, appType }
}

/** Consumes every rule (in order) or answers 429. */
export async function enforceLimits (ctx: AppContext, checks: Array<[RateRule, string]>): Promise<void> {
  const decision = await ctx.limiter.consumeAll(checks)
  if (!decision.allowed) throw fail.tooManyRequests(decision.retryAfterMs)
}
