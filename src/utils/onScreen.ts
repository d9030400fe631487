import { useEffect, useRef, useState, type MutableRefObject } from 'react'

/**
 * Whether a picture's place is on screen yet, for pictures that load when they are seen (H5). Until the
 * shopper first scrolls only what is on the first screen counts: a phone opening home fetches the one
 * or two covers it shows, not the ones under them (about 3 KB each, and the first screen waits for its
 * bytes on a slow network). From the first scroll on, whatever comes within a screen's height below the
 * screen counts, so a cover is there before it scrolls into view.
 *
 * Chromium's own lazy loading (loading="lazy") fetches everything within 1,250 px of the screen at once,
 * which on home is every cover of the first page of series.
 *
 * Without IntersectionObserver (a browser before 2019, the tests' DOM) everything counts at once. In the
 * mini-program the platform's own lazy loading does this job (Image's lazyLoad).
 */

type Seen = () => void

const watched = new Map<Element, Seen>()
let scrolled = false
let firstScreen: IntersectionObserver | null = null
let ahead: IntersectionObserver | null = null

function seen (entries: IntersectionObserverEntry[]) {
  for (const entry of entries) {
    if (!entry.isIntersecting || !stillThere(entry.target)) continue
    const done = watched.get(entry.target)
    forget(entry.target)
    done?.()
  }
}

/**
 * The observer's answer comes late on a busy phone, and what is above a place (the live feed, a banner)
 * may have arrived meanwhile and pushed it off the screen: looked at again now, it must still be within
 * the screen (a screen ahead after the first scroll). If it is not, it stays watched, and the observer
 * tells again when it comes back. A box with no size at all has no layout to ask (jsdom): the answer stands.
 */
function stillThere (el: Element): boolean {
  if (process.env.TARO_ENV !== 'h5') return true
  const r = el.getBoundingClientRect()
  if (r.width === 0 && r.height === 0) return true
  return r.top < window.innerHeight * (scrolled ? 2 : 1) && r.bottom > 0 && r.left < window.innerWidth && r.right > 0
}

function observer (): IntersectionObserver {
  if (scrolled) return (ahead ??= new IntersectionObserver(seen, { rootMargin: '0px 0px 100% 0px' }))
  return (firstScreen ??= new IntersectionObserver(seen))
}

function forget (el: Element) {
  watched.delete(el)
  firstScreen?.unobserve(el)
  ahead?.unobserve(el)
}

/** At the first scroll (of the page or any scroller in it) the pictures still waiting look a screen ahead. */
function onFirstScroll () {
  if (scrolled) return
  scrolled = true
  if (process.env.TARO_ENV === 'h5') document.removeEventListener('scroll', onFirstScroll, true)
  firstScreen?.disconnect()
  firstScreen = null
  const next = observer()
  for (const el of watched.keys()) next.observe(el)
}

function watch (el: Element, done: Seen): () => void {
  if (process.env.TARO_ENV === 'h5' && !scrolled && watched.size === 0) document.addEventListener('scroll', onFirstScroll, { capture: true, passive: true })
  watched.set(el, done)
  observer().observe(el)
  return () => { forget(el) }
}

const canWatch = () => process.env.TARO_ENV === 'h5' && typeof document !== 'undefined' && typeof IntersectionObserver === 'function'

/**
 * A ref for the picture's box, and whether the picture may load now. Once true it stays true (a picture
 * already fetched is not taken away when it scrolls off).
 */
export function useOnScreen<T extends Element = HTMLElement> (): [MutableRefObject<T | null>, boolean] {
  const ref = useRef<T | null>(null)
  const [shown, setShown] = useState(() => !canWatch())
  useEffect(() => {
    if (shown) return
    const el = ref.current
    if (!el || !canWatch()) {
      setShown(true)
      return
    }
    return watch(el, () => { setShown(true) })
  }, [shown])
  return [ref, shown]
}

/** For the tests: forget the first scroll. */
export function resetOnScreenForTests (): void {
  for (const el of [...watched.keys()]) forget(el)
  scrolled = false
  firstScreen?.disconnect()
  ahead?.disconnect()
  firstScreen = null
  ahead = null
  if (typeof document !== 'undefined') document.removeEventListener('scroll', onFirstScroll, true)
}
