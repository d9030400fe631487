import type { PropsWithChildren, ReactNode } from 'react'
import { View, Text } from '@tarojs/components'
import './index.scss'

export interface SectionProps {
  title?: string
  extra?: ReactNode
  className?: string
}

/** A white card with an optional title row. */
export default function Section ({ title, extra, className, children }: PropsWithChildren<SectionProps>) {
  return (
    <View className={`section ${className ?? ''}`}>
      {(title || extra) && (
        <View className='section__head'>
          {title && <Text className='section__title'>{title}</Text>}
          {extra && <View className='section__extra'>{extra}</View>}
        </View>
      )}
      {children}
    </View>
  )
}
