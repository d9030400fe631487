/** Calendar days of the shop: China Standard Time (UTC+8, no daylight saving). */
const OFFSET_MS = 8 * 60 * 60 * 1000
export const DAY_MS = 24 * 60 * 60 * 1000

/** YYYY-MM-DD in China time. */
export function shopDay (ms: number): string {
  return new Date(ms + OFFSET_MS).toISOString().slice(0, 10)
}

/** The instant the shop day of `ms` began (epoch ms). */
export function shopDayStart (ms: number): number {
  return Date.parse(`${shopDay(ms)}T00:00:00.000Z`) - OFFSET_MS
}

/** Milliseconds until the next shop day begins. */
export function msUntilNextDay (ms: number): number {
  return shopDayStart(ms) + DAY_MS - ms
}
