/**
 * The days of a train or flight query (types/travel.ts): today in China time, the window a query
 * accepts and the checks of a trip that need the clock (routes/travel.ts runs them before the provider).
 */
import { TRAVEL_LIMITS } from '../../../../types/limits'
import { fail } from '../../core/errors'

const DAY_MS = 86_400_000

/** Today in China (UTC+8, no daylight saving) as YYYY-MM-DD. */
export const chinaToday = (nowMs: number): string => new Date(nowMs + 8 * 3600_000).toISOString().slice(0, 10)

/** The day `days` after a YYYY-MM-DD day. */
export const addDays = (day: string, days: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)

/** A YYYY-MM-DD that names a real calendar day (not 2026-02-30). */
export const isRealDay = (day: string): boolean => {
  const ms = Date.parse(`${day}T00:00:00Z`)
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === day
}

/** The days a query accepts, from today (China time). */
export function travelWindow (nowMs: number): { first: string; lastTrain: string; lastFlight: string } {
  const first = chinaToday(nowMs)
  return { first, lastTrain: addDays(first, TRAVEL_LIMITS.trainDaysAhead), lastFlight: addDays(first, TRAVEL_LIMITS.flightDaysAhead) }
}

export function checkTrip (nowMs: number, body: { from: string; to: string; date: string }, daysAhead: number): void {
  if (body.to === body.from) throw fail.field('to', 'travel.sameStation')
  if (!isRealDay(body.date)) throw fail.field('date', 'travel.badDate')
  const today = chinaToday(nowMs)
  if (body.date < today) throw fail.field('date', 'travel.pastDate', { today })
  const last = addDays(today, daysAhead)
  if (body.date > last) throw fail.field('date', 'travel.tooFar', { days: daysAhead, last })
}
