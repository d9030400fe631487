/** "My orders" (types/orderHistory.ts): the caller's own orders of every kind, newest first. */
import { orderHistoryRoutes as r } from '../../../types/orderHistory'
import type { Api, AppContext } from '../context'
import { defineRoute } from '../http/route'
import { myOrders } from '../domain/money/orderHistory'

export function orderHistoryRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.myOrders, async ({ body, userId }) => myOrders(ctx.db, userId, body.page, body.size, body.kind))
}
