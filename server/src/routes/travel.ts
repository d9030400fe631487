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
import { configured, providerCall } from '../http/provider-call'
import { defineRoute } from '../http/route'
import { RULES } from '../security/rules'
import { checkTrip } from '../domain/events/travel'

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
