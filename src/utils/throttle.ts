/** Reach-bottom handlers run at most once per 350 ms (spec 9). */
export const REACH_BOTTOM_THROTTLE_MS = 350

/** Calls fn at once, then ignores calls until `ms` have passed. */
export function throttle<A extends unknown[]> (fn: (...args: A) => void, ms: number, now: () => number = Date.now): (...args: A) => void {
  let last = -Infinity
  return (...args: A) => {
    const t = now()
    if (t - last < ms) return
    last = t
    fn(...args)
  }
}
