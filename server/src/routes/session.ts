/** GET /getUserInfo (Bearer token) and GET /logout (revokes the token). */
import { accountRoutes as r } from '../../../types/accounts'
import type { Api, AppContext } from '../context'
import { defineRoute } from '../http/route'
import { bearerToken } from '../security/tokens'
import { toUserInfo } from '../domain/account/users'

export function sessionRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.userInfo, async ({ session }) => toUserInfo(session.user))

  /** Always succeeds: the client drops its token whatever happens; a live token is revoked. */
  defineRoute(app, ctx, r.logout, async ({ request }) => {
    const token = bearerToken(request.headers.authorization)
    if (token) await ctx.sessions.revoke(token)
    return null
  })
}
