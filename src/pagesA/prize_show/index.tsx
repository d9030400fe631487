import { View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Section from '@/components/Section'
import EmptyState from '@/components/EmptyState'
import ActionBar from '@/components/ActionBar'
import { t } from '@/stores/locale'
import { navigate, redirect } from '@/utils/navigation'

/** The results of an opening, with the next steps. */
function PrizeShowPage () {
  return (
    <PageShell className='prize-show-page'>
      <Section title={t('prize.results')}><EmptyState icon='🏆' text={t('prize.none')} /></Section>
      <ActionBar>
        <View className='btn btn--ghost' onClick={() => redirect('/pages/home/index')}>{t('prize.again')}</View>
        <View className='btn btn--primary' onClick={() => navigate('/pages/my_blind_box/index')}>{t('prize.toCollection')}</View>
      </ActionBar>
    </PageShell>
  )
}

export default observer(PrizeShowPage)
