/**
 * Parcel tracking through Kuaidi100 (spec 3, 5, 7, 8): the real-time query (poll/query.do) and the
 * map track (poll/maptrack.do). Both need a logged-in user (they spend Kuaidi100's quota) and count
 * against a per-user limit (429).
 *
 * Checks: carriers shunfeng and shunfengkuaiyun need the phone (or its last four digits) of the sender
 * or receiver: 400 on phone "必须提供手机号参数" (the app checks the same first).
 *
 * Failures: 422 `{provider}` with data `{provider: 'kuaidi100'}` when Kuaidi100 is not configured. An
 * inquiry Kuaidi100 refuses (result false: unknown carrier, no record yet, wrong phone ...) is a 422
 * with Kuaidi100's message and data `{provider, status}` (its returnCode); an outage is HTTP 502 `{code: 502}`.
 * The map call never fails that way (spec 8): it answers `success: false` with Kuaidi100's message,
 * or "接口请求失败" (in the caller's language) when Kuaidi100 could not be asked.
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { EXPRESS_LIMITS } from './limits'
import { Obj, Text } from './schema'

export { EXPRESS_LIMITS, EXPRESS_PHONE_CARRIERS } from './limits'

const Com = () => Type.String({ pattern: EXPRESS_LIMITS.comPattern, description: "Kuaidi100's carrier code (lower case), e.g. shunfeng, zhongtong, yuantong" })
const Num = () => Type.String({ pattern: EXPRESS_LIMITS.numPattern, description: 'The tracking number (letters, digits, -)' })
const Phone = Type.String({ pattern: EXPRESS_LIMITS.phonePattern, description: 'The phone of the sender or receiver, or its last four digits; needed for shunfeng and shunfengkuaiyun' })
const PlaceName = Text({ minLength: 1, maxLength: EXPRESS_LIMITS.placeMax, description: 'A city, e.g. 广东省深圳市' })

export const ExpressInquiryRequest = Obj({
  com: Com(),
  num: Num(),
  /** Kuaidi100's result version; 4: the detailed states. */
  resultv2: Type.Optional(Type.Literal(4)),
  phone: Type.Optional(Phone),
  from: Type.Optional(PlaceName),
  to: Type.Optional(PlaceName)
})
export type ExpressInquiryRequest = Static<typeof ExpressInquiryRequest>

export const ExpressMapRequest = Obj({
  com: Com(),
  num: Num(),
  /** Where the parcel left from; absent: the shop's own (SHIP_FROM_CITY on the server). */
  from: Type.Optional(PlaceName),
  to: PlaceName,
  /** Kuaidi100's result version for the map track. */
  resultv2: Type.Optional(Type.Literal(5)),
  phone: Type.Optional(Phone)
})
export type ExpressMapRequest = Static<typeof ExpressMapRequest>

/** One step of a parcel's journey. */
export const TrackEvent = Type.Object({
  /** Local time in China as Kuaidi100 gives it, 'YYYY-MM-DD HH:mm:ss'. */
  time: Type.String(),
  context: Type.String(),
  /** Kuaidi100's state text of this step (e.g. 揽收, 在途, 派件, 签收); '' when none. */
  status: Type.String(),
  /** Where it happened, when Kuaidi100 knows ('' otherwise). */
  location: Type.String()
})
export type TrackEvent = Static<typeof TrackEvent>

export const ExpressTrack = Type.Object({
  com: Type.String(),
  num: Type.String(),
  /** Kuaidi100's state code: 0 in transit, 1 picked up, 2 problem, 3 signed, 4 refused, 5 out for delivery, 6 returning, ... */
  state: Type.String(),
  /** Signed for: the journey is over. */
  delivered: Type.Boolean(),
  /** Newest first. */
  events: Type.Array(TrackEvent)
})
export type ExpressTrack = Static<typeof ExpressTrack>

const RoutePoint = Type.Object({
  name: Type.String(),
  adcode: Type.String(),
  /** The centre of the city named (GCJ-02), for a map; null when the name is not a city the server knows. */
  position: Type.Union([Type.Object({ latitude: Type.Number(), longitude: Type.Number() }), Type.Null()])
})

export const ExpressMapResult = Type.Union([
  Type.Object({
    success: Type.Literal(true),
    message: Type.String(),
    track: ExpressTrack,
    /** A page of Kuaidi100 that draws the parcel's journey on a map ('' when none). */
    trailUrl: Type.String(),
    /** Expected arrival, 'YYYY-MM-DD HH' as Kuaidi100 gives it ('' when unknown). */
    arrivalTime: Type.String(),
    totalTime: Type.String(),
    remainTime: Type.String(),
    route: Type.Object({ from: Type.Union([RoutePoint, Type.Null()]), current: Type.Union([RoutePoint, Type.Null()]), to: Type.Union([RoutePoint, Type.Null()]) })
  }),
  Type.Object({
    success: Type.Literal(false),
    /** Kuaidi100's message, or "接口请求失败" when it could not be asked. */
    message: Type.String()
  })
])
export type ExpressMapResult = Static<typeof ExpressMapResult>

const tag = 'express'

export const expressRoutes = {
  inquiry: route({
    method: 'POST', url: '/api/expressInquiry', auth: 'user', tag, body: ExpressInquiryRequest, data: ExpressTrack,
    summary: 'Track a parcel (Kuaidi100)',
    description: 'shunfeng and shunfengkuaiyun without phone: 400 "必须提供手机号参数". Kuaidi100 refuses: 422 with its message.'
  }),
  map: route({
    method: 'POST', url: '/api/expressMap', auth: 'user', tag, body: ExpressMapRequest, data: ExpressMapResult,
    summary: "A parcel's journey on a map (Kuaidi100)",
    description: 'Answers success false with Kuaidi100\'s message, or "接口请求失败", when the track cannot be had.'
  })
} as const
