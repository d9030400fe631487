/**
 * Launch events (首发活动, issue 24; PRODUCT.md "Pickup, maps and launch events"): an operator announces
 * an offline launch of a series (city, venue with its location, start and end); its page shows the
 * venue on the map, the route there, and trains and flights to the city on the day (/api/queryTickets,
 * /api/queryFlight, from the shopper's city). A shopper may ask to be reminded: by the mini-program's
 * subscription message (WeChat, where the shop has a template and the shopper logged in through the
 * mini-program) or by mail; the reminder goes EVENT_LIMITS.remindBeforeMs before the start.
 *
 *   announced --cancel--> cancelled (waiting reminders are cancelled with it)
 *   reminder: waiting --claimed--> sending --> sent | failed; a provider outage puts it back to waiting
 *   (at most EVENT_LIMITS.sendAttempts tries); cancelled when the shopper or the event cancels.
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { CITY_NAMES } from './cities'
import { EVENT_LIMITS, PAGE_MAX } from './limits'
import { Email } from './accounts'
import { I18nText } from './shop'
import { Id, Nullable, Obj, PageResult, StringEnum, Text, Timestamp } from './schema'

export const EventStatus = StringEnum(['announced', 'cancelled'] as const)
export type EventStatus = Static<typeof EventStatus>
export const ReminderChannel = StringEnum(['wechat', 'mail'] as const, { description: 'wechat: the mini-program subscription message; mail: e-mail' })
export type ReminderChannel = Static<typeof ReminderChannel>
export const ReminderStatus = StringEnum(['waiting', 'sending', 'sent', 'failed', 'cancelled'] as const)
export type ReminderStatus = Static<typeof ReminderStatus>

const CityName = StringEnum(CITY_NAMES, { description: 'A city of types/cities.ts, by its Chinese name' })
const Bilingual = (maxLength: number) => Obj({ zh: Text({ minLength: 1, maxLength }), en: Text({ minLength: 1, maxLength }) })

export const LaunchEvent = Type.Object({
  id: Type.Integer(),
  seriesId: Type.Integer(),
  seriesTitle: I18nText,
  seriesCover: Nullable(Type.String()),
  title: I18nText,
  /** The city (types/cities.ts): its names, the train query's name and the flight query's code. */
  city: Type.Object({ zh: Type.String(), en: Type.String(), station: Type.String(), airport: Nullable(Type.String()) }),
  venue: Type.String(),
  address: Type.String(),
  latitude: Type.Number(),
  longitude: Type.Number(),
  startsAt: Timestamp,
  endsAt: Timestamp,
  status: EventStatus
})
export type LaunchEvent = Static<typeof LaunchEvent>

export const ReminderView = Type.Object({
  channel: ReminderChannel,
  status: ReminderStatus,
  /** When it goes (or went). */
  remindAt: Timestamp,
  /** Mail: the address, masked. */
  email: Nullable(Type.String())
})
export type ReminderView = Static<typeof ReminderView>

export const EventListRequest = Obj({
  /** Only this series' events. */
  seriesId: Type.Optional(Id),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_MAX }))
})
export type EventListRequest = Static<typeof EventListRequest>
export const EventListResult = PageResult(LaunchEvent)
export type EventListResult = Static<typeof EventListResult>

export const EventIdRequest = Obj({ eventId: Id })
export type EventIdRequest = Static<typeof EventIdRequest>

export const EventDetail = Type.Object({
  event: LaunchEvent,
  /** The H5 web map (as /api/pickupPoints): null when the shop has none. */
  webMap: Nullable(Type.Object({ provider: Type.Literal('tencentMap'), script: Type.String() })),
  /** Which driving route the page asks for; null: none configured. */
  routeProvider: Nullable(StringEnum(['tencentMap', 'amap'] as const)),
  /** Which travel queries the shop can answer. */
  travel: Type.Object({ trains: Type.Boolean(), flights: Type.Boolean() }),
  reminder: Type.Object({
    /** The channels open to the caller (none: the page offers no reminder). */
    channels: Type.Array(ReminderChannel),
    /** The subscription template the mini-program asks consent for (wx.requestSubscribeMessage); null: none. */
    wechatTemplateId: Nullable(Type.String()),
    /** Whether the caller's account has an e-mail address a mail reminder may use. */
    accountEmail: Type.Boolean(),
    /** The caller's reminder (null: none, or not logged in). */
    mine: Nullable(ReminderView)
  })
})
export type EventDetail = Static<typeof EventDetail>

