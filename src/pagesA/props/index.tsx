import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { t } from '@/stores/locale'
import type { MessageKey } from '@/locales/types'
import { toast } from '@/utils/feedback'
import './index.scss'

const PROPS: { key: string; icon: string; name: MessageKey; desc: MessageKey }[] = [
  { key: 'shake', icon: '📳', name: 'props.shake', desc: 'props.shakeDesc' },
  { key: 'hint', icon: '💡', name: 'props.hint', desc: 'props.hintDesc' },
  { key: 'xray', icon: '🔍', name: 'props.xray', desc: 'props.xrayDesc' }
]

/** Props: shake, hint card, X-ray card, with what each does and how many are held. */
function PropsPage () {
  return (
    <PageShell className='props-page'>
      {PROPS.map(p => (
        <View key={p.key} className={`prop-card prop-${p.key}`}>
          <Text className='prop-card__icon'>{p.icon}</Text>
          <View className='prop-card__body'>
            <Text className='prop-card__name'>{t(p.name)}</Text>
            <Text className='prop-card__desc'>{t(p.desc)}</Text>
          </View>
          <View className='prop-card__use' onClick={() => toast({ message: t('feedback.comingSoon') })}>
            {t('props.owned', { n: 0 })}
          </View>
        </View>
      ))}
    </PageShell>
  )
}

export default observer(PropsPage)
