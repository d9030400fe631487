/** The age gate and buying boxes (types/shop.ts shopRoutes): ageVerify, ageStatus, purchaseCheck, casePurchase. */
import { shopRoutes as r } from '../../../types/shop'
import type { Api, AppContext } from '../context'
import { defineRoute } from '../http/route'
import { ageRecord, statusOf, verifyAge } from '../domain/age'
import { checkPurchase, purchase } from '../domain/purchase'

export function purchaseRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.ageVerify, async ({ body, userId }) => verifyAge(ctx.db, ctx.clock, userId, body))
  defineRoute(app, ctx, r.ageStatus, async ({ userId }) => statusOf(await ageRecord(ctx.db, ctx.clock, userId)))
  defineRoute(app, ctx, r.purchaseCheck, async ({ body, userId }) => checkPurchase(ctx, userId, body))
  defineRoute(app, ctx, r.casePurchase, async ({ body, userId }) => (await purchase(ctx, userId, body)).result)
}
