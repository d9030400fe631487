/**
 * Account security (types/security.ts securityRoutes): sessions, password, bindings, re-authentication
 * by code, deleting the account, spending limits, the birth-date correction.
 */
import type { FastifyRequest } from 'fastify'
import { eraseMediaObjects } from '../domain/media/mediaStore'
import { securityRoutes as r, type Reauth } from '../../../types/security'
import type { UserRow } from '../db/schema'
import type { Api, AppContext } from '../context'
import { iso } from '../core/clock'
import { ApiFailure, fail } from '../core/errors'
import { enforceLimits } from '../http/request'
import { defineRoute } from '../http/route'
import { RULES } from '../security/rules'
import { hashPassword, verifyPassword } from '../security/passwords'
import { CODE_TTL_MS } from '../security/codes'
import { translate } from '../i18n/messages'
import { isUniqueViolation } from '../db/errors'
import { maskPhone, normaliseIdentifier } from '../domain/account/users'
import { sendCode } from '../http/sendCode'
import { bindPurpose, reauthPurpose, type CodeChannel, type CodePurpose } from '../domain/account/codes'
import { endSessions, listCorrections, maskEmail, requestCorrection, reviewCorrection, securityOverview } from '../domain/account/security'
import { setLimits } from '../domain/account/spendingCaps'
import { checkDeletion, deleteAccount } from '../domain/account/accountDeletion'

