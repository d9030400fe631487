import { useState } from 'react'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { t } from '@/stores/locale'
import { redirect } from '@/utils/navigation'
import './index.scss'

/** The opening stage: a chest that shakes, opens on tap; skip jumps to the results. */
function OpenChestPage () {
  const [opened, setOpened] = useState(false)
  return (
    <PageShell className='chest-page'>
      <View className='chest-stage'>
        <View className='chest-skip' onClick={() => redirect('/pages/prize_show/index')}>{t('chest.skip')}</View>
        <View className={`chest ${opened ? 'chest--open' : ''}`} onClick={() => setOpened(true)}>
          <Text className='chest__glow' />
          <Text className='chest__icon'>{opened ? '✨' : '🎁'}</Text>
        </View>
        <Text className='chest-hint'>{opened ? t('chest.waiting') : t('chest.tapToOpen')}</Text>
      </View>
    </PageShell>
  )
}

export default observer(OpenChestPage)
