/** POST /api/walletBalance {}, POST /api/walletLedger {page, size}: the user's own money. */
import type { LedgerResponse, WalletBalance } from '../../../types/shop'
import type { Api, AppContext } from '../context'
import { ok } from '../http/envelope'
import { requireSession } from '../http/request'
import { EmptyBody, PageBody } from '../http/shopSchemas'
import { balanceOf, ledgerPage } from '../domain/wallet'

export function walletRoutes (app: Api, ctx: AppContext): void {
  app.post('/api/walletBalance', { schema: { body: EmptyBody } }, async (request) => {
    const { user } = await requireSession(request, ctx)
    return ok<WalletBalance>(request, await balanceOf(ctx.db, Number(user.id)))
  })

  app.post('/api/walletLedger', { schema: { body: PageBody } }, async (request) => {
    const { user } = await requireSession(request, ctx)
    return ok<LedgerResponse>(request, await ledgerPage(ctx.db, Number(user.id), request.body.page, request.body.size))
  })
}
