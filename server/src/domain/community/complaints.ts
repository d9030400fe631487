/**
 * The complaint channel (issue 10; types/complaints.ts).
 *
 *   file     one INSERT under the request's idempotency key (a retry after a lost answer is the same
 *            complaint, never a second one); the route alerts the operators after the commit
 *   reply    open | answered -> answered, with the reply (a new one replaces the old); the row is
 *            locked first (PostgreSQL), so two operators answering at once are applied one after the
 *            other and each audit row holds the state it really replaced
 *   close    open | answered -> closed
 *   closed is final: reply and close answer 409 with the status; every change is audited with the
 *   state before and after
 */
import type { Kysely, Selectable } from 'kysely'
import type {
  ComplaintCounts, ComplaintCreateRequest, ComplaintStatus, ComplaintStatusData, ComplaintView, OperatorComplaintListRequest,
  OperatorComplaintListResponse, OperatorComplaintView
} from '../../../../types/complaints'
import type { PageResult } from '../../../../types/schema'
import type { ComplaintsTable, Database } from '../../db/schema'
import type { Dialect } from '../../db/dialect'
import { forUpdate } from '../../db/lock'
import { iso, type Clock } from '../../core/clock'
import { ApiFailure, fail } from '../../core/errors'
import { writeAudit } from '../ops/audit'
import { idempotent } from '../money/idempotency'
import { ownOrder } from '../money/orderHistory'

type Db = Kysely<Database>
type ComplaintRow = Selectable<ComplaintsTable>

export interface ComplaintDeps { db: Db; dialect: Dialect; clock: Clock }

export function complaintView (c: ComplaintRow): ComplaintView {
  return {
    id: Number(c.id),
    topic: c.topic,
    text: c.text,
    contact: c.contact,
    orderNo: c.reference,
    status: c.status,
    reply: c.reply,
    createdAt: c.created_at,
    repliedAt: c.replied_at,
    closedAt: c.closed_at
  }
}

interface UserBits { nickname: string; user_name: string | null; phone: string | null; email: string | null }
const userLabel = (id: number, u: UserBits) => `${u.nickname} (${u.user_name ?? u.phone ?? u.email ?? `#${id}`})`

function operatorViewOf (c: ComplaintRow, u: UserBits): OperatorComplaintView {
  return { ...complaintView(c), userId: Number(c.user_id), userLabel: userLabel(Number(c.user_id), u) }
}

async function operatorView (db: Db, id: number): Promise<OperatorComplaintView> {
  const row = await db.selectFrom('complaints').innerJoin('users', 'users.id', 'complaints.user_id')
    .selectAll('complaints').select(['users.nickname', 'users.user_name', 'users.phone', 'users.email'])
    .where('complaints.id', '=', id).executeTakeFirstOrThrow()
  return operatorViewOf(row, row)
}

// ---- the shopper's side ----------------------------------------------------------------------------

export async function fileComplaint (deps: ComplaintDeps, userId: number, request: ComplaintCreateRequest): Promise<{ result: ComplaintView; replayed: boolean }> {
  const { db, clock } = deps
  const { idempotencyKey, ...body } = request
  // a picked order must be the caller's own; its number is what is kept
  const reference = body.related ? (await ownOrder(db, userId, body.related, 'related')).number : body.orderNo ?? null
  return idempotent(db, clock, { userId, key: idempotencyKey, scope: 'complaintCreate', body }, async trx => {
    const at = iso(clock())
    const row = await trx.insertInto('complaints').values({
      user_id: userId,
      topic: body.topic,
      text: body.text.trim(),
      contact: body.contact?.trim().toLowerCase() ?? null,
      reference,
      status: 'open',
      reply: null,
      replied_by: null,
      closed_by: null,
      created_at: at,
      replied_at: null,
      closed_at: null,
      updated_at: at
    }).returningAll().executeTakeFirstOrThrow()
    return complaintView(row)
  })
}

