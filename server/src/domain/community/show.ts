/**
 * The player show (玩家秀, issue 27; types/show.ts).
 *
 *   post       prizes the author owns and still has (not recycled, not combined away), photos the author
 *              uploaded (/api/upload/image, the one upload path and its image checks), a text free of the
 *              operators' word list; written while the account row is held (lockLiveAccount), so a
 *              deletion never leaves a post behind. Reads the prizes, writes only show_* rows.
 *   like       one row per (post, account): a second like is the same like; like_count moves with the row
 *   comment    on a post, or a reply to a comment that is not itself a reply
 *   report     one per (thing, account); the SHOW_LIMITS.reportsToHide-th from an account with something at
 *              stake hides it ('reported': domain/showReports.ts) until an operator hides it for good
 *              ('hidden', with a reason told to the author) or restores it (its reports marked reviewed:
 *              they stop counting, and their reporters cannot report it again); both audited
 *   words      shop_settings 'showWords' (JSON list), matched after dropping default-ignorable code
 *              points, NFKC and case folding (security/textFold.ts)
 *   deletion   a deleted account's posts, comments, likes and reports go (eraseShowContent, called by
 *              deleteAccount; docs/decisions/player-show-deleted-accounts.md)
 */
import type { Kysely, Selectable } from 'kysely'
import { SHOW_LIMITS, UPLOAD_URL_PATTERN } from '../../../../types/limits'
import type { CaseProof, CombineProof } from '../../../../types/shop'
import type {
  ShowCommentRequest, ShowCommentsResponse, ShowComment, ShowCreateRequest, ShowListRequest, ShowListResponse, ShowModerateRequest,
  ShowModerationItem, ShowPost, ShowPrize, ShowQueueRequest, ShowQueueResponse, ShowReply, ShowReportRequest, ShowReportResult, ShowStatus,
  ShowTarget
} from '../../../../types/show'
import type { Database, ShowCommentsTable, ShowPostsTable } from '../../db/schema'
import { dialectOf, forUpdate } from '../../db/lock'
import { iso, type Clock } from '../../core/clock'
import { DAY_MS } from '../../core/days'
import { ApiFailure, fail } from '../../core/errors'
import { foldForMatching } from '../../security/textFold'
import { writeAudit } from '../ops/audit'
import { caseProof } from '../catalogue/cases'
import { text } from '../catalogue/catalogue'
import { combineProofs } from '../catalogue/fairProof'
import { maskName } from '../prizes/prizes'
import { openReports, recordReport, reportsHide, reportsOf, reviewReports } from './showReports'
import { lockLiveAccount } from '../account/users'

type Db = Kysely<Database>
type PostRow = Selectable<ShowPostsTable>
type CommentRow = Selectable<ShowCommentsTable>

export interface ShowDeps { db: Db; clock: Clock }

/** A viewer: who asks (0 for nobody) and whether they are an operator. */
export interface Viewer { id: number; operator: boolean }

// ---- the word list ---------------------------------------------------------------------------------

export const WORDS_KEY = 'showWords'

/** Default-ignorable code points dropped, NFKC, full case folding (security/textFold.ts). */
export const foldText = (s: string): string => foldForMatching(s)

export async function loadWords (db: Db): Promise<string[]> {
  const row = await db.selectFrom('shop_settings').select('value').where('key', '=', WORDS_KEY).executeTakeFirst()
  if (!row) return []
  try {
    const parsed: unknown = JSON.parse(row.value)
    return Array.isArray(parsed) ? parsed.filter((w): w is string => typeof w === 'string') : []
  } catch { return [] }
}

/** The first listed word `s` holds (compared folded), or null. */
export function blockedWord (words: string[], s: string): string | null {
  const folded = foldText(s)
  for (const w of words) {
    const f = foldText(w)
    if (f && folded.includes(f)) return w
  }
  return null
}

async function checkWords (db: Db, field: string, s: string): Promise<void> {
  const word = blockedWord(await loadWords(db), s)
  if (word) throw new ApiFailure(422, 'show.blockedWord', { field, word }, { field, reason: 'blocked_word' })
}

