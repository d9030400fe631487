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
 *
 * Here: the word list, reading posts, and what the others share. Posting, likes and comments are in
 * showPosting.ts, reports and moderation in showModeration.ts, a deleted account's content in showErasure.ts.
 */
import type { Kysely, Selectable } from 'kysely'
import { SHOW_LIMITS } from '../../../../types/limits'
import type { CaseProof, CombineProof } from '../../../../types/shop'
import type { ShowListRequest, ShowListResponse, ShowPost, ShowPrize, ShowTarget } from '../../../../types/show'
import type { Database, ShowPostsTable } from '../../db/schema'
import { dialectOf } from '../../db/lock'
import { iso, type Clock } from '../../core/clock'
import { DAY_MS } from '../../core/days'
import { ApiFailure, fail } from '../../core/errors'
import { foldForMatching } from '../../security/textFold'
import { writeAudit } from '../ops/audit'
import { caseProof } from '../catalogue/cases'
import { text } from '../catalogue/catalogue'
import { combineProofs } from '../catalogue/fairProof'
import { maskName } from '../prizes/prizes'

type Db = Kysely<Database>
type PostRow = Selectable<ShowPostsTable>

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

export async function checkWords (db: Db, field: string, s: string): Promise<void> {
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

export async function authors (db: Db, ids: number[]): Promise<Map<number, string>> {
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
export async function visiblePost (db: Db, viewer: Viewer, postId: number, hold = false): Promise<PostRow> {
  const q = db.selectFrom('show_posts').selectAll().where('id', '=', postId)
  const row = await (hold && dialectOf(db) === 'postgres' ? q.forKeyShare() : q).executeTakeFirst()
  if (!row || (row.status !== 'visible' && !viewer.operator && Number(row.user_id) !== viewer.id)) throw fail.notFound('show.notFound')
  return row
}

export async function postDetail (db: Db, viewer: Viewer, postId: number): Promise<ShowPost> {
  const [view] = await postViews(db, [await visiblePost(db, viewer, postId)], viewer)
  return view
}

// ---- what posting, moderation and deletion share --------------------------------------------------

/**
 * PostgreSQL: holds posts (or comments) about to be deleted or recounted (FOR UPDATE, in id order, as
 * every deletion takes them). A like, comment or report on one of them in flight is waited for; one
 * that comes later waits for this transaction. SQLite runs one write transaction at a time.
 */
export async function holdRows (trx: Db, table: 'show_posts' | 'show_comments', ids: number[]): Promise<void> {
  if (!ids.length || dialectOf(trx) !== 'postgres') return
  await trx.selectFrom(table).select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute()
}

/** Deletes a post with everything hanging on it (its prizes' links, likes, comments and reports). */
export async function dropPosts (trx: Db, postIds: number[]): Promise<void> {
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

export const tableOf = (target: ShowTarget) => target === 'post' ? 'show_posts' as const : 'show_comments' as const
