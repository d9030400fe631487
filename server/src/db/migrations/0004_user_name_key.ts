import { sql, type Kysely, type Migration } from 'kysely'
import { userNameKey } from '../../security/userNames'

/**
 * User names compared by one Unicode-aware key (security/userNames.ts) instead of lower(), which
 * folds only ASCII on SQLite and on PostgreSQL under locale C: "Ärger" could register but never log in
 * again, and "ölfass" could be registered beside "Ölfass".
 *
 * Existing rows get their key here. Names that lower() told apart but the key does not (both "Ölfass"
 * and "ölfass" registered before this migration) cannot all keep it, or the UNIQUE index could not be
 * built: the oldest account (lowest id) keeps the key, the later ones keep their name for display but
 * get no key, so they log in by phone, e-mail or code instead and the name logs into one account only.
 * (If userNameKey ever changes, a new migration must recompute the keys: this one ran with the old.)
 */
export function userNameKeys (): Migration {
  return {
    async up (db: Kysely<any>) {
      await db.schema.alterTable('users').addColumn('user_name_key', 'varchar(64)').execute()
      const rows = await db.selectFrom('users').select(['id', 'user_name']).where('user_name', 'is not', null).orderBy('id').execute()
      const claimed = new Set<string>()
      for (const row of rows) {
        const key = userNameKey(row.user_name)
        if (claimed.has(key)) continue
        claimed.add(key)
        await db.updateTable('users').set({ user_name_key: key }).where('id', '=', row.id).execute()
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
