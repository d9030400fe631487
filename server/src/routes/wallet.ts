/** The user's own money (types/shop.ts shopRoutes): balances and ledger. */
import { shopRoutes as r } from '../../../types/shop'
import type { Api, AppContext } from '../context'
import { defineRoute } from '../http/route'
import { balanceOf, ledgerPage } from '../domain/money/wallet'

export function walletRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.walletBalance, async ({ userId }) => balanceOf(ctx.db, userId))
  defineRoute(app, ctx, r.walletLedger, async ({ body, userId }) => ledgerPage(ctx.db, userId, body.page, body.size))
}
