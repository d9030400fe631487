/**
 * POST /error/report: the client's uncaught errors (spec 3, 8), validated, size-limited, stored. A URL in
 * the message or the path keeps its query keys and loses their values (http/redact.ts), as the log does:
 * a failed call's message may carry one with a token in it.
 */
import { accountRoutes as r } from '../../../types/accounts'
import { ERROR_REPORT_LIMITS } from '../../../types/limits'
import type { Api, AppContext } from '../context'
import { iso } from '../core/clock'
import { clientMeta, enforceLimits } from '../http/request'
import { redactLine } from '../http/redact'
import { defineRoute } from '../http/route'
import { RULES } from '../security/rules'

export function errorReportRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.errorReport, async ({ request, body, session }) => {
    await enforceLimits(ctx, [[RULES.errorReportPerIp, request.ip]])
    const meta = clientMeta(request)
    await ctx.db.insertInto('error_reports').values({
      ...body,
      error_message: redactLine(body.error_message),
      path: redactLine(body.path),
      user_id: session ? Number(session.user.id) : null,
      ip: meta.ip,
      user_agent: meta.userAgent?.slice(0, 300) ?? null,
      created_at: iso(ctx.clock())
    }).execute()
    return null
  }, { bodyLimit: ERROR_REPORT_LIMITS.body })
}
