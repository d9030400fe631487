/**
 * The complaint channel (types/complaints.ts): complaints stored per shopper, listed for operators by
 * status, answered and closed (audited with before and after); the notices that go out (mail to the
 * shop's complaint mailbox, the operators' robots) are sent by services/alerts.ts after the row is
 * committed, so a provider outage never loses a complaint.
 */
import type { ComplaintCreateRequest, ComplaintReplyRequest, ComplaintStatus, ComplaintView, OperatorComplaintListRequest, OperatorComplaintListResponse, OperatorComplaintView } from '../../../types/complaints'
import type { PageResult } from '../../../types/schema'
import type { Db } from '../db'
import type { Dialect } from '../db/dialect'
import type { ComplaintsTable } from '../db/schema'
import type { Selectable } from 'kysely'
import { forUpdate } from '../db/lock'
import { iso, type Clock } from '../clock'
import { fail } from '../http/envelope'
import { writeAudit } from './audit'

type Row = Selectable<ComplaintsTable>

const when = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString())

function view (r: Row): ComplaintView {
  return {
    id: Number(r.id),
    topic: r.topic,
    text: r.text,
    contact: r.contact,
    reference: r.reference,
    status: r.status,
    reply: r.reply,
    createdAt: when(r.created_at)!,
    repliedAt: when(r.replied_at)
  }
}

export async function createComplaint (db: Db, clock: Clock, userId: number, req: ComplaintCreateRequest): Promise<ComplaintView> {
  const now = iso(clock())
  const row = await db.insertInto('complaints').values({
    user_id: userId, topic: req.topic, text: req.text.trim(), contact: req.contact ?? null, reference: req.reference?.trim() || null,
    status: 'open', reply: null, replied_by: null, created_at: now, replied_at: null, updated_at: now
  }).returningAll().executeTakeFirstOrThrow()
  return view(row)
}

export async function listOwnComplaints (db: Db, userId: number, page: number, size: number): Promise<PageResult<ComplaintView>> {
  const { n } = await db.selectFrom('complaints').select(eb => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow()
  const rows = await db.selectFrom('complaints').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(size).offset((page - 1) * size).execute()
  return { list: rows.map(view), total: Number(n) }
}

async function operatorView (db: Db, r: Row): Promise<OperatorComplaintView> {
  const u = await db.selectFrom('users').select(['id', 'user_name', 'nickname']).where('id', '=', r.user_id).executeTakeFirst()
  return { ...view(r), user: { id: Number(r.user_id), name: u?.user_name ? `@${u.user_name}` : u?.nickname ?? `#${r.user_id}` } }
}

export async function listComplaints (db: Db, req: OperatorComplaintListRequest): Promise<OperatorComplaintListResponse> {
  const counts = { open: 0, answered: 0, closed: 0 }
  for (const c of await db.selectFrom('complaints').select(['status', eb => eb.fn.countAll<number>().as('n')]).groupBy('status').execute()) counts[c.status] = Number(c.n)
  let q = db.selectFrom('complaints').selectAll()
  if (req.status) q = q.where('status', '=', req.status)
  // open ones oldest first (the longest waiting on top); the others newest first
  const rows = await (req.status === 'open' ? q.orderBy('id', 'asc') : q.orderBy('id', 'desc')).limit(req.size).offset((req.page - 1) * req.size).execute()
  const list: OperatorComplaintView[] = []
  for (const r of rows) list.push(await operatorView(db, r))
  return { list, total: req.status ? counts[req.status] : counts.open + counts.answered + counts.closed, counts }
}

/** Answers and/or closes a complaint; answers the complaint as it is now and whether an answer was added. */
export async function replyComplaint (db: Db, dialect: Dialect, clock: Clock, operatorId: number, req: ComplaintReplyRequest): Promise<{ complaint: OperatorComplaintView; answered: boolean }> {
  if (req.reply === undefined && !req.close) throw fail.field('reply', 'complaints.replyOrClose')
  if (req.reply !== undefined && !req.reply.trim()) throw fail.field('reply', 'complaints.replyBlank')
  return db.transaction().execute(async trx => {
    const before = await forUpdate(dialect, trx.selectFrom('complaints').selectAll().where('id', '=', req.id)).executeTakeFirst()
    if (!before) throw fail.notFound('complaints.notFound')
    if (before.status === 'closed') throw fail.unprocessable('complaints.closed')
    const now = iso(clock())
    const status: ComplaintStatus = req.close ? 'closed' : 'answered'
    const reply = req.reply !== undefined ? req.reply.trim() : before.reply
    await trx.updateTable('complaints').set({
      status, reply, updated_at: now,
      ...(req.reply !== undefined ? { replied_by: operatorId, replied_at: now } : {})
    }).where('id', '=', req.id).execute()
    const after = await trx.selectFrom('complaints').selectAll().where('id', '=', req.id).executeTakeFirstOrThrow()
    await writeAudit(trx, clock, {
      actorId: operatorId, action: req.close ? 'complaint.close' : 'complaint.reply', entity: 'complaint', entityId: req.id,
      detail: { before: { status: before.status, reply: before.reply }, after: { status: after.status, reply: after.reply }, userId: Number(before.user_id) }
    })
    return { complaint: await operatorView(trx, after), answered: req.reply !== undefined }
  })
}
