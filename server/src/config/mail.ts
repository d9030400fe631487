/** Mail (SMTP) and SMS: how one-time codes, complaint mails and event reminders leave the shop. */
import { isUrl, variable, type Problems, type Reader } from './env'

export const mailVariables = {
  SMTP_URL: variable.url('A nodemailer SMTP URL (smtp:// or smtps://); unset: mail codes are only logged in development, mail is off in production'),
  MAIL_FROM: variable.text('The sender of the shop\'s mail', { default: 'Pickbox <no-reply@localhost>' }),
  SMS_PROVIDER_URL: variable.url('An HTTP SMS adapter: POST {"phone","text"}; unset: SMS codes are only logged in development, SMS is off in production'),
  SMS_API_KEY: variable.text('The bearer key sent to SMS_PROVIDER_URL')
}

export interface MailConfig {
  /** nodemailer transport URL; unset: mail codes are only logged (development) or mail is off (production). */
  smtpUrl?: string
  mailFrom: string
  sms: { providerUrl?: string; apiKey?: string }
}

/** SMTP_URL, MAIL_FROM, SMS_PROVIDER_URL and SMS_API_KEY. */
export function parseMail (env: Reader<keyof typeof mailVariables>, problems: Problems): MailConfig {
  const smtpUrl = env.get('SMTP_URL')
  if (smtpUrl && !isUrl(smtpUrl, ['smtp:', 'smtps:'])) {
    problems.push('SMTP_URL must be an smtp:// or smtps:// URL (e.g. smtps://user:pass@smtp.example.com:465)')
  }
  const mailFrom = env.value('MAIL_FROM')

  const smsUrl = env.get('SMS_PROVIDER_URL')
  if (smsUrl && !isUrl(smsUrl, ['http:', 'https:'])) {
    problems.push('SMS_PROVIDER_URL must be an http:// or https:// URL')
  }
  const smsKey = env.get('SMS_API_KEY')
  if (smsKey && !smsUrl) problems.push('SMS_API_KEY is set but SMS_PROVIDER_URL is not')
  return { smtpUrl, mailFrom, sms: { providerUrl: smsUrl, apiKey: smsKey } }
}
