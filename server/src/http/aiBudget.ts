/**
 * A call that reaches a paid AI, picture, video or music provider spends one unit of the day's budget
 * (domain/aiBudget.ts) after its input was checked and its per-minute limit passed. When either budget
 * is used up the shopper is told so (422, data {reason: 'dailyBudget', scope: 'account' | 'shop'}) and
 * the provider is not called. The unit is given back only when the provider was never reached.
 */
import type { AppContext } from '../context'
import { giveBackAiBudget, providerNeverReached, takeAiBudget } from '../domain/ops/aiBudget'
import { settingsOf } from '../domain/ops/settings'
import { ApiFailure } from '../core/errors'

export interface AiTicket {
  /** Runs the provider call; its unit goes back when the error shows the provider was never reached. */
  call: <T>(fn: () => Promise<T>) => Promise<T>
}

export async function spendAiBudget (ctx: AppContext, userId: number): Promise<AiTicket> {
  const s = await settingsOf(ctx.db)
  const taken = await takeAiBudget(ctx.db, ctx.clock(), userId, { perAccount: s.aiDailyPerAccount, perShop: s.aiDailyPerShop })
  if (!taken.ok) throw new ApiFailure(422, taken.scope === 'account' ? 'ai.budget.account' : 'ai.budget.shop', {}, { reason: 'dailyBudget', scope: taken.scope })
  return {
    call: async fn => {
      try {
        return await fn()
      } catch (err) {
        if (providerNeverReached(err)) await giveBackAiBudget(ctx.db, taken.day, userId)
        throw err
      }
    }
  }
}
