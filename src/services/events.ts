/**
 * Launch events (types/events.ts): the list, an event's page, the shopper's reminder, and the
 * operator's list and save.
 */
import type { EventDetail, EventListResult, EventSaveRequest, eventRoutes, OperatorEvent, OperatorEventListResult, ReminderChannel, ReminderView } from '~types/events'
import { postRoute } from './request'

type R = typeof eventRoutes

export const eventsApi = {
  list: (q: { seriesId?: number; page?: number } = {}): Promise<EventListResult> => postRoute<R['list']>('/api/events', q),
  detail: (eventId: number): Promise<EventDetail> => postRoute<R['detail']>('/api/eventDetail', { eventId }),
  remind: (eventId: number, channel: ReminderChannel, email?: string): Promise<ReminderView> =>
    postRoute<R['remind']>('/api/eventRemind', { eventId, channel, ...(email ? { email: email.trim() } : {}) }),
  remindCancel: (eventId: number): Promise<ReminderView | null> => postRoute<R['remindCancel']>('/api/eventRemindCancel', { eventId }),
  operatorList: (page = 1): Promise<OperatorEventListResult> => postRoute<R['operatorList']>('/api/operator/events', { page }),
  save: (req: EventSaveRequest): Promise<OperatorEvent> => postRoute<R['operatorSave']>('/api/operator/eventSave', req)
}
