/**
 * The player show, what a shopper writes (issue 27; show.ts): posts, likes and comments.
 */
import type { Kysely, Selectable } from 'kysely'
import type { Database, ShowCommentsTable } from '../../db/schema'
import { UPLOAD_URL_PATTERN } from '../../../../types/limits'
import type { ShowCommentRequest, ShowCommentsResponse, ShowComment, ShowCreateRequest, ShowPost, ShowReply } from '../../../../types/show'
import { iso } from '../../core/clock'
import { ApiFailure, fail } from '../../core/errors'
import { lockLiveAccount } from '../account/users'
import { authors, checkWords, dropPosts, postDetail, visiblePost, type ShowDeps, type Viewer } from './show'

type Db = Kysely<Database>
type CommentRow = Selectable<ShowCommentsTable>

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
