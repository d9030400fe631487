/**
 * The complaint channel and the spec's mail and robot calls (types/complaints.ts). A complaint is
 * stored first; then (never awaited by the shopper) the operators' robots are told and the shop's
 * complaint mailbox gets the whole text. /common/mail/send is not a relay: a shopper may only write to
 * the complaint mailbox.
 */
import { complaintRoutes as r, type ComplaintTopic } from '../../../types/complaints'
import type { Api, AppContext } from '../context'
import { fail, type ProviderName } from '../http/envelope'
import { enforceLimits } from '../http/request'
import { configured, providerCall } from '../http/provider-call'
import { defineRoute } from '../http/route'
import { translate } from '../i18n/messages'
import { RULES } from '../security/rules'
import { complaintAlert } from '../services/alerts'
import { createComplaint, listComplaints, listOwnComplaints, replyComplaint } from '../domain/complaints'

const TOPIC_KEY = (topic: ComplaintTopic) => `complaints.topic.${topic}` as const

/** {name} placeholders of a mail filled from params (an unknown name stays as it is). */
export function fillParams (text: string, params: Record<string, string | number> = {}): string {
  return text.replace(/\{([A-Za-z0-9_]{1,32})\}/g, (whole, name: string) => Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole)
}

export function complaintRoutesOf (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.create, async ({ body, userId }) => {
    await enforceLimits(ctx, [[RULES.complaintPerUser, String(userId)]])
    const c = await createComplaint(ctx.db, ctx.clock, userId, body)
    const topicZh = translate('zh', TOPIC_KEY(c.topic))
    const topicEn = translate('en', TOPIC_KEY(c.topic))
    ctx.alerts.notify(complaintAlert(c.id, topicZh, topicEn, userId), {
      subject: `[Pickbox] 投诉 Complaint #${c.id}: ${topicZh} / ${topicEn}`,
      text: [
        `#${c.id} · ${topicZh} / ${topicEn} · user #${userId} · ${c.createdAt}`,
        c.reference ? `Reference: ${c.reference}` : '',
        c.contact ? `Contact: ${c.contact}` : '',
        '',
        c.text
      ].filter((l, i) => l || i === 3).join('\n')
    })
    return c
  })
  defineRoute(app, ctx, r.list, async ({ body, userId }) => listOwnComplaints(ctx.db, userId, body.page, body.size))
  defineRoute(app, ctx, r.operatorList, async ({ body }) => listComplaints(ctx.db, body))
  defineRoute(app, ctx, r.reply, async ({ body, userId, request }) => {
    const { complaint, answered } = await replyComplaint(ctx.db, ctx.dialect, ctx.clock, userId, body)
    // the answer also goes to the address the shopper left, in the language of the operator's request
    if (answered && complaint.contact && complaint.reply && ctx.mailer) {
      const mailer = ctx.mailer
      const to = complaint.contact
      const subject = translate(request.locale, 'complaints.replyMailSubject', { id: complaint.id })
      mailer.send({ to, subject, text: `${complaint.reply}\n\n> ${complaint.text.split('\n').join('\n> ')}` })
        .catch(err => request.log.warn({ err }, 'complaint answer: the mail was not sent'))
    }
    return complaint
  })

  defineRoute(app, ctx, r.mailSend, async ({ body, session, userId }) => {
    const operator = session.user.role === 'operator'
    await enforceLimits(ctx, [[operator ? RULES.mailSendPerOperator : RULES.mailSendPerUser, String(userId)]])
    const to = body.mail.trim().toLowerCase()
    if (!operator && !ctx.config.complaintMailboxes.includes(to)) throw fail.forbidden('mail.recipientNotAllowed')
    const mailer = configured(ctx.mailer, 'mail')
    const subject = fillParams(body.title, body.params).replace(/[\r\n]+/g, ' ')
    await providerCall('mail', () => mailer.send({ to, subject, text: fillParams(body.content, body.params) }))
    return { sent: true as const }
  })

  const robotRoute = (def: typeof r.feishu | typeof r.wecom, name: 'feishu' | 'wecom') =>
    defineRoute(app, ctx, def, async ({ body, userId }) => {
      await enforceLimits(ctx, [[RULES.robotPerOperator, String(userId)]])
      const robot = ctx.alerts.robots.find(x => x.name === name)
      if (!robot) throw fail.providerNotConfigured(name as ProviderName)
      await providerCall(name as ProviderName, () => robot.send(body.text))
      return { sent: true as const }
    })
  robotRoute(r.feishu, 'feishu')
  robotRoute(r.wecom, 'wecom')
}
