/**
 * POST /login/register?table=user: a password plus one of user_name, phone or email; a phone or
 * address needs the code sent there (field `code`). Logs the new account in.
 */
import { accountRoutes } from '../../../types/accounts'
import type { Api, AppContext } from '../context'
import { fail } from '../core/errors'
import { clientMeta, enforceLimits } from '../http/request'
import { defineRoute } from '../http/route'
import type { MessageKey } from '../i18n/messages'
import { isUniqueViolation } from '../db/errors'
import { RULES } from '../security/rules'
import { hashPassword } from '../security/passwords'
import { checkNewUserName, findUserBy, insertUser, maskPhone, toUserInfo, type IdentifierKind } from '../domain/account/users'
import { pickIdentifier, requirePassword } from '../domain/account/users'

const TAKEN: Record<IdentifierKind, MessageKey> = {
  user_name: 'register.userNameTaken',
  phone: 'register.phoneTaken',
  email: 'register.emailTaken'
}

function nicknameFor (kind: IdentifierKind, value: string): string {
  if (kind === 'phone') return maskPhone(value)
  if (kind === 'email') return value.split('@')[0].slice(0, 50)
  return value
}

export function registerRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, accountRoutes.register, async ({ request, body }) => {
    const { kind, value } = pickIdentifier(body)
    const password = requirePassword(body.password)
    await enforceLimits(ctx, [[RULES.registerPerIp, request.ip]])

    if (kind === 'user_name') {
      checkNewUserName(value)
      if (await findUserBy(ctx.db, kind, value)) throw fail.conflict(TAKEN[kind])
    } else {
      // a phone or address must be proven first; only then may we say it is taken
      const code = body.code
      if (code === undefined) throw fail.field('code', 'code.required')
      const proven = await ctx.codes.verify(kind === 'phone' ? 'sms' : 'mail', value, code)
      if (!proven) throw fail.badRequest('code.invalid', {}, { field: 'code' })
    }

    const passwordHash = await hashPassword(password)
    let user
    try {
      user = await insertUser(ctx.db, ctx.clock, { [kind]: value, nickname: nicknameFor(kind, value), password_hash: passwordHash })
    } catch (err) {
      if (isUniqueViolation(err)) throw fail.conflict(TAKEN[kind])
      throw err
    }
    const token = await ctx.sessions.create(Number(user.id), clientMeta(request), { passwordHash })
    return { token, user: toUserInfo(user) }
  })
}
