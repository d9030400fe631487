/**
 * Long press (spec 9): a touch held 350 ms without moving more than 10 px. A long press suppresses the
 * tap that the same touch would end with; moving further, lifting early or a cancel is an ordinary
 * touch (a tap only when it did not move). Works with Taro's touch events in both builds.
 */
export const LONG_PRESS_MS = 350
export const LONG_PRESS_TOLERANCE_PX = 10

interface Point { clientX?: number; clientY?: number; x?: number; y?: number; pageX?: number; pageY?: number }
export interface TouchLike { touches?: Point[]; changedTouches?: Point[] }

const pointOf = (event: object): { x: number; y: number } | null => {
  const e = event as TouchLike
  const p = e.touches?.[0] ?? e.changedTouches?.[0]
  if (!p) return null
  return { x: p.clientX ?? p.pageX ?? p.x ?? 0, y: p.clientY ?? p.pageY ?? p.y ?? 0 }
}

export interface LongPressOptions {
  onLongPress: () => void
  onTap?: () => void
  /**
   * The finger that made a long press lifted (or the touch was cancelled). What the long press opened
   * must not take the tap or click the same touch ends with as one of its own (issue 21).
   */
  onRelease?: () => void
  ms?: number
  tolerance?: number
}

/** Handlers for Taro's touch events (any event object with touches / changedTouches). */
export interface LongPressHandlers {
  onTouchStart: (e: object) => void
  onTouchMove: (e: object) => void
  onTouchEnd: (e: object) => void
  onTouchCancel: () => void
}

export function longPress ({ onLongPress, onTap, onRelease, ms = LONG_PRESS_MS, tolerance = LONG_PRESS_TOLERANCE_PX }: LongPressOptions): LongPressHandlers {
  let timer: ReturnType<typeof setTimeout> | null = null
  let start: { x: number; y: number } | null = null
  let fired = false
  let moved = false
  const clear = () => { if (timer) clearTimeout(timer); timer = null }
  return {
    onTouchStart (e) {
      clear()
      start = pointOf(e)
      fired = false
      moved = false
      timer = setTimeout(() => { timer = null; fired = true; onLongPress() }, ms)
    },
    onTouchMove (e) {
      const p = pointOf(e)
      if (!start || !p) return
      if (Math.hypot(p.x - start.x, p.y - start.y) > tolerance) {
        moved = true
        clear()
      }
    },
    onTouchEnd () {
      const wasLong = fired
      clear()
      fired = false
      if (!wasLong && !moved) onTap?.()
      start = null
      if (wasLong) onRelease?.()
    },
    onTouchCancel () {
      const wasLong = fired
      clear()
      fired = false
      start = null
      if (wasLong) onRelease?.()
    }
  }
}
