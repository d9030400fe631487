/**
 * Launch events (types/events.ts; domain/events.ts): the shoppers' list, page and reminders, and the
 * operators' list and save.
 */
import { eventRoutes as r } from '../../../types/events'
import type { Api, AppContext } from '../context'
import { cancelReminder, eventDetail, listEvents, operatorEvents, remind, saveEvent } from '../domain/events/events'
import { defineRoute } from '../http/route'

export function eventRoutesOf (app: Api, ctx: AppContext): void {
  const { db, clock } = ctx
  defineRoute(app, ctx, r.list, async ({ body }) => listEvents(db, clock, body))
  defineRoute(app, ctx, r.detail, async ({ body, userId }) => eventDetail(ctx, body.eventId, userId || null))
  defineRoute(app, ctx, r.remind, async ({ body, userId, request }) => remind(ctx, userId, request.locale === 'en' ? 'en' : 'zh', body))
  defineRoute(app, ctx, r.remindCancel, async ({ body, userId }) => cancelReminder(db, clock, userId, body.eventId))
  defineRoute(app, ctx, r.operatorList, async ({ body }) => operatorEvents(db, body.page ?? 1))
  defineRoute(app, ctx, r.operatorSave, async ({ body, userId }) => saveEvent(db, clock, userId, body))
}
