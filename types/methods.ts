/**
 * The generic call (spec 7 `POST /api/{method_name}`; issue 11): an allow-list of named, read-only
 * server methods. The body is the method's own parameters, checked against its own schema after its own
 * authorization; any other name (unknown, inherited like `__proto__` or `constructor`, too long, not
 * ASCII) is the 404 of an unknown API, the same answer as a path that does not exist. The named helper
 * calls (`/api/queryTickets`, `/api/bijia_spu_search`, ...) are routes of their own and are matched
 * before this one: the generic call never shadows an existing /api/* route.
 *
 *  - `serverTime` (anyone): the server's time and today's date in China time;
 *  - `helperFeatures` (anyone): which helper providers this server has configured (the pages that use one
 *    hide or explain it when it is off);
 *  - `travelDates` (a logged-in user): the days /api/queryTickets and /api/queryFlight accept.
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { HELPER_METHOD_NAMES } from './limits'
import { Obj, Timestamp } from './schema'
import { HelpersAvailable } from './vision'

export const METHOD_NAMES = HELPER_METHOD_NAMES
export type MethodName = typeof METHOD_NAMES[number]

export const ServerTime = Type.Object({
  now: Timestamp,
  timeZone: Type.Literal('Asia/Shanghai'),
  /** Today in China time, YYYY-MM-DD. */
  today: Type.String()
})
export type ServerTime = Static<typeof ServerTime>

/** Which helpers are configured: the schema of POST /api/helpers (types/vision.ts). */
export const HelperFeatures = HelpersAvailable
export type HelperFeatures = HelpersAvailable

export const TravelDates = Type.Object({
  /** The first day a query accepts (today, China time). */
  first: Type.String(),
  lastTrain: Type.String(),
  lastFlight: Type.String()
})
export type TravelDates = Static<typeof TravelDates>

/** Each method: who may call it, its parameters and its answer. */
export const METHODS = {
  serverTime: { auth: 'none', params: Obj({}), data: ServerTime },
  helperFeatures: { auth: 'none', params: Obj({}), data: HelperFeatures },
  travelDates: { auth: 'user', params: Obj({}), data: TravelDates }
} as const satisfies Record<MethodName, { auth: 'none' | 'user'; params: ReturnType<typeof Obj>; data: unknown }>

export interface MethodResults { serverTime: ServerTime; helperFeatures: HelperFeatures; travelDates: TravelDates }

export const methodRoutes = {
  call: route({
    method: 'POST',
    url: '/api/:method_name',
    auth: 'optional',
    tag: 'helpers',
    params: Type.Object({ method_name: Type.String({ description: `One of ${METHOD_NAMES.join(', ')}` }) }),
    body: Type.Object({}, { additionalProperties: true, maxProperties: 20, description: 'The method\'s parameters (each method has its own schema; an unknown field is a 400)' }),
    data: Type.Union([ServerTime, HelperFeatures, TravelDates]),
    summary: 'The generic call: one of the allow-listed read-only methods by name',
    description: 'Methods: serverTime (anyone), helperFeatures (anyone), travelDates (logged in, else 401). Any other name is the 404 of an unknown API. The named /api/* routes are matched first and are never shadowed.'
  })
}
