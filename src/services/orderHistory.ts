/** "My orders" (types/orderHistory.ts) and the region picker's lists (types/regions.ts). */
import type { MyOrderKind, orderHistoryRoutes } from '~types/orderHistory'
import type { regionRoutes } from '~types/regions'
import { postRoute } from './request'

type H = typeof orderHistoryRoutes
type G = typeof regionRoutes

export const orderHistoryApi = {
  /** The caller's purchases, top-ups, shipments and withdrawals, newest first. */
  list: (page: number, size: number, kind?: MyOrderKind) => postRoute<H['myOrders']>('/api/myOrders', { page, size, ...(kind ? { kind } : {}) })
}

export const regionApi = {
  /** Provinces (no parent), a province's cities or a city's districts. */
  list: (parent?: string) => postRoute<G['regions']>('/api/regions', parent ? { parent } : {})
}
