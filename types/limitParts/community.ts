/**
 * Shoppers and the shop talking: complaints and mail, launch events, the show (shoppers' posts).
 * Plain constants, no schema code (types/limits.ts re-exports them all).
 */
/**
 * The complaint channel (issue 10, PRODUCT.md "Protecting shoppers"): the contact form's limits (the
 * form and the server check the same numbers), how often a shopper may write, and the spec's mail and
 * chat-robot calls behind it (spec 7: /common/mail/send, /api/feishuRobotText, /api/wechatRobotText).
 */
export const COMPLAINT_TOPICS = ['order', 'prize', 'shipping', 'payment', 'account', 'other'] as const
export const COMPLAINT_LIMITS = {
  /** The message: long enough to say what happened, short enough to read. */
  textMin: 10,
  textMax: 1000,
  /** The operator's reply. */
  replyMax: 1000,
  /** A related order, parcel or tracking number (letters, digits, -). */
  orderNoPattern: '^[A-Za-z0-9-]{4,40}$',
  /** Complaints one account may send per hour (more: 429 saying when to try again). */
  perHour: 3,
  /** Rows per page of the shopper's list and of the operators' queue. */
  pageSizeMax: 50
} as const
/** POST /common/mail/send: lengths, placeholders ({name} in title and content, filled from params). */
export const MAIL_SEND_LIMITS = {
  titleMax: 200,
  contentMax: 5000,
  paramsMax: 20,
  paramNamePattern: '^[A-Za-z0-9_]{1,32}$',
  paramValueMax: 500,
  /** Mails per hour: a shopper (only to the shop's complaint mailbox), an operator (to anyone). */
  shopperPerHour: 5,
  operatorPerHour: 60
} as const

/**
 * Launch events (首发活动, issue 24): an operator announces where and when a series launches; a
 * shopper may ask to be reminded, which happens remindBeforeMs before it starts (or at once when that
 * is already past), by the mini-program's subscription message or by mail.
 */
export const EVENT_LIMITS = {
  titleMax: 40,
  venueMax: 50,
  addressMax: 200,
  /** How long an event may last. */
  durationMaxMs: 7 * 86_400_000,
  /** How far ahead an event may be announced. */
  aheadMaxDays: 365,
  remindBeforeMs: 24 * 3_600_000,
  /** Events per page (spec 9's lists of 20). */
  pageSize: 20,
  /** Tries of a reminder whose provider was down, and the wait before the next (doubling). */
  sendAttempts: 3,
  retryMs: 5 * 60_000,
  /** A reminder claimed this long ago and never finished (the server stopped mid-send) is given up, never sent twice. */
  staleSendingMs: 10 * 60_000
} as const

/**
 * The player show (玩家秀, issue 27): shoppers post their own prizes with photos and text; likes,
 * comments one level deep, reports and operator moderation. The app and the server check the same numbers.
 */
export const SHOW_SORTS = ['newest', 'popular'] as const
export const SHOW_REPORT_REASONS = ['spam', 'fake', 'offensive', 'personal', 'other'] as const
export const SHOW_LIMITS = {
  textMax: 500,
  /** Prizes in one post. */
  prizesMax: 9,
  /** Photos in one post (each an upload through /api/upload/image). */
  imagesMax: 6,
  commentMax: 200,
  /** The reporter's own words beside the reason. */
  reportNoteMax: 200,
  /** The operator's reason for hiding, told to the author. */
  moderationReasonMax: 200,
  /** Reports (from different accounts) that hide a post or comment until an operator reviews it. */
  reportsToHide: 3,
  /**
   * A report counts toward hiding only from an account with at least this many purchases (boxes bought
   * with its own money): something at stake, where a new account costs nothing (issue 48). A report
   * from any other account is recorded and shown to operators, and hides nothing.
   */
  reportStakePurchases: 1,
  /** Reports listed per thing in the moderation queue (newest first). */
  reportsShown: 20,
  postsPerHour: 5,
  commentsPerHour: 30,
  reportsPerHour: 20,
  pageSizeMax: 30,
  /** The "popular" feed ranks by the likes of these last days (then all likes, comments, newest). */
  popularDays: 7,
  /** The operators' word list: how many words, how long each. */
  wordsMax: 300,
  wordMax: 30,
  /** Posts a series page shows. */
  seriesBest: 3
} as const
