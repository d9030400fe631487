import type { PropsWithChildren } from 'react'
import { View } from '@tarojs/components'
import './index.scss'

/** A bar fixed to the bottom of the page for the page's main actions. */
export default function ActionBar ({ children }: PropsWithChildren) {
  return (
    <>
      <View className='action-bar__spacer' />
      <View className='action-bar'>{children}</View>
    </>
  )
}
