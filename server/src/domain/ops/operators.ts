/**
 * Roles and the audit log (types/operators.ts).
 *
 * Roles: `shopper` and `operator` (users.role). The first operator comes from the configuration
 * (OPERATOR_ACCOUNTS, promoted at every start-up) or the demo seed; operators grant and revoke the
 * role. A revocation takes the operators' rows under lock (PostgreSQL) in one transaction, so two
 * operators revoking each other at once cannot leave the shop without one: the second waits, sees one
 * operator left and is refused. Each change is one audit row with the role before and after.
 *
 * The audit log is read newest first, by entity and by actor, with the actor's name.
 */
import { sql, type Kysely, type Selectable } from 'kysely'
import type { AuditActor, AuditEntryView, AuditListRequest, AuditListResponse, OperatorUserListRequest, OperatorUserView } from '../../../../types/operators'
import type { PageResult } from '../../../../types/schema'
import type { OperatorAccount } from '../../config'
import type { Database, Role, UsersTable } from '../../db/schema'
import type { Dialect } from '../../db/dialect'
import { forUpdate } from '../../db/lock'
import { iso, type Clock } from '../../core/clock'
import { fail } from '../../core/errors'
import { userNameKey } from '../../security/userNames'
import { findUserBy, maskEmail, maskPhone } from '../account/users'
import { writeAudit } from './audit'

type Db = Kysely<Database>
type UserRow = Selectable<UsersTable>

/** How an account is named to operators (in the audit log and its filters): nickname (user name). */
export function accountLabel (u: Pick<UserRow, 'id' | 'nickname' | 'user_name' | 'phone' | 'email'>): string {
  const handle = u.user_name ?? (u.phone ? maskPhone(u.phone) : u.email ? maskEmail(u.email) : `#${u.id}`)
  return u.nickname && u.nickname !== handle ? `${u.nickname} (${handle})` : handle
}

function userView (u: UserRow, callerId: number): OperatorUserView {
  return {
    id: Number(u.id),
    userName: u.user_name,
    nickname: u.nickname,
    phone: u.phone ? maskPhone(u.phone) : null,
    email: u.email ? maskEmail(u.email) : null,
    role: u.role,
    createdAt: u.created_at,
    self: Number(u.id) === callerId
  }
}

