/**
 * The player show (玩家秀 / 晒单, issue 27; PRODUCT.md "Player show and discovery"): a shopper posts
 * prizes they own, with their own photos and text; every prize of a post carries its proof (the case's
 * commitment and, once the case sold out, its reveal; or the combine's draw), so every pull shown is a
 * real one. Others like (one per account) and comment (a reply to a comment, never deeper). Anyone
 * logged in reports a post or a comment with a reason; SHOW_LIMITS.reportsToHide reports from accounts
 * with something at stake (SHOW_LIMITS.reportStakePurchases) hide it until an operator looks. Operators
 * hide and restore (audited; the author is told why by mail and on the post) and keep the word list.
 * Authors are shown masked, as in the live feed.
 *
 * Posting moves no money and no prize: it reads the prizes and writes rows of its own.
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { SHOW_LIMITS, SHOW_REPORT_REASONS, SHOW_SORTS, UPLOAD_URL_PATTERN } from './limits'
import { Id, MultilineText, Nullable, Obj, PageFields, StringEnum, Text, Timestamp } from './schema'
import { CaseProof, CombineProof, I18nText, Rarity } from './shop'

export const ShowSort = StringEnum(SHOW_SORTS, {
  description: `newest: newest first; popular: the most liked in the last ${SHOW_LIMITS.popularDays} days first, then by all likes, comments, newest`
})
export type ShowSort = Static<typeof ShowSort>
export const ShowReportReason = StringEnum(SHOW_REPORT_REASONS)
export type ShowReportReason = Static<typeof ShowReportReason>
export const ShowTarget = StringEnum(['post', 'comment'] as const)
export type ShowTarget = Static<typeof ShowTarget>
/** visible; hidden by reports (waiting for an operator); hidden by an operator. */
export const ShowStatus = StringEnum(['visible', 'reported', 'hidden'] as const)
export type ShowStatus = Static<typeof ShowStatus>

const ShowPage = {
  page: PageFields.page,
  size: Type.Integer({ minimum: 1, maximum: SHOW_LIMITS.pageSizeMax })
}
const ImageUrl = Type.String({ pattern: UPLOAD_URL_PATTERN, maxLength: 200, description: 'A photo uploaded by the author through /api/upload/image (/media/u/...)' })

/** One prize of a post, with what proves it was really drawn. */
export const ShowPrize = Type.Object({
  prizeId: Type.Integer(),
  seriesId: Type.Integer(),
  seriesTitle: I18nText,
  design: Type.Object({ id: Type.Integer(), name: I18nText, image: Type.String(), rarity: Rarity }),
  origin: StringEnum(['case', 'combine'] as const),
  /** The case and slot it came from (0 for a prize made by combining). */
  caseId: Type.Integer(),
  slot: Type.Integer({ minimum: 0 }),
  /** The case's commitment, and its arrangement and salt once revealed (a prize from a case). */
  proof: Nullable(CaseProof),
  /** The combine's draw (a prize made by combining). */
  combineProof: Nullable(CombineProof)
})
export type ShowPrize = Static<typeof ShowPrize>

export const ShowPost = Type.Object({
  id: Type.Integer(),
  /** e.g. 'a***y', as in the live feed. */
  authorName: Type.String(),
  /** The caller wrote it. */
  mine: Type.Boolean(),
  text: Type.String(),
  images: Type.Array(Type.String()),
  prizes: Type.Array(ShowPrize),
  likeCount: Type.Integer({ minimum: 0 }),
  commentCount: Type.Integer({ minimum: 0 }),
  /** The caller liked it. */
  liked: Type.Boolean(),
  /** Only the author and operators ever see a post that is not visible. */
  status: ShowStatus,
  /** Why an operator hid it (the author and operators only). */
  hiddenReason: Nullable(Type.String()),
  createdAt: Timestamp
})
export type ShowPost = Static<typeof ShowPost>

export const ShowCreateRequest = Obj({
  prizeIds: Type.Array(Id, { minItems: 1, maxItems: SHOW_LIMITS.prizesMax, uniqueItems: true, description: 'Prizes the caller owns (not recycled, not combined away)' }),
  images: Type.Array(ImageUrl, { maxItems: SHOW_LIMITS.imagesMax, uniqueItems: true }),
  text: MultilineText({ minLength: 1, maxLength: SHOW_LIMITS.textMax, description: 'What the shopper says of the pull' })
})
export type ShowCreateRequest = Static<typeof ShowCreateRequest>

export const ShowListRequest = Obj({
  ...ShowPage,
  sort: ShowSort,
  seriesId: Type.Optional(Id),
  /** The caller's own posts, whatever their status. */
  mine: Type.Optional(Type.Boolean())
})
export type ShowListRequest = Static<typeof ShowListRequest>
export const ShowListResponse = Type.Object({ list: Type.Array(ShowPost), total: Type.Integer({ minimum: 0 }) })
export type ShowListResponse = Static<typeof ShowListResponse>

