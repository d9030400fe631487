import { sql, type Kysely, type Migration } from 'kysely'
import { userNameKey } from '../../security/userNames'

/**
 * User names compared by one Unicode-aware key (security/userNames.ts) instead of lower(), which
 * folds only ASCII on SQLite and on PostgreSQL under locale C: "Ärger" could register but never log in
 * again, and "ölfass" could be registered beside "Ölfass".
 */
export function userNameKeys (): Migration {
  return {
    async up (db: Kysely<any>) {
      await db.schema.alterTable('users').addColumn('user_name_key', 'varchar(64)').execute()
      const rows = await db.selectFrom('users').select(['id', 'user_name']).where('user_name', 'is not', null).execute()
      for (const row of rows) {
        await db.updateTable('users').set({ user_name_key: userNameKey(row.user_name) }).where('id', '=', row.id).execute()
      }
      await db.schema.dropIndex('users_user_name_lower_key').execute()
      await db.schema.createIndex('users_user_name_key').unique().on('users').column('user_name_key').execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.dropIndex('users_user_name_key').execute()
      await db.schema.createIndex('users_user_name_lower_key').unique().on('users').expression(sql`lower(user_name)`).execute()
      await db.schema.alterTable('users').dropColumn('user_name_key').execute()
    }
  }
}
