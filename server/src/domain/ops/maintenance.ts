/**
 * Periodic work: used-up sessions, old codes and full rate-limit allowances are purged; shipped parcels
 * nobody confirmed count as received after 10 days; a guardian's number of a request nobody confirmed
 * is forgotten after GUARDIAN_PENDING_KEEP_MS; the bucket copies of deleted accounts' photos that could
 * not be deleted at once are deleted; AI usage counts of days long gone are deleted.
 */
import type { Logger } from '../../core/logger'
import type { Db } from '../../db'
import type { Clock } from '../../core/clock'
import type { RateLimiter } from '../../security/rateLimiter'
import type { SessionService } from '../account/sessions'
import type { OneTimeCodes } from '../account/codes'
import type { MediaStore } from '../media/mediaStore'
import { autoReceive } from '../prizes/afterDraw'
import { forgetStaleGuardianRequests } from '../account/age'
import { eraseMediaObjects } from '../media/mediaStore'
import { purgeAiUsage } from './aiBudget'

/** What the periodic work needs of the app (AppContext has it all). */
export interface MaintenanceContext {
  db: Db
  clock: Clock
  sessions: SessionService
  codes: OneTimeCodes
  limiter: RateLimiter
  media: MediaStore
}

export const MAINTENANCE_INTERVAL_MS = 10 * 60 * 1000

export async function runMaintenance (ctx: MaintenanceContext): Promise<void> {
  await ctx.sessions.purge()
  await ctx.codes.purge()
  await ctx.limiter.purge()
  await autoReceive(ctx.db, ctx.clock)
  await forgetStaleGuardianRequests(ctx.db, ctx.clock)
  await eraseMediaObjects(ctx.db, ctx.media)
  await purgeAiUsage(ctx.db, ctx.clock())
}

export function startMaintenance (ctx: MaintenanceContext, log: Logger, intervalMs = MAINTENANCE_INTERVAL_MS): () => void {
  let running = false
  const timer = setInterval(() => {
    if (running) return
    running = true
    runMaintenance(ctx)
      .catch(err => log.error({ err }, 'maintenance failed'))
      .finally(() => { running = false })
  }, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
