/** Withdrawals (types/withdraw.ts): the shopper's form and list, the operators' queue and decisions. */
import type { OperatorWithdrawListRequest, WithdrawRequest, withdrawRoutes } from '~types/withdraw'
import { postRoute } from './request'

type W = typeof withdrawRoutes

export const withdrawApi = {
  info: () => postRoute<W['withdrawInfo']>('/api/withdrawInfo', {}),
  request: (body: WithdrawRequest) => postRoute<W['withdrawRequest']>('/api/withdrawRequest', body),
  list: (page: number, size: number) => postRoute<W['withdrawList']>('/api/withdrawList', { page, size }),
  queue: (q: OperatorWithdrawListRequest) => postRoute<W['operatorWithdrawList']>('/api/operator/withdrawList', q),
  approve: (withdrawalId: number) => postRoute<W['operatorWithdrawApprove']>('/api/operator/withdrawApprove', { withdrawalId }),
  reject: (withdrawalId: number, reason: string) => postRoute<W['operatorWithdrawReject']>('/api/operator/withdrawReject', { withdrawalId, reason })
}
