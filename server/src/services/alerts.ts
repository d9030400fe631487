/**
 * Operator alerts (PRODUCT.md "Protecting shoppers"): a new complaint, shipment request or withdrawal
 * request is posted to every configured chat robot (Feishu, WeCom) and, for complaints, mailed to the
 * shop's complaint mailbox. Sent after the shopper's change is committed and never awaited by it: a
 * robot that is down is logged, the shopper's request has already succeeded. Texts carry ids, amounts
 * and regions, never names, phones or streets.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { Mailer, MailMessage } from '../providers/mail'
import type { Robot } from '../providers/robots'

const byApp = new WeakMap<object, Alerts>()
/** The alerts of an app (tests wait for them with flush()). */
export const alertsOf = (app: object): Alerts | undefined => byApp.get(app)
export const registerAlerts = (app: object, alerts: Alerts): void => { byApp.set(app, alerts) }

export class Alerts {
  private readonly pending = new Set<Promise<void>>()

  constructor (
    readonly robots: Robot[],
    private readonly mailer: Mailer | null,
    readonly mailboxes: string[],
    private readonly log: FastifyBaseLogger
  ) {}

  /** Posts `text` to every robot and mails `mail` (if given) to every mailbox; returns at once. */
  notify (text: string, mail?: Omit<MailMessage, 'to'>): void {
    const jobs: Array<Promise<void>> = this.robots.map(r => r.send(text).catch(err => {
      this.log.warn({ err, robot: r.name }, 'operator alert: the robot did not take it')
    }))
    if (mail && this.mailer) {
      for (const to of this.mailboxes) {
        jobs.push(this.mailer.send({ ...mail, to }).catch(err => { this.log.warn({ err }, 'operator alert: the mail was not sent') }))
      }
    }
    const all = Promise.all(jobs).then(() => undefined)
    this.pending.add(all)
    void all.finally(() => this.pending.delete(all))
  }

  /** Waits for every alert under way (tests, and a graceful shutdown). */
  async flush (): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending])
  }
}

const yuan = (cents: number) => (cents / 100).toFixed(2)

/** The alerts' texts: both languages on one line (operators read either), ids and amounts only. */
export const shipmentAlert = (id: number, items: number, region: string) =>
  `[拾盒 Pickbox] 新发货申请 #${id}：${items} 件，${region} · New shipment #${id}: ${items} item(s) to ${region}`
export const withdrawalAlert = (id: number, amountCents: number, userId: number) =>
  `[拾盒 Pickbox] 新提现申请 #${id}：¥${yuan(amountCents)}（用户 #${userId}）· New withdrawal #${id}: ¥${yuan(amountCents)} (user #${userId})`
export const complaintAlert = (id: number, topicZh: string, topicEn: string, userId: number) =>
  `[拾盒 Pickbox] 新投诉 #${id}（${topicZh}，用户 #${userId}）· New complaint #${id} (${topicEn}, user #${userId})`