export function securityRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.overview, async ({ userId, session }) => securityOverview(ctx.db, ctx.clock, userId, session.sessionId, ctx.sms !== null))

  const minutes = Math.round(CODE_TTL_MS / 60000)

  /** Sends a code of `purpose` to a phone (SMS) or address (mail), with the text saying what it is for. */
  const deliver = async (request: FastifyRequest, kind: 'phone' | 'email', target: string, purpose: CodePurpose, what: 'bind' | 'reauth') => {
    if (kind === 'phone') {
      const sms = ctx.sms
      if (!sms) throw fail.providerNotConfigured('sms')
      await sendCode(request, ctx, purpose, target, code => sms.send(target, translate(request.locale, `security.${what}SmsText`, { code, minutes })))
    } else {
      const mailer = ctx.mailer
      if (!mailer) throw fail.providerNotConfigured('mail')
      await sendCode(request, ctx, purpose, target, code => mailer.send({
        to: target,
        subject: translate(request.locale, 'code.mailSubject', { code }),
        text: translate(request.locale, `security.${what}MailText`, { code, minutes })
      }))
    }
  }
  const channel = (kind: 'phone' | 'email'): CodeChannel => (kind === 'phone' ? 'sms' : 'mail')
  /**
   * A wrong or used code: 422 naming `code` (a 401 would tell the app the session ended, and it would
   * log the owner out for a typo).
   */
  const badCode = () => fail.unprocessable('code.invalid', {}, { field: 'code' })

  /**
   * The owner proves it is them: the password when the account has one (the login guess budget
   * applies), otherwise a code sent by reauthCode to its own phone or address.
   */
  const reauthenticate = async (request: FastifyRequest, user: UserRow, given: { password?: string; reauth?: Reauth }, passwordField: string, checkOnly = false) => {
    const userId = Number(user.id)
    if (user.password_hash) {
      const account = `user:${userId}`
      await enforceLimits(ctx, [[RULES.passwordPerAccountAndIp, `${account}|${request.ip}`], [RULES.passwordPerAccount, account]])
      if (!given.password) throw fail.field(passwordField, 'validation.required', { field: passwordField })
      if (!(await verifyPassword(user.password_hash, given.password))) throw fail.unprocessable('security.wrongPassword', {}, { field: passwordField })
      return
    }
    if (!user.phone && !user.email) throw fail.unprocessable('security.reauthNone', {}, { reason: 'no_reauth' })
    if (!given.reauth) throw fail.field('reauth', 'security.reauthRequired')
    const target = given.reauth.via === 'phone' ? user.phone : user.email
    if (!target) throw fail.field('reauth', given.reauth.via === 'phone' ? 'security.reauthNoPhone' : 'security.reauthNoEmail')
    await enforceLimits(ctx, [[RULES.loginPerIp, request.ip]])
    const purpose = reauthPurpose(channel(given.reauth.via), userId)
    if (!await (checkOnly ? ctx.codes.check(purpose, target, given.reauth.code) : ctx.codes.verify(purpose, target, given.reauth.code))) throw badCode()
  }

  defineRoute(app, ctx, r.passwordChange, async ({ body, userId, session, request }) => {
    await reauthenticate(request, session.user, { password: body.currentPassword, reauth: body.reauth }, 'currentPassword')
    // once the owner is proven: the current password again is no change
    if (session.user.password_hash && await verifyPassword(session.user.password_hash, body.newPassword)) throw fail.field('newPassword', 'security.passwordSame')
    const hash = await hashPassword(body.newPassword)
    // one transaction: the new password and the end of the other sessions. The write is conditional on
    // the password the owner just proved (or its absence) and on the account not being deleted: a
    // deletion or another change that committed meanwhile wins and this one changes nothing (409). The
    // row lock the update takes makes a password login in flight wait and then refuse (sessions.ts).
    const ended = await ctx.db.transaction().execute(async trx => {
      const changed = await trx.updateTable('users').set({ password_hash: hash, updated_at: iso(ctx.clock()) })
        .where('id', '=', userId).where('deleted_at', 'is', null)
        .where(eb => session.user.password_hash === null ? eb('password_hash', 'is', null) : eb('password_hash', '=', session.user.password_hash))
        .executeTakeFirst()
      if (Number(changed.numUpdatedRows) !== 1) {
        const now = await trx.selectFrom('users').select('deleted_at').where('id', '=', userId).executeTakeFirst()
        if (!now || now.deleted_at !== null) throw fail.unauthorized()
        throw fail.conflict('security.passwordChangedMeanwhile')
      }
      return endSessions(trx, ctx.clock, userId, { except: session.sessionId })
    })
    ctx.sessions.forgetUser(userId)
    return { ended }
  })

  defineRoute(app, ctx, r.reauthCode, async ({ body, session, userId, request }) => {
    const user = session.user
    if (user.password_hash) throw fail.unprocessable('security.reauthUsePassword')
    const target = body.via === 'phone' ? user.phone : user.email
    if (!target) throw fail.field('via', body.via === 'phone' ? 'security.reauthNoPhone' : 'security.reauthNoEmail')
    await deliver(request, body.via, target, reauthPurpose(channel(body.via), userId), 'reauth')
    return null
  })

  /** Exactly one of phone and email, normalised as the logins do. */
  const targetOf = (body: { phone?: string; email?: string }): { kind: 'phone' | 'email'; target: string } => {
    if (!!body.phone === !!body.email) throw fail.field(body.phone ? 'email' : 'phone', 'security.bindOne')
    return body.phone ? { kind: 'phone', target: normaliseIdentifier('phone', body.phone) } : { kind: 'email', target: normaliseIdentifier('email', body.email!) }
  }

  // the code goes to the new phone or address, for this account only; the answer is the same whether
  // or not another account holds it (the 409 comes only to whoever proves they have it)
  defineRoute(app, ctx, r.bindCode, async ({ body, userId, request }) => {
    const { kind, target } = targetOf(body)
    await deliver(request, kind, target, bindPurpose(channel(kind), userId), 'bind')
    return null
  })

  defineRoute(app, ctx, r.bind, async ({ body, userId, request }) => {
    const { kind, target } = targetOf(body)
    await enforceLimits(ctx, [[RULES.loginPerIp, request.ip]])
    if (!await ctx.codes.verify(bindPurpose(channel(kind), userId), target, body.code)) throw badCode()
    try {
      // the unique keys on users.phone and users.email decide between accounts binding one target at once
      // not on an account deleted since this request's session was read
      const bound = await ctx.db.updateTable('users').set({ [kind]: target, updated_at: iso(ctx.clock()) }).where('id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst()
      if (Number(bound.numUpdatedRows) !== 1) throw fail.unauthorized()
    } catch (e) {
      if (isUniqueViolation(e)) throw new ApiFailure(409, kind === 'phone' ? 'security.phoneTaken' : 'security.emailTaken', {}, { field: kind })
      throw e
    }
    const u = await ctx.db.selectFrom('users').select(['phone', 'email']).where('id', '=', userId).executeTakeFirstOrThrow()
    return { phone: u.phone ? maskPhone(u.phone) : null, email: u.email ? maskEmail(u.email) : null }
  })

  defineRoute(app, ctx, r.deleteAccount, async ({ body, userId, session, request }) => {
    const forfeit = body.forfeit === true
    if (body.check === true) {
      // the app asks before its confirmation: the proof first (a code stays usable), then what stands in the way
      await reauthenticate(request, session.user, { password: body.password, reauth: body.reauth }, 'password', true)
      await checkDeletion(ctx.db, ctx.clock, userId, forfeit)
      return { ended: 0 }
    }
    // what stands in the way is said first, so that a code is not used up by a refusal
    await checkDeletion(ctx.db, ctx.clock, userId, forfeit)
    await reauthenticate(request, session.user, { password: body.password, reauth: body.reauth }, 'password')
    const ended = await deleteAccount(ctx.db, ctx.clock, ctx.dialect, userId, forfeit)
    ctx.sessions.forgetUser(userId)
    // the photos' bucket copies go now; a store that is down is tried again by the maintenance pass
    await eraseMediaObjects(ctx.db, ctx.media).catch(err => request.log.warn({ err }, 'media objects of a deleted account: left for the maintenance pass'))
    return { ended }
  })

  // what this process remembers of the ended sessions goes too (domain/sessions.ts RememberedSessions)
  const endingSessions = async (userId: number, which: { only?: number; except?: number }) => {
    const ended = await endSessions(ctx.db, ctx.clock, userId, which)
    ctx.sessions.forgetUser(userId)
    return ended
  }
  defineRoute(app, ctx, r.sessionEnd, async ({ body, userId }) => {
    const ended = await endingSessions(userId, { only: body.sessionId })
    if (!ended) throw fail.notFound('security.sessionNotFound')
    return { ended }
  })
  defineRoute(app, ctx, r.sessionsEndOthers, async ({ userId, session }) => ({ ended: await endingSessions(userId, { except: session.sessionId }) }))
  defineRoute(app, ctx, r.logoutAll, async ({ userId }) => ({ ended: await endingSessions(userId, {}) }))

  defineRoute(app, ctx, r.limits, async ({ body, userId }) => setLimits(ctx.db, ctx.clock, userId, body))

  defineRoute(app, ctx, r.correctionRequest, async ({ body, userId }) => requestCorrection(ctx.db, ctx.clock, userId, body))
  defineRoute(app, ctx, r.operatorCorrections, async ({ body }) => listCorrections(ctx.db, body))
  defineRoute(app, ctx, r.operatorCorrectionReview, async ({ body, userId }) => reviewCorrection(ctx.db, ctx.clock, userId, body))
}
