/**
 * The audit log: every operator change (price, odds, composition, recipes, settings, roles, shipments,
 * withdrawals; PRODUCT.md), one row each: who, when, what, and the state before and after.
 *
 * `detail` always holds `before` and `after` (null for a thing created or removed) and may carry more
 * context beside them (e.g. the shopper of a withdrawal). The editor's audit tab shows the fields that
 * differ between the two (GET through /api/operator/audit, domain/operators.ts).
 */
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'
import { iso, type Clock } from '../../core/clock'

export interface AuditDetail {
  before: unknown
  after: unknown
  [context: string]: unknown
}

export interface AuditEntry {
  /** null: the system (configuration at start-up, automatic steps). */
  actorId: number | null
  action: string
  entity: string
  entityId: number | null
  detail: AuditDetail
}

/** A value with the keys of every object sorted: two states compare equal whatever order they were built in. */
function canonical (v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical)
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map(k => [k, canonical((v as Record<string, unknown>)[k])]))
  return v
}

/** Whether an entry records no change: a before and an after that are the same state (e.g. a save of an unchanged series). */
export function changesNothing (detail: AuditDetail): boolean {
  if (detail.before === null || detail.before === undefined || detail.after === null || detail.after === undefined) return false
  return JSON.stringify(canonical(detail.before)) === JSON.stringify(canonical(detail.after))
}

/** Writes one entry; an entry whose before and after are the same is not written (it says nothing happened). */
export async function writeAudit (db: Kysely<Database>, clock: Clock, entry: AuditEntry): Promise<void> {
  if (changesNothing(entry.detail)) return
  await db.insertInto('audit_log').values({
    actor_id: entry.actorId,
    action: entry.action,
    entity: entry.entity,
    entity_id: entry.entityId,
    detail: JSON.stringify(entry.detail),
    created_at: iso(clock())
  }).execute()
}
