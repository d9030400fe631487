import { sql, type Kysely, type Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

/**
 * Reports that carry weight (issue 48): three accounts made seconds before, with nothing bought, could
 * hide any post, and hide it again after an operator restored it (a restore deleted the reports, so the
 * same accounts reported afresh).
 *
 *  weighted     1 when the reporter had something at stake when reporting (SHOW_LIMITS.reportStakePurchases
 *               purchases: domain/showReports.ts); only these count toward hiding. Reports already given
 *               are weighed by the same rule here.
 *  reviewed_at  when an operator's restore dealt with it. The report is kept (one per account and thing),
 *               so its reporter cannot report the restored thing again; only reports given since count.
 */
export function showReportWeight (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      await db.schema.alterTable('show_reports').addColumn('weighted', 'integer', c => c.notNull().defaultTo(0)).execute()
      await db.schema.alterTable('show_reports').addColumn('reviewed_at', t.timestamp).execute()
      await sql`update show_reports set weighted = 1 where (select count(*) from purchases p where p.user_id = show_reports.user_id) >= 1`.execute(db)
      await db.schema.createIndex('show_reports_target_idx').on('show_reports').columns(['target', 'target_id', 'reviewed_at']).execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.dropIndex('show_reports_target_idx').execute()
      await db.schema.alterTable('show_reports').dropColumn('reviewed_at').execute()
      await db.schema.alterTable('show_reports').dropColumn('weighted').execute()
    }
  }
}
