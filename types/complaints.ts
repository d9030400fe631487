/**
 * The complaint channel (issue 10, PRODUCT.md "Protecting shoppers"): a contact form reaches the shop's
 * operators (stored, mailed to the complaint mailbox, posted to the operators' chat robots); operators
 * answer and close them in the editor; the shopper reads the answer. Plus the spec's own calls behind
 * it: POST /common/mail/send {title, content, mail, params} and the robots' /api/feishuRobotText and
 * /api/wechatRobotText {text}.
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { COMPLAINT_LIMITS, LOGIN_LIMITS, OPERATOR_LIMITS, PAGE_MAX, PAGE_SIZE_MAX } from './limits'
import { MultilineText, Nullable, Obj, PageResult, StringEnum, Text, Timestamp, Id } from './schema'

export const ComplaintTopic = StringEnum(['order', 'prize', 'shipping', 'payment', 'account', 'other'] as const)
export type ComplaintTopic = Static<typeof ComplaintTopic>
export const ComplaintStatus = StringEnum(['open', 'answered', 'closed'] as const)
export type ComplaintStatus = Static<typeof ComplaintStatus>

const Email = Type.String({ format: 'email', maxLength: LOGIN_LIMITS.emailMax })

export const ComplaintCreateRequest = Obj({
  topic: ComplaintTopic,
  text: MultilineText({ minLength: COMPLAINT_LIMITS.textMin, maxLength: COMPLAINT_LIMITS.textMax }),
  /** Where an answer may also be mailed (optional). */
  contact: Type.Optional(Email),
  /** The order, purchase or parcel it is about (optional). */
  reference: Type.Optional(Text({ maxLength: COMPLAINT_LIMITS.referenceMax }))
})
export type ComplaintCreateRequest = Static<typeof ComplaintCreateRequest>

export const ComplaintView = Type.Object({
  id: Type.Integer(),
  topic: ComplaintTopic,
  text: Type.String(),
  contact: Nullable(Type.String()),
  reference: Nullable(Type.String()),
  status: ComplaintStatus,
  reply: Nullable(Type.String()),
  createdAt: Timestamp,
  repliedAt: Nullable(Timestamp)
})
export type ComplaintView = Static<typeof ComplaintView>

export const ComplaintListRequest = Obj({
  page: Type.Integer({ minimum: 1, maximum: PAGE_MAX }),
  size: Type.Integer({ minimum: 1, maximum: PAGE_SIZE_MAX })
})
export type ComplaintListRequest = Static<typeof ComplaintListRequest>

export const OperatorComplaintListRequest = Obj({
  page: Type.Integer({ minimum: 1, maximum: PAGE_MAX }),
  size: Type.Integer({ minimum: 1, maximum: OPERATOR_LIMITS.pageSizeMax }),
  status: Type.Optional(ComplaintStatus)
})
export type OperatorComplaintListRequest = Static<typeof OperatorComplaintListRequest>

export const OperatorComplaintView = Type.Object({
  ...ComplaintView.properties,
  user: Type.Object({ id: Type.Integer(), name: Type.String() })
})
export type OperatorComplaintView = Static<typeof OperatorComplaintView>

export const OperatorComplaintListResponse = Type.Object({
  ...PageResult(OperatorComplaintView).properties,
  counts: Type.Object({ open: Type.Integer(), answered: Type.Integer(), closed: Type.Integer() })
})
export type OperatorComplaintListResponse = Static<typeof OperatorComplaintListResponse>

export const ComplaintReplyRequest = Obj({
  id: Id,
  /** The answer the shopper reads (absent: only closed). */
  reply: Type.Optional(MultilineText({ minLength: 1, maxLength: COMPLAINT_LIMITS.replyMax })),
  close: Type.Boolean()
})
export type ComplaintReplyRequest = Static<typeof ComplaintReplyRequest>

// ---- the spec's helper calls -----------------------------------------------------------------------------

export const MailSendRequest = Obj({
  title: Text({ minLength: 1, maxLength: COMPLAINT_LIMITS.mailTitleMax }),
  content: MultilineText({ minLength: 1, maxLength: COMPLAINT_LIMITS.mailContentMax }),
  /** The recipient: any address for an operator; the shop's complaint mailbox for everyone else. */
  mail: Email,
  /** Fills {name} placeholders of title and content. */
  params: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Za-z0-9_]{1,32}$' }), Type.Union([Text({ maxLength: 500 }), Type.Number()]), { maxProperties: 20, additionalProperties: false }))
})
export type MailSendRequest = Static<typeof MailSendRequest>

export const RobotTextRequest = Obj({ text: MultilineText({ minLength: 1, maxLength: COMPLAINT_LIMITS.robotTextMax }) })
export type RobotTextRequest = Static<typeof RobotTextRequest>

export const SentData = Type.Object({ sent: Type.Literal(true) })

export const complaintRoutes = {
  create: route({
    method: 'POST', url: '/api/complaintCreate', auth: 'user', tag: 'complaints', body: ComplaintCreateRequest, data: ComplaintView,
    summary: 'File a complaint: stored, mailed to the shop and posted to the operators\' robots',
    description: 'At most 3 an hour per account (429). The mail and robots are sent after it is stored; their failure does not lose it.'
  }),
  list: route({
    method: 'POST', url: '/api/complaintList', auth: 'user', tag: 'complaints', body: ComplaintListRequest, data: PageResult(ComplaintView),
    summary: 'The caller\'s own complaints and their answers, newest first'
  }),
  operatorList: route({
    method: 'POST', url: '/api/operator/complaints', auth: 'operator', tag: 'operator', body: OperatorComplaintListRequest, data: OperatorComplaintListResponse,
    summary: 'Every complaint by status, oldest open first'
  }),
  reply: route({
    method: 'POST', url: '/api/operator/complaintReply', auth: 'operator', tag: 'operator', body: ComplaintReplyRequest, data: OperatorComplaintView,
    summary: 'Answer a complaint and/or close it (audited; the answer is mailed to its contact address when one was given)'
  }),
  mailSend: route({
    method: 'POST', url: '/common/mail/send', auth: 'user', tag: 'helpers', body: MailSendRequest, data: SentData,
    summary: 'Send a mail through the shop\'s SMTP (spec 7)',
    description: 'Not a relay: a shopper may only write to the shop\'s complaint mailbox (403 otherwise), 5 an hour; an operator to any address, 60 an hour. 422 when mail is not configured.'
  }),
  feishu: route({
    method: 'POST', url: '/api/feishuRobotText', auth: 'operator', tag: 'helpers', body: RobotTextRequest, data: SentData,
    summary: 'Post a text to the operators\' Feishu group (signed custom bot webhook; line breaks become spaces)'
  }),
  wecom: route({
    method: 'POST', url: '/api/wechatRobotText', auth: 'operator', tag: 'helpers', body: RobotTextRequest, data: SentData,
    summary: 'Post a text to the operators\' WeCom group (group robot webhook; line breaks become spaces)'
  })
}
