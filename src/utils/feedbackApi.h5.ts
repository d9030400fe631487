/**
 * H5: Taro's toast, modal and loading indicator (utils/taroFeedback) come in a chunk of their own,
 * fetched when the app first shows one, or earlier, at the shopper's first tap or key press (a page
 * shows them in answer to the shopper, so the chunk is usually here by then). A page that only gets
 * looked at never downloads it. Calls made while it loads run in the order they were made.
 */
import type { TaroFeedback } from './taroFeedback'

let api: TaroFeedback | undefined
let pending: Promise<TaroFeedback> | undefined

function load (): Promise<TaroFeedback> {
  pending ??= import('./taroFeedback').then(
    m => (api = m.taroFeedback),
    e => { pending = undefined; throw e }
  )
  return pending
}

/** Calls `fn` with Taro's toast, modal and loading calls: at once when they are here, else once they are. */
export function withFeedbackApi<T> (fn: (api: TaroFeedback) => T | Promise<T>): Promise<T> {
  if (api) {
    try {
      return Promise.resolve(fn(api))
    } catch (e) {
      return Promise.reject(e)
    }
  }
  return load().then(fn)
}

if (process.env.TARO_ENV === 'h5' && typeof window !== 'undefined') {
  const early = () => {
    for (const type of EARLY_EVENTS) window.removeEventListener(type, early, true)
    load().catch(() => undefined)
  }
  const EARLY_EVENTS = ['pointerdown', 'keydown'] as const
  for (const type of EARLY_EVENTS) window.addEventListener(type, early, { capture: true, passive: true })
}
