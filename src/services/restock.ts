/** "Notify me when restocked" (types/restock.ts): the caller's request on a sold-out series. */
import type { ReminderChannel } from '~types/events'
import type { restockRoutes } from '~types/restock'
import { postRoute } from './request'

type R = typeof restockRoutes

export const restockApi = {
  state: (seriesId: number) => postRoute<R['state']>('/api/restockReminder', { seriesId }),
  remind: (seriesId: number, channel: ReminderChannel, email?: string) =>
    postRoute<R['remind']>('/api/restockRemind', { seriesId, channel, ...(email ? { email: email.trim() } : {}) }),
  cancel: (seriesId: number) => postRoute<R['cancel']>('/api/restockRemindCancel', { seriesId })
}
