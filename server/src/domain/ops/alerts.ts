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
 *  - One shopper cannot flood them (issue 21): per kind and per account, the first alert goes out at
 *    once and the next ones within ALERT_BATCH_MS are counted into one digest (how many, which ids, the
 *    sum) sent when that window ends, or when the server closes. Operators still see every request in
 *    the editor; the digest says where. A complaint's mail follows the same rule.
 *  - Each robot is paced below its documented limit (ROBOT_PACE), so a busy moment never makes the
 *    robot refuse (and so drop) an alert: what exceeds the pace waits its turn, and a queue longer than
 *    ROBOT_QUEUE_MAX is folded into one "N more alerts" line.
 */
import type { Logger } from '../../core/logger'
import type { Shipment } from '../../../../types/afterDraw'
import type { WithdrawalView } from '../../../../types/withdraw'
import { ROBOT_TEXT_MAX } from '../../../../types/limits'
import { translate, type Locale, type MessageKey, type MessageParams } from '../../i18n/messages'
import type { Mailer } from '../../providers/mail'
import type { Robot, RobotName } from '../../providers/robots'
import type { Clock } from '../../core/clock'
import { maskEmail, maskPhone } from '../account/users'
import { observedCall } from '../../providers/calls'
import { sendTemplatedMail } from '../community/mail'
import { maskName } from '../prizes/prizes'
import { yuan } from '../../core/money'

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

/** How long one account's alerts of one kind are gathered into a digest after its first one went out. */
export const ALERT_BATCH_MS = 10 * 60 * 1000

/**
 * What we allow ourselves per robot, below what each documents, in real time (the robots count in theirs):
 *  - Feishu custom bot: "单租户单机器人 100 次/分钟，5 次/秒" (Feishu Open Platform, 频控策略,
 *    https://open.feishu.cn/document/ukTMukTMukTM/uUzN04SN3QjL1cDN; over it: code 11232);
 *  - WeCom group robot: "每个机器人发送的消息不能超过20条/分钟" (WeCom developer centre, 群机器人配置说明,
 *    消息发送频率限制, https://developer.work.weixin.qq.com/document/path/91770; over it: errcode 45009).
 */
export const ROBOT_PACE: Record<RobotName, Array<{ max: number; perMs: number }>> = {
  feishu: [{ max: 4, perMs: 1000 }, { max: 90, perMs: 60_000 }],
  wecom: [{ max: 18, perMs: 60_000 }]
}

/** Lines waiting for a robot beyond this many are folded into one "N more alerts" line. */
export const ROBOT_QUEUE_MAX = 30

/**
 * One robot's outgoing lines, paced (ROBOT_PACE) in real time: one post at a time, and a line goes out
 * only when every window has room, otherwise it waits in order. A post counts from when its answer came
 * (the robot received it no later), so however slow the network, the robot never sees more than the
 * pace in any of its windows. Nothing waits on it: `post` returns at once.
 */
class RobotLine {
  private readonly queue: Array<{ what: string; line: string }> = []
  private folded = 0
  /** When the answers of the last posts came. */
  private readonly doneAt: number[] = []
  private busy = false
  private closing = false
  private timer: NodeJS.Timeout | null = null

  constructor (
    readonly robot: Robot,
    private readonly pace: Array<{ max: number; perMs: number }>,
    private readonly foldedText: (count: number) => string,
    private readonly run: (what: string, job: () => Promise<unknown>) => Promise<void>
  ) {}

  post (what: string, line: string): void {
    if (this.queue.length >= ROBOT_QUEUE_MAX) this.folded++
    else this.queue.push({ what, line })
    this.pump()
  }

  private get waiting (): boolean {
    return this.queue.length > 0 || this.folded > 0
  }

  /** How long until one more post may start (0: now). */
  private waitMs (now: number): number {
    const longest = Math.max(...this.pace.map(p => p.perMs))
    while (this.doneAt.length && this.doneAt[0] <= now - longest) this.doneAt.shift()
    let wait = 0
    for (const { max, perMs } of this.pace) {
      const inWindow = this.doneAt.filter(at => at > now - perMs)
      if (inWindow.length >= max) wait = Math.max(wait, inWindow[inWindow.length - max] + perMs - now + 1)
    }
    return wait
  }

  private next (): { what: string; line: string } | null {
    if (this.queue.length) return this.queue.shift()!
    if (this.folded) {
      const line = this.foldedText(this.folded)
      this.folded = 0
      return { what: 'folded alerts', line }
    }
    return null
  }

  /**
   * Starts the next post when the pace allows, else comes back (timer). Once closing, what still waits
   * goes out as one line at once, so the robot is asked once more at most.
   */
  pump (): void {
    if (this.timer) { clearTimeout(this.timer); this.timer = null }
    if (this.busy || !this.waiting) return
    if (this.closing && this.queue.length > 1) {
      this.folded += this.queue.length
      this.queue.length = 0
    }
    const wait = this.closing ? 0 : this.waitMs(Date.now())
    if (wait > 0) {
      this.timer = setTimeout(() => this.pump(), wait)
      this.timer.unref()
      return
    }
    const item = this.next()!
    this.busy = true
    void this.run(`${item.what} (${this.robot.name})`, async () => {
      try {
        await observedCall(this.robot.name, () => this.robot.send(item.line))
      } finally {
        this.doneAt.push(Date.now())
        this.busy = false
        this.pump()
      }
    })
  }

