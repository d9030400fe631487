/** POST /error/report: the client's uncaught errors (spec 3, 8), validated, size-limited, stored. */
import { Type } from 'typebox'
import type { Api, AppContext } from '../context'
import { iso } from '../clock'
import { ok } from '../http/envelope'
import { clientMeta, currentSession, enforceLimits } from '../http/request'
import { strict } from '../http/schemas'
import { RULES } from '../security/rules'

export const ERROR_REPORT_LIMITS = {
  error_message: 4000,
  path: 500,
  type: 50,
  sub_source: 50,
  app_id: 100,
  /** bytes of JSON: 4000 characters of CJK text with escapes fit */
  body: 32 * 1024
} as const

const ErrorReportBody = Type.Object({
  error_message: Type.String({ minLength: 1, maxLength: ERROR_REPORT_LIMITS.error_message }),
  path: Type.String({ maxLength: ERROR_REPORT_LIMITS.path }),
  type: Type.String({ minLength: 1, maxLength: ERROR_REPORT_LIMITS.type }),
  sub_source: Type.String({ maxLength: ERROR_REPORT_LIMITS.sub_source }),
  app_id: Type.String({ maxLength: ERROR_REPORT_LIMITS.app_id })
}, strict)

export function errorReportRoutes (app: Api, ctx: AppContext): void {
  app.post('/error/report', { bodyLimit: ERROR_REPORT_LIMITS.body, schema: { body: ErrorReportBody } }, async (request) => {
    await enforceLimits(ctx, [[RULES.errorReportPerIp, request.ip]])
    const session = await currentSession(request, ctx)
    const meta = clientMeta(request)
    await ctx.db.insertInto('error_reports').values({
      ...request.body,
      user_id: session ? Number(session.user.id) : null,
      ip: meta.ip,
      user_agent: meta.userAgent?.slice(0, 300) ?? null,
      created_at: iso(ctx.clock())
    }).execute()
    return ok(request, null)
  })
}
