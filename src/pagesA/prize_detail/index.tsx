import { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Section from '@/components/Section'
import { t } from '@/stores/locale'
import type { MessageKey } from '@/locales/types'
import './index.scss'

const ROWS: MessageKey[] = ['prize.rarity', 'prize.value', 'prize.recycleValue']

/** One prize: the design, its rarity and values, and the fairness proof of its case. */
function PrizeDetailPage () {
  const { params } = useRouter()
  return (
    <PageShell className='prize-detail-page'>
      <View className='prize-card'>
        <Text className='prize-card__art'>🧸</Text>
        <Text className='prize-card__id'>{params.prizeId ? `#${params.prizeId}` : '—'}</Text>
      </View>
      <Section>
        {ROWS.map(key => (
          <View key={key} className='kv-row'>
            <Text className='kv-row__k'>{t(key)}</Text>
            <Text className='kv-row__v'>—</Text>
          </View>
        ))}
      </Section>
      <Section title={t('prize.proof')}>
        <View className='kv-row'>
          <Text className='kv-row__k'>{t('prize.commit')}</Text>
          <Text className='kv-row__v kv-row__v--mono'>—</Text>
        </View>
        <View className='btn btn--ghost btn--disabled proof-verify'>{t('prize.verify')}</View>
      </Section>
    </PageShell>
  )
}

export default observer(PrizeDetailPage)