export async function saveWords (deps: ShowDeps, operatorId: number, words: string[]): Promise<string[]> {
  const { db, clock } = deps
  const seen = new Set<string>()
  const clean: string[] = []
  for (const w of words.map(x => x.trim().normalize('NFC'))) {
    const key = foldText(w)
    if (!key || seen.has(key)) continue
    seen.add(key)
    clean.push(w)
  }
  await db.transaction().execute(async trx => {
    const before = await loadWords(trx)
    const at = iso(clock())
    await trx.insertInto('shop_settings').values({ key: WORDS_KEY, value: JSON.stringify(clean), updated_by: operatorId, updated_at: at })
      .onConflict(oc => oc.column('key').doUpdateSet({ value: JSON.stringify(clean), updated_by: operatorId, updated_at: at })).execute()
    await writeAudit(trx, clock, { actorId: operatorId, action: 'show.words', entity: 'setting', entityId: null, detail: { before: { words: before }, after: { words: clean } } })
  })
  return clean
}

// ---- reading posts ---------------------------------------------------------------------------------

interface UserBits { id: number; nickname: string; user_name: string | null }

async function authors (db: Db, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)]
  if (!unique.length) return new Map()
  const rows: UserBits[] = await db.selectFrom('users').select(['id', 'nickname', 'user_name']).where('id', 'in', unique).execute()
  return new Map(rows.map(u => [Number(u.id), maskName(u.nickname || u.user_name)]))
}

async function prizesOf (db: Db, postIds: number[]): Promise<Map<number, ShowPrize[]>> {
  const out = new Map<number, ShowPrize[]>()
  if (!postIds.length) return out
  const rows = await db.selectFrom('show_post_prizes')
    .innerJoin('prizes', 'prizes.id', 'show_post_prizes.prize_id')
    .innerJoin('designs', 'designs.id', 'prizes.design_id')
    .innerJoin('series', 'series.id', 'prizes.series_id')
    .select([
      'show_post_prizes.post_id', 'show_post_prizes.position', 'prizes.id as prize_id', 'prizes.series_id', 'prizes.origin',
      'prizes.case_id', 'prizes.slot', 'prizes.combine_id', 'designs.id as design_id', 'designs.name as design_name', 'designs.name_en as design_name_en',
      'designs.image', 'designs.rarity', 'series.name as series_name', 'series.name_en as series_name_en'
    ])
    .where('show_post_prizes.post_id', 'in', postIds)
    .orderBy('show_post_prizes.post_id').orderBy('show_post_prizes.position')
    .execute()
  const cases = new Map<number, CaseProof | null>()
  for (const id of new Set(rows.filter(r => r.case_id !== null).map(r => Number(r.case_id)))) {
    // a case of a series taken off the shelf has no public proof: the prize is shown without it
    cases.set(id, await caseProof(db, id).catch(() => null))
  }
  const combines: Map<number, CombineProof> = await combineProofs(db, rows.filter(r => r.combine_id !== null).map(r => Number(r.combine_id)))
  for (const r of rows) {
    const list = out.get(Number(r.post_id)) ?? []
    list.push({
      prizeId: Number(r.prize_id),
      seriesId: Number(r.series_id),
      seriesTitle: text(r.series_name, r.series_name_en),
      design: { id: Number(r.design_id), name: text(r.design_name, r.design_name_en), image: r.image ?? '', rarity: r.rarity },
      origin: r.origin,
      caseId: Number(r.case_id ?? 0),
      slot: Number(r.slot ?? 0),
      proof: r.case_id === null ? null : cases.get(Number(r.case_id)) ?? null,
      combineProof: r.combine_id === null ? null : combines.get(Number(r.combine_id)) ?? null
    })
    out.set(Number(r.post_id), list)
  }
  return out
}

