/** Withdrawals (types/withdraw.ts withdrawRoutes): the shopper's requests and the operators' queue and decisions. */
import { withdrawRoutes as r } from '../../../types/withdraw'
import type { Api, AppContext } from '../context'
import { defineRoute } from '../http/route'
import { fail } from '../core/errors'
import { listWithdrawals, requestWithdrawal, withdrawInfo } from '../domain/money/withdrawals'
import { approveWithdrawal, operatorQueue, rejectWithdrawal } from '../domain/money/withdrawalDecisions'

export function withdrawalRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.withdrawInfo, async ({ userId }) => withdrawInfo(ctx, userId))
  defineRoute(app, ctx, r.withdrawRequest, async ({ body, userId, session }) => {
    const { result, replayed } = await requestWithdrawal(ctx, userId, body)
    // after the commit, once: the operators' robots hear of it (a replay alerts nobody)
    if (!replayed) ctx.alerts.withdrawalRequested(result, { id: userId, nickname: session.user.nickname })
    return result
  })
  defineRoute(app, ctx, r.withdrawList, async ({ body, userId }) => listWithdrawals(ctx.db, userId, body.page, body.size))
  defineRoute(app, ctx, r.operatorWithdrawList, async ({ body }) => operatorQueue(ctx.db, body))
  defineRoute(app, ctx, r.operatorWithdrawApprove, async ({ body, userId, request }) => approveWithdrawal(ctx, userId, body.withdrawalId, request.log))
  defineRoute(app, ctx, r.operatorWithdrawReject, async ({ body, userId }) => {
    // the shopper reads the reason: one of white space only tells them nothing
    const reason = body.reason.trim()
    if (!reason) throw fail.field('reason', 'validation.minLength', { limit: 1 })
    return rejectWithdrawal(ctx, userId, body.withdrawalId, reason)
  })
}
