/**
 * Outgoing mail: SMTP through nodemailer, or (development only) a mailer that just logs. nodemailer is
 * loaded with the first message, not at start (a server without mail never loads it).
 */
import type { Transporter, TransportOptions } from 'nodemailer'
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
  private transport: Promise<Transporter> | null = null
  private closed = false

  constructor (private readonly url: string, private readonly from: string) {}

  private open (): Promise<Transporter> {
    this.transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(this.url, {
      connectionTimeout: PROVIDER_TIMEOUT_MS,
      greetingTimeout: PROVIDER_TIMEOUT_MS,
      socketTimeout: PROVIDER_TIMEOUT_MS
    } as TransportOptions))
    return this.transport
  }

  async send (message: MailMessage): Promise<void> {
    try {
      if (this.closed) throw new Error('the mailer is closed')
      await (await this.open()).sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text })
    } catch (err) {
      throw new ProviderUnavailableError('mail', (err as Error).message, { cause: err })
    }
  }

  close (): void {
    this.closed = true
    void this.transport?.then(t => t.close(), () => undefined)
  }
}

/** Development without SMTP: the mail (and so the code) goes to the log. Never used in production. */
export class LogMailer implements Mailer {
  constructor (private readonly log: FastifyBaseLogger) {}

  async send (message: MailMessage): Promise<void> {
    this.log.info({ mail: message }, 'mail not sent (no SMTP_URL): logged instead')
  }
}
