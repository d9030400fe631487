import { type PropsWithChildren, startTransition, useEffect, useLayoutEffect, useRef, useState } from 'react'
import Taro, { useDidShow, useRouter, useShareAppMessage, useShareTimeline } from '@tarojs/taro'
import { View } from '@tarojs/components'
import { localeStore } from '@/stores/locale'
import { pageTitle, shareMessage, shareTimeline, type ShareInput } from '@/utils/navigation'
import { firstPaintShown, takeOver } from '@/utils/takeover'
import PrivacyPrompt from '@/components/PrivacyPrompt'
import LateNotice from '@/components/LateNotice'
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
/**
 * The HTML's first paint (src/index.html's splash, or the page prerendered into it) goes once the first
 * page is in the document: in a layout effect, so both are painted in the same frame (utils/takeover).
 */
function removeFirstPaint () {
  if (process.env.TARO_ENV !== 'h5') return
  takeOver()
}

/**
 * H5, while index.html's first paint is on screen (this page prerendered, or the splash): the page's
 * content renders after the shell's first commit, in a task of its own (the first paint shows until
 * then), as a transition React may slice into short tasks.
 */
/**
 * H5: a region that scrolls can be scrolled from the keyboard only when it or something in it takes the
 * focus (axe's scrollable-region-focusable). Taro's page box scrolls, and Taro's H5 ScrollView and
 * Picker columns drop a tabIndex given to them: the shell makes the page and each such scroller in it
 * focusable, also the ones that appear later (an opened picker).
 */
const SCROLLERS = '.taro-scroll:not([tabindex])'
function focusableScrollers (shell: HTMLElement | null): (() => void) | undefined {
  if (process.env.TARO_ENV !== 'h5' || !shell) return
  const page = shell.closest('.taro_page') as HTMLElement | null
  const root = page ?? shell
  if (page && !page.hasAttribute('tabindex')) page.tabIndex = 0
  const mark = () => root.querySelectorAll<HTMLElement>(SCROLLERS).forEach(el => { el.tabIndex = 0 })
  mark()
  const observer = new MutationObserver(mark)
  observer.observe(root, { childList: true, subtree: true })
  return () => observer.disconnect()
}

function deferFirstRender (): boolean {
  return process.env.TARO_ENV === 'h5' && firstPaintShown()
}

export default function PageShell ({ share, className, title, children }: PropsWithChildren<PageShellProps>) {
  const router = useRouter()
  const route = router.path.split('?')[0]

  const [ready, setReady] = useState(() => !deferFirstRender())
  // once, after the first paint was shown
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => { if (!ready) startTransition(() => setReady(true)) }, [])

  useDidShow(() => setTitle(route, title))
  // once the content is in: the title first, so the page and its title replace the first paint together
  useLayoutEffect(() => {
    if (!ready) return
    setTitle(route, title)
    removeFirstPaint()
    // only when the content comes in; later title changes are the effect below
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready])
  // a title given by the page follows it (it is already in the current language); the route's follows the language
  useEffect(() => { setTitle(route, title) }, [route, title])
  useEffect(() => {
    let shown = localeStore.locale
    return localeStore.subscribe(() => {
      if (localeStore.locale !== shown) setTitle(route, title)
      shown = localeStore.locale
    })
  }, [route, title])

  const shareInput = (): ShareInput => share ?? { path: route, query: router.params as Record<string, string> }
  useShareAppMessage(() => shareMessage(shareInput()))
  useShareTimeline(() => shareTimeline(shareInput()))

  const shellRef = useRef<HTMLElement | null>(null)
  useEffect(() => focusableScrollers(shellRef.current), [])

  // WeChat's privacy prompt shows over whatever page is current (the mini-program only; stores/privacy);
  // so does a purchase that ended after its page was gone (stores/lateNotices)
  return <View ref={shellRef} className={`page-shell ${className ?? ''}`}>{ready ? children : null}<LateNotice /><PrivacyPrompt /></View>
}
