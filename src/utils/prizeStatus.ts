import type { PrizeItem } from '~types/shop'
import type { MessageKey } from '@/locales/types'

/**
 * The words for a prize's status: a prize on its way is named by its parcel ("waiting to be shipped"
 * while the parcel waits, "on its way" once sent), never "in transit" before it has left. The export
 * (server/src/data/prizeExport.ts) names it the same way.
 */
export function prizeStatusKey (p: Pick<PrizeItem, 'status' | 'parcelStatus'>): MessageKey {
  if (p.status === 'shipping' && (p.parcelStatus === 'requested' || p.parcelStatus === 'shipping')) return `parcel.${p.parcelStatus}`
  return `collection.${p.status}`
}
