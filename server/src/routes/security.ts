/** Account security (types/security.ts securityRoutes): sessions, password, spending limits, birth-date correction. */
import { securityRoutes as r } from '../../../types/security'
import type { Api, AppContext } from '../context'
import { iso } from '../clock'
import { fail } from '../http/envelope'
import { enforceLimits } from '../http/request'
import { defineRoute } from '../http/route'
import { RULES } from '../security/rules'
import { hashPassword, verifyPassword } from '../security/passwords'
import {
  endSessions, listCorrections, requestCorrection, reviewCorrection, securityOverview, setLimits
} from '../domain/security'

export function securityRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.overview, async ({ userId, session }) => securityOverview(ctx.db, ctx.clock, userId, session.sessionId))

  defineRoute(app, ctx, r.passwordChange, async ({ body, userId, session, request }) => {
    const stored = session.user.password_hash
    if (stored) {
      // the same budget as logging in: guessing the current password here is no easier
      const account = `user:${userId}`
      await enforceLimits(ctx, [[RULES.passwordPerAccountAndIp, `${account}|${request.ip}`], [RULES.passwordPerAccount, account]])
      if (!body.currentPassword) throw fail.field('currentPassword', 'validation.required', { field: 'currentPassword' })
      if (!(await verifyPassword(stored, body.currentPassword))) throw fail.unprocessable('security.wrongPassword', {}, { field: 'currentPassword' })
    }
    const hash = await hashPassword(body.newPassword)
    await ctx.db.updateTable('users').set({ password_hash: hash, updated_at: iso(ctx.clock()) }).where('id', '=', userId).execute()
    return { ended: await endSessions(ctx.db, ctx.clock, userId, { except: session.sessionId }) }
  })

  defineRoute(app, ctx, r.sessionEnd, async ({ body, userId }) => {
    const ended = await endSessions(ctx.db, ctx.clock, userId, { only: body.sessionId })
    if (!ended) throw fail.notFound('security.sessionNotFound')
    return { ended }
  })
  defineRoute(app, ctx, r.sessionsEndOthers, async ({ userId, session }) => ({ ended: await endSessions(ctx.db, ctx.clock, userId, { except: session.sessionId }) }))
  defineRoute(app, ctx, r.logoutAll, async ({ userId }) => ({ ended: await endSessions(ctx.db, ctx.clock, userId, {}) }))

  defineRoute(app, ctx, r.limits, async ({ body, userId }) => setLimits(ctx.db, ctx.clock, userId, body))

  defineRoute(app, ctx, r.correctionRequest, async ({ body, userId }) => requestCorrection(ctx.db, ctx.clock, userId, body))
  defineRoute(app, ctx, r.operatorCorrections, async ({ body }) => listCorrections(ctx.db, body))
  defineRoute(app, ctx, r.operatorCorrectionReview, async ({ body, userId }) => reviewCorrection(ctx.db, ctx.clock, userId, body))
}
