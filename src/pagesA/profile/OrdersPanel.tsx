/**
 * "My orders" of the profile page (issue 48; opened from the menu, or directly with ?orders=1): every
 * purchase, top-up, shipment and withdrawal with its number. A row opens where its detail is: a
 * shipment the parcels of My boxes, a purchase the prizes, a top-up the wallet, a withdrawal the
 * wallet's withdrawals.
 */
import { observer } from '@/stores/mobx'
import type { MyOrder } from '~types/orderHistory'
import EmptyState from '@/components/EmptyState'
import Section from '@/components/Section'
import { sessionStore } from '@/stores/session'
import { t } from '@/stores/locale'
import { navigate, redirect } from '@/utils/navigation'
import { rememberReturn } from '@/utils/loginReturn'
import OrderList from './OrderList'

const DETAIL: Record<MyOrder['kind'], string> = {
  purchase: '/pages/my_blind_box/index',
  shipment: '/pages/my_blind_box/index?view=parcels',
  topup: '/pages/recharge/index',
  withdrawal: '/pages/recharge/index?withdraw=1'
}

function OrdersPanel () {
  if (!sessionStore.loggedIn) {
    return (
      <Section title={t('orders.title')} className='orders-panel'>
        <EmptyState icon='🧾' text={t('orders.loginFirst')}
          action={{ label: t('profile.loginNow'), onClick: () => { rememberReturn('/pages/profile/index?orders=1'); void redirect('/pages/login/index') } }} />
      </Section>
    )
  }
  return (
    <Section title={t('orders.title')} className='orders-panel'>
      <OrderList onTap={o => { void navigate(DETAIL[o.kind]) }} opens={() => true} />
    </Section>
  )
}

export default observer(OrdersPanel)
