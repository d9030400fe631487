/**
 * The complaint channel (issue 10; PRODUCT.md "Protecting shoppers"): a logged-in shopper writes to the
 * shop from the profile page (a topic, a message, optionally a contact address and a related order
 * number); the complaint is stored, mailed to the shop's complaint mailbox and announced on the
 * operators' chat robots; operators reply and close it in the editor; the shopper reads the reply.
 *   open -> answered (a reply; replying again replaces it) -> closed       open -> closed
 *
 * Behind it, the spec's own helper calls (spec 7):
 *  - POST /common/mail/send {title, content, mail, params}: a mail through the shop's SMTP. Not a relay:
 *    an operator may write to any address; a shopper only to the shop's complaint mailbox(es)
 *    (COMPLAINT_MAILBOX), else 422 on `mail`. `params` fills the {name} placeholders of title and content.
 *  - POST /api/feishuRobotText and /api/wechatRobotText {text}: a text to the operators' Feishu group
 *    (custom bot webhook, signed) or WeCom group (group robot webhook); line breaks become spaces
 *    (spec 5). Operators only: the groups are the shop's own.
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { COMPLAINT_LIMITS, COMPLAINT_TOPICS, MAIL_SEND_LIMITS, PAGE_MAX, ROBOT_TEXT_MAX } from './limits'
import { Email } from './accounts'
import { Id, MultilineText, Nullable, Obj, PageResult, StringEnum, Text, Timestamp } from './schema'
import { IdempotencyKey } from './shop'
import { MyOrderRef } from './orderHistory'

export const ComplaintTopic = StringEnum(COMPLAINT_TOPICS)
export type ComplaintTopic = Static<typeof ComplaintTopic>
export const ComplaintStatus = StringEnum(['open', 'answered', 'closed'] as const)
export type ComplaintStatus = Static<typeof ComplaintStatus>

const PageFields = {
  page: Type.Integer({ minimum: 1, maximum: PAGE_MAX }),
  size: Type.Integer({ minimum: 1, maximum: COMPLAINT_LIMITS.pageSizeMax })
}

export const ComplaintCreateRequest = Obj({
  topic: ComplaintTopic,
  text: MultilineText({ minLength: COMPLAINT_LIMITS.textMin, maxLength: COMPLAINT_LIMITS.textMax, description: 'What happened (line breaks allowed)' }),
  /** Where the shop may also answer by mail (optional). */
  contact: Type.Optional(Email),
  /** The order, parcel or tracking number it is about (optional). */
  orderNo: Type.Optional(Type.String({ pattern: COMPLAINT_LIMITS.orderNoPattern, description: '4-40 letters, digits or -' })),
  /**
   * One of the caller's own orders, picked from "My orders" (types/orderHistory.ts): stored as its number
   * (404 on `related` when it is not the caller's). It takes the place of `orderNo`.
   */
  related: Type.Optional(MyOrderRef),
  /** A retry with the same key and body answers the first complaint (nothing is filed twice). */
  idempotencyKey: IdempotencyKey
})
export type ComplaintCreateRequest = Static<typeof ComplaintCreateRequest>

export const ComplaintView = Type.Object({
  id: Type.Integer(),
  topic: ComplaintTopic,
  text: Type.String(),
  contact: Nullable(Type.String()),
  orderNo: Nullable(Type.String()),
  status: ComplaintStatus,
  /** The operator's answer, once there is one. */
  reply: Nullable(Type.String()),
  createdAt: Timestamp,
  repliedAt: Nullable(Timestamp),
  closedAt: Nullable(Timestamp)
})
export type ComplaintView = Static<typeof ComplaintView>

export const OperatorComplaintView = Type.Object({
  ...ComplaintView.properties,
  userId: Type.Integer(),
  /** The shopper as operators recognise them: nickname and user name (or phone / e-mail). */
  userLabel: Type.String()
})
export type OperatorComplaintView = Static<typeof OperatorComplaintView>