/** A LIKE pattern that matches `text` anywhere, its own % _ and \ taken literally. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, c => `\\${c}`)}%`

/** Accounts by user name, phone or e-mail (a part of one is enough), operators first. */
export async function listUsers (db: Db, callerId: number, q: OperatorUserListRequest): Promise<PageResult<OperatorUserView>> {
  const text = q.query?.trim() ?? ''
  // a deleted account is an anonymous row that only keeps its orders: nobody to find
  let query = db.selectFrom('users').where('deleted_at', 'is', null)
  if (q.role) query = query.where('role', '=', q.role)
  if (text) {
    const pattern = contains(text.toLowerCase())
    query = query.where(eb => eb.or([
      eb('user_name_key', '=', userNameKey(text)),
      sql<boolean>`lower(user_name) like ${pattern} escape '\\'`,
      sql<boolean>`phone like ${contains(text)} escape '\\'`,
      sql<boolean>`lower(email) like ${pattern} escape '\\'`
    ]))
  }
  const { total } = await query.select(eb => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow()
  const rows = await query.selectAll()
    // operators first
    .orderBy(sql`case when role = 'operator' then 0 else 1 end`).orderBy('id')
    .limit(q.size).offset((q.page - 1) * q.size)
    .execute()
  return { list: rows.map(u => userView(u, callerId)), total: Number(total) }
}

/**
 * Grants or revokes the operator role. Refused (422): an operator's own role, the last operator. The
 * same role again answers the account as it is, with no audit entry (a retried request).
 */
/**
 * The operators' ids, their rows locked until the transaction ends (PostgreSQL): whatever takes an
 * operator away (a revocation, a deleted account) takes this first, so that two at once count in turn.
 */
export async function lockOperators (trx: Db, dialect: Dialect): Promise<number[]> {
  const rows = await forUpdate(dialect, trx.selectFrom('users').select('id').where('role', '=', 'operator').orderBy('id')).execute()
  return rows.map(r => Number(r.id))
}

export async function setRole (db: Db, dialect: Dialect, clock: Clock, actorId: number, userId: number, role: Role): Promise<OperatorUserView> {
  return db.transaction().execute(async trx => {
    // every operator's row, locked: a concurrent revocation waits here and then counts again
    const operators = await lockOperators(trx, dialect)
    const target = await forUpdate(dialect, trx.selectFrom('users').selectAll().where('id', '=', userId)).executeTakeFirst()
    if (!target || target.deleted_at !== null) throw fail.notFound('operators.userNotFound')
    if (target.role === role) return userView(target, actorId)
    if (role === 'shopper') {
      if (Number(target.id) === actorId) throw fail.unprocessable('operators.selfRevoke', {}, { field: 'userId' })
      if (operators.length <= 1) throw fail.unprocessable('operators.lastOperator', {}, { field: 'userId' })
    }
    const updated = await trx.updateTable('users').set({ role, updated_at: iso(clock()) })
      .where('id', '=', userId).returningAll().executeTakeFirstOrThrow()
    await writeAudit(trx, clock, {
      actorId,
      action: role === 'operator' ? 'role.grant' : 'role.revoke',
      entity: 'user',
      entityId: userId,
      detail: { before: { role: target.role }, after: { role }, user: accountLabel(target) }
    })
    return userView(updated, actorId)
  })
}

export interface PromotionReport { promoted: string[]; already: string[]; missing: string[] }

/**
 * OPERATOR_ACCOUNTS at start-up: each named account becomes an operator (audited, by the system); an
 * account not found is reported (it is promoted at the next start after it signs up).
 */
export async function promoteConfiguredOperators (db: Db, clock: Clock, accounts: OperatorAccount[]): Promise<PromotionReport> {
  const report: PromotionReport = { promoted: [], already: [], missing: [] }
  for (const a of accounts) {
    const shown = a.kind === 'phone' ? maskPhone(a.value) : a.kind === 'email' ? maskEmail(a.value) : a.value
    const user = await findUserBy(db, a.kind, a.value)
    if (!user) {
      report.missing.push(shown)
      continue
    }
    const promoted = await db.transaction().execute(async trx => {
      const changed = await trx.updateTable('users').set({ role: 'operator', updated_at: iso(clock()) })
        .where('id', '=', user.id).where('role', '=', 'shopper').returning('id').executeTakeFirst()
      if (!changed) return false
      await writeAudit(trx, clock, {
        actorId: null,
        action: 'role.grant',
        entity: 'user',
        entityId: Number(user.id),
        detail: { before: { role: 'shopper' }, after: { role: 'operator' }, user: accountLabel(user), source: 'OPERATOR_ACCOUNTS' }
      })
      return true
    })
    ;(promoted ? report.promoted : report.already).push(shown)
  }
  return report
}

// ---- the audit log ----------------------------------------------------------------------------------

/** An entry's detail as before, after and the rest (rows older than the {before, after} rule: all of it is "after"). */
function splitDetail (raw: string): Pick<AuditEntryView, 'before' | 'after' | 'context'> {
  let detail: unknown
  try {
    detail = JSON.parse(raw)
  } catch {
    detail = raw
  }
  if (!detail || typeof detail !== 'object' || Array.isArray(detail)) return { before: null, after: detail ?? null, context: {} }
  const d = detail as Record<string, unknown>
  if (!('before' in d) && !('after' in d)) return { before: null, after: d, context: {} }
  const { before = null, after = null, ...context } = d
  return { before, after, context }
}

export async function listAudit (db: Db, q: AuditListRequest): Promise<AuditListResponse> {
  let query = db.selectFrom('audit_log')
  if (q.entity) query = query.where('audit_log.entity', '=', q.entity)
  if (q.actorId) query = query.where('audit_log.actor_id', '=', q.actorId)
  const { total } = await query.select(eb => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow()
  const rows = await query
    .leftJoin('users', 'users.id', 'audit_log.actor_id')
    .select(['audit_log.id', 'audit_log.actor_id', 'audit_log.action', 'audit_log.entity', 'audit_log.entity_id', 'audit_log.detail', 'audit_log.created_at',
      'users.nickname', 'users.user_name', 'users.phone', 'users.email'])
    .orderBy('audit_log.id', 'desc')
    .limit(q.size).offset((q.page - 1) * q.size)
    .execute()
  const entities = (await db.selectFrom('audit_log').select('entity').distinct().orderBy('entity').execute()).map(r => r.entity)
  const actorIds = (await db.selectFrom('audit_log').select('actor_id').where('actor_id', 'is not', null).distinct().execute()).map(r => Number(r.actor_id))
  const actorRows = actorIds.length
    ? await db.selectFrom('users').select(['id', 'nickname', 'user_name', 'phone', 'email']).where('id', 'in', actorIds).orderBy('id').execute()
    : []
  const actors: AuditActor[] = actorRows.map(u => ({ id: Number(u.id), name: accountLabel(u) }))
  return {
    list: rows.map(r => ({
      id: Number(r.id),
      at: r.created_at,
      actor: r.actor_id !== null && r.nickname !== null
        ? { id: Number(r.actor_id), name: accountLabel({ id: Number(r.actor_id), nickname: r.nickname, user_name: r.user_name, phone: r.phone, email: r.email }) }
        : null,
      action: r.action,
      entity: r.entity,
      entityId: r.entity_id === null ? null : Number(r.entity_id),
      ...splitDetail(r.detail)
    })),
    total: Number(total),
    entities,
    actors
  }
}
