import { View, Text } from '@tarojs/components'
import { lightObserver } from '@/stores/lightObserver'
import { t } from '@/stores/locale'
import { A11Y_HIDDEN } from '@/utils/format'
import './index.scss'

export interface EmptyStateProps {
  text?: string
  icon?: string
  /** A call to action under the text. */
  action?: { label: string; onClick: () => void }
}

function EmptyState ({ text, icon = '📦', action }: EmptyStateProps) {
  return (
    <View className='empty-state'>
      <Text className='empty-state__icon' {...A11Y_HIDDEN}>{icon}</Text>
      <Text className='empty-state__text'>{text ?? t('feedback.empty')}</Text>
      {action && <View className='empty-state__action' onClick={action.onClick}>{action.label}</View>}
    </View>
  )
}

export default lightObserver(EmptyState)
