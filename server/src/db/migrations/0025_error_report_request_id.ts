import type { Kysely, Migration } from 'kysely'

/**
 * Request ids (issue 26 item 5): an error report from the app names the request that failed (its
 * X-Request-Id), so the report and the server's log line of that request can be put side by side.
 *   error_reports.request_id   null when the error came from no request
 */
export function errorReportRequestId (): Migration {
  return {
    async up (db: Kysely<any>) {
      await db.schema.alterTable('error_reports').addColumn('request_id', 'varchar(64)').execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.alterTable('error_reports').dropColumn('request_id').execute()
    }
  }
}
