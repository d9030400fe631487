/**
 * The player show, what is reported and what operators do about it (issue 27; show.ts, showReports.ts).
 */
import type { Kysely, Selectable } from 'kysely'
import type { Database, ShowCommentsTable, ShowPostsTable } from '../../db/schema'
import type {
  ShowModerateRequest, ShowModerationItem, ShowQueueRequest, ShowQueueResponse, ShowReportRequest, ShowReportResult, ShowStatus, ShowTarget
} from '../../../../types/show'
import { dialectOf, forUpdate } from '../../db/lock'
import { iso } from '../../core/clock'
import { fail } from '../../core/errors'
import { writeAudit } from '../ops/audit'
import { lockLiveAccount } from '../account/users'
import { openReports, recordReport, reportsHide, reportsOf, reviewReports } from './showReports'
import { authors, tableOf, visiblePost, type ShowDeps, type Viewer } from './show'

type Db = Kysely<Database>
type PostRow = Selectable<ShowPostsTable>
type CommentRow = Selectable<ShowCommentsTable>

// ---- reports ---------------------------------------------------------------------------------------

export async function report (deps: ShowDeps, viewer: Viewer, body: ShowReportRequest): Promise<ShowReportResult> {
  const { db, clock } = deps
  return db.transaction().execute(async trx => {
    await lockLiveAccount(trx, viewer.id)
    const table = tableOf(body.target)
    const row = await forUpdate(dialectOf(trx), trx.selectFrom(table).select(['id', 'user_id', 'status']).where('id', '=', body.id)).executeTakeFirst()
    const notFound = body.target === 'post' ? 'show.notFound' as const : 'show.commentNotFound' as const
    if (!row) throw fail.notFound(notFound)
    if (body.target === 'comment') {
      const c = await trx.selectFrom('show_comments').select('post_id').where('id', '=', body.id).executeTakeFirstOrThrow()
      await visiblePost(trx, viewer, Number(c.post_id)).catch(() => { throw fail.notFound(notFound) })
    }
    // what is already hidden from others (reported, or hidden by an operator) is not there to report
    if (row.status !== 'visible' && Number(row.user_id) !== viewer.id) throw fail.notFound(notFound)
    if (Number(row.user_id) === viewer.id) throw fail.unprocessable('show.ownReport', {}, { field: 'id', reason: 'own' })
    // a second report by one account (before or after a restore) is the same report
    if (await recordReport(trx, iso(clock()), viewer.id, { target: body.target, id: body.id, reason: body.reason, note: body.note?.trim() || null })) {
      const open = await openReports(trx, body.target, body.id)
      await trx.updateTable(table).set({ report_count: open.all }).where('id', '=', body.id).execute()
      if (reportsHide(open)) {
        await trx.updateTable(table).set({ status: 'reported', updated_at: iso(clock()) }).where('id', '=', body.id).where('status', '=', 'visible').execute()
      }
    }
    const after = await trx.selectFrom(table).select('status').where('id', '=', body.id).executeTakeFirstOrThrow()
    return { status: after.status }
  })
}

// ---- moderation ------------------------------------------------------------------------------------

async function moderationItems (db: Db, target: ShowTarget, rows: Array<PostRow | CommentRow>): Promise<ShowModerationItem[]> {
  if (!rows.length) return []
  const ids = rows.map(r => Number(r.id))
  const names = await authors(db, rows.map(r => Number(r.user_id)))
  const reports = await reportsOf(db, target, ids)
  return rows.map(r => {
    const its = reports.get(Number(r.id))
    const mine = its?.open ?? []
    const counts = new Map<string, number>()
    for (const x of mine) counts.set(x.reason, (counts.get(x.reason) ?? 0) + 1)
    return {
      target,
      id: Number(r.id),
      postId: 'post_id' in r ? Number(r.post_id) : Number(r.id),
      authorId: Number(r.user_id),
      authorName: names.get(Number(r.user_id)) ?? '***',
      text: r.text,
      images: 'images' in r ? JSON.parse(r.images) as string[] : [],
      status: r.status,
      hiddenReason: r.hidden_reason,
      reportCount: Number(r.report_count),
      weightedCount: its?.weightedCount ?? 0,
      reasons: [...counts].map(([reason, count]) => ({ reason: reason as ShowModerationItem['reasons'][number]['reason'], count })),
      notes: mine.map(x => x.note).filter((n): n is string => !!n).slice(0, 5),
      reports: its?.entries ?? [],
      createdAt: r.created_at
    }
  })
}

