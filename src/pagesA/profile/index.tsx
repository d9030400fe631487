// first: on H5 the page waits for the rest of the dictionary (src/locales/full.h5.ts)
import '@/locales/full'
import { useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { withPageError } from '@/components/PageError/wrap'
import PageShell from '@/components/PageShell'
import MenuList, { type MenuItem } from '@/components/MenuList'
import { sessionStore } from '@/stores/session'
import { localeStore, t } from '@/stores/locale'
import { ENTRY_PAGE } from '@/constants'
import { dialog } from '@/utils/feedback'
import { navigate } from '@/utils/navigation'
import ContactPanel from './ContactPanel'
import WechatContact from './WechatContact'
import OrdersPanel from './OrdersPanel'
import './index.scss'
import { avatarInitial } from './initial'
import { maskPhone } from '@/utils/format'

/**
 * Personal centre: who is logged in (the phone masked: issue 48), the way to every personal page, "My
 * orders" (opened from the menu, or directly with ?orders=1), the contact form (from the menu, or
 * ?contact=1), language, log out.
 */
function ProfilePage () {
  const { params } = useRouter()
  const [contactOpen, setContactOpen] = useState(params.contact === '1')
  const [ordersOpen, setOrdersOpen] = useState(params.orders === '1')
  const user = sessionStore.user
  const logout = async () => {
    if (!(await dialog({ message: t('profile.logoutConfirm') }))) return
    await sessionStore.logout()
    await Taro.reLaunch({ url: ENTRY_PAGE })
  }
  const items: MenuItem[] = [
    { key: 'boxes', icon: '🧸', label: t('profile.myBoxes'), onClick: () => navigate('/pages/my_blind_box/index') },
    { key: 'props', icon: '🔮', label: t('profile.props'), onClick: () => navigate('/pages/props/index') },
    { key: 'show', icon: '📸', label: t('profile.show'), onClick: () => navigate('/pages/show/index') },
    { key: 'orders', icon: '🧾', label: t('orders.menu'), onClick: () => setOrdersOpen(open => !open) },
    { key: 'wallet', icon: '💰', label: t('profile.wallet'), onClick: () => navigate('/pages/recharge/index') },
    { key: 'security', icon: '🔐', label: t('profile.security'), onClick: () => navigate('/pages/security/index') },
    { key: 'contact', icon: '💬', label: t('complaints.menu'), onClick: () => setContactOpen(open => !open) }
  ]
  if (user?.role === 'operator') {
    items.push({ key: 'editor', icon: '🛠️', label: t('profile.editor'), onClick: () => navigate('/pages/editor/index') })
  }
  items.push({ key: 'language', icon: '🌐', label: t('profile.language'), value: t('app.languageName'), onClick: localeStore.toggle })

  return (
    <PageShell className='profile-page'>
      <View className='profile-card'>
        <View className='profile-avatar'>{avatarInitial(sessionStore.displayName)}</View>
        <View className='profile-who'>
          <Text className='profile-name'>{sessionStore.loggedIn ? (sessionStore.displayName || '…') : t('profile.guest')}</Text>
          {user && <Text className='profile-sub'>{maskPhone(user.phone) || user.email || (user.userName ? `@${user.userName}` : '')}</Text>}
        </View>
        {!sessionStore.loggedIn && (
          <View className='profile-login' onClick={() => Taro.reLaunch({ url: ENTRY_PAGE })}>{t('profile.loginNow')}</View>
        )}
      </View>
      {/* the mini-program: WeChat's customer service first (H5 has the form only) */}
      {contactOpen && process.env.TARO_ENV === 'weapp' && <WechatContact />}
      {ordersOpen && <OrdersPanel />}
      {contactOpen && <ContactPanel />}
      <MenuList items={items} />
      {sessionStore.loggedIn && <View className='btn btn--ghost profile-logout' onClick={logout}>{t('profile.logout')}</View>}
    </PageShell>
  )
}

// a failure while rendering offers to reload or go back (components/PageError)
export default withPageError(observer(ProfilePage))
