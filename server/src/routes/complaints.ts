/**
 * The complaint channel (types/complaints.ts complaintRoutes): the shopper's form and list, the
 * operators' queue, reply and close. Alerts go after the commit (domain/alerts.ts).
 */
import { complaintRoutes as r, type ComplaintReplyResult } from '../../../types/complaints'
import type { Api, AppContext } from '../context'
import { ApiFailure } from '../core/errors'
import { defineRoute } from '../http/route'
import { translate } from '../i18n/messages'
import { closeComplaint, complaintQueue, fileComplaint, ownComplaints, replyToComplaint } from '../domain/community/complaints'
import { sendTemplatedMail } from '../domain/community/mail'
import { RULES } from '../security/rules'

export function complaintRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.create, async ({ body, session, userId }) => {
    const rule = RULES.complaintPerUser
    const decision = await ctx.limiter.consumeAll([[rule, String(userId)]])
    if (!decision.allowed) {
      const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000))
      throw new ApiFailure(429, 'complaint.rateLimited', { max: rule.limit, minutes: Math.ceil(seconds / 60) }, { retryAfter: seconds })
    }
    let filed: Awaited<ReturnType<typeof fileComplaint>>
    try {
      filed = await fileComplaint(ctx, userId, body)
    } catch (err) {
      // nothing was filed (e.g. the key of another complaint): nothing is counted
      await ctx.limiter.refund(rule, String(userId))
      throw err
    }
    const { result, replayed } = filed
    if (replayed) {
      // the same complaint again (a retry after a lost answer): it costs nothing and alerts nobody
      await ctx.limiter.refund(rule, String(userId))
    } else {
      ctx.alerts.complaintFiled({ ...result, userId, nickname: session.user.nickname })
    }
    return result
  })

  defineRoute(app, ctx, r.list, async ({ body, userId }) => ownComplaints(ctx.db, userId, body.page, body.size))

  defineRoute(app, ctx, r.operatorList, async ({ body }) => complaintQueue(ctx.db, body))

  defineRoute(app, ctx, r.operatorReply, async ({ body, userId, request }): Promise<ComplaintReplyResult> => {
    const complaint = await replyToComplaint(ctx, userId, body.complaintId, body.reply, body.mailContact === true)
    if (body.mailContact !== true || !complaint.contact) return { complaint, mailed: 'not_asked' }
    // the reply is saved; the mail is extra: its failure is reported, not thrown
    if (!ctx.mailer) return { complaint, mailed: 'failed' }
    try {
      const sent = await sendTemplatedMail(ctx.mailer, {
        mail: complaint.contact,
        title: translate(request.locale, 'complaint.replyMailTitle'),
        content: translate(request.locale, 'complaint.replyMailText'),
        params: { id: complaint.id, date: complaint.createdAt.slice(0, 10), text: complaint.text, reply: complaint.reply ?? '' }
      })
      // development's log stand-in only prints it: say so rather than "sent" (issue 48)
      return { complaint, mailed: sent.channel === 'dev_log' ? 'dev_log' : 'sent' }
    } catch (err) {
      request.log.warn({ err, complaintId: complaint.id }, 'the reply to a complaint could not be mailed')
      return { complaint, mailed: 'failed' }
    }
  })

  defineRoute(app, ctx, r.operatorClose, async ({ body, userId }) => closeComplaint(ctx, userId, body.complaintId))
}
