/**
 * useOnScreen (src/utils/onScreen.ts), which series covers wait for on H5: before the first scroll a
 * place counts when it is on the first screen (an observer with no margin); from the first scroll on,
 * a screen ahead; a place removed stops being watched; without IntersectionObserver everything counts.
 * jsdom has no layout, so the observer here is one the test drives: it records what is observed with
 * which margin, and the test says what intersects. Chromium's real one is in test/e2e/finder.e2e.js.
 */
import { act, cleanup, render } from '@testing-library/react'
import { resetOnScreenForTests, useOnScreen } from '@/utils/onScreen'

class DrivenObserver {
  static all: DrivenObserver[] = []
  watched = new Set<Element>()
  disconnected = false
  constructor (public callback: IntersectionObserverCallback, public options: IntersectionObserverInit = {}) { DrivenObserver.all.push(this) }
  observe (el: Element) { this.watched.add(el) }
  unobserve (el: Element) { this.watched.delete(el) }
  disconnect () { this.watched.clear(); this.disconnected = true }
  /** The browser reports these elements as intersecting the (margined) screen. */
  show (...els: Element[]) {
    const entries = els.filter(el => this.watched.has(el)).map(target => ({ target, isIntersecting: true }) as unknown as IntersectionObserverEntry)
    if (entries.length) act(() => { this.callback(entries, this as unknown as IntersectionObserver) })
  }
}

function Cover ({ id }: { id: string }) {
  const [ref, shown] = useOnScreen<HTMLDivElement>()
  return <div ref={ref} data-id={id}>{shown ? <img alt='' src={`/${id}.webp`} /> : null}</div>
}

const box = (c: HTMLElement, id: string) => c.querySelector(`[data-id="${id}"]`)!
const hasImg = (c: HTMLElement, id: string) => !!box(c, id).querySelector('img')
const active = () => DrivenObserver.all.filter(o => !o.disconnected)

beforeEach(() => {
  DrivenObserver.all = []
  ;(globalThis as unknown as { IntersectionObserver: unknown }).IntersectionObserver = DrivenObserver
  resetOnScreenForTests()
})
afterEach(() => {
  cleanup()
  resetOnScreenForTests()
  delete (globalThis as unknown as { IntersectionObserver?: unknown }).IntersectionObserver
})

test('before a scroll only what is on the first screen loads; after it, a screen ahead', () => {
  const { container } = render(<><Cover id='a' /><Cover id='b' /><Cover id='c' /></>)
  expect(['a', 'b', 'c'].map(id => hasImg(container, id))).toEqual([false, false, false])
  const [first] = active()
  expect(first.options.rootMargin).toBeUndefined()
  expect(first.watched.size).toBe(3)
  first.show(box(container, 'a'))
  expect(['a', 'b', 'c'].map(id => hasImg(container, id))).toEqual([true, false, false])
  expect(first.watched.size).toBe(2)

  // the first scroll: the places still waiting move to an observer that looks a screen ahead
  act(() => { document.dispatchEvent(new Event('scroll')) })
  expect(first.disconnected).toBe(true)
  const [ahead] = active()
  expect(ahead.options.rootMargin).toBe('0px 0px 100% 0px')
  expect([...ahead.watched]).toEqual([box(container, 'b'), box(container, 'c')])
  ahead.show(box(container, 'b'))
  expect(['a', 'b', 'c'].map(id => hasImg(container, id))).toEqual([true, true, false])

  // a place added after the scroll is watched a screen ahead at once
  const later = render(<Cover id='d' />)
  expect(ahead.watched.has(box(later.container, 'd'))).toBe(true)
})

test('a late report for a place pushed off the screen since (what is above it arrived) loads nothing until it comes back', () => {
  const { container } = render(<Cover id='a' />)
  const [first] = active()
  const el = box(container, 'a') as HTMLElement
  let top = window.innerHeight + 200
  el.getBoundingClientRect = () => ({ top, bottom: top + 100, left: 0, right: 100, width: 100, height: 100, x: 0, y: top, toJSON: () => ({}) })
  first.show(el)
  expect(hasImg(container, 'a')).toBe(false)
  expect(first.watched.has(el)).toBe(true)
  // it comes on screen, and the observer says so again
  top = 100
  first.show(el)
  expect(hasImg(container, 'a')).toBe(true)
})

test('a scroll inside the page (a scroller, not the window) counts as the first scroll', () => {
  const { container } = render(<div className='scroller'><Cover id='a' /></div>)
  act(() => { container.querySelector('.scroller')!.dispatchEvent(new Event('scroll')) })
  expect(active()[0].options.rootMargin).toBe('0px 0px 100% 0px')
})

test('a place taken away is no longer watched, and a late report for it changes nothing', () => {
  const { container, unmount } = render(<Cover id='a' />)
  const [first] = active()
  const el = box(container, 'a')
  unmount()
  expect(first.watched.size).toBe(0)
  expect(() => first.show(el)).not.toThrow()
})

test('without IntersectionObserver every picture loads at once', () => {
  delete (globalThis as unknown as { IntersectionObserver?: unknown }).IntersectionObserver
  const { container } = render(<><Cover id='a' /><Cover id='b' /></>)
  expect([hasImg(container, 'a'), hasImg(container, 'b')]).toEqual([true, true])
})
