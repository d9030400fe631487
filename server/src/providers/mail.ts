/** Outgoing mail: SMTP through nodemailer, or (development only) a mailer that just logs. */
import nodemailer, { type Transporter } from 'nodemailer'
import type { FastifyBaseLogger } from 'fastify'
import { ProviderUnavailableError, PROVIDER_TIMEOUT_MS } from './errors'

export interface MailMessage {
  to: string
  subject: string
  text: string
}

export interface Mailer {
  send (message: MailMessage): Promise<void>
  close? (): void
}

export class SmtpMailer implements Mailer {
  private readonly transport: Transporter

  constructor (url: string, private readonly from: string) {
    this.transport = nodemailer.createTransport(url, {
      connectionTimeout: PROVIDER_TIMEOUT_MS,
      greetingTimeout: PROVIDER_TIMEOUT_MS,
      socketTimeout: PROVIDER_TIMEOUT_MS
    } as nodemailer.TransportOptions)
  }

  async send (message: MailMessage): Promise<void> {
    try {
      await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text })
    } catch (err) {
      throw new ProviderUnavailableError('mail', (err as Error).message, { cause: err })
    }
  }

  close (): void {
    this.transport.close()
  }
}

/** Development without SMTP: the mail (and so the code) goes to the log. Never used in production. */
export class LogMailer implements Mailer {
  constructor (private readonly log: FastifyBaseLogger) {}

  async send (message: MailMessage): Promise<void> {
    this.log.info({ mail: message }, 'mail not sent (no SMTP_URL): logged instead')
  }
}
