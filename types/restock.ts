/**
 * "Notify me when restocked" (issue 50 item 6): on a sold-out series a logged-in shopper asks to be told
 * when a new drop of it is announced (an operator creates one). In the mini-program by a subscription
 * message (WeChat grants one message per consent, asked for from the tap), otherwise by mail: the
 * channels, statuses and sweep of the launch events' reminders (types/events.ts).
 *
 *   waiting (no drop yet) --a drop is created--> due at once --claimed--> sending --> sent | failed;
 *   cancelled by the shopper while it waits. After it went, asking again waits for the next drop.
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { Email } from './accounts'
import { ReminderChannel, ReminderStatus } from './events'
import { Id, Nullable, Obj, Timestamp } from './schema'

export const RestockReminderView = Type.Object({
  channel: ReminderChannel,
  status: ReminderStatus,
  /** Mail: the address, masked. */
  email: Nullable(Type.String()),
  /** The start of the drop it announces (null: no drop yet). */
  dropStartsAt: Nullable(Timestamp)
})
export type RestockReminderView = Static<typeof RestockReminderView>

export const RestockSeriesRequest = Obj({ seriesId: Id })
export type RestockSeriesRequest = Static<typeof RestockSeriesRequest>

export const RestockReminderState = Type.Object({
  /** The channels open to the caller (none: the page offers no reminder). */
  channels: Type.Array(ReminderChannel),
  /** The subscription template the mini-program asks consent for (wx.requestSubscribeMessage); null: none. */
  wechatTemplateId: Nullable(Type.String()),
  /** Whether the caller's account has an e-mail address a mail reminder may use. */
  accountEmail: Type.Boolean(),
  /** The caller's request still to be sent (null: none). */
  mine: Nullable(RestockReminderView)
})
export type RestockReminderState = Static<typeof RestockReminderState>

export const RestockRemindRequest = Obj({
  seriesId: Id,
  channel: ReminderChannel,
  /** Mail: where to (absent: the account's address). */
  email: Type.Optional(Email)
})
export type RestockRemindRequest = Static<typeof RestockRemindRequest>

const tag = 'events'
export const restockRoutes = {
  state: route({
    method: 'POST', url: '/api/restockReminder', auth: 'user', tag, body: RestockSeriesRequest, data: RestockReminderState,
    summary: 'Whether the caller can be told when a sold-out series gets a new drop, and their request',
    description: '404 for a series that is not on sale.'
  }),
  remind: route({
    method: 'POST', url: '/api/restockRemind', auth: 'user', tag, body: RestockRemindRequest, data: RestockReminderView,
    summary: 'Be told once when a new drop of the series is announced',
    description: 'Asking again replaces the channel; one being sent is kept. 409 restock.dropAnnounced (with its startsAt) when a drop of the series is already waiting for its start, 409 restock.onSale when boxes can be bought now; 422 when the channel is not open to the caller, 400 on email for mail without an address.'
  }),
  cancel: route({
    method: 'POST', url: '/api/restockRemindCancel', auth: 'user', tag, body: RestockSeriesRequest, data: Nullable(RestockReminderView),
    summary: 'No longer be told (null: there was no request waiting)'
  })
}
