/**
 * Reports on the player show that carry weight (issue 48). Accounts cost nothing to make, so a report
 * counts toward hiding (SHOW_LIMITS.reportsToHide) only from an account with something at stake: at least
 * SHOW_LIMITS.reportStakePurchases purchases when it reports. Any other report is recorded (operators see
 * it, with its reporter) and hides nothing.
 *
 * A report is kept after an operator's restore, marked reviewed (reviewed_at): it no longer counts, and
 * as there is one report per account and thing, its reporter cannot report the restored thing again.
 * Only reports from accounts that had not reported it count after a restore.
 *
 * Called by domain/show.ts (report, moderate, the moderation queue, a deleted account's erasure) inside
 * its transactions, with the reported row already held.
 */
import type { Kysely } from 'kysely'
import { SHOW_LIMITS } from '../../../../types/limits'
import type { ShowReportEntry, ShowReportReason, ShowTarget } from '../../../../types/show'
import type { Database } from '../../db/schema'
import { maskName } from '../prizes/prizes'

type Db = Kysely<Database>

/** Whether a report of this account counts toward hiding: it has bought at least reportStakePurchases times. */
export async function reporterHasStake (db: Db, userId: number): Promise<boolean> {
  const rows = await db.selectFrom('purchases').select('id').where('user_id', '=', userId).limit(SHOW_LIMITS.reportStakePurchases).execute()
  return rows.length >= SHOW_LIMITS.reportStakePurchases
}

/** Records the caller's report (once per account and thing); false when this account had reported it already. */
export async function recordReport (trx: Db, at: string, userId: number, r: { target: ShowTarget; id: number; reason: ShowReportReason; note: string | null }): Promise<boolean> {
  const weighted = await reporterHasStake(trx, userId)
  const added = await trx.insertInto('show_reports').values({
    target: r.target, target_id: r.id, user_id: userId, reason: r.reason, note: r.note, created_at: at, weighted: weighted ? 1 : 0, reviewed_at: null
  }).onConflict(oc => oc.columns(['target', 'target_id', 'user_id']).doNothing()).executeTakeFirst()
  return Number(added.numInsertedOrUpdatedRows ?? 0) > 0
}

/** The reports not yet dealt with: all of them (what the queue shows) and those that count toward hiding. */
export async function openReports (db: Db, target: ShowTarget, id: number): Promise<{ all: number; weighted: number }> {
  const row = await db.selectFrom('show_reports')
    .select(eb => [eb.fn.countAll<number>().as('all'), eb.fn.sum<number>('weighted').as('weighted')])
    .where('target', '=', target).where('target_id', '=', id).where('reviewed_at', 'is', null)
    .executeTakeFirstOrThrow()
  return { all: Number(row.all), weighted: Number(row.weighted ?? 0) }
}

/** Whether these open reports hide the thing until an operator looks. */
export const reportsHide = (open: { weighted: number }): boolean => open.weighted >= SHOW_LIMITS.reportsToHide

/** An operator's restore: the open reports are dealt with (kept, so their reporters cannot report again). */
export async function reviewReports (trx: Db, target: ShowTarget, id: number, at: string): Promise<void> {
  await trx.updateTable('show_reports').set({ reviewed_at: at }).where('target', '=', target).where('target_id', '=', id).where('reviewed_at', 'is', null).execute()
}

/** Per thing: its reports, newest first (at most SHOW_LIMITS.reportsShown), with the open ones' weighted count. */
export async function reportsOf (db: Db, target: ShowTarget, ids: number[]): Promise<Map<number, { entries: ShowReportEntry[]; weightedCount: number; open: Array<{ reason: ShowReportReason; note: string | null }> }>> {
  const out = new Map<number, { entries: ShowReportEntry[]; weightedCount: number; open: Array<{ reason: ShowReportReason; note: string | null }> }>()
  if (!ids.length) return out
  const rows = await db.selectFrom('show_reports')
    .leftJoin('users', 'users.id', 'show_reports.user_id')
    .select(['show_reports.target_id', 'show_reports.user_id', 'show_reports.reason', 'show_reports.note', 'show_reports.created_at',
      'show_reports.weighted', 'show_reports.reviewed_at', 'users.nickname', 'users.user_name'])
    .where('show_reports.target', '=', target).where('show_reports.target_id', 'in', ids)
    .orderBy('show_reports.id', 'desc').execute()
  for (const r of rows) {
    const id = Number(r.target_id)
    const bucket = out.get(id) ?? { entries: [], weightedCount: 0, open: [] }
    const weighted = Number(r.weighted) === 1
    const reviewed = r.reviewed_at !== null
    if (!reviewed) {
      bucket.open.push({ reason: r.reason, note: r.note })
      if (weighted) bucket.weightedCount++
    }
    if (bucket.entries.length < SHOW_LIMITS.reportsShown) {
      bucket.entries.push({
        reporterId: Number(r.user_id),
        reporterName: maskName(r.nickname || r.user_name),
        reason: r.reason,
        note: r.note,
        createdAt: r.created_at,
        weighted,
        reviewed
      })
    }
    out.set(id, bucket)
  }
  return out
}
