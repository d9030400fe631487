import { sql, type Kysely, type Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

/**
 * A guardian's consent comes from the guardian (issue 21, item 20): a code sent by SMS to the
 * guardian's phone, which the minor enters. age_checks gains
 *   guardian_phone          the number the last code went to, in full, while consent is pending (to
 *                           send again and to check the code against); cleared once consent is given
 *   guardian_requested_at   when that code was sent
 *   guardian_phone_masked   138****0000: who consented, the only trace of the number kept afterwards
 *   guardian_consented_at   when; consent is given exactly when this is set
 * Decided: consents a minor ticked for themselves (guardian_consent = 1 before this migration) no
 * longer count. They are reset to 0 here, so such a minor is back to "not asked yet" and asks a
 * guardian by phone before the next purchase. guardian_consent stays (SQLite cannot drop a column a
 * CHECK names) and is kept equal to "guardian_consented_at is set" from now on.
 */
export function guardianConsent (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      await db.schema.alterTable('age_checks').addColumn('guardian_phone', 'text').execute()
      await db.schema.alterTable('age_checks').addColumn('guardian_requested_at', t.timestamp).execute()
      await db.schema.alterTable('age_checks').addColumn('guardian_phone_masked', 'text').execute()
      await db.schema.alterTable('age_checks').addColumn('guardian_consented_at', t.timestamp).execute()
      await sql`update age_checks set guardian_consent = 0 where guardian_consent <> 0`.execute(db)
    },
    async down (db: Kysely<any>) {
      // the consents given by guardians survive a downgrade as the old flag (already equal to it)
      for (const c of ['guardian_consented_at', 'guardian_phone_masked', 'guardian_requested_at', 'guardian_phone']) {
        await db.schema.alterTable('age_checks').dropColumn(c).execute()
      }
    }
  }
}
