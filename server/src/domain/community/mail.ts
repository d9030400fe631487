/**
 * Mail the shop sends on purpose (spec 7: POST /common/mail/send {title, content, mail, params}), and
 * the rule that keeps it from being a relay:
 *
 *   operators  may write to any address (they answer shoppers, write to suppliers ...)
 *   shoppers   only to the shop's complaint mailbox(es) (COMPLAINT_MAILBOX): the spec's call becomes a
 *              way to write to the shop, never to a third party; the mail names the account that sent
 *              it in its first line, so it cannot pass for the shop's own
 *   the server itself  the complaint alerts and the operators' mailed replies go through the same
 *              sendTemplatedMail (the same placeholders and limits), without a rate limit of their own
 *
 * Each caller has an hourly budget (security/rules.ts). `{name}` placeholders of title and content are
 * filled from params in one pass (a value is never scanned again, so a value holding "{x}" stays as it
 * is); a placeholder without a value is a 400 naming params.<name>.
 */
import { MAIL_SEND_LIMITS } from '../../../../types/limits'
import type { MailSendRequest, MailSendResult } from '../../../../types/complaints'
import { ApiFailure, fail } from '../../core/errors'
import type { Mailer } from '../../providers/mail'
import { isDevOutbox } from '../../providers/devOutbox'
import { observedCall } from '../../providers/calls'
import { maskName } from '../prizes/prizes'

const PLACEHOLDER = /\{([A-Za-z0-9_]{1,32})\}/g

/** The template with each {name} replaced by params[name]; a placeholder without a value is a 400. */
export function fillPlaceholders (template: string, params: Record<string, string | number>, field: 'title' | 'content'): string {
  return template.replace(PLACEHOLDER, (_whole, name: string) => {
    if (!Object.prototype.hasOwnProperty.call(params, name)) {
      throw new ApiFailure(400, 'mail.missingParam', { field, placeholder: `{${name}}` }, { field: `params.${name}`, rule: 'placeholder' })
    }
    return String(params[name])
  })
}

export interface TemplatedMail {
  title: string
  content: string
  mail: string
  params?: Record<string, string | number>
}

/** The mail as it will be sent: placeholders filled, lengths checked again (400 naming title or content). */
export function renderMail (m: TemplatedMail, header?: string): { to: string; subject: string; text: string } {
  const params = m.params ?? {}
  const subject = fillPlaceholders(m.title, params, 'title')
  const body = fillPlaceholders(m.content, params, 'content')
  if (subject.length > MAIL_SEND_LIMITS.titleMax) throw fail.field('title', 'mail.tooLong', { limit: MAIL_SEND_LIMITS.titleMax })
  if (body.length > MAIL_SEND_LIMITS.contentMax) throw fail.field('content', 'mail.tooLong', { limit: MAIL_SEND_LIMITS.contentMax })
  return { to: m.mail, subject, text: header ? `${header}\n\n${body}` : body }
}

/** Renders and sends. Answers what went where. */
export async function sendTemplatedMail (mailer: Mailer, m: TemplatedMail, header?: string): Promise<MailSendResult> {
  const message = renderMail(m, header)
  await observedCall('mail', () => mailer.send(message))
  return { mail: message.to, title: message.subject, channel: isDevOutbox(mailer) ? 'dev_log' : 'mail' }
}

export interface MailSender { id: number; role: 'shopper' | 'operator'; nickname: string }

/**
 * Who may write to whom (see above): 422 on `mail` when a shopper names any other address than the
 * shop's mailboxes (a 403 would log the shopper out: spec 8).
 */
export function checkRecipient (sender: MailSender, request: MailSendRequest, mailboxes: string[]): void {
  if (sender.role === 'operator') return
  if (!mailboxes.length) throw fail.unprocessable('mail.noMailbox', {}, { field: 'mail', reason: 'no_mailbox' })
  if (!mailboxes.includes(request.mail.trim().toLowerCase())) {
    throw fail.unprocessable('mail.recipientNotAllowed', { mailboxes: mailboxes.join(', ') }, { field: 'mail', reason: 'recipient' })
  }
}

/** The first line of a shopper's mail: which account sent it (masked nickname). */
export const shopperHeaderParams = (sender: MailSender) => ({ userId: sender.id, name: maskName(sender.nickname) })
