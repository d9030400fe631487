import { sql, type Kysely, type Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

/**
 * The complaint channel (issue 10): what a shopper wrote, about what, where an answer may be mailed, and
 * the operator's answer. Listed per shopper newest first and per status for the operators.
 */
export function complaints (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      await db.schema.createTable('complaints')
        .$call(t.id)
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id'))
        .addColumn('topic', 'varchar(16)', c => c.notNull())
        .addColumn('text', 'varchar(1000)', c => c.notNull())
        .addColumn('contact', 'varchar(254)')
        .addColumn('reference', 'varchar(64)')
        .addColumn('status', 'varchar(16)', c => c.notNull())
        .addColumn('reply', 'varchar(1000)')
        .addColumn('replied_by', 'bigint', c => c.references('users.id'))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addColumn('replied_at', t.timestamp)
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('complaints_topic_check', sql`topic in ('order', 'prize', 'shipping', 'payment', 'account', 'other')`)
        .addCheckConstraint('complaints_status_check', sql`status in ('open', 'answered', 'closed')`)
        .execute()
      await db.schema.createIndex('complaints_user_idx').on('complaints').columns(['user_id', 'id']).execute()
      await db.schema.createIndex('complaints_status_idx').on('complaints').columns(['status', 'id']).execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.dropTable('complaints').execute()
    }
  }
}
