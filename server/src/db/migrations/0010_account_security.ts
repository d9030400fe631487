import { sql, type Kysely, type Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

/**
 * Account security (issue 10, PRODUCT.md "Accounts", "Protecting shoppers"):
 *  - spending_limits: a shopper's own daily and monthly limits. `cents` is the limit in force (null:
 *    none). A raise (or removal) waits 24 hours: it sits in `pending_cents` (pending_set = 1) until
 *    `pending_at`, and is read as in force from then on. A lowering replaces `cents` at once.
 *  - birth_date_corrections: the one reviewed correction of a mistyped birth date a user may ask for.
 *  - sessions.app_type: which app a session came from (the APP_TYPE header), for the sessions list.
 *  - users.deleted_at: when the owner deleted the account (its personal data is gone; orders stay).
 */
export function accountSecurity (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      await db.schema.createTable('spending_limits')
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'varchar(8)', c => c.notNull())
        .addColumn('cents', 'bigint')
        .addColumn('pending_cents', 'bigint')
        .addColumn('pending_set', 'integer', c => c.notNull().defaultTo(0))
        .addColumn('pending_at', t.timestamp)
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .addPrimaryKeyConstraint('spending_limits_pkey', ['user_id', 'kind'])
        .addCheckConstraint('spending_limits_kind_check', sql`kind in ('daily', 'monthly')`)
        .addCheckConstraint('spending_limits_cents_check', sql`cents is null or cents >= 0`)
        .addCheckConstraint('spending_limits_pending_check', sql`pending_cents is null or pending_cents >= 0`)
        .execute()

      await db.schema.createTable('birth_date_corrections')
        .$call(t.id)
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('old_birth_date', 'varchar(10)', c => c.notNull())
        .addColumn('new_birth_date', 'varchar(10)', c => c.notNull())
        .addColumn('reason', 'varchar(500)', c => c.notNull())
        .addColumn('status', 'varchar(10)', c => c.notNull())
        .addColumn('reviewer_id', 'bigint', c => c.references('users.id'))
        .addColumn('review_note', 'varchar(500)')
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addColumn('reviewed_at', t.timestamp)
        .addCheckConstraint('birth_date_corrections_status_check', sql`status in ('pending', 'approved', 'rejected')`)
        .execute()
      // one correction per user, ever (PRODUCT.md): the database says so, whatever races
      await db.schema.createIndex('birth_date_corrections_user_key').unique().on('birth_date_corrections').column('user_id').execute()
      await db.schema.createIndex('birth_date_corrections_status_idx').on('birth_date_corrections').columns(['status', 'id']).execute()

      await db.schema.alterTable('sessions').addColumn('app_type', 'varchar(32)').execute()
      await db.schema.alterTable('users').addColumn('deleted_at', t.timestamp).execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.alterTable('users').dropColumn('deleted_at').execute()
      await db.schema.alterTable('sessions').dropColumn('app_type').execute()
      await db.schema.dropTable('birth_date_corrections').execute()
      await db.schema.dropTable('spending_limits').execute()
    }
  }
}
