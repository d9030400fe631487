import { useState } from 'react'
import { useDidShow } from '@tarojs/taro'
import { View, ScrollView, Text, Image } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import type { PrizeItem, PrizeStatus } from '~types/shop'
import PageShell from '@/components/PageShell'
import EmptyState from '@/components/EmptyState'
import { exportTable } from '@/services/data'
import { shopApi } from '@/services/shop'
import { errorMessage } from '@/services/request'
import { sessionStore } from '@/stores/session'
import { t } from '@/stores/locale'
import type { MessageKey } from '@/locales/types'
import { loading, toast } from '@/utils/feedback'
import { navigate, redirect } from '@/utils/navigation'
import { tr } from '@/utils/format'
import { mediaUrl } from '@/utils/media'
import RarityBadge from '@/components/RarityBadge'
import './index.scss'

type Filter = 'all' | PrizeStatus

const FILTERS: { key: Filter; label: MessageKey }[] = [
  { key: 'all', label: 'collection.all' },
  { key: 'warehouse', label: 'collection.warehouse' },
  { key: 'shipping', label: 'collection.shipping' },
  { key: 'received', label: 'collection.received' },
  { key: 'combined', label: 'collection.combined' },
  { key: 'recycled', label: 'collection.recycled' }
]

/** My collection: every prize owned, filtered by status; the table API exports it as a spreadsheet. */
function MyBlindBoxPage () {
  const [filter, setFilter] = useState<Filter>('all')
  const [prizes, setPrizes] = useState<PrizeItem[] | null>(null)

  const load = async (f: Filter) => {
    if (!sessionStore.loggedIn) return
    try {
      const res = await shopApi.prizeList(f === 'all' ? { page: 1, size: 50 } : { page: 1, size: 50, status: f })
      setPrizes(res.list)
    } catch (e) {
      setPrizes([])
      toast({ message: errorMessage(e) })
    }
  }
  useDidShow(() => { void load(filter) })

  const choose = (f: Filter) => {
    setFilter(f)
    void load(f)
  }

  const exportAll = async () => {
    try {
      const name = await loading.wrap(exportTable('prizes'))
      toast({ message: t('collection.exported', { name }), level: 'success' })
    } catch (e) {
      toast({ message: errorMessage(e) })
    }
  }

  if (!sessionStore.loggedIn) {
    return (
      <PageShell className='collection-page'>
        <EmptyState icon='🔒' text={t('collection.loginFirst')}
          action={{ label: t('profile.loginNow'), onClick: () => { void redirect('/pages/login/index') } }} />
      </PageShell>
    )
  }

  return (
    <PageShell className='collection-page'>
      <View className='collection-bar'>
        <ScrollView scrollX className='filters' enableFlex>
          {FILTERS.map(f => (
            <View key={f.key} className={`filter filter-${f.key} ${filter === f.key ? 'filter--on' : ''}`}
              onClick={() => choose(f.key)}>{t(f.label)}</View>
          ))}
        </ScrollView>
        <View className='collection-export' onClick={exportAll}>{t('collection.export')}</View>
      </View>
      {prizes && prizes.length > 0
        ? prizes.map(p => (
          <View key={p.prizeId} className={`prize-row prize-${p.prizeId}`} onClick={() => navigate(`/pages/prize_detail/index?prizeId=${p.prizeId}`)}>
            <Image className='prize-row__img' src={mediaUrl(p.design.image)} mode='aspectFit' lazyLoad />
            <View className='prize-row__body'>
              <Text className='prize-row__name'>{tr(p.design.name)}</Text>
              <Text className='prize-row__series'>{tr(p.seriesTitle)}</Text>
            </View>
            <View className='prize-row__side'>
              <RarityBadge rarity={p.design.rarity} />
              <Text className='prize-row__status'>{t(`collection.${p.status}` as MessageKey)}</Text>
            </View>
          </View>
        ))
        : (
          <EmptyState icon='🧸' text={t('feedback.noMore')}
            action={{ label: t('titles.home'), onClick: () => { void redirect('/pages/home/index') } }} />
          )}
    </PageShell>
  )
}

export default observer(MyBlindBoxPage)
