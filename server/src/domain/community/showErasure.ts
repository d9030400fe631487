/** The player show when an account is deleted (issue 27; show.ts). */
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'
import { dialectOf, forUpdate } from '../../db/lock'
import { openReports, reportsHide } from './showReports'
import { dropPosts, holdRows, tableOf } from './show'

type Db = Kysely<Database>

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
