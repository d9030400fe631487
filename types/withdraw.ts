/**
 * Withdrawals (issue 8): a shopper takes unspent top-up cash out; an operator approves (the money goes
 * back through the top-up orders it came from) or rejects it with a reason. Credit is never withdrawable.
 *   requested -> approved (refunding) -> paid
 *             -> rejected (the cash is given back)          approved -> failed (a refund failed: its
 *                                                                       part is given back to cash)
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { MONEY_MAX_CENTS, WITHDRAW_LIMITS } from './limits'
import { Cents, Id, Nullable, Obj, PageFields, PageResult, StringEnum, Text, Timestamp } from './schema'
import { IdempotencyKey, PayChannel } from './shop'

export const WithdrawalStatus = StringEnum(['requested', 'approved', 'paid', 'rejected', 'failed'] as const)
export type WithdrawalStatus = Static<typeof WithdrawalStatus>
export const RefundStatus = StringEnum(['pending', 'processing', 'success', 'failed', 'canceled'] as const)
export type RefundStatus = Static<typeof RefundStatus>

export const WithdrawalRefundView = Type.Object({
  /** The top-up order the money goes back through. */
  opId: Type.String(),
  channel: PayChannel,
  amountCents: Cents,
  status: RefundStatus
})
export type WithdrawalRefundView = Static<typeof WithdrawalRefundView>

export const WithdrawalView = Type.Object({
  id: Type.Integer(),
  amountCents: Cents,
  status: WithdrawalStatus,
  /** The operator's reason, when rejected. */
  reason: Nullable(Type.String()),
  /** Cash given back (all of it when rejected; the failed refunds' part when failed). */
  returnedCents: Cents,
  createdAt: Timestamp,
  decidedAt: Nullable(Timestamp),
  finishedAt: Nullable(Timestamp),
  refunds: Type.Array(WithdrawalRefundView)
})
export type WithdrawalView = Static<typeof WithdrawalView>

export const OperatorWithdrawalView = Type.Object({
  ...WithdrawalView.properties,
  userId: Type.Integer(),
  /** The shopper as the operator recognises them: nickname and user name (or phone / e-mail). */
  userLabel: Type.String()
})
export type OperatorWithdrawalView = Static<typeof OperatorWithdrawalView>

export const WithdrawRequest = Obj({
  amountCents: Type.Integer({ minimum: 1, maximum: MONEY_MAX_CENTS }),
  idempotencyKey: IdempotencyKey
})
export type WithdrawRequest = Static<typeof WithdrawRequest>

/** What the withdraw form shows: the withdrawable cash and the limits (from the operator's settings). */
export const WithdrawInfo = Type.Object({
  cashCents: Cents,
  minCents: Cents,
  dailyMaxCents: Cents,
  /** Asked today (China day) in withdrawals not rejected. */
  usedTodayCents: Cents,
  /** What may still be asked today: min(cash, daily max - used). */
  availableCents: Cents
})
export type WithdrawInfo = Static<typeof WithdrawInfo>

export const WithdrawListRequest = Obj(PageFields)
export type WithdrawListRequest = Static<typeof WithdrawListRequest>
export const WithdrawListResponse = PageResult(WithdrawalView)
export type WithdrawListResponse = Static<typeof WithdrawListResponse>

export const OperatorWithdrawListRequest = Obj({ ...PageFields, status: Type.Optional(WithdrawalStatus) })
export type OperatorWithdrawListRequest = Static<typeof OperatorWithdrawListRequest>
export const OperatorWithdrawListResponse = PageResult(OperatorWithdrawalView)
export type OperatorWithdrawListResponse = Static<typeof OperatorWithdrawListResponse>

export const WithdrawalIdRequest = Obj({ withdrawalId: Id })
export type WithdrawalIdRequest = Static<typeof WithdrawalIdRequest>
export const WithdrawRejectRequest = Obj({
  withdrawalId: Id,
  reason: Text({ minLength: 1, maxLength: WITHDRAW_LIMITS.reasonMax })
})
export type WithdrawRejectRequest = Static<typeof WithdrawRejectRequest>

/** 422 on withdrawRequest: which rule refused the amount (figures in cents). */
export const WithdrawRuleData = Type.Object({
  reason: StringEnum(['below_min', 'over_cash', 'daily_limit', 'no_refundable_order'] as const),
  minCents: Type.Optional(Cents),
  cashCents: Type.Optional(Cents),
  dailyMaxCents: Type.Optional(Cents),
  leftTodayCents: Type.Optional(Cents)
})
export type WithdrawRuleData = Static<typeof WithdrawRuleData>
/** 409 on approve / reject: the withdrawal was already decided. */
export const WithdrawalStatusData = Type.Object({ status: WithdrawalStatus })
export type WithdrawalStatusData = Static<typeof WithdrawalStatusData>

const tag = 'withdrawals'
export const withdrawRoutes = {
  withdrawInfo: route({ method: 'POST', url: '/api/withdrawInfo', auth: 'user', tag, body: Obj({}), data: WithdrawInfo, summary: 'The withdrawable cash and the withdrawal limits' }),
  withdrawRequest: route({
    method: 'POST', url: '/api/withdrawRequest', auth: 'user', tag, body: WithdrawRequest, data: WithdrawalView,
    summary: 'Ask to withdraw cash (held until an operator decides)',
    description: 'Cash only (credit is never withdrawable), at least the minimum, at most the cash and the daily maximum (China day, withdrawals not rejected): else 422 with WithdrawRuleData. A replay of the idempotency key answers the first result; the key with another body is a 409.'
  }),
  withdrawList: route({ method: 'POST', url: '/api/withdrawList', auth: 'user', tag, body: WithdrawListRequest, data: WithdrawListResponse, summary: 'The caller\'s withdrawals, newest first' }),
  operatorWithdrawList: route({
    method: 'POST', url: '/api/operator/withdrawList', auth: 'operator', tag, body: OperatorWithdrawListRequest, data: OperatorWithdrawListResponse,
    summary: 'The withdrawal queue (operators)', description: 'Requested ones first (oldest first), then the others newest first; status filters.'
  }),
  operatorWithdrawApprove: route({
    method: 'POST', url: '/api/operator/withdrawApprove', auth: 'operator', tag, body: WithdrawalIdRequest, data: OperatorWithdrawalView,
    summary: 'Approve a withdrawal: refund it through its top-up orders (operators)',
    description: 'Sandbox refunds settle at once; WeChat Pay refunds are sent and settle by their notification. Approving an approved withdrawal sends its unsent refunds again (and asks WeChat Pay about those under way); a rejected, paid or failed one is a 409 with WithdrawalStatusData.'
  }),
  operatorWithdrawReject: route({
    method: 'POST', url: '/api/operator/withdrawReject', auth: 'operator', tag, body: WithdrawRejectRequest, data: OperatorWithdrawalView,
    summary: 'Reject a withdrawal with a reason: the cash goes back (operators)', description: 'Only a requested withdrawal; else a 409 with WithdrawalStatusData.'
  })
}
