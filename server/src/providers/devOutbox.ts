/**
 * Development's stand-ins for SMS and mail (LogSmsSender, LogMailer): what they "send" is only printed
 * in the server's log. Such a provider is not a way to reach a shopper: the operators' services panel
 * says "development only: printed in the log", and nothing promises a shopper a message by it (issue 48).
 */
import { LogMailer, type Mailer } from './mail'
import { LogSmsSender, type SmsSender } from './sms'

export function isDevOutbox (provider: Mailer | SmsSender | null | undefined): boolean {
  return provider instanceof LogMailer || provider instanceof LogSmsSender
}

/** A mailer that reaches people (null: none, or only the development log). */
export const deliveringMailer = (mailer: Mailer | null): Mailer | null => (isDevOutbox(mailer) ? null : mailer)
