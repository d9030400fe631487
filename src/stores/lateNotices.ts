import { Signal } from './signal'

/**
 * A purchase that ended after its page was gone (Back while the answer was pending, a reload, a restart
 * that found it unanswered: services/purchaseInFlight.ts). It is told on whatever page is showing
 * (components/LateNotice, inside every page's PageShell), with a link to its opening, until dismissed.
 * Followed through a Signal, not MobX: the first pages show it too (src/stores/signal.ts).
 */
export interface LateNotice {
  id: number
  /**
   * bought: the purchase went through; ownBox: the box was already the shopper's; failed: not bought;
   * unknown: never answered and too old to send again (services/purchaseInFlight REPLAY_WINDOW_MS).
   */
  kind: 'bought' | 'ownBox' | 'failed' | 'unknown'
  caseId: number
  slots: number[]
  /** The purchase whose opening the link shows (bought, ownBox). */
  purchaseId?: number
  /** What was paid (bought). */
  totalCents?: number
  /** Why not (failed), in the shopper's language as the server said it. */
  reason?: string
  /** Money a top-up brought, which stays in the balance (failed). */
  toppedUpCents?: number
  /** When it was sent (unknown). */
  sentAt?: number
}

/** The opening of a purchase (its results follow it). */
export const openingLink = (purchaseId: number) => `/pages/open_chest_animation/index?purchaseId=${purchaseId}`
/** My orders, on the profile page. */
export const ORDERS_LINK = '/pages/profile/index?orders=1'

export class LateNoticeStore {
  private readonly signal = new Signal('lateNotices')
  private list: LateNotice[] = []
  private nextId = 1

  /** The notices not yet dismissed, oldest first. */
  get notices (): readonly LateNotice[] {
    this.signal.observe()
    return this.list
  }

  add (notice: Omit<LateNotice, 'id'>): void {
    // one notice a purchase (a replay at start and the page's own may both report it)
    if (notice.purchaseId !== undefined && this.list.some(n => n.purchaseId === notice.purchaseId)) return
    this.list = [...this.list, { ...notice, id: this.nextId++ }]
    this.signal.changed()
  }

  dismiss = (id: number): void => {
    this.list = this.list.filter(n => n.id !== id)
    this.signal.changed()
  }
}

export const lateNotices = new LateNoticeStore()
