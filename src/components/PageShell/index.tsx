import { type PropsWithChildren, useEffect } from 'react'
import Taro, { useDidShow, useRouter, useShareAppMessage, useShareTimeline } from '@tarojs/taro'
import { View } from '@tarojs/components'
import { reaction } from 'mobx'
import { localeStore } from '@/stores/locale'
import { pageTitle, shareMessage, shareTimeline, type ShareInput } from '@/utils/navigation'
import './index.scss'

export interface PageShellProps {
  /** What sharing this page sends; default: this page with its query. */
  share?: ShareInput
  className?: string
  /** The navigation bar's title when the page knows better than its route (e.g. the document shown). */
  title?: string
}

function setTitle (route: string, title?: string) {
  Taro.setNavigationBarTitle({ title: title || pageTitle(route) }).catch(() => undefined)
}

/**
 * Every page sits in this shell: the title looked up from the route (and updated when the language
 * changes), the page background, and sharing to a message and to the timeline.
 */
/** The HTML's first-paint splash (src/index.html) goes once the first page is on screen. */
function removeSplash () {
  if (process.env.TARO_ENV !== 'h5') return
  requestAnimationFrame(() => document.getElementById('splash')?.remove())
}

export default function PageShell ({ share, className, title, children }: PropsWithChildren<PageShellProps>) {
  const router = useRouter()
  const route = router.path.split('?')[0]

  useDidShow(() => setTitle(route, title))
  useEffect(removeSplash, [])
  // a title given by the page follows it (it is already in the current language); the route's follows the language
  useEffect(() => { setTitle(route, title) }, [route, title])
  useEffect(() => reaction(() => localeStore.locale, () => setTitle(route, title)), [route, title])

  const shareInput = (): ShareInput => share ?? { path: route, query: router.params as Record<string, string> }
  useShareAppMessage(() => shareMessage(shareInput()))
  useShareTimeline(() => shareTimeline(shareInput()))

  return <View className={`page-shell ${className ?? ''}`}>{children}</View>
}
