import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Section from '@/components/Section'
import EmptyState from '@/components/EmptyState'
import ActionBar from '@/components/ActionBar'
import { t } from '@/stores/locale'

/** Combine: a recipe, the items picked for it, the published output pool, the seeds. */
function CombinePage () {
  return (
    <PageShell className='combine-page'>
      <Section title={t('combine.recipe')}><EmptyState icon='⚗️' text={t('feedback.noMore')} /></Section>
      <Section title={t('combine.pick')}><EmptyState icon='🧩' text={t('feedback.noMore')} /></Section>
      <Section title={t('combine.pool')}><EmptyState icon='🎲' text={t('feedback.noMore')} /></Section>
      <Section title={t('combine.seed')}><Text className='text-faint'>—</Text></Section>
      <ActionBar>
        <View className='btn btn--primary btn--disabled'>{t('combine.start')}</View>
      </ActionBar>
    </PageShell>
  )
}

export default observer(CombinePage)
