/**
 * The complaint channel and the spec's mail and chat-robot calls (types/complaints.ts): the shopper's
 * form and list, the operators' queue, reply and close; POST /common/mail/send, /api/feishuRobotText,
 * /api/wechatRobotText.
 */
import type {
  ComplaintCreateRequest, ComplaintReplyRequest, MailSendRequest, OperatorComplaintListRequest, complaintRoutes, notifyRoutes
} from '~types/complaints'
import { postRoute } from './request'

type C = typeof complaintRoutes
type N = typeof notifyRoutes

export const complaintApi = {
  create: (body: ComplaintCreateRequest) => postRoute<C['create']>('/api/complaintCreate', body),
  list: (page: number, size: number) => postRoute<C['list']>('/api/complaintList', { page, size }),
  queue: (q: OperatorComplaintListRequest) => postRoute<C['operatorList']>('/api/operator/complaintList', q),
  reply: (body: ComplaintReplyRequest) => postRoute<C['operatorReply']>('/api/operator/complaintReply', body),
  close: (complaintId: number) => postRoute<C['operatorClose']>('/api/operator/complaintClose', { complaintId })
}

export const notifyApi = {
  /** Operators: any address; shoppers: only the shop's complaint mailbox. */
  mailSend: (body: MailSendRequest) => postRoute<N['mailSend']>('/common/mail/send', body),
  /** Operators only; line breaks become spaces. */
  feishuRobotText: (text: string) => postRoute<N['feishuRobotText']>('/api/feishuRobotText', { text }),
  wechatRobotText: (text: string) => postRoute<N['wechatRobotText']>('/api/wechatRobotText', { text })
}
