/**
 * Train tickets and flights (spec 7 `/api/queryTickets`, `/api/queryFlight` {from, to, date}; issue 11),
 * asked of Juhe (聚合数据): its train ticket query (火车票查询) and its flight query (航班查询), each
 * with its own key. No page uses them; they are reachable and tested.
 *
 *  - queryTickets: from and to are station or city names in Chinese (北京, 上海虹桥);
 *  - queryFlight: from and to are three-letter IATA codes of a city or an airport (BJS, SHA, PEK).
 *
 * The date is a day in China time, not before today and at most TRAVEL_LIMITS.trainDaysAhead (trains) or
 * flightDaysAhead (flights) days ahead; from and to must differ. Each wrong field is a 400 naming it.
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { TRAVEL_LIMITS } from './limits'
import { Cents, Obj } from './schema'

const Station = Type.String({ pattern: TRAVEL_LIMITS.stationPattern, description: 'A station or city in Chinese, e.g. 北京南' })
const Airport = Type.String({ pattern: TRAVEL_LIMITS.airportPattern, description: 'IATA code of a city or airport, e.g. SHA' })
const Day = Type.String({ pattern: TRAVEL_LIMITS.datePattern, description: 'YYYY-MM-DD, China time' })

export const TicketsRequest = Obj({ from: Station, to: Station, date: Day })
export type TicketsRequest = Static<typeof TicketsRequest>
export const FlightRequest = Obj({ from: Airport, to: Airport, date: Day })
export type FlightRequest = Static<typeof FlightRequest>

export const Seat = Type.Object({
  name: Type.String({ description: 'e.g. 二等座' }),
  /** null when the provider gave no price. */
  priceCents: Type.Union([Cents, Type.Null()]),
  /** What is left, as the provider says it (有, 无, a number). */
  left: Type.String()
})

export const Train = Type.Object({
  code: Type.String({ description: 'e.g. G1' }),
  from: Type.String(),
  to: Type.String(),
  departs: Type.String({ description: 'HH:mm' }),
  arrives: Type.String({ description: 'HH:mm' }),
  duration: Type.String({ description: 'HH:mm' }),
  seats: Type.Array(Seat)
})
export type Train = Static<typeof Train>

export const TicketsResult = Type.Object({
  source: Type.String(),
  date: Type.String(),
  trains: Type.Array(Train)
})
export type TicketsResult = Static<typeof TicketsResult>

export const Flight = Type.Object({
  flightNo: Type.String(),
  airline: Type.String(),
  from: Type.String({ description: 'Departure airport' }),
  to: Type.String({ description: 'Arrival airport' }),
  departs: Type.String({ description: 'YYYY-MM-DD HH:mm' }),
  arrives: Type.String({ description: 'YYYY-MM-DD HH:mm' }),
  priceCents: Type.Union([Cents, Type.Null()])
})
export type Flight = Static<typeof Flight>

export const FlightResult = Type.Object({
  source: Type.String(),
  date: Type.String(),
  flights: Type.Array(Flight)
})
export type FlightResult = Static<typeof FlightResult>

const tag = 'helpers'
const rules = `from and to differ; date not before today (China time); ${TRAVEL_LIMITS.perMinute} a minute per account; Juhe's refusal is a 422 with its message, an outage a 502.`
export const travelRoutes = {
  tickets: route({
    method: 'POST', url: '/api/queryTickets', auth: 'user', tag, body: TicketsRequest, data: TicketsResult,
    summary: 'Train tickets between two stations on a day (Juhe train ticket query)',
    description: `JUHE_TRAIN_KEY; 422 "not configured" without it; at most ${TRAVEL_LIMITS.trainDaysAhead} days ahead; ${rules}`
  }),
  flights: route({
    method: 'POST', url: '/api/queryFlight', auth: 'user', tag, body: FlightRequest, data: FlightResult,
    summary: 'Flights between two cities or airports on a day (Juhe flight query)',
    description: `JUHE_FLIGHT_KEY; 422 "not configured" without it; at most ${TRAVEL_LIMITS.flightDaysAhead} days ahead; ${rules}`
  })
}
