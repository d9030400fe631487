/** POST /login/passwd: one of user_name, phone or email, plus password (spec 5). */
import { accountRoutes } from '../../../types/accounts'
import type { Api, AppContext } from '../context'
import { fail } from '../core/errors'
import { clientMeta, enforceLimits } from '../http/request'
import { defineRoute } from '../http/route'
import { RULES } from '../security/rules'
import type { RateRule } from '../security/rateLimiter'
import { verifyPassword } from '../security/passwords'
import { findLoginUser, loginNameKey, pickIdentifier, requirePassword, toUserInfo } from '../domain/account/users'

export function passwordLoginRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, accountRoutes.passwordLogin, async ({ request, body }) => {
    const { kind, value } = pickIdentifier(body)
    const password = requirePassword(body.password)
    const ip = request.ip
    await enforceLimits(ctx, [[RULES.loginPerIp, ip]])
    // the budget is the account's, whichever identifier names it (user name, phone or e-mail); an
    // unknown identifier gets a budget of its own text, so both cases do the same work and answer alike
    const user = await findLoginUser(ctx.db, kind, value)
    const account = user ? `user:${user.id}` : `${kind}:${kind === 'user_name' ? loginNameKey(value) : value}`
    // consumed before verifying so parallel guesses count too; given back when the owner succeeds
    const accountChecks: Array<[RateRule, string]> = [
      [RULES.passwordPerAccountAndIp, `${account}|${ip}`],
      [RULES.passwordPerAccount, account]
    ]
    await enforceLimits(ctx, accountChecks)

    const valid = await verifyPassword(user?.password_hash, password)
    if (!user || !valid) throw fail.unauthorized('login.failed')

    for (const [rule, subject] of accountChecks) await ctx.limiter.refund(rule, subject)
    // only if the password verified is still the account's, and the account was not deleted meanwhile
    const token = await ctx.sessions.create(Number(user.id), clientMeta(request), { passwordHash: user.password_hash })
    return { token, user: toUserInfo(user) }
  })
}
