import { useEffect, useRef } from 'react'
import Taro, { useUnload } from '@tarojs/taro'

const routeOf = (page: unknown) => String((page as { route?: string } | undefined)?.route ?? '').split('?')[0].replace(/^\//, '')

function stack (): unknown[] {
  try { return Taro.getCurrentPages() } catch { return [] }
}

/**
 * Whether the page that calls this is still in the page stack: false once it is left by Back (or
 * closed), which may be before its component unmounts (Taro's H5 router pops the page at once and
 * unloads it after its animation). A page opened on top of it (a link followed) keeps it there.
 * For the end of work started on the page: once it is gone, its outcome is told elsewhere.
 */
export function usePagePresence (): () => boolean {
  const at = useRef<{ depth: number; route: string } | null>(null)
  const unloaded = useRef(false)
  if (at.current === null) {
    const pages = stack()
    at.current = { depth: pages.length, route: routeOf(pages[pages.length - 1]) }
  }
  useUnload(() => { unloaded.current = true })
  useEffect(() => () => { unloaded.current = true }, [])
  return () => {
    if (unloaded.current) return false
    const { depth, route } = at.current!
    if (depth === 0 || !route) return true
    const pages = stack()
    return pages.length >= depth && routeOf(pages[depth - 1]) === route
  }
}
