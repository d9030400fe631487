/**
 * Whether the shopper asked the system for less motion (prefers-reduced-motion: reduce). H5 only: the
 * mini-program has no such setting to read, and its opening keeps the animation.
 */
export function prefersReducedMotion (): boolean {
  if (process.env.TARO_ENV !== 'h5') return false
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches
}
