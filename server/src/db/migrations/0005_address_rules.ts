import { sql, type Kysely, type Migration } from 'kysely'

/**
 * At most one default address per user, as a database rule too: a partial unique index (the table
 * API also locks the owner's row around its writes, which keeps the cap of 20 under concurrency).
 */
export function addressRules (): Migration {
  return {
    async up (db: Kysely<any>) {
      // an older race may have left several defaults: keep the newest
      await sql`update addresses set is_default = 0 where is_default = 1 and id not in (
        select max(id) from addresses where is_default = 1 group by user_id)`.execute(db)
      await db.schema.createIndex('addresses_one_default_key').unique().on('addresses').column('user_id')
        .where(sql.ref('is_default'), '=', 1).execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.dropIndex('addresses_one_default_key').execute()
    }
  }
}
