/**
 * The player show (types/show.ts showRoutes): feed, post, likes, comments, reports, and the operators'
 * moderation and word list. The rules are in domain/show.ts; here: who calls, the hourly budgets, and
 * telling an author that an operator hid or restored what they wrote (after the commit, by mail through
 * sendTemplatedMail, as a complaint's reply is mailed; the post itself shows its author the reason).
 */
import type { FastifyBaseLogger } from 'fastify'
import { showRoutes as r } from '../../../types/show'
import type { Api, AppContext } from '../context'
import type { ActiveSession } from '../domain/account/sessions'
import { ApiFailure, fail } from '../core/errors'
import { defineRoute } from '../http/route'
import { translate, type Locale, type MessageKey } from '../i18n/messages'
import { sendTemplatedMail } from '../domain/community/mail'
import { listPosts, loadWords, postDetail, saveWords, type Viewer } from '../domain/community/show'
import { addComment, createPost, deletePost, listComments, setLike } from '../domain/community/showPosting'
import { moderate, moderationQueue, report, type ModerationNotice } from '../domain/community/showModeration'
import { RULES } from '../security/rules'
import type { RateRule } from '../security/rateLimiter'

const viewerOf = (session: ActiveSession | null): Viewer =>
  session ? { id: Number(session.user.id), operator: session.user.role === 'operator' } : { id: 0, operator: false }

/** Runs `work` within the account's hourly budget of `rule` (429 with the given message when spent); a refusal costs nothing. */
async function budgeted<T> (ctx: AppContext, rule: RateRule, userId: number, message: MessageKey, work: () => Promise<T>): Promise<T> {
  const decision = await ctx.limiter.consumeAll([[rule, String(userId)]])
  if (!decision.allowed) {
    const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000))
    throw new ApiFailure(429, message, { max: rule.limit, minutes: Math.ceil(seconds / 60) }, { retryAfter: seconds })
  }
  try {
    return await work()
  } catch (err) {
    await ctx.limiter.refund(rule, String(userId))
    throw err
  }
}

/** The author's mail, in both languages (the shop does not know which one the author reads). */
async function tellAuthor (ctx: AppContext, log: FastifyBaseLogger, notice: ModerationNotice): Promise<boolean> {
  if (!ctx.mailer || !notice.email) return false
  const what = `@show.what.${notice.target}`
  const date = notice.createdAt.slice(0, 10)
  const both = (key: MessageKey) => (['zh', 'en'] as Locale[]).map(l => translate(l, key, { what, date }))
  const [titleKey, textKey]: MessageKey[] = notice.action === 'hide'
    ? ['show.hiddenMailTitle', 'show.hiddenMailText']
    : ['show.restoredMailTitle', 'show.restoredMailText']
  try {
    await sendTemplatedMail(ctx.mailer, {
      mail: notice.email,
      // {reason} is left in the texts and filled once by sendTemplatedMail (a reason holding "{x}" stays as it is)
      title: both(titleKey).join(' / ').replace(/[{}]/g, ''),
      content: both(textKey).join('\n\n----\n\n'),
      params: { reason: notice.reason ?? '' }
    })
    return true
  } catch (err) {
    log.warn({ err, userId: notice.userId }, 'the author of a moderated post or comment could not be mailed')
    return false
  }
}

export function showRoutesOf (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.create, async ({ body, userId }) =>
    budgeted(ctx, RULES.showPostPerUser, userId, 'show.postsRateLimited', () => createPost(ctx, userId, body)))

  defineRoute(app, ctx, r.list, async ({ body, session }) => {
    // anyone reads the feed; "my posts" needs someone to be (an empty list would say they have none)
    if (body.mine && !session) throw fail.unauthorized()
    return listPosts(ctx.db, ctx.clock, viewerOf(session), body)
  })

  defineRoute(app, ctx, r.detail, async ({ body, session }) => postDetail(ctx.db, viewerOf(session), body.postId))

  defineRoute(app, ctx, r.remove, async ({ body, userId }) => deletePost(ctx.db, userId, body.postId))

  defineRoute(app, ctx, r.like, async ({ body, session }) => setLike(ctx, viewerOf(session), body.postId, body.liked))

  defineRoute(app, ctx, r.comments, async ({ body, session }) => listComments(ctx.db, viewerOf(session), body.postId, body.page, body.size))

  defineRoute(app, ctx, r.comment, async ({ body, session, userId }) =>
    budgeted(ctx, RULES.showCommentPerUser, userId, 'show.commentsRateLimited', () => addComment(ctx, viewerOf(session), body)))

  defineRoute(app, ctx, r.report, async ({ body, session, userId }) =>
    budgeted(ctx, RULES.showReportPerUser, userId, 'show.reportsRateLimited', () => report(ctx, viewerOf(session), body)))

  defineRoute(app, ctx, r.queue, async ({ body }) => moderationQueue(ctx.db, body))

  defineRoute(app, ctx, r.moderate, async ({ body, userId, request }) => {
    const { item, notice } = await moderate(ctx, userId, body)
    if (notice) await tellAuthor(ctx, request.log, notice)
    return item
  })

  defineRoute(app, ctx, r.words, async () => ({ words: await loadWords(ctx.db) }))

  defineRoute(app, ctx, r.wordsSave, async ({ body, userId }) => ({ words: await saveWords(ctx, userId, body.words) }))
}
