/**
 * Code logins (spec 5, 7): GET /login/sms/code?phone=, POST /login/sms, POST /login/mail/sendCode
 * (the address travels in `phone`), POST /login/mail. A code login of a new phone or address creates
 * the account, so sending answers the same whether or not an account exists.
 */
import type { FastifyRequest } from 'fastify'
import { accountRoutes as r, type LoginResult } from '../../../types/accounts'
import type { Api, AppContext } from '../context'
import { fail } from '../core/errors'
import { clientMeta, enforceLimits } from '../http/request'
import { defineRoute } from '../http/route'
import { sendCode } from '../http/sendCode'
import { translate } from '../i18n/messages'
import { RULES } from '../security/rules'
import { CODE_TTL_MS } from '../security/codes'
import type { CodePurpose } from '../domain/account/codes'
import { userForContact } from '../domain/account/identities'
import { normaliseIdentifier, toUserInfo } from '../domain/account/users'

const CODE_MINUTES = Math.round(CODE_TTL_MS / 60000)

/** Verifies a code and logs the owner of the phone or address in. */
async function loginWithCode (request: FastifyRequest, ctx: AppContext, purpose: CodePurpose, kind: 'phone' | 'email', target: string, code: string): Promise<LoginResult> {
  await enforceLimits(ctx, [[RULES.loginPerIp, request.ip]])
  if (!await ctx.codes.verify(purpose, target, code)) throw fail.unauthorized('code.invalid', {}, { field: 'code' })
  const user = await userForContact(ctx.db, ctx.clock, kind, target)
  // only if the phone or address the code went to is still the account's (not rebound, not deleted)
  const token = await ctx.sessions.create(Number(user.id), clientMeta(request), { [kind]: target })
  return { token, user: toUserInfo(user) }
}

export function codeLoginRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.smsCode, async ({ request, query }) => {
    const sms = ctx.sms
    if (!sms) throw fail.providerNotConfigured('sms')
    const phone = normaliseIdentifier('phone', query.phone)
    await sendCode(request, ctx, 'sms', phone, code =>
      sms.send(phone, translate(request.locale, 'code.smsText', { code, minutes: CODE_MINUTES })))
    return null
  })

  defineRoute(app, ctx, r.smsLogin, async ({ request, body }) =>
    loginWithCode(request, ctx, 'sms', 'phone', normaliseIdentifier('phone', body.phone), body.code))

  defineRoute(app, ctx, r.mailCode, async ({ request, body }) => {
    const mailer = ctx.mailer
    if (!mailer) throw fail.providerNotConfigured('mail')
    const address = normaliseIdentifier('email', body.phone)
    await sendCode(request, ctx, 'mail', address, code => mailer.send({
      to: address,
      subject: translate(request.locale, 'code.mailSubject', { code }),
      text: translate(request.locale, 'code.mailText', { code, minutes: CODE_MINUTES })
    }))
    return null
  })

  defineRoute(app, ctx, r.mailLogin, async ({ request, body }) =>
    loginWithCode(request, ctx, 'mail', 'email', normaliseIdentifier('email', body.phone), body.code))
}
