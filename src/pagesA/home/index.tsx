import Taro, { usePullDownRefresh } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Section from '@/components/Section'
import EmptyState from '@/components/EmptyState'
import LangSwitch from '@/components/LangSwitch'
import { sessionStore } from '@/stores/session'
import { t } from '@/stores/locale'
import type { MessageKey } from '@/locales/types'
import { navigate } from '@/utils/navigation'
import './index.scss'

const SHORTCUTS: { key: string; icon: string; label: MessageKey; link: string }[] = [
  { key: 'boxes', icon: '🧸', label: 'profile.myBoxes', link: '/pages/my_blind_box/index' },
  { key: 'props', icon: '🔮', label: 'profile.props', link: '/pages/props/index' },
  { key: 'wallet', icon: '💰', label: 'profile.wallet', link: '/pages/recharge/index' },
  { key: 'profile', icon: '👤', label: 'titles.profile', link: '/pages/profile/index' }
]

function HomePage () {
  usePullDownRefresh(() => { Taro.stopPullDownRefresh() })
  const name = sessionStore.displayName
  return (
    <PageShell className='home-page'>
      <View className='home-top'>
        <Text className='home-hello'>{name ? t('home.hello', { name }) : t('home.guest')}</Text>
        <LangSwitch />
      </View>

      <View className='home-banner'>
        <Text className='home-banner__title'>{t('home.bannerTitle')}</Text>
        <Text className='home-banner__text'>{t('home.bannerText')}</Text>
        <Text className='home-banner__art'>🎁</Text>
      </View>

      <View className='home-shortcuts'>
        {SHORTCUTS.map(s => (
          <View key={s.key} className={`home-shortcut shortcut-${s.key}`} onClick={() => navigate(s.link)}>
            <Text className='home-shortcut__icon'>{s.icon}</Text>
            <Text className='home-shortcut__label'>{t(s.label)}</Text>
          </View>
        ))}
      </View>

      <Section title={t('home.seriesOnSale')} className='home-series'>
        <EmptyState icon='🗃️' text={t('feedback.noMore')} />
      </Section>

      <Section title={t('home.liveFeed')} className='home-feed'>
        <EmptyState icon='✨' text={t('home.feedEmpty')} />
      </Section>
    </PageShell>
  )
}

export default observer(HomePage)