export const ShowPostRequest = Obj({ postId: Id })
export type ShowPostRequest = Static<typeof ShowPostRequest>

export const ShowLikeRequest = Obj({ postId: Id, liked: Type.Boolean({ description: 'true: like (a second like is the same one); false: take it back' }) })
export type ShowLikeRequest = Static<typeof ShowLikeRequest>
export const ShowLikeResult = Type.Object({ liked: Type.Boolean(), likeCount: Type.Integer({ minimum: 0 }) })
export type ShowLikeResult = Static<typeof ShowLikeResult>

export const ShowReply = Type.Object({
  id: Type.Integer(),
  authorName: Type.String(),
  mine: Type.Boolean(),
  /** Empty when the comment is not visible (its status says why). */
  text: Type.String(),
  status: ShowStatus,
  /** Why an operator hid it (its author and operators only). */
  hiddenReason: Nullable(Type.String()),
  createdAt: Timestamp
})
export type ShowReply = Static<typeof ShowReply>
export const ShowComment = Type.Object({
  ...ShowReply.properties,
  /** Replies, oldest first (one level deep). */
  replies: Type.Array(ShowReply)
})
export type ShowComment = Static<typeof ShowComment>

export const ShowCommentsRequest = Obj({ ...ShowPage, postId: Id })
export type ShowCommentsRequest = Static<typeof ShowCommentsRequest>
export const ShowCommentsResponse = Type.Object({ list: Type.Array(ShowComment), total: Type.Integer({ minimum: 0 }) })
export type ShowCommentsResponse = Static<typeof ShowCommentsResponse>

export const ShowCommentRequest = Obj({
  postId: Id,
  /** A reply to this comment (a comment of the post that is not itself a reply). */
  parentId: Type.Optional(Id),
  text: MultilineText({ minLength: 1, maxLength: SHOW_LIMITS.commentMax })
})
export type ShowCommentRequest = Static<typeof ShowCommentRequest>

export const ShowReportRequest = Obj({
  target: ShowTarget,
  id: Id,
  reason: ShowReportReason,
  note: Type.Optional(Text({ maxLength: SHOW_LIMITS.reportNoteMax }))
})
export type ShowReportRequest = Static<typeof ShowReportRequest>
/** `status` after this report: 'reported' once it reached SHOW_LIMITS.reportsToHide. A second report by one account counts once. */
export const ShowReportResult = Type.Object({ status: ShowStatus })
export type ShowReportResult = Static<typeof ShowReportResult>

// ---- operators -------------------------------------------------------------------------------------

export const ShowQueueFilter = StringEnum(['reported', 'hidden', 'all'] as const)
export type ShowQueueFilter = Static<typeof ShowQueueFilter>
export const ShowQueueRequest = Obj({ ...ShowPage, filter: ShowQueueFilter })
export type ShowQueueRequest = Static<typeof ShowQueueRequest>
/** One report, as operators see it. */
export const ShowReportEntry = Type.Object({
  reporterId: Type.Integer(),
  /** Masked as authors are ('a***y'). */
  reporterName: Type.String(),
  reason: ShowReportReason,
  note: Nullable(Type.String()),
  createdAt: Timestamp,
  /** It counts toward hiding: the reporter had something at stake (SHOW_LIMITS.reportStakePurchases purchases). */
  weighted: Type.Boolean(),
  /** Dealt with by an operator's restore: it no longer counts, and its reporter cannot report this again. */
  reviewed: Type.Boolean()
})
export type ShowReportEntry = Static<typeof ShowReportEntry>

export const ShowModerationItem = Type.Object({
  target: ShowTarget,
  id: Type.Integer(),
  /** The post it is or belongs to. */
  postId: Type.Integer(),
  authorId: Type.Integer(),
  authorName: Type.String(),
  text: Type.String(),
  images: Type.Array(Type.String()),
  status: ShowStatus,
  hiddenReason: Nullable(Type.String()),
  /** Reports not yet dealt with (weighted or not). */
  reportCount: Type.Integer({ minimum: 0 }),
  /** Of those, the ones that count toward hiding. */
  weightedCount: Type.Integer({ minimum: 0 }),
  /** Reports per reason (not yet dealt with). */
  reasons: Type.Array(Type.Object({ reason: ShowReportReason, count: Type.Integer({ minimum: 1 }) })),
  /** The reporters' own words (newest first, a few). */
  notes: Type.Array(Type.String()),
  /** Who reported it, newest first (those dealt with by a restore too), at most SHOW_LIMITS.reportsShown. */
  reports: Type.Array(ShowReportEntry),
  createdAt: Timestamp
})
export type ShowModerationItem = Static<typeof ShowModerationItem>
export const ShowQueueResponse = Type.Object({ list: Type.Array(ShowModerationItem), total: Type.Integer({ minimum: 0 }) })
export type ShowQueueResponse = Static<typeof ShowQueueResponse>

