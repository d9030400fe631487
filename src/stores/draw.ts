import Taro from '@tarojs/taro'
import { makeAutoObservable } from 'mobx'
import type { PurchaseResult } from '~types/shop'

const KEY = 'last_draw'

/** The prizes of the last purchase, from paying through the opening to the results (kept on reload). */
export class DrawStore {
  last: PurchaseResult | null = null

  constructor () {
    try {
      const saved = Taro.getStorageSync(KEY)
      if (saved && typeof saved === 'object') this.last = saved as PurchaseResult
    } catch { /* nothing saved */ }
    makeAutoObservable(this, {}, { autoBind: true })
  }

  set (result: PurchaseResult): void {
    this.last = result
    try { Taro.setStorageSync(KEY, result) } catch { /* kept in memory only */ }
  }

  clear (): void {
    this.last = null
    try { Taro.removeStorageSync(KEY) } catch { /* nothing to remove */ }
  }
}

export const drawStore = new DrawStore()
