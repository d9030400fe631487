import { sql, type Kysely, type Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

/** Accounts: users, third-party identities, sessions, one-time codes, rate limits, error reports. */
export function accounts (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      await db.schema.createTable('users')
        .$call(t.id)
        .addColumn('user_name', 'varchar(100)')
        .addColumn('phone', 'varchar(20)', c => c.unique())
        .addColumn('email', 'varchar(254)', c => c.unique())
        .addColumn('nickname', 'varchar(100)', c => c.notNull())
        .addColumn('avatar', 'varchar(500)')
        .addColumn('role', 'varchar(16)', c => c.notNull().defaultTo('shopper'))
        .addColumn('password_hash', 'varchar(200)')
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('users_role_check', sql`role in ('shopper', 'operator')`)
        .execute()
      // user names are unique whatever their case (no "Alice" beside "alice")
      await db.schema.createIndex('users_user_name_lower_key').unique().on('users')
        .expression(sql`lower(user_name)`).execute()

      await db.schema.createTable('identities')
        .$call(t.id)
        .addColumn('provider', 'varchar(32)', c => c.notNull())
        .addColumn('subject', 'varchar(128)', c => c.notNull())
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addUniqueConstraint('identities_provider_subject_key', ['provider', 'subject'])
        .execute()
      await db.schema.createIndex('identities_user_id_idx').on('identities').column('user_id').execute()

      await db.schema.createTable('sessions')
        .$call(t.id)
        .addColumn('token_hash', 'varchar(64)', c => c.notNull().unique())
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addColumn('last_seen_at', t.timestamp, c => c.notNull())
        .addColumn('expires_at', t.timestamp, c => c.notNull())
        .addColumn('revoked_at', t.timestamp)
        .addColumn('user_agent', 'varchar(300)')
        .addColumn('ip', 'varchar(64)')
        .execute()
      await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute()
      await db.schema.createIndex('sessions_expires_at_idx').on('sessions').column('expires_at').execute()

      await db.schema.createTable('one_time_codes')
        .$call(t.id)
        .addColumn('purpose', 'varchar(32)', c => c.notNull())
        .addColumn('target', 'varchar(254)', c => c.notNull())
        .addColumn('code_hash', 'varchar(64)', c => c.notNull())
        .addColumn('expires_at', t.timestamp, c => c.notNull())
        .addColumn('attempts', 'integer', c => c.notNull().defaultTo(0))
        .addColumn('used_at', t.timestamp)
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .execute()
      await db.schema.createIndex('one_time_codes_target_idx').on('one_time_codes')
        .columns(['purpose', 'target', 'created_at']).execute()

      await db.schema.createTable('rate_limits')
        .addColumn('key', 'varchar(300)', c => c.primaryKey())
        .addColumn('tat', 'bigint', c => c.notNull())
        .execute()
      await db.schema.createIndex('rate_limits_tat_idx').on('rate_limits').column('tat').execute()

      await db.schema.createTable('error_reports')
        .$call(t.id)
        .addColumn('error_message', 'text', c => c.notNull())
        .addColumn('path', 'varchar(500)', c => c.notNull())
        .addColumn('type', 'varchar(50)', c => c.notNull())
        .addColumn('sub_source', 'varchar(50)', c => c.notNull())
        .addColumn('app_id', 'varchar(100)', c => c.notNull())
        .addColumn('user_id', 'bigint', c => c.references('users.id').onDelete('set null'))
        .addColumn('ip', 'varchar(64)')
        .addColumn('user_agent', 'varchar(300)')
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .execute()
      await db.schema.createIndex('error_reports_created_at_idx').on('error_reports').column('created_at').execute()
    },
    async down (db: Kysely<any>) {
      for (const table of ['error_reports', 'rate_limits', 'one_time_codes', 'sessions', 'identities', 'users']) {
        await db.schema.dropTable(table).execute()
      }
    }
  }
}
