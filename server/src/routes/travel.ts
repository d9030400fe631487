/**
 * Train tickets and flights (types/travel.ts) through Juhe. The schema checks the shape of each field;
 * the handler checks what needs the clock: the date is a real day, not before today in China time and
 * not beyond the window; the arrival differs from the departure. Each is a 400 naming the field, before
 * the provider (or the rate limit) is touched.
 */
import { travelRoutes as r } from '../../../types/travel'
import { TRAVEL_LIMITS } from '../../../types/limits'
import type { Api, AppContext } from '../context'
import { enforceLimits } from '../http/request'
import { fail } from '../core/errors'
import { configured, providerCall } from '../http/provider-call'
import { defineRoute } from '../http/route'
import { RULES } from '../security/rules'

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

function checkTrip (nowMs: number, body: { from: string; to: string; date: string }, daysAhead: number): void {
  if (body.to === body.from) throw fail.field('to', 'travel.sameStation')
  if (!isRealDay(body.date)) throw fail.field('date', 'travel.badDate')
  const today = chinaToday(nowMs)
  if (body.date < today) throw fail.field('date', 'travel.pastDate', { today })
  const last = addDays(today, daysAhead)
  if (body.date > last) throw fail.field('date', 'travel.tooFar', { days: daysAhead, last })
}

export function travelRoutesOf (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.tickets, async ({ body, userId }) => {
    checkTrip(ctx.clock(), body, TRAVEL_LIMITS.trainDaysAhead)
    const train = configured(ctx.juhe.train, 'juheTrain')
    await enforceLimits(ctx, [[RULES.travelPerUser, String(userId)]])
    return providerCall('juheTrain', () => train.tickets(body.from, body.to, body.date))
  })
  defineRoute(app, ctx, r.flights, async ({ body, userId }) => {
    checkTrip(ctx.clock(), body, TRAVEL_LIMITS.flightDaysAhead)
    const flight = configured(ctx.juhe.flight, 'juheFlight')
    await enforceLimits(ctx, [[RULES.travelPerUser, String(userId)]])
    return providerCall('juheFlight', () => flight.flights(body.from, body.to, body.date))
  })
}
