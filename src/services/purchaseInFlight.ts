/**
 * Purchases in flight, kept on the device until their answer is in (issue 48). A purchase whose answer
 * is lost (slow network, a reload, Back, the app closed) may have been made; the only way to know without
 * buying twice is to send it again with the same idempotency key, which the server answers with the
 * first answer (server/src/domain/idempotency.ts). So the request, key included, is written to storage
 * before it is sent and removed once an answer settles it (a success, or a refusal, which the server
 * stored nothing for). What is still there was never answered:
 *   - the purchase page, asked to buy the same boxes again, replays it instead of starting anew;
 *   - the app's start replays it, and tells the outcome (stores/lateNotices).
 * A record belongs to the account that sent it: another account on the same device never replays it.
 */
import Taro from '@tarojs/taro'
import type { PurchaseCheckRequest, PurchaseRequest, PurchaseResult, SlotFailureData } from '~types/shop'
import { sessionStore } from '@/stores/session'
import { lateNotices } from '@/stores/lateNotices'
import { isApiError, isRequestError } from './errors'
import { errorMessage } from './request'
import { shopApi } from './shop'

export const IN_FLIGHT_KEY = 'purchases_in_flight'
/** At most this many kept (the oldest go first); a shopper has one or two at a time. */
const MAX_KEPT = 10
/**
 * The app's start replays a kept purchase only this long after it was sent. Later, a replay could be
 * the first time the server hears of it (the first attempt may never have arrived), buying a box hours
 * after the shopper let it go: an older one is dropped and the shopper told to look in My orders.
 */
export const REPLAY_WINDOW_MS = 10 * 60 * 1000

export interface InFlightPurchase {
  userId: number
  seriesId: number
  request: PurchaseRequest
  /** A top-up made for this purchase just before it (stays in the balance if the purchase fails). */
  toppedUpCents: number
  sentAt: number
}

/** A transport failure (no answer): the purchase may have been made; the same key may be replayed. */
export const isRetryable = (error: unknown) => isRequestError(error) && error.code !== 'ERR_BAD_REQUEST'

/** The purchase (or its check) was refused because the caller already bought the box: its purchase. */
export function ownBoxOf (error: unknown): { slot: number; purchaseId: number; prizeId: number } | null {
  if (!isApiError(error) || error.code !== 409) return null
  const data = error.data as Partial<SlotFailureData> | null
  return data?.boughtByYou && typeof data.slot === 'number' ? { slot: data.slot, ...data.boughtByYou } : null
}

function readAll (): InFlightPurchase[] {
  let value: unknown
  try { value = Taro.getStorageSync(IN_FLIGHT_KEY) } catch { return [] }
  if (!Array.isArray(value)) return []
  return value.filter((p): p is InFlightPurchase => !!p && typeof p === 'object' && typeof p.userId === 'number' &&
    typeof p.request?.idempotencyKey === 'string' && typeof p.request?.caseId === 'number')
}

function writeAll (list: InFlightPurchase[]): void {
  // storage full or refused: the purchase still goes; only its replay after a restart is lost
  try { Taro.setStorageSync(IN_FLIGHT_KEY, list.slice(-MAX_KEPT)) } catch { /* see above */ }
}

export const inFlightPurchases = (): InFlightPurchase[] => readAll()

const slotsKey = (order: PurchaseCheckRequest) => order.wholeCase ? 'whole' : [...(order.slots ?? [])].sort((a, b) => a - b).join(',')

/** The same boxes at the same price (the key's body, as the server compares it, but the key). */
export function sameOrder (a: PurchaseCheckRequest, b: PurchaseCheckRequest): boolean {
  return a.caseId === b.caseId && slotsKey(a) === slotsKey(b) && a.priceCents === b.priceCents && a.acknowledged === b.acknowledged
}

/** The unanswered purchase of these boxes by this account, if one is kept. */
export function inFlightFor (order: PurchaseCheckRequest, userId: number | null | undefined): InFlightPurchase | null {
  if (!userId) return null
  return readAll().find(p => p.userId === userId && sameOrder(p.request, order)) ?? null
}

export function forgetPurchase (idempotencyKey: string): void {
  const list = readAll()
  const rest = list.filter(p => p.request.idempotencyKey !== idempotencyKey)
  if (rest.length !== list.length) writeAll(rest)
}

async function currentUserId (): Promise<number | null> {
  if (!sessionStore.user && sessionStore.loggedIn) await sessionStore.restore()
  return sessionStore.user?.id ?? null
}

/**
 * Sends a purchase, kept in storage while its answer is awaited: removed on an answer (success or
 * refusal), kept when none came (a replay settles it later).
 */
export async function sendPurchase (request: PurchaseRequest, meta: { seriesId: number; toppedUpCents: number }): Promise<PurchaseResult> {
  const userId = await currentUserId()
  if (userId) {
    writeAll([...readAll().filter(p => p.request.idempotencyKey !== request.idempotencyKey),
      { userId, seriesId: meta.seriesId, request, toppedUpCents: meta.toppedUpCents, sentAt: Date.now() }])
  }
  try {
    const result = await shopApi.casePurchase(request)
    forgetPurchase(request.idempotencyKey)
    return result
  } catch (error) {
    if (!isRetryable(error)) forgetPurchase(request.idempotencyKey)
    throw error
  }
}

/** Tells a purchase's outcome on whatever page shows (the page that asked is gone). */
export function announce (request: PurchaseRequest, outcome: { result: PurchaseResult } | { error: unknown }, toppedUpCents = 0): void {
  const slots = request.slots ?? []
  if ('result' in outcome) {
    const r = outcome.result
    lateNotices.add({ kind: 'bought', caseId: r.caseId, slots: r.prizes.map(p => p.slot), purchaseId: r.purchaseId, totalCents: r.totalCents })
    return
  }
  const own = ownBoxOf(outcome.error)
  if (own) {
    lateNotices.add({ kind: 'ownBox', caseId: request.caseId, slots: [own.slot], purchaseId: own.purchaseId })
    return
  }
  // no answer yet: kept for the next replay; a refusal with nothing charged needs no notice of its own
  // unless a top-up was made for it (the money stays in the balance)
  if (isRetryable(outcome.error) || toppedUpCents <= 0) return
  lateNotices.add({ kind: 'failed', caseId: request.caseId, slots, reason: errorMessage(outcome.error), toppedUpCents })
}

let resolving: Promise<void> | null = null

/**
 * At the app's start (after the session is restored): each kept purchase of the logged-in account is
 * sent again with its key, and its outcome told. One pass at a time.
 */
export function resolveInFlight (now = Date.now()): Promise<void> {
  resolving ??= (async () => {
    const userId = sessionStore.user?.id
    if (!userId) return
    for (const p of readAll().filter(x => x.userId === userId)) {
      if (!(now - p.sentAt <= REPLAY_WINDOW_MS)) {
        // too old to send again (see REPLAY_WINDOW_MS): whether it was made is in My orders
        forgetPurchase(p.request.idempotencyKey)
        lateNotices.add({ kind: 'unknown', caseId: p.request.caseId, slots: p.request.slots ?? [], sentAt: p.sentAt })
        continue
      }
      try {
        announce(p.request, { result: await sendPurchase(p.request, p) }, p.toppedUpCents)
      } catch (error) {
        announce(p.request, { error }, p.toppedUpCents)
      }
    }
  })().finally(() => { resolving = null })
  return resolving
}