export const ComplaintListRequest = Obj(PageFields)
export type ComplaintListRequest = Static<typeof ComplaintListRequest>
export const ComplaintListResponse = PageResult(ComplaintView)
export type ComplaintListResponse = Static<typeof ComplaintListResponse>

export const OperatorComplaintListRequest = Obj({ ...PageFields, status: Type.Optional(ComplaintStatus) })
export type OperatorComplaintListRequest = Static<typeof OperatorComplaintListRequest>
export const ComplaintCounts = Type.Object({ open: Type.Integer(), answered: Type.Integer(), closed: Type.Integer() })
export type ComplaintCounts = Static<typeof ComplaintCounts>
export const OperatorComplaintListResponse = Type.Object({
  list: Type.Array(OperatorComplaintView),
  total: Type.Integer({ minimum: 0 }),
  /** Complaints per status (whatever the filter). */
  counts: ComplaintCounts
})
export type OperatorComplaintListResponse = Static<typeof OperatorComplaintListResponse>

export const ComplaintReplyRequest = Obj({
  complaintId: Id,
  reply: MultilineText({ minLength: 1, maxLength: COMPLAINT_LIMITS.replyMax }),
  /** Also mail the reply to the complaint's contact address (422 when it has none). */
  mailContact: Type.Optional(Type.Boolean())
})
export type ComplaintReplyRequest = Static<typeof ComplaintReplyRequest>
export const ComplaintIdRequest = Obj({ complaintId: Id })
export type ComplaintIdRequest = Static<typeof ComplaintIdRequest>

/**
 * `mailed`: the reply was mailed to the contact address (sent), could not be (failed), was only printed in
 * the server's log because the mailer is development's stand-in (dev_log, nobody received it), or was not asked.
 */
export const ComplaintReplyResult = Type.Object({
  complaint: OperatorComplaintView,
  mailed: StringEnum(['sent', 'failed', 'dev_log', 'not_asked'] as const)
})
export type ComplaintReplyResult = Static<typeof ComplaintReplyResult>

/** 409 on reply / close: the complaint is closed already. */
export const ComplaintStatusData = Type.Object({ status: ComplaintStatus })
export type ComplaintStatusData = Static<typeof ComplaintStatusData>

// ---- the spec's helper calls (spec 7) --------------------------------------------------------------------

export const MailParams = Type.Record(
  Type.String({ pattern: MAIL_SEND_LIMITS.paramNamePattern }),
  Type.Union([Text({ maxLength: MAIL_SEND_LIMITS.paramValueMax }), Type.Number()]),
  { maxProperties: MAIL_SEND_LIMITS.paramsMax, additionalProperties: false, description: 'Values of the {name} placeholders in title and content' }
)
export const MailSendRequest = Obj({
  title: Text({ minLength: 1, maxLength: MAIL_SEND_LIMITS.titleMax, description: 'The subject; may hold {name} placeholders' }),
  content: MultilineText({ minLength: 1, maxLength: MAIL_SEND_LIMITS.contentMax, description: 'The plain-text body; may hold {name} placeholders' }),
  /** The recipient: any address for an operator; one of the shop's complaint mailboxes for a shopper. */
  mail: Email,
  params: Type.Optional(MailParams)
})
export type MailSendRequest = Static<typeof MailSendRequest>
export const MailSendResult = Type.Object({
  /** The address it went to. */
  mail: Type.String(),
  /** The subject as sent (placeholders filled). */
  title: Type.String(),
  /** How it went: by mail, or only printed in the server's log (development's stand-in; nobody received it). */
  channel: StringEnum(['mail', 'dev_log'] as const)
})
export type MailSendResult = Static<typeof MailSendResult>

export const RobotTextRequest = Obj({ text: MultilineText({ minLength: 1, maxLength: ROBOT_TEXT_MAX, description: 'Line breaks become spaces' }) })
export type RobotTextRequest = Static<typeof RobotTextRequest>
export const RobotTextResult = Type.Object({
  provider: StringEnum(['feishu', 'wecom'] as const),
  /** The text as the robot posted it (line breaks turned into spaces). */
  text: Type.String()
})
export type RobotTextResult = Static<typeof RobotTextResult>

