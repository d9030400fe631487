/**
 * Periodic work: used-up sessions, old codes and full rate-limit allowances are purged; shipped parcels
 * nobody confirmed count as received after 10 days; a guardian's number of a request nobody confirmed
 * is forgotten after GUARDIAN_PENDING_KEEP_MS; the bucket copies of deleted accounts' photos that could
 * not be deleted at once are deleted; AI usage counts of days long gone are deleted.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { AppContext } from '../context'
import { autoReceive } from './afterDraw'
import { forgetStaleGuardianRequests } from './age'
import { eraseMediaObjects } from './mediaStore'
import { purgeAiUsage } from './aiBudget'

export const MAINTENANCE_INTERVAL_MS = 10 * 60 * 1000

export async function runMaintenance (ctx: AppContext): Promise<void> {
  await ctx.sessions.purge()
  await ctx.codes.purge()
  await ctx.limiter.purge()
  await autoReceive(ctx.db, ctx.clock)
  await forgetStaleGuardianRequests(ctx.db, ctx.clock)
  await eraseMediaObjects(ctx.db, ctx.media)
  await purgeAiUsage(ctx.db, ctx.clock())
}

export function startMaintenance (ctx: AppContext, log: FastifyBaseLogger, intervalMs = MAINTENANCE_INTERVAL_MS): () => void {
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