  close (): void {
    this.closing = true
    this.pump()
  }
}

interface Batch {
  openedAt: number
  /** Counted after the first one, and what the digest says of them. */
  count: number
  amountCents: number
  firstId: number
  lastId: number
  digest: (b: Batch) => void
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
  private readonly lines: RobotLine[]
  private readonly batches = new Map<string, Batch>()
  private readonly sweeper: NodeJS.Timeout

  constructor (
    readonly robots: Robot[],
    private readonly mailer: Mailer | null,
    readonly mailboxes: string[],
    private readonly locale: Locale,
    private readonly log: Logger,
    private readonly clock: Clock = Date.now
  ) {
    this.lines = robots.map(robot => new RobotLine(robot, ROBOT_PACE[robot.name],
      count => this.t('alert.folded', { count }),
      (what, job) => this.spawn(what, job)))
    // digests whose window ended go out even when nothing else happens
    this.sweeper = setInterval(() => this.deliverDue(), 30_000)
    this.sweeper.unref()
  }

  private t (key: MessageKey, params: MessageParams = {}): string {
    return translate(this.locale, key, params)
  }

  /** Runs a job on its own: never awaited by the caller, failures logged. */
  private spawn (what: string, job: () => Promise<unknown>): Promise<void> {
    const run = Promise.resolve().then(job).then(() => undefined, (err: unknown) => {
      this.log.warn({ err, alert: what }, 'operator alert not delivered')
    })
    this.pending.add(run)
    void run.finally(() => this.pending.delete(run))
    return run
  }

  /** Posts the text to every configured robot (each on its own, paced). */
  private toRobots (what: string, text: string): void {
    const line = Array.from(text).slice(0, ROBOT_TEXT_MAX).join('')
    for (const l of this.lines) l.post(what, line)
  }

  /**
   * The first alert of `kind` for the account within ALERT_BATCH_MS runs `first` (true); later ones are
   * counted into the window's digest (false).
   */
  private batched (kind: string, userId: number, id: number, amountCents: number, digest: (b: Batch) => void): boolean {
    this.deliverDue()
    const key = `${kind}:${userId}`
    const open = this.batches.get(key)
    if (open) {
      if (open.count === 0) open.firstId = id
      open.count++
      open.amountCents += amountCents
      open.lastId = id
      return false
    }
    this.batches.set(key, { openedAt: this.clock(), count: 0, amountCents: 0, firstId: id, lastId: id, digest })
    return true
  }

  /** Sends the digests whose window has ended (`all`: every one, at close). */
  deliverDue (all = false): void {
    const now = this.clock()
    for (const [key, b] of this.batches) {
      if (!all && now - b.openedAt < ALERT_BATCH_MS) continue
      this.batches.delete(key)
      if (b.count > 0) b.digest(b)
    }
  }

  private digestParams (b: Batch, userId: number) {
    return { userId, count: b.count, first: b.firstId, last: b.lastId, minutes: Math.round(ALERT_BATCH_MS / 60000) }
  }

  complaintFiled (c: ComplaintAlert): void {
    const name = maskName(c.nickname)
    const first = this.batched('complaint', c.userId, c.id, 0, b => {
      const params = { ...this.digestParams(b, c.userId), name }
      this.toRobots('complaint digest', this.t('alert.complaintDigest', params))
      // the template keeps its {placeholders}: sendTemplatedMail fills them once (a name holding "{x}" stays as it is)
      const template = this.t('alert.complaintDigest')
      this.toMailboxes('complaint digest (mail)', template, template, params)
    })
    if (!first) return
    const topic = this.t(`complaint.topic.${c.topic}` as MessageKey)
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

  /** A plain mail to every complaint mailbox (a digest). */
  private toMailboxes (what: string, title: string, content: string, params: Record<string, string | number>): void {
    const mailer = this.mailer
    if (!mailer) return
    for (const mail of this.mailboxes) {
      this.spawn(what, () => sendTemplatedMail(mailer, { mail, title, content, params }))
    }
  }

  shipmentRequested (s: Shipment, userId: number): void {
    const first = this.batched('shipment', userId, s.id, s.feeCents, b =>
      this.toRobots('shipment digest', this.t('alert.shipmentDigest', { ...this.digestParams(b, userId), fee: yuan(b.amountCents) })))
    if (!first) return
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
    const name = maskName(user.nickname)
    const first = this.batched('withdrawal', user.id, w.id, w.amountCents, b =>
      this.toRobots('withdrawal digest', this.t('alert.withdrawalDigest', { ...this.digestParams(b, user.id), name, amount: yuan(b.amountCents) })))
    if (!first) return
    this.toRobots('withdrawal', this.t('alert.withdrawal', { id: w.id, amount: yuan(w.amountCents), userId: user.id, name: maskName(user.nickname) }))
  }

  /**
   * Waits for every alert under way (tests; and the app's close, before the mailer goes). `close`: the
   * digests still gathering and the lines still waiting for their robot go out now (nothing is lost).
   */
  async flush (close = false): Promise<void> {
    if (close) {
      clearInterval(this.sweeper)
      this.deliverDue(true)
      for (const l of this.lines) l.close()
    }
    while (this.pending.size) await Promise.all([...this.pending])
  }
}