async function postViews (db: Db, rows: PostRow[], viewer: Viewer): Promise<ShowPost[]> {
  const ids = rows.map(r => Number(r.id))
  const [names, prizes] = await Promise.all([authors(db, rows.map(r => Number(r.user_id))), prizesOf(db, ids)])
  const liked = new Set<number>()
  if (viewer.id && ids.length) {
    const likes = await db.selectFrom('show_likes').select('post_id').where('user_id', '=', viewer.id).where('post_id', 'in', ids).execute()
    for (const l of likes) liked.add(Number(l.post_id))
  }
  return rows.map(r => {
    const mine = Number(r.user_id) === viewer.id
    return {
      id: Number(r.id),
      authorName: names.get(Number(r.user_id)) ?? '***',
      mine,
      text: r.text,
      images: JSON.parse(r.images) as string[],
      prizes: prizes.get(Number(r.id)) ?? [],
      likeCount: Number(r.like_count),
      commentCount: Number(r.comment_count),
      liked: liked.has(Number(r.id)),
      status: r.status,
      hiddenReason: mine || viewer.operator ? r.hidden_reason : null,
      createdAt: r.created_at
    }
  })
}

/**
 * A page of the feed. "popular": the likes of the last SHOW_LIMITS.popularDays days first (a post that
 * is liked now rises; one liked long ago sinks), then all its likes, its comments, the newest.
 */