export async function ownComplaints (db: Db, userId: number, page: number, size: number): Promise<PageResult<ComplaintView>> {
  const { total } = await db.selectFrom('complaints').select(eb => eb.fn.countAll<number>().as('total'))
    .where('user_id', '=', userId).executeTakeFirstOrThrow()
  const rows = await db.selectFrom('complaints').selectAll().where('user_id', '=', userId)
    .orderBy('id', 'desc').limit(size).offset((page - 1) * size).execute()
  return { list: rows.map(complaintView), total: Number(total) }
}

// ---- the operators' side ---------------------------------------------------------------------------

export async function complaintQueue (db: Db, q: OperatorComplaintListRequest): Promise<OperatorComplaintListResponse> {
  const byStatus = await db.selectFrom('complaints').select(['status', eb => eb.fn.countAll<number>().as('n')]).groupBy('status').execute()
  const counts: ComplaintCounts = { open: 0, answered: 0, closed: 0 }
  for (const r of byStatus) counts[r.status] = Number(r.n)
  const total = q.status ? counts[q.status] : counts.open + counts.answered + counts.closed
  let rows = db.selectFrom('complaints').innerJoin('users', 'users.id', 'complaints.user_id')
    .selectAll('complaints').select(['users.nickname', 'users.user_name', 'users.phone', 'users.email'])
  if (q.status) rows = rows.where('complaints.status', '=', q.status)
  const list = await rows.orderBy('complaints.id', 'desc').limit(q.size).offset((q.page - 1) * q.size).execute()
  return { list: list.map(r => operatorViewOf(r, r)), total, counts }
}

const closedFailure = (status: ComplaintStatus) =>
  new ApiFailure(409, 'complaint.closed', {}, { status } satisfies ComplaintStatusData)

/** The complaint, locked for the rest of the transaction; 404 when there is none, 409 when it is closed. */
async function lockOpen (trx: Db, dialect: Dialect, id: number): Promise<ComplaintRow> {
  const row = await forUpdate(dialect, trx.selectFrom('complaints').selectAll().where('id', '=', id)).executeTakeFirst()
  if (!row) throw fail.notFound('complaint.notFound')
  if (row.status === 'closed') throw closedFailure(row.status)
  return row
}

export async function replyToComplaint (deps: ComplaintDeps, operatorId: number, id: number, reply: string, needsContact: boolean): Promise<OperatorComplaintView> {
  const { db, dialect, clock } = deps
  await db.transaction().execute(async trx => {
    const before = await lockOpen(trx, dialect, id)
    if (needsContact && !before.contact) throw fail.unprocessable('complaint.noContact', {}, { field: 'mailContact', reason: 'no_contact' })
    const at = iso(clock())
    const text = reply.trim()
    await trx.updateTable('complaints')
      .set({ status: 'answered', reply: text, replied_by: operatorId, replied_at: at, updated_at: at })
      .where('id', '=', id).where('status', '!=', 'closed').execute()
    await writeAudit(trx, clock, {
      actorId: operatorId, action: 'complaint.reply', entity: 'complaint', entityId: id,
      detail: { before: { status: before.status, reply: before.reply }, after: { status: 'answered', reply: text }, userId: Number(before.user_id) }
    })
  })
  return operatorView(db, id)
}

export async function closeComplaint (deps: ComplaintDeps, operatorId: number, id: number): Promise<OperatorComplaintView> {
  const { db, dialect, clock } = deps
  await db.transaction().execute(async trx => {
    const before = await lockOpen(trx, dialect, id)
    const at = iso(clock())
    await trx.updateTable('complaints')
      .set({ status: 'closed', closed_by: operatorId, closed_at: at, updated_at: at })
      .where('id', '=', id).where('status', '!=', 'closed').execute()
    await writeAudit(trx, clock, {
      actorId: operatorId, action: 'complaint.close', entity: 'complaint', entityId: id,
      detail: { before: { status: before.status }, after: { status: 'closed' }, userId: Number(before.user_id) }
    })
  })
  return operatorView(db, id)
}
