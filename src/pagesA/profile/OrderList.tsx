/**
 * The shopper's orders (types/orderHistory.ts), newest first, ORDERS_PAGE at a time: each with its kind,
 * number, amount, status and time. Two uses on the profile page: "My orders" (OrdersPanel: a row opens
 * its detail where there is one) and the contact form's related order (a row is picked).
 */
import { Text, View } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { MyOrder } from '~types/orderHistory'
import EmptyState from '@/components/EmptyState'
import { orderHistoryApi } from '@/services/orderHistory'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { toast } from '@/utils/feedback'
import { formatCents, formatTime } from '@/utils/format'
import { usePagedList } from '@/utils/useRemote'
import { ORDERS_PAGE, orderKindLabel, orderStatusLabel } from './orderLabels'
import './OrderList.scss'

interface Props {
  /** Tapping a row: open it, or pick it. */
  onTap: (order: MyOrder) => void
  /** The row picked (the contact form's). */
  chosen?: MyOrder | null
  /** Tapping shows "›" (a detail opens). */
  opens?: (order: MyOrder) => boolean
}

function OrderList ({ onTap, chosen, opens }: Props) {
  const orders = usePagedList((page, size) => orderHistoryApi.list(page, size), { pageSize: ORDERS_PAGE, onError: e => toast({ message: errorMessage(e) }) })
  const list = orders.items
  if (list && list.length === 0) return <EmptyState icon='🧾' text={orders.failed ? errorMessage(orders.error) : t('orders.none')} />
  return (
    <View className='order-list'>
      {list?.map(o => {
        const on = chosen?.kind === o.kind && chosen.id === o.id
        return (
          <View key={`${o.kind}-${o.id}`} className={`order-row order-row--${o.kind} order-${o.number} ${on ? 'order-row--on' : ''}`} onClick={() => onTap(o)}>
            <View className='order-row__main'>
              <View className='order-row__head'>
                <Text className='order-row__kind'>{orderKindLabel(o)}</Text>
                <Text className='order-row__amount'>{o.kind === 'shipment' && o.amountCents === 0 ? t('orders.free') : formatCents(o.amountCents)}</Text>
              </View>
              <Text className='order-row__number'>{t('orders.number', { no: o.number })}</Text>
              <View className='order-row__foot'>
                <Text className='order-row__time'>{formatTime(o.createdAt)}</Text>
                <Text className={`order-row__status order-row__status--${o.status}`}>{orderStatusLabel(o)}</Text>
              </View>
            </View>
            {opens?.(o) && <Text className='order-row__go'>›</Text>}
            {on && <Text className='order-row__go'>✓</Text>}
          </View>
        )
      })}
      {list && list.length < orders.total && <View className='order-list__more' onClick={() => { void orders.loadMore() }}>{t('orders.more')}</View>}
      {list && list.length > 0 && list.length >= orders.total && <Text className='order-list__end'>{t('orders.end', { n: orders.total })}</Text>}
    </View>
  )
}

export default observer(OrderList)