export const EventRemindRequest = Obj({
  eventId: Id,
  channel: ReminderChannel,
  /** Mail: where to (absent: the account's address). */
  email: Type.Optional(Email)
})
export type EventRemindRequest = Static<typeof EventRemindRequest>

// ---- the operator's side --------------------------------------------------------------------------

export const EventSaveRequest = Obj({
  /** Absent: a new event. */
  id: Type.Optional(Id),
  seriesId: Id,
  title: Bilingual(EVENT_LIMITS.titleMax),
  city: CityName,
  venue: Text({ minLength: 1, maxLength: EVENT_LIMITS.venueMax, description: 'e.g. 静安嘉里中心 B1 中庭' }),
  address: Text({ minLength: 1, maxLength: EVENT_LIMITS.addressMax }),
  latitude: Type.Number({ minimum: -90, maximum: 90, description: 'degrees, GCJ-02' }),
  longitude: Type.Number({ minimum: -180, maximum: 180, description: 'degrees, GCJ-02' }),
  startsAt: Timestamp,
  endsAt: Timestamp,
  /** cancelled: called off (its waiting reminders are cancelled; it cannot be announced again). */
  status: Type.Optional(EventStatus)
})
export type EventSaveRequest = Static<typeof EventSaveRequest>

export const OperatorEvent = Type.Object({
  ...LaunchEvent.properties,
  reminders: Type.Object({ waiting: Type.Integer(), sent: Type.Integer(), failed: Type.Integer() })
})
export type OperatorEvent = Static<typeof OperatorEvent>

export const OperatorEventListRequest = Obj({ page: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_MAX })) })
export const OperatorEventListResult = PageResult(OperatorEvent)
export type OperatorEventListResult = Static<typeof OperatorEventListResult>

const tag = 'events'
export const eventRoutes = {
  list: route({
    method: 'POST', url: '/api/events', auth: 'none', tag, body: EventListRequest, data: EventListResult,
    summary: 'Launch events to come (not yet ended, not cancelled), soonest first',
    description: `${EVENT_LIMITS.pageSize} per page.`
  }),
  detail: route({
    method: 'POST', url: '/api/eventDetail', auth: 'optional', tag, body: EventIdRequest, data: EventDetail,
    summary: 'One launch event, with what its page can offer the caller (map, route, travel, reminder)',
    description: 'A cancelled event is answered (its page says so); an unknown one is a 404.'
  }),
  remind: route({
    method: 'POST', url: '/api/eventRemind', auth: 'user', tag, body: EventRemindRequest, data: ReminderView,
    summary: 'Be reminded of an event before it starts',
    description: 'Asking again replaces the channel. 422 when the event has started or is cancelled, when the channel is not open to the caller (wechat: no mini-program login or no template; mail: no mailer), or mail without an address.'
  }),
  remindCancel: route({
    method: 'POST', url: '/api/eventRemindCancel', auth: 'user', tag, body: EventIdRequest, data: Nullable(ReminderView),
    summary: 'No longer be reminded (null: there was no reminder waiting)'
  }),
  operatorList: route({
    method: 'POST', url: '/api/operator/events', auth: 'operator', tag, body: OperatorEventListRequest, data: OperatorEventListResult,
    summary: 'Every launch event, newest start first, with its reminders counted'
  }),
  operatorSave: route({
    method: 'POST', url: '/api/operator/eventSave', auth: 'operator', tag, body: EventSaveRequest, data: OperatorEvent,
    summary: 'Announce, change or cancel a launch event (audited)',
    description: 'The series must be on sale; the end after the start, within 7 days of it; a new or moved start in the future and within a year. Moving the start moves the waiting reminders; cancelling cancels them.'
  })
}
