/**
 * Operator alerts (PRODUCT.md "Protecting shoppers", "The helper calls"): a new complaint, a new
 * shipment request and a new withdrawal request are posted to every configured chat robot (Feishu,
 * WeCom); a complaint is also mailed to the complaint mailbox(es), through the same code as
 * /common/mail/send (domain/mail.ts).
 *
 *  - After the commit, never in the way: the routes call these once the shopper's change is stored (a
 *    replayed request alerts nothing), and each call returns at once; the sending runs on its own and a
 *    robot or mailbox that is down is logged (warn), never answered to the shopper.
 *  - No full personal data: a shopper is "user #id" with a masked nickname, a recipient a masked name
 *    and phone, an address only its region; a complaint's excerpt has e-mail addresses and long digit
 *    runs masked. Operators read the whole thing in the editor.
 *  - In ALERT_LANG (zh by default), the operators' language.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { Shipment } from '../../../types/afterDraw'
import type { WithdrawalView } from '../../../types/withdraw'
import { ROBOT_TEXT_MAX } from '../../../types/limits'
import { translate, type Locale, type MessageKey, type MessageParams } from '../i18n/messages'
import type { Mailer } from '../providers/mail'
import type { Robot } from '../providers/robots'
import { maskEmail, maskPhone } from '../services/users'
import { sendTemplatedMail } from './mail'
import { maskName } from './prizes'
import { yuan } from './purchase'

/** Characters of a complaint's text an alert shows. */
export const ALERT_EXCERPT_MAX = 60

/** Long digit runs (phones, ID and card numbers) keep their first 3 and last 2 digits; e-mail addresses are masked. */
export function maskFreeText (text: string): string {
  return text
    .replace(/[^\s@]{1,64}@[^\s@]{1,190}\.[A-Za-z]{2,24}/g, m => maskEmail(m))
    .replace(/\d{6,}[Xx]?/g, d => `${d.slice(0, 3)}****${d.slice(-2)}`)
}

/** One line, at most `max` characters (by code point), with … when cut. */
export function excerpt (text: string, max = ALERT_EXCERPT_MAX): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim())
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : chars.join('')
}

export interface ComplaintAlert {
  id: number
  userId: number
  nickname: string
  topic: string
  text: string
  contact: string | null
  orderNo: string | null
}

export class Alerts {
  private readonly pending = new Set<Promise<void>>()

  constructor (
    readonly robots: Robot[],
    private readonly mailer: Mailer | null,
    readonly mailboxes: string[],
    private readonly locale: Locale,
    private readonly log: FastifyBaseLogger
  ) {}

  private t (key: MessageKey, params: MessageParams = {}): string {
    return translate(this.locale, key, params)
  }

  /** Runs a job on its own: never awaited by the caller, failures logged. */
  private spawn (what: string, job: () => Promise<unknown>): void {
    const run = Promise.resolve().then(job).then(() => undefined, (err: unknown) => {
      this.log.warn({ err, alert: what }, 'operator alert not delivered')
    })
    this.pending.add(run)
    void run.finally(() => this.pending.delete(run))
  }

  /** Posts the text to every configured robot (each on its own). */
  private toRobots (what: string, text: string): void {
    const line = Array.from(text).slice(0, ROBOT_TEXT_MAX).join('')
    for (const robot of this.robots) this.spawn(`${what} (${robot.name})`, () => robot.send(line))
  }

  complaintFiled (c: ComplaintAlert): void {
    const topic = this.t(`complaint.topic.${c.topic}` as MessageKey)
    const name = maskName(c.nickname)
    this.toRobots('complaint', this.t('alert.complaint', {
      id: c.id, topic, userId: c.userId, name,
      order: c.orderNo ? this.t('alert.complaintOrder', { orderNo: c.orderNo }) : '',
      excerpt: excerpt(maskFreeText(c.text))
    }))
    const mailer = this.mailer
    if (!mailer) return
    for (const mail of this.mailboxes) {
      // the templates keep their {placeholders}; sendTemplatedMail fills them, as /common/mail/send does
      this.spawn('complaint (mail)', () => sendTemplatedMail(mailer, {
        mail,
        title: this.t('alert.complaintMailTitle'),
        content: this.t('alert.complaintMailText'),
        params: {
          id: c.id, topic, userId: c.userId, name, orderNo: c.orderNo ?? '—',
          contact: c.contact ? maskEmail(c.contact) : '—',
          text: maskFreeText(c.text)
        }
      }))
    }
  }

  shipmentRequested (s: Shipment): void {
    this.toRobots('shipment', this.t('alert.shipment', {
      id: s.id,
      count: s.items.length,
      region: s.address.region,
      name: maskName(s.address.name),
      phone: maskPhone(s.address.phone),
      fee: yuan(s.feeCents)
    }))
  }

  withdrawalRequested (w: WithdrawalView, user: { id: number; nickname: string }): void {
    this.toRobots('withdrawal', this.t('alert.withdrawal', { id: w.id, amount: yuan(w.amountCents), userId: user.id, name: maskName(user.nickname) }))
  }

  /** Waits for every alert under way (tests; and the app's close, before the mailer goes). */
  async flush (): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending])
  }
}
