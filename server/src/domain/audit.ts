/** The audit log: operator changes of price, odds and composition (PRODUCT.md), one row each. */
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema'
import { iso, type Clock } from '../clock'

export interface AuditEntry {
  actorId: number | null
  action: string
  entity: string
  entityId: number | null
  detail: Record<string, unknown>
}

export async function writeAudit (db: Kysely<Database>, clock: Clock, entry: AuditEntry): Promise<void> {
  await db.insertInto('audit_log').values({
    actor_id: entry.actorId,
    action: entry.action,
    entity: entry.entity,
    entity_id: entry.entityId,
    detail: JSON.stringify(entry.detail),
    created_at: iso(clock())
  }).execute()
}