export async function listPosts (db: Db, clock: Clock, viewer: Viewer, q: ShowListRequest): Promise<ShowListResponse> {
  let base = db.selectFrom('show_posts')
  if (q.mine) base = base.where('user_id', '=', viewer.id)
  else base = base.where('status', '=', 'visible')
  if (q.seriesId !== undefined) {
    const seriesId = q.seriesId
    base = base.where(eb => eb.exists(eb.selectFrom('show_post_prizes').select('show_post_prizes.post_id')
      .whereRef('show_post_prizes.post_id', '=', 'show_posts.id').where('show_post_prizes.series_id', '=', seriesId)))
  }
  const { total } = await base.select(eb => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()
  let rows = base.selectAll('show_posts')
  if (q.sort === 'popular') {
    const since = iso(clock() - SHOW_LIMITS.popularDays * DAY_MS)
    rows = rows
      .leftJoin(eb => eb.selectFrom('show_likes').select(l => ['show_likes.post_id', l.fn.countAll<number>().as('recent')])
        .where('show_likes.created_at', '>=', since).groupBy('show_likes.post_id').as('recent_likes'),
      join => join.onRef('recent_likes.post_id', '=', 'show_posts.id'))
      .orderBy(eb => eb.fn.coalesce('recent_likes.recent', eb.lit(0)), 'desc')
      .orderBy('show_posts.like_count', 'desc').orderBy('show_posts.comment_count', 'desc').orderBy('show_posts.id', 'desc')
  } else {
    rows = rows.orderBy('show_posts.id', 'desc')
  }
  const list = await rows.limit(q.size).offset((q.page - 1) * q.size).execute()
  return { list: await postViews(db, list, viewer), total: Number(total) }
}

/**
 * A post the viewer may see: a visible one, or their own, or any for an operator; else 404. `hold`:
 * a like or a comment about to name the post keeps it (PostgreSQL's KEY SHARE lock) until its
 * transaction ends. A deletion holding the post first (dropPosts, eraseShowContent) is waited for and
 * then there is no post (404); one coming after waits for the like or comment and deletes it too.
 * Either way no row is left naming a post that is gone, and no foreign-key error becomes a 500.
 */
async function visiblePost (db: Db, viewer: Viewer, postId: number, hold = false): Promise<PostRow> {
  const q = db.selectFrom('show_posts').selectAll().where('id', '=', postId)
  const row = await (hold && dialectOf(db) === 'postgres' ? q.forKeyShare() : q).executeTakeFirst()
  if (!row || (row.status !== 'visible' && !viewer.operator && Number(row.user_id) !== viewer.id)) throw fail.notFound('show.notFound')
  return row
}

export async function postDetail (db: Db, viewer: Viewer, postId: number): Promise<ShowPost> {
  const [view] = await postViews(db, [await visiblePost(db, viewer, postId)], viewer)
  return view
}

// ---- posting ---------------------------------------------------------------------------------------

const IMAGE_URL = new RegExp(UPLOAD_URL_PATTERN)
const OWNABLE = new Set(['warehouse', 'shipping', 'received'])

export async function createPost (deps: ShowDeps, userId: number, body: ShowCreateRequest): Promise<ShowPost> {
  const { db, clock } = deps
  const words = body.text.trim()
  if (!words) throw fail.field('text', 'validation.minLength', { limit: 1 })
  await checkWords(db, 'text', words)
  const id = await db.transaction().execute(async trx => {
    await lockLiveAccount(trx, userId)
    const prizes = await trx.selectFrom('prizes').select(['id', 'user_id', 'series_id', 'status']).where('id', 'in', body.prizeIds).execute()
    for (const prizeId of body.prizeIds) {
      const p = prizes.find(x => Number(x.id) === prizeId)
      // someone else's prize answers as one that does not exist
      if (!p || Number(p.user_id) !== userId) throw new ApiFailure(404, 'show.prizeNotFound', { field: 'prizeIds' }, { field: 'prizeIds', prizeId })
      if (!OWNABLE.has(p.status)) throw new ApiFailure(422, 'show.prizeGone', { field: 'prizeIds' }, { field: 'prizeIds', prizeId, status: p.status })
    }
    for (const url of body.images) {
      const m = /^\/media\/u\/([0-9a-f]{64})\.(png|jpg|webp|gif)$/.exec(url)
      const media = m && IMAGE_URL.test(url)
        ? await trx.selectFrom('media').select(['uploaded_by', 'ext']).where('sha256', '=', m[1]).executeTakeFirst()
        : undefined
      if (!m || !media || media.ext !== m[2] || Number(media.uploaded_by) !== userId) throw fail.field('images', 'show.imageNotYours')
    }
    const at = iso(clock())
    const post = await trx.insertInto('show_posts').values({
      user_id: userId, text: words, images: JSON.stringify(body.images), status: 'visible', hidden_reason: null, created_at: at, updated_at: at
    }).returning('id').executeTakeFirstOrThrow()
    await trx.insertInto('show_post_prizes').values(body.prizeIds.map((prizeId, position) => ({
      post_id: Number(post.id), prize_id: prizeId, series_id: Number(prizes.find(x => Number(x.id) === prizeId)!.series_id), position
    }))).execute()
    return Number(post.id)
  })
  return postDetail(db, { id: userId, operator: false }, id)
}

/**
 * PostgreSQL: holds posts (or comments) about to be deleted or recounted (FOR UPDATE, in id order, as
 * every deletion takes them). A like, comment or report on one of them in flight is waited for; one
 * that comes later waits for this transaction. SQLite runs one write transaction at a time.
 */
async function holdRows (trx: Db, table: 'show_posts' | 'show_comments', ids: number[]): Promise<void> {
  if (!ids.length || dialectOf(trx) !== 'postgres') return
  await trx.selectFrom(table).select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute()
}

/** Deletes a post with everything hanging on it (its prizes' links, likes, comments and reports). */
async function dropPosts (trx: Db, postIds: number[]): Promise<void> {
  if (!postIds.length) return
  await holdRows(trx, 'show_posts', postIds)
  const comments = await trx.selectFrom('show_comments').select('id').where('post_id', 'in', postIds).execute()
  const commentIds = comments.map(c => Number(c.id))
  if (commentIds.length) await trx.deleteFrom('show_reports').where('target', '=', 'comment').where('target_id', 'in', commentIds).execute()
  await trx.deleteFrom('show_reports').where('target', '=', 'post').where('target_id', 'in', postIds).execute()
  // replies first: they name their parent
  await trx.deleteFrom('show_comments').where('post_id', 'in', postIds).where('parent_id', 'is not', null).execute()
  await trx.deleteFrom('show_comments').where('post_id', 'in', postIds).execute()
  await trx.deleteFrom('show_likes').where('post_id', 'in', postIds).execute()
  await trx.deleteFrom('show_post_prizes').where('post_id', 'in', postIds).execute()
  await trx.deleteFrom('show_posts').where('id', 'in', postIds).execute()
}

export async function deletePost (db: Db, userId: number, postId: number): Promise<{ postId: number }> {
  await db.transaction().execute(async trx => {
    const row = await trx.selectFrom('show_posts').select('user_id').where('id', '=', postId).executeTakeFirst()
    if (!row || Number(row.user_id) !== userId) throw fail.notFound('show.notFound')
    await dropPosts(trx, [postId])
  })
  return { postId }
}

// ---- likes -----------------------------------------------------------------------------------------

export async function setLike (deps: ShowDeps, viewer: Viewer, postId: number, liked: boolean): Promise<{ liked: boolean; likeCount: number }> {
  const { db, clock } = deps
  return db.transaction().execute(async trx => {
    await lockLiveAccount(trx, viewer.id)
    await visiblePost(trx, viewer, postId, true)
    if (liked) {
      const added = await trx.insertInto('show_likes').values({ post_id: postId, user_id: viewer.id, created_at: iso(clock()) })
        .onConflict(oc => oc.columns(['post_id', 'user_id']).doNothing()).executeTakeFirst()
      if (Number(added.numInsertedOrUpdatedRows ?? 0) > 0) {
        await trx.updateTable('show_posts').set(eb => ({ like_count: eb('like_count', '+', 1) })).where('id', '=', postId).execute()
      }
    } else {
      const removed = await trx.deleteFrom('show_likes').where('post_id', '=', postId).where('user_id', '=', viewer.id).executeTakeFirst()
      if (Number(removed.numDeletedRows) > 0) {
        await trx.updateTable('show_posts').set(eb => ({ like_count: eb('like_count', '-', 1) })).where('id', '=', postId).where('like_count', '>', 0).execute()
      }
    }
    const row = await trx.selectFrom('show_posts').select('like_count').where('id', '=', postId).executeTakeFirstOrThrow()
    return { liked, likeCount: Number(row.like_count) }
  })
}

// ---- comments --------------------------------------------------------------------------------------

function replyView (c: CommentRow, names: Map<number, string>, viewer: Viewer): ShowReply {
  const mine = Number(c.user_id) === viewer.id
  const shown = c.status === 'visible' || mine || viewer.operator
  return {
    id: Number(c.id),
    authorName: names.get(Number(c.user_id)) ?? '***',
    mine,
    text: shown ? c.text : '',
    status: c.status,
    hiddenReason: mine || viewer.operator ? c.hidden_reason : null,
    createdAt: c.created_at
  }
}

export async function listComments (db: Db, viewer: Viewer, postId: number, page: number, size: number): Promise<ShowCommentsResponse> {
  await visiblePost(db, viewer, postId)
  const base = db.selectFrom('show_comments').where('post_id', '=', postId).where('parent_id', 'is', null)
  const { total } = await base.select(eb => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()
  const top = await base.selectAll().orderBy('id', 'asc').limit(size).offset((page - 1) * size).execute()
  const replies = top.length
    ? await db.selectFrom('show_comments').selectAll().where('parent_id', 'in', top.map(c => Number(c.id))).orderBy('id', 'asc').execute()
    : []
  const names = await authors(db, [...top, ...replies].map(c => Number(c.user_id)))
  const list: ShowComment[] = top.map(c => ({
    ...replyView(c, names, viewer),
    replies: replies.filter(r => Number(r.parent_id) === Number(c.id)).map(r => replyView(r, names, viewer))
  }))
  return { list, total: Number(total) }
}

export async function addComment (deps: ShowDeps, viewer: Viewer, body: ShowCommentRequest): Promise<ShowReply> {
  const { db, clock } = deps
  const words = body.text.trim()
  if (!words) throw fail.field('text', 'validation.minLength', { limit: 1 })
  await checkWords(db, 'text', words)
  const row = await db.transaction().execute(async trx => {
    await lockLiveAccount(trx, viewer.id)
    await visiblePost(trx, viewer, body.postId, true)
    if (body.parentId !== undefined) {
      const parent = await trx.selectFrom('show_comments').select(['post_id', 'parent_id', 'status']).where('id', '=', body.parentId).executeTakeFirst()
      // a comment hidden from the thread (reported, or hidden by an operator) takes no replies: it is not there to answer
      if (!parent || Number(parent.post_id) !== body.postId || parent.status !== 'visible') throw new ApiFailure(404, 'show.commentNotFound', { field: 'parentId' }, { field: 'parentId' })
      if (parent.parent_id !== null) throw new ApiFailure(422, 'show.replyTooDeep', { field: 'parentId' }, { field: 'parentId', reason: 'too_deep' })
    }
    const at = iso(clock())
    const inserted = await trx.insertInto('show_comments').values({
      post_id: body.postId, parent_id: body.parentId ?? null, user_id: viewer.id, text: words, status: 'visible', hidden_reason: null, created_at: at, updated_at: at
    }).returningAll().executeTakeFirstOrThrow()
    await trx.updateTable('show_posts').set(eb => ({ comment_count: eb('comment_count', '+', 1) })).where('id', '=', body.postId).execute()
    return inserted
  })
  return replyView(row, await authors(db, [viewer.id]), viewer)
}

// ---- reports ---------------------------------------------------------------------------------------

const tableOf = (target: ShowTarget) => target === 'post' ? 'show_posts' as const : 'show_comments' as const

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

// ---- a deleted account (PIPL) ----------------------------------------------------------------------

/**
 * Inside deleteAccount's transaction: the account's posts (with their comments, likes and reports), its
 * comments (with the replies under them), likes and reports go. The posts it liked or commented on are
 * held first (holdRows: a like or comment in flight on them is waited for, a new one waits), then their
 * like and comment counts are recounted; what it reported is held and its report count recounted, and
 * a thing its reports had hidden until review ('reported') shows again when fewer than
 * SHOW_LIMITS.reportsToHide weighted reports not yet reviewed remain (showReports.ts). The photos go
 * with the account's other uploads (mediaStore.ts eraseUploadsOf).
 */
export async function eraseShowContent (trx: Db, userId: number): Promise<void> {
  const posts = await trx.selectFrom('show_posts').select('id').where('user_id', '=', userId).execute()
  await dropPosts(trx, posts.map(p => Number(p.id)))
  const commented = await trx.selectFrom('show_comments').select('post_id').where('user_id', '=', userId).execute()
  const liked = await trx.selectFrom('show_likes').select('post_id').where('user_id', '=', userId).execute()
  const touched = [...new Set([...commented, ...liked].map(x => Number(x.post_id)))].sort((a, b) => a - b)
  await holdRows(trx, 'show_posts', touched)
  const comments = await trx.selectFrom('show_comments').select('id').where('user_id', '=', userId).execute()
  if (comments.length) {
    const ids = comments.map(c => Number(c.id))
    const replies = await trx.selectFrom('show_comments').select('id').where('parent_id', 'in', ids).execute()
    const all = [...ids, ...replies.map(r => Number(r.id))]
    // a report on one of them in flight (it holds the comment) is waited for, then deleted with the rest
    await holdRows(trx, 'show_comments', all)
    await trx.deleteFrom('show_reports').where('target', '=', 'comment').where('target_id', 'in', all).execute()
    await trx.deleteFrom('show_comments').where('parent_id', 'in', ids).execute()
    await trx.deleteFrom('show_comments').where('id', 'in', ids).execute()
  }
  await trx.deleteFrom('show_likes').where('user_id', '=', userId).execute()
  for (const postId of touched) {
    const likes = await trx.selectFrom('show_likes').select(eb => eb.fn.countAll<number>().as('n')).where('post_id', '=', postId).executeTakeFirstOrThrow()
    const count = await trx.selectFrom('show_comments').select(eb => eb.fn.countAll<number>().as('n')).where('post_id', '=', postId).executeTakeFirstOrThrow()
    await trx.updateTable('show_posts').set({ like_count: Number(likes.n), comment_count: Number(count.n) }).where('id', '=', postId).execute()
  }
  const reported = await trx.selectFrom('show_reports').select(['target', 'target_id']).where('user_id', '=', userId).execute()
  await trx.deleteFrom('show_reports').where('user_id', '=', userId).execute()
  for (const target of ['post', 'comment'] as const) {
    const ids = [...new Set(reported.filter(r => r.target === target).map(r => Number(r.target_id)))].sort((a, b) => a - b)
    if (!ids.length) continue
    const table = tableOf(target)
    // held as a report holds them (report), so a report given meanwhile is counted once
    await forUpdate(dialectOf(trx), trx.selectFrom(table).select('id').where('id', 'in', ids).orderBy('id')).execute()
    for (const id of ids) {
      const left = await openReports(trx, target, id)
      await trx.updateTable(table).set({ report_count: left.all }).where('id', '=', id).execute()
      if (!reportsHide(left)) {
        await trx.updateTable(table).set({ status: 'visible' }).where('id', '=', id).where('status', '=', 'reported').execute()
      }
    }
  }
}
