/** GET /getUserInfo (Bearer token) and GET /logout (revokes the token). */
import type { UserInfo } from '../../../types/api'
import type { Api, AppContext } from '../context'
import { ok } from '../http/envelope'
import { requireSession } from '../http/request'
import { bearerToken } from '../security/tokens'
import { toUserInfo } from '../services/users'

export function sessionRoutes (app: Api, ctx: AppContext): void {
  app.get('/getUserInfo', async (request) => {
    const { user } = await requireSession(request, ctx)
    return ok<UserInfo>(request, toUserInfo(user))
  })

  /** Always succeeds: the client drops its token whatever happens; a live token is revoked. */
  app.get('/logout', async (request) => {
    const token = bearerToken(request.headers.authorization)
    if (token) await ctx.sessions.revoke(token)
    return ok(request, null)
  })
}
