import { useState } from 'react'
import { View, ScrollView } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import EmptyState from '@/components/EmptyState'
import { t } from '@/stores/locale'
import type { MessageKey } from '@/locales/types'
import { redirect } from '@/utils/navigation'
import './index.scss'

const FILTERS: { key: string; label: MessageKey }[] = [
  { key: 'all', label: 'collection.all' },
  { key: 'warehouse', label: 'collection.warehouse' },
  { key: 'shipping', label: 'collection.shipping' },
  { key: 'received', label: 'collection.received' },
  { key: 'combined', label: 'collection.combined' },
  { key: 'recycled', label: 'collection.recycled' }
]

/** My collection: every prize owned, by series, filtered by status. */
function MyBlindBoxPage () {
  const [filter, setFilter] = useState('all')
  return (
    <PageShell className='collection-page'>
      <ScrollView scrollX className='filters' enableFlex>
        {FILTERS.map(f => (
          <View key={f.key} className={`filter filter-${f.key} ${filter === f.key ? 'filter--on' : ''}`}
            onClick={() => setFilter(f.key)}>{t(f.label)}</View>
        ))}
      </ScrollView>
      <EmptyState icon='🧸' text={t('feedback.noMore')}
        action={{ label: t('titles.home'), onClick: () => { void redirect('/pages/home/index') } }} />
    </PageShell>
  )
}

export default observer(MyBlindBoxPage)
