import type { Kysely, Migration } from 'kysely'

/**
 * Roles and the audit log viewer (issue 10): the audit log is read newest first, by entity or by actor
 * (audit_log_entity_idx already covers the entity), and the operators are counted when a role is
 * revoked (never the last one).
 */
export function operators (): Migration {
  return {
    async up (db: Kysely<any>) {
      await db.schema.createIndex('audit_log_actor_idx').on('audit_log').columns(['actor_id', 'id']).execute()
      await db.schema.createIndex('users_role_idx').on('users').column('role').execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.dropIndex('users_role_idx').execute()
      await db.schema.dropIndex('audit_log_actor_idx').execute()
    }
  }
}
