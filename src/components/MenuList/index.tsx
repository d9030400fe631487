import { View, Text } from '@tarojs/components'
import { A11Y_HIDDEN } from '@/utils/format'
import './index.scss'

export interface MenuItem {
  key: string
  icon: string
  label: string
  value?: string
  onClick: () => void
}

/** A list of tappable rows (profile, security). */
export default function MenuList ({ items }: { items: MenuItem[] }) {
  return (
    <View className='menu-list'>
      {items.map(item => (
        <View key={item.key} className={`menu-list__item menu-${item.key}`} onClick={item.onClick}>
          <Text className='menu-list__icon' {...A11Y_HIDDEN}>{item.icon}</Text>
          <Text className='menu-list__label'>{item.label}</Text>
          {item.value && <Text className='menu-list__value'>{item.value}</Text>}
          <Text className='menu-list__arrow' {...A11Y_HIDDEN}>›</Text>
        </View>
      ))}
    </View>
  )
}
