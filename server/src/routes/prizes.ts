/** Own prizes and purchases, and the public live feed (types/shop.ts shopRoutes): prizeList, prizeDetail, purchaseDetail, liveFeed. */
import { SHOP_LIMITS, shopRoutes as r } from '../../../types/shop'
import type { Api, AppContext } from '../context'
import { defineRoute } from '../http/route'
import { listPrizes, liveFeed, prizeDetail, purchaseView } from '../domain/prizes/prizes'

export function prizeRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.prizeList, async ({ body, userId }) => listPrizes(ctx.db, userId, body.page, body.size, body.status))
  defineRoute(app, ctx, r.prizeDetail, async ({ body, userId }) => prizeDetail(ctx.db, userId, body.prizeId))
  defineRoute(app, ctx, r.purchaseDetail, async ({ body, userId }) => purchaseView(ctx.db, userId, body.purchaseId))
  defineRoute(app, ctx, r.liveFeed, async ({ body }) => liveFeed(ctx.db, body.limit ?? SHOP_LIMITS.liveFeedDefault))
}
