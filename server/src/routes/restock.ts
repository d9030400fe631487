/** "Notify me when restocked" (types/restock.ts; domain/events/restock.ts). */
import { restockRoutes as r } from '../../../types/restock'
import type { Api, AppContext } from '../context'
import { cancelRestock, remindRestock, restockState } from '../domain/events/restock'
import { defineRoute } from '../http/route'

export function restockRoutesOf (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.state, async ({ body, userId }) => restockState(ctx, body.seriesId, userId))
  defineRoute(app, ctx, r.remind, async ({ body, userId, request }) => remindRestock(ctx, userId, request.locale === 'en' ? 'en' : 'zh', body))
  defineRoute(app, ctx, r.cancel, async ({ body, userId }) => cancelRestock(ctx.db, ctx.clock, userId, body.seriesId))
}
