/**
 * The spec's mail and chat-robot calls (types/complaints.ts notifyRoutes): POST /common/mail/send
 * through the SMTP adapter (not a relay: domain/mail.ts), /api/feishuRobotText and /api/wechatRobotText
 * through the robots' webhooks (providers/robots.ts; operators only).
 *
 * Order of checks: login / role (401, 403), the body's schema (400), then for mail the recipient (422),
 * mail configured (422), the placeholders and the filled lengths (400), the caller's hourly budget
 * (429), SMTP (HTTP 502 when it is down); for a robot: configured (422), the per-operator budget (429), the robot (a refusal is a
 * 422 naming the reason, an outage HTTP 502).
 */
import { notifyRoutes as r, type RobotTextResult } from '../../../types/complaints'
import type { Api, AppContext } from '../context'
import { ApiFailure } from '../core/errors'
import { configured, providerCall } from '../http/provider-call'
import { enforceLimits } from '../http/request'
import { defineRoute } from '../http/route'
import { translate, type Locale, type MessageKey } from '../i18n/messages'
import type { Robot } from '../providers/robots'
import { isDevOutbox } from '../providers/devOutbox'
import { checkRecipient, renderMail, shopperHeaderParams } from '../domain/community/mail'
import { RULES } from '../security/rules'

/** The robots' documented refusals, by provider and code, as a reason people can act on. */
const REASONS: Record<string, MessageKey> = {
  'feishu:19021': 'robot.reason.signature',
  'feishu:19022': 'robot.reason.ip',
  'feishu:19024': 'robot.reason.keyword',
  'feishu:19001': 'robot.reason.webhook',
  'feishu:11232': 'robot.reason.rateLimited',
  'wecom:93000': 'robot.reason.webhook',
  'wecom:45009': 'robot.reason.rateLimited',
  'wecom:45002': 'robot.reason.tooLong',
  'wecom:44004': 'robot.reason.empty'
}

async function post (robot: Robot, text: string, locale: Locale): Promise<RobotTextResult> {
  try {
    return { provider: robot.name, text: await providerCall(robot.name, () => robot.send(text)) }
  } catch (err) {
    const refused = err instanceof ApiFailure && err.key === 'provider.refused'
    if (!refused) throw err
    const { status } = err.data as { status: string }
    const known = REASONS[`${robot.name}:${status}`]
    throw new ApiFailure(422, 'robot.refused', {
      provider: `@provider.${robot.name}`,
      reason: known ? translate(locale, known) : String(err.params.message),
      status
    }, { provider: robot.name, status })
  }
}

export function notifyRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.mailSend, async ({ body, session, userId }) => {
    const user = session.user
    const sender = { id: userId, role: user.role, nickname: user.nickname }
    checkRecipient(sender, body, ctx.config.complaintMailboxes)
    const mailer = configured(ctx.mailer, 'mail')
    const to = user.role === 'operator' ? body.mail : body.mail.trim().toLowerCase()
    // a shopper's mail says in its first line which account sent it (in the shop's alert language)
    const header = user.role === 'operator' ? undefined : translate(ctx.config.alertLocale, 'mail.shopperHeader', shopperHeaderParams(sender))
    const message = renderMail({ ...body, mail: to }, header)
    await enforceLimits(ctx, [[user.role === 'operator' ? RULES.mailSendPerOperator : RULES.mailSendPerShopper, String(userId)]])
    await providerCall('mail', () => mailer.send(message))
    return { mail: message.to, title: message.subject, channel: isDevOutbox(mailer) ? 'dev_log' as const : 'mail' as const }
  })

  const robotRoute = (def: typeof r.feishuRobotText | typeof r.wechatRobotText, pick: () => Robot | null, name: 'feishu' | 'wecom') =>
    defineRoute(app, ctx, def, async ({ body, userId, request }) => {
      const robot = configured(pick(), name)
      await enforceLimits(ctx, [[RULES.robotPerOperator, String(userId)]])
      return post(robot, body.text, request.locale)
    })
  robotRoute(r.feishuRobotText, () => ctx.robots.feishu, 'feishu')
  robotRoute(r.wechatRobotText, () => ctx.robots.wecom, 'wecom')
}
