/** How a row of "My orders" reads: its kind and its status, in the shopper's language. */
import type { MyOrder } from '~types/orderHistory'
import type { MessageKey } from '@/locales/types'
import { t } from '@/stores/locale'

/** Rows per page of the list. */
export const ORDERS_PAGE = 10

export function orderKindLabel (o: MyOrder): string {
  if (o.kind === 'shipment') return t(o.pickup ? 'orders.kinds.pickup' : 'orders.kinds.parcel')
  return t(`orders.kinds.${o.kind}` as MessageKey)
}

const STATUS: Record<MyOrder['kind'], Record<string, MessageKey>> = {
  purchase: { paid: 'orders.status.purchasePaid' },
  topup: { created: 'orders.status.topupCreated', paid: 'orders.status.topupPaid', canceled: 'orders.status.topupCanceled' },
  shipment: { requested: 'orders.status.shipmentRequested', shipping: 'orders.status.shipmentShipping', received: 'orders.status.shipmentReceived' },
  withdrawal: {
    requested: 'orders.status.withdrawalRequested', approved: 'orders.status.withdrawalApproved', paid: 'orders.status.withdrawalPaid',
    rejected: 'orders.status.withdrawalRejected', failed: 'orders.status.withdrawalFailed'
  }
}

export function orderStatusLabel (o: MyOrder): string {
  // a pickup waits at its counter and is collected rather than shipped and received
  if (o.kind === 'shipment' && o.pickup && o.status === 'requested') return t('pickup.waiting')
  if (o.kind === 'shipment' && o.pickup && o.status === 'received') return t('pickup.collected')
  const key = STATUS[o.kind][o.status]
  // a status this app does not know yet: no raw word
  return key ? t(key) : t('orders.status.other')
}
