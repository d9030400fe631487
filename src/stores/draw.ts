import Taro from '@tarojs/taro'
import { makeAutoObservable, runInAction } from './mobx'
import type { PurchaseView } from '~types/shop'
import { shopApi } from '@/services/shop'
import { errorMessage } from '@/services/request'

const KEY = 'last_draw'

/** What the opening and the results show of a purchase (a purchase's answer, or the server's view of it). */
export type Draw = Pick<PurchaseView, 'purchaseId' | 'caseId' | 'seriesId' | 'totalCents' | 'prizes'>

/**
 * The purchase the opening and the results pages show. Right after paying it is the purchase's answer;
 * a page opened by its link (purchaseId in the query: a reload, another device, an old tab) loads it
 * from the server (POST /api/purchaseDetail, the buyer's own only). The last one is also kept on the
 * device, so the pages work before the answer of a slow network.
 */
export class DrawStore {
  last: Draw | null = null
  /** Loading a purchase by its id: the id asked, and why it failed (shown on the page) if it did. */
  loadingId: number | null = null
  failure: string | null = null

  constructor () {
    try {
      const saved = Taro.getStorageSync(KEY)
      if (saved && typeof saved === 'object' && typeof (saved as Draw).purchaseId === 'number') this.last = saved as Draw
    } catch { /* nothing saved */ }
    makeAutoObservable(this, {}, { autoBind: true })
  }

  set (result: Draw): void {
    this.last = result
    this.failure = null
    try { Taro.setStorageSync(KEY, result) } catch { /* kept in memory only */ }
  }

  /** The purchase `purchaseId`, from what is here when it is that one, else from the server. */
  async show (purchaseId: number): Promise<void> {
    if (this.last?.purchaseId === purchaseId) { this.failure = null; return }
    if (this.loadingId === purchaseId) return
    this.loadingId = purchaseId
    this.failure = null
    try {
      const view = await shopApi.purchaseDetail(purchaseId)
      runInAction(() => { if (this.loadingId === purchaseId) this.set(view) })
    } catch (e) {
      runInAction(() => { if (this.loadingId === purchaseId) this.failure = errorMessage(e) })
    } finally {
      runInAction(() => { if (this.loadingId === purchaseId) this.loadingId = null })
    }
  }

  /** The purchase a page with `purchaseId` in its query shows (none while it loads or if it failed). */
  showing (purchaseId: number | null): Draw | null {
    if (purchaseId === null) return this.last
    return this.last?.purchaseId === purchaseId ? this.last : null
  }

  clear (): void {
    this.last = null
    try { Taro.removeStorageSync(KEY) } catch { /* nothing to remove */ }
  }
}

export const drawStore = new DrawStore()

/** A purchase id from a page's query, or null when there is none or it is not a positive whole number. */
export function purchaseIdOf (params: Record<string, string | undefined>): number | null {
  const raw = params.purchaseId
  return raw && /^[1-9]\d{0,15}$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : null
}
