/** Account security (types/security.ts securityRoutes): sessions, password, spending limits, birth-date correction. */
import { securityRoutes as r } from '../../../types/security'
import type { Api, AppContext } from '../context'
import { iso } from '../clock'
import { ApiFailure, fail } from '../http/envelope'
import { enforceLimits } from '../http/request'
import { defineRoute } from '../http/route'
import { RULES } from '../security/rules'
import { hashPassword, verifyPassword } from '../security/passwords'
import { CODE_TTL_MS } from '../security/codes'
import { translate } from '../i18n/messages'
import { isUniqueViolation } from '../db/errors'
import { maskPhone, normaliseIdentifier } from '../services/users'
import { sendCode } from './login-codes'
import {
  deleteAccount, endSessions, listCorrections, maskEmail, requestCorrection, reviewCorrection, securityOverview, setLimits
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

  /** Exactly one of phone and email, normalised as the logins do. */
  const targetOf = (body: { phone?: string; email?: string }): { kind: 'phone' | 'email'; target: string } => {
    if (!!body.phone === !!body.email) throw fail.field(body.phone ? 'email' : 'phone', 'security.bindOne')
    return body.phone ? { kind: 'phone', target: normaliseIdentifier('phone', body.phone) } : { kind: 'email', target: normaliseIdentifier('email', body.email!) }
  }
  const minutes = Math.round(CODE_TTL_MS / 60000)

  defineRoute(app, ctx, r.bindCode, async ({ body, request }) => {
    const { kind, target } = targetOf(body)
    if (kind === 'phone') {
      const sms = ctx.sms
      if (!sms) throw fail.providerNotConfigured('sms')
      await sendCode(request, ctx, 'sms', target, code => sms.send(target, translate(request.locale, 'code.smsText', { code, minutes })))
    } else {
      const mailer = ctx.mailer
      if (!mailer) throw fail.providerNotConfigured('mail')
      await sendCode(request, ctx, 'mail', target, code => mailer.send({
        to: target,
        subject: translate(request.locale, 'code.mailSubject', { code }),
        text: translate(request.locale, 'code.mailText', { code, minutes })
      }))
    }
    return null
  })

  defineRoute(app, ctx, r.bind, async ({ body, userId, request }) => {
    const { kind, target } = targetOf(body)
    await enforceLimits(ctx, [[RULES.loginPerIp, request.ip]])
    if (!await ctx.codes.verify(kind === 'phone' ? 'sms' : 'mail', target, body.code)) throw fail.unauthorized('code.invalid', {}, { field: 'code' })
    try {
      await ctx.db.updateTable('users').set({ [kind]: target, updated_at: iso(ctx.clock()) }).where('id', '=', userId).execute()
    } catch (e) {
      if (isUniqueViolation(e)) throw new ApiFailure(409, kind === 'phone' ? 'security.phoneTaken' : 'security.emailTaken', {}, { field: kind })
      throw e
    }
    const u = await ctx.db.selectFrom('users').select(['phone', 'email']).where('id', '=', userId).executeTakeFirstOrThrow()
    return { phone: u.phone ? maskPhone(u.phone) : null, email: u.email ? maskEmail(u.email) : null }
  })

  defineRoute(app, ctx, r.deleteAccount, async ({ body, userId, session, request }) => {
    const stored = session.user.password_hash
    if (!stored) throw fail.unprocessable('security.deleteNoPassword', {}, { reason: 'no_password' })
    const account = `user:${userId}`
    await enforceLimits(ctx, [[RULES.passwordPerAccountAndIp, `${account}|${request.ip}`], [RULES.passwordPerAccount, account]])
    if (!(await verifyPassword(stored, body.password))) throw fail.unprocessable('security.wrongPassword', {}, { field: 'password' })
    return { ended: await deleteAccount(ctx.db, ctx.clock, ctx.dialect, userId, body.forfeit === true) }
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
