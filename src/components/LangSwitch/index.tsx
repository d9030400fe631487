import { View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { localeStore } from '@/stores/locale'
import './index.scss'

/** A small pill that switches zh <-> en; the choice is saved. */
function LangSwitch ({ className }: { className?: string }) {
  return (
    <View className={`lang-switch ${className ?? ''}`} onClick={localeStore.toggle}>
      {localeStore.t('app.switchTo')}
    </View>
  )
}

export default observer(LangSwitch)
