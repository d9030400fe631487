import { View } from '@tarojs/components'
import { lightObserver } from '@/stores/lightObserver'
import { localeStore } from '@/stores/locale'
import { a11yControl } from '@/utils/format'
import './index.scss'

/** A small pill that switches zh <-> en; the choice is saved. */
function LangSwitch ({ className }: { className?: string }) {
  return (
    <View className={`lang-switch ${className ?? ''}`} {...a11yControl()} onClick={localeStore.toggle}>
      {localeStore.t('app.switchTo')}
    </View>
  )
}

export default lightObserver(LangSwitch)
