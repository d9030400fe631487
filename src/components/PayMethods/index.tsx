import { View, Text } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { PayChannel, PayMethod } from '~types/shop'
import { t } from '@/stores/locale'
import { tr, A11Y_HIDDEN } from '@/utils/format'
import './index.scss'

export interface PayMethodsProps {
  methods: PayMethod[]
  value: PayChannel | null
  onChange: (channel: PayChannel) => void
}

/** The payment channels the server offers; test money is labelled "sandbox". */
function PayMethods ({ methods, value, onChange }: PayMethodsProps) {
  return (
    <View className='pay-methods'>
      {methods.map(m => (
        <View key={m.channel} className={`pay-method pay-${m.channel} ${value === m.channel ? 'pay-method--on' : ''}`}
          onClick={() => onChange(m.channel)}>
          <Text className='pay-method__icon' {...A11Y_HIDDEN}>{m.sandbox ? '🧪' : '💚'}</Text>
          <View className='pay-method__body'>
            <Text className='pay-method__label'>{tr(m.label)}</Text>
            {m.sandbox && <Text className='pay-method__hint'>{t('payment.sandboxHint')}</Text>}
          </View>
          {m.sandbox && <Text className='pay-method__tag'>{t('payment.sandbox')}</Text>}
          <Text className='pay-method__radio'>{value === m.channel ? '●' : '○'}</Text>
        </View>
      ))}
    </View>
  )
}

export default observer(PayMethods)
