/** Price comparison (types/bijia.ts) through JD Union: per-account rate, then the (cached) provider call. */
import { bijiaRoutes as r } from '../../../types/bijia'
import type { Api, AppContext } from '../context'
import { enforceLimits } from '../http/request'
import { fail } from '../core/errors'
import { configured, providerCall } from '../http/provider-call'
import { defineRoute } from '../http/route'
import { RULES } from '../security/rules'

export function bijiaRoutesOf (app: Api, ctx: AppContext): void {
  const market = async (userId: number) => {
    const jd = configured(ctx.jdUnion, 'jdUnion')
    await enforceLimits(ctx, [[RULES.bijiaPerUser, String(userId)]])
    return jd
  }
  defineRoute(app, ctx, r.spuSearch, async ({ body, userId }) => {
    if (!body.keyword.trim()) throw fail.field('keyword', 'validation.required')
    const jd = await market(userId)
    return providerCall('jdUnion', () => jd.searchSpus(body.keyword.trim(), body.page ?? 1))
  })
  defineRoute(app, ctx, r.spuGoods, async ({ body, userId }) => {
    const jd = await market(userId)
    return providerCall('jdUnion', () => jd.spuGoods(body.spuId, body.keyword?.trim() || undefined))
  })
}
