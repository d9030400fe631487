/** The complaint channel (types/complaints.ts): the shopper's form and list, the operators' queue. */
import type { ComplaintCreateRequest, ComplaintReplyRequest, OperatorComplaintListRequest, complaintRoutes } from '~types/complaints'
import { postRoute } from './request'

type R = typeof complaintRoutes

export const complaintApi = {
  create: (body: ComplaintCreateRequest) => postRoute<R['create']>('/api/complaintCreate', body),
  list: (page: number, size: number) => postRoute<R['list']>('/api/complaintList', { page, size }),
  operatorList: (q: OperatorComplaintListRequest) => postRoute<R['operatorList']>('/api/operator/complaints', q),
  reply: (body: ComplaintReplyRequest) => postRoute<R['reply']>('/api/operator/complaintReply', body)
}
