import { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Section from '@/components/Section'
import EmptyState from '@/components/EmptyState'
import ActionBar from '@/components/ActionBar'
import { t } from '@/stores/locale'
import './index.scss'

/** Blind box detail: designs, odds, value range, rules, the current case and its slots. */
function BlindBoxDetailPage () {
  const { params } = useRouter()
  const seriesId = params.seriesId
  return (
    <PageShell className='detail-page' share={{ path: '/pages/blind_box_detail/index', query: { seriesId } }}>
      <View className='detail-hero'>
        <Text className='detail-hero__art'>🎁</Text>
        <Text className='detail-hero__title'>{seriesId ? `#${seriesId}` : t('detail.noSeries')}</Text>
      </View>
      <Section title={t('detail.designs')}><EmptyState icon='🧸' text={t('feedback.noMore')} /></Section>
      <Section title={t('detail.odds')} extra={<Text>{t('detail.valueRange')}: —</Text>}>
        <EmptyState icon='📊' text={t('feedback.noMore')} />
      </Section>
      <Section title={t('detail.currentCase')} extra={<Text className='detail-switch'>{t('detail.switchCase')}</Text>}>
        <EmptyState icon='📦' text={t('feedback.noMore')} />
      </Section>
      <Section title={t('detail.rules')}>
        <Text className='detail-rules'>{t('agreements.serviceBody')}</Text>
      </Section>
      <ActionBar>
        <View className='btn btn--ghost btn--disabled'>{t('detail.wholeCase')}</View>
        <View className='btn btn--primary btn--disabled'>{t('detail.pickSlots')}</View>
      </ActionBar>
    </PageShell>
  )
}

export default observer(BlindBoxDetailPage)