/** 422 when a robot refused the message: the provider, its error code and its message. */
export const RobotRefusedData = Type.Object({ provider: Type.String(), status: Type.String() })

const tag = 'complaints'
export const complaintRoutes = {
  create: route({
    method: 'POST', url: '/api/complaintCreate', auth: 'user', tag, body: ComplaintCreateRequest, data: ComplaintView,
    summary: 'Write to the shop: stored, mailed to the complaint mailbox and announced on the operators\' robots',
    description: `At most ${COMPLAINT_LIMITS.perHour} an hour per account (429 saying when to try again). The mail and the robots go after the complaint is stored; a mailbox or robot that is down never fails it.`
  }),
  list: route({
    method: 'POST', url: '/api/complaintList', auth: 'user', tag, body: ComplaintListRequest, data: ComplaintListResponse,
    summary: 'The caller\'s own complaints, newest first, with their status and the shop\'s reply'
  }),
  operatorList: route({
    method: 'POST', url: '/api/operator/complaintList', auth: 'operator', tag, body: OperatorComplaintListRequest, data: OperatorComplaintListResponse,
    summary: 'Complaints by status, newest first, with the count of each status (operators)'
  }),
  operatorReply: route({
    method: 'POST', url: '/api/operator/complaintReply', auth: 'operator', tag, body: ComplaintReplyRequest, data: ComplaintReplyResult,
    summary: 'Answer a complaint (operators; audited)',
    description: 'An open or answered complaint becomes answered with this reply (a new reply replaces the old one); a closed one is a 409 with ComplaintStatusData. With mailContact the reply is also mailed to the contact address after it is saved (`mailed` says how that went).'
  }),
  operatorClose: route({
    method: 'POST', url: '/api/operator/complaintClose', auth: 'operator', tag, body: ComplaintIdRequest, data: OperatorComplaintView,
    summary: 'Close a complaint (operators; audited)', description: 'A closed complaint is a 409 with ComplaintStatusData.'
  })
}

export const notifyRoutes = {
  mailSend: route({
    method: 'POST', url: '/common/mail/send', auth: 'user', tag: 'notify', body: MailSendRequest, data: MailSendResult,
    summary: 'Send a plain-text mail through the shop\'s SMTP (spec 7)',
    description: `Not a relay: an operator may write to any address (${MAIL_SEND_LIMITS.operatorPerHour} an hour); a shopper only to the shop's complaint mailbox(es), COMPLAINT_MAILBOX (${MAIL_SEND_LIMITS.shopperPerHour} an hour; any other address is a 422 on mail), and the mail says which account sent it. {name} placeholders of title and content are filled from params; one without a value is a 400 on params. 422 when mail is not configured; an SMTP outage is HTTP 502.`
  }),
  feishuRobotText: route({
    method: 'POST', url: '/api/feishuRobotText', auth: 'operator', tag: 'notify', body: RobotTextRequest, data: RobotTextResult,
    summary: 'Post a text to the operators\' Feishu group (signed custom bot webhook; operators)',
    description: 'Line breaks become spaces. 422 when FEISHU_WEBHOOK_URL is not set; Feishu\'s refusals (code not 0: signature, keyword, rate limit ...) are a 422 naming the reason, with RobotRefusedData; an outage is HTTP 502.'
  }),
  wechatRobotText: route({
    method: 'POST', url: '/api/wechatRobotText', auth: 'operator', tag: 'notify', body: RobotTextRequest, data: RobotTextResult,
    summary: 'Post a text to the operators\' WeCom group (group robot webhook; operators)',
    description: 'Line breaks become spaces. 422 when WECOM_WEBHOOK_URL is not set; WeCom\'s refusals (errcode not 0: bad key, rate limit ...) are a 422 naming the reason, with RobotRefusedData; an outage is HTTP 502.'
  })
}