export const ShowModerateRequest = Obj({
  target: ShowTarget,
  id: Id,
  action: StringEnum(['hide', 'restore'] as const),
  /** Told to the author: required to hide. */
  reason: Type.Optional(Text({ maxLength: SHOW_LIMITS.moderationReasonMax }))
})
export type ShowModerateRequest = Static<typeof ShowModerateRequest>

export const ShowWords = Type.Object({ words: Type.Array(Type.String()) })
export type ShowWords = Static<typeof ShowWords>
export const ShowWordsSaveRequest = Obj({
  words: Type.Array(Text({ minLength: 1, maxLength: SHOW_LIMITS.wordMax }), { maxItems: SHOW_LIMITS.wordsMax, description: 'Matched after NFKC and case folding, anywhere in a text' })
})
export type ShowWordsSaveRequest = Static<typeof ShowWordsSaveRequest>
export const ShowEmptyRequest = Obj({})

const tag = 'show'
export const showRoutes = {
  create: route({
    method: 'POST', url: '/api/show/create', auth: 'user', tag, body: ShowCreateRequest, data: ShowPost,
    summary: 'Post prizes the caller owns, with photos and text, to the player show',
    description: `A prize of another account is a 404 on prizeIds, a recycled or combined-away one a 422 on prizeIds; a photo not uploaded by the caller a 400 on images; a word of the operators' list a 422 on text. At most ${SHOW_LIMITS.postsPerHour} posts an hour (429).`
  }),
  list: route({
    method: 'POST', url: '/api/show/list', auth: 'optional', tag, body: ShowListRequest, data: ShowListResponse,
    summary: 'Visible posts, newest or most popular first, optionally of one series (or the caller\'s own posts)'
  }),
  detail: route({
    method: 'POST', url: '/api/show/detail', auth: 'optional', tag, body: ShowPostRequest, data: ShowPost,
    summary: 'One post with its prizes and their proofs (a hidden post: its author and operators only; else 404)'
  }),
  remove: route({
    method: 'POST', url: '/api/show/delete', auth: 'user', tag, body: ShowPostRequest, data: ShowPostRequest,
    summary: 'Delete one of the caller\'s own posts (with its comments and likes)'
  }),
  like: route({
    method: 'POST', url: '/api/show/like', auth: 'user', tag, body: ShowLikeRequest, data: ShowLikeResult,
    summary: 'Like a post or take the like back (one like per account)'
  }),
  comments: route({
    method: 'POST', url: '/api/show/comments', auth: 'optional', tag, body: ShowCommentsRequest, data: ShowCommentsResponse,
    summary: 'A post\'s comments, oldest first, each with its replies'
  }),
  comment: route({
    method: 'POST', url: '/api/show/comment', auth: 'user', tag, body: ShowCommentRequest, data: ShowReply,
    summary: 'Comment on a post, or reply to a comment (a reply to a reply is a 422 on parentId)',
    description: `At most ${SHOW_LIMITS.commentsPerHour} comments an hour (429); a word of the operators' list is a 422 on text.`
  }),
  report: route({
    method: 'POST', url: '/api/show/report', auth: 'user', tag, body: ShowReportRequest, data: ShowReportResult,
    summary: `Report a post or a comment with a reason; ${SHOW_LIMITS.reportsToHide} reports from different accounts with something at stake hide it until an operator reviews it`,
    description: `A report counts toward hiding only from an account with at least ${SHOW_LIMITS.reportStakePurchases} purchase(s); any other is recorded for operators and hides nothing. One report per account and thing: after an operator restores it, only reports from accounts that had not reported it count.`
  }),
  queue: route({
    method: 'POST', url: '/api/operator/show/queue', auth: 'operator', tag, body: ShowQueueRequest, data: ShowQueueResponse,
    summary: 'Reported or hidden posts and comments, with their reports (operators)'
  }),
  moderate: route({
    method: 'POST', url: '/api/operator/show/moderate', auth: 'operator', tag, body: ShowModerateRequest, data: ShowModerationItem,
    summary: 'Hide (with a reason told to the author) or restore a post or comment (operators; audited)'
  }),
  words: route({
    method: 'POST', url: '/api/operator/show/words', auth: 'operator', tag, body: ShowEmptyRequest, data: ShowWords,
    summary: 'The words posts and comments may not contain (operators)'
  }),
  wordsSave: route({
    method: 'POST', url: '/api/operator/show/wordsSave', auth: 'operator', tag, body: ShowWordsSaveRequest, data: ShowWords,
    summary: 'Replace the word list (operators; audited)'
  })
}
