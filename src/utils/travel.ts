/**
 * The travel part of an event's page, kept apart to be tested alone and shared with the series page and
 * the editor (which show an event's time): which day trains and flights are asked for, whether the query
 * can be asked yet (12306 sells tickets TRAVEL_LIMITS.trainDaysAhead days ahead), and how a day reads.
 */
import { TRAVEL_LIMITS } from '~types/limits'
import type { City } from '~types/cities'

const DAY_MS = 86_400_000

/** The day (China time, YYYY-MM-DD) of an instant. */
export const chinaDay = (ms: number): string => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10)
export const addDays = (day: string, n: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10)

export type TravelBlock = { kind: 'ask'; date: string } | { kind: 'past' } | { kind: 'notYet'; opens: string } | { kind: 'sameCity' } | { kind: 'noAirport'; city: string }

/** What the trains part can do for a trip from `from` to `to` on `day`, today being `nowMs`. */
export function trainPlan (from: City, to: City, day: string, nowMs: number): TravelBlock {
  if (from.zh === to.zh) return { kind: 'sameCity' }
  const today = chinaDay(nowMs)
  if (day < today) return { kind: 'past' }
  const last = addDays(today, TRAVEL_LIMITS.trainDaysAhead)
  if (day > last) return { kind: 'notYet', opens: addDays(day, -TRAVEL_LIMITS.trainDaysAhead) }
  return { kind: 'ask', date: day }
}

export function flightPlan (from: City, to: City, day: string, nowMs: number, lang: 'zh' | 'en'): TravelBlock {
  if (from.zh === to.zh) return { kind: 'sameCity' }
  if (!from.airport) return { kind: 'noAirport', city: from[lang] }
  if (!to.airport) return { kind: 'noAirport', city: to[lang] }
  const today = chinaDay(nowMs)
  if (day < today) return { kind: 'past' }
  if (day > addDays(today, TRAVEL_LIMITS.flightDaysAhead)) return { kind: 'notYet', opens: addDays(day, -TRAVEL_LIMITS.flightDaysAhead) }
  return { kind: 'ask', date: day }
}

/** An event's time in China, as its page shows it: 2026-12-12 14:00. */
export function chinaClock (isoTime: string): string {
  const d = new Date(Date.parse(isoTime) + 8 * 3_600_000).toISOString()
  return `${d.slice(0, 10)} ${d.slice(11, 16)}`
}
