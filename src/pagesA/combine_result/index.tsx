import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Section from '@/components/Section'
import ActionBar from '@/components/ActionBar'
import { t } from '@/stores/locale'
import { redirect } from '@/utils/navigation'
import './index.scss'

/** The outcome of a combine draw with its proof. */
function CombineResultPage () {
  return (
    <PageShell className='combine-result-page'>
      <View className='combine-result'>
        <Text className='combine-result__art'>🌟</Text>
        <Text className='combine-result__title'>{t('combine.result')}</Text>
      </View>
      <Section title={t('combine.seed')}><Text className='text-faint'>—</Text></Section>
      <ActionBar>
        <View className='btn btn--primary' onClick={() => redirect('/pages/combine/index')}>{t('combine.back')}</View>
      </ActionBar>
    </PageShell>
  )
}

export default observer(CombineResultPage)