export async function moderationQueue (db: Db, q: ShowQueueRequest): Promise<ShowQueueResponse> {
  const take = q.page * q.size
  // the same filter on both tables (reported: reports not yet dealt with; hidden: by an operator)
  const posts = () => {
    const base = db.selectFrom('show_posts')
    if (q.filter === 'hidden') return base.where('status', '=', 'hidden')
    if (q.filter === 'reported') return base.where('status', '!=', 'hidden').where('report_count', '>', 0)
    return base.where(eb => eb.or([eb('status', '!=', 'visible'), eb('report_count', '>', 0)]))
  }
  const comments = () => {
    const base = db.selectFrom('show_comments')
    if (q.filter === 'hidden') return base.where('status', '=', 'hidden')
    if (q.filter === 'reported') return base.where('status', '!=', 'hidden').where('report_count', '>', 0)
    return base.where(eb => eb.or([eb('status', '!=', 'visible'), eb('report_count', '>', 0)]))
  }
  // the page is chosen on (when, id) of both kinds merged; only its own rows are then read in full
  const keysOf = (target: ShowTarget, rows: Array<{ id: number | string, updated_at: string }>) =>
    rows.map(r => ({ target, id: Number(r.id), at: r.updated_at }))
  const keys = [
    ...keysOf('post', await posts().select(['id', 'updated_at']).orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(take).execute()),
    ...keysOf('comment', await comments().select(['id', 'updated_at']).orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(take).execute())
  ].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : b.id - a.id)).slice((q.page - 1) * q.size, take)
  const idsOf = (target: ShowTarget) => keys.filter(k => k.target === target).map(k => k.id)
  const postIds = idsOf('post')
  const commentIds = idsOf('comment')
  const postRows = postIds.length ? await db.selectFrom('show_posts').selectAll().where('id', 'in', postIds).execute() : []
  const commentRows = commentIds.length ? await db.selectFrom('show_comments').selectAll().where('id', 'in', commentIds).execute() : []
  const items = new Map<string, ShowModerationItem>()
  for (const item of await moderationItems(db, 'post', postRows)) items.set(`post:${item.id}`, item)
  for (const item of await moderationItems(db, 'comment', commentRows)) items.set(`comment:${item.id}`, item)
  const postCount = await posts().select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  const commentCount = await comments().select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return {
    // a row changed between the two reads (deleted meanwhile) is left out rather than shown half
    list: keys.map(k => items.get(`${k.target}:${k.id}`)).filter((x): x is ShowModerationItem => x !== undefined),
    total: Number(postCount.n) + Number(commentCount.n)
  }
}

/** What the author is told after a moderation, once it is committed. */
export interface ModerationNotice { userId: number; email: string | null; target: ShowTarget; action: 'hide' | 'restore'; reason: string | null; createdAt: string }

export async function moderate (deps: ShowDeps, operatorId: number, body: ShowModerateRequest): Promise<{ item: ShowModerationItem; notice: ModerationNotice | null }> {
  const { db, clock } = deps
  const reason = body.reason?.trim() ?? ''
  if (body.action === 'hide' && !reason) throw fail.field('reason', 'show.reasonRequired')
  const table = tableOf(body.target)
  return db.transaction().execute(async trx => {
    const before = await forUpdate(dialectOf(trx), trx.selectFrom(table).selectAll().where('id', '=', body.id)).executeTakeFirst() as PostRow | CommentRow | undefined
    if (!before) throw fail.notFound(body.target === 'post' ? 'show.notFound' : 'show.commentNotFound')
    const at = iso(clock())
    const status: ShowStatus = body.action === 'hide' ? 'hidden' : 'visible'
    const hiddenReason = body.action === 'hide' ? reason : null
    if (body.action === 'hide') {
      await trx.updateTable(table).set({ status, hidden_reason: hiddenReason, updated_at: at }).where('id', '=', body.id).execute()
    } else {
      // reviewed: the reports are dealt with (kept: their reporters cannot report it again), new ones count from zero
      await trx.updateTable(table).set({ status, hidden_reason: null, report_count: 0, updated_at: at }).where('id', '=', body.id).execute()
      await reviewReports(trx, body.target, body.id, at)
    }
    const authorId = Number(before.user_id)
    const changed = before.status !== status || before.hidden_reason !== hiddenReason
    await writeAudit(trx, clock, {
      actorId: operatorId, action: `show.${body.action}`, entity: body.target === 'post' ? 'show_post' : 'show_comment', entityId: body.id,
      detail: {
        before: { status: before.status, hiddenReason: before.hidden_reason, reportCount: Number(before.report_count) },
        after: { status, hiddenReason, reportCount: body.action === 'hide' ? Number(before.report_count) : 0 },
        userId: authorId
      }
    })
    const after = await trx.selectFrom(table).selectAll().where('id', '=', body.id).executeTakeFirstOrThrow() as PostRow | CommentRow
    const [item] = await moderationItems(trx, body.target, [after])
    const author = await trx.selectFrom('users').select(['email', 'deleted_at']).where('id', '=', authorId).executeTakeFirst()
    // the author hears of a change only (a restore of something never hidden tells nobody anything)
    const tell = changed && (body.action === 'hide' || before.status !== 'visible')
    const notice: ModerationNotice | null = tell && author && author.deleted_at === null
      ? { userId: authorId, email: author.email, target: body.target, action: body.action, reason: hiddenReason, createdAt: before.created_at }
      : null
    return { item, notice }
  })
}
