/**
 * Every rate limit of the server, in one place (each has a test in test/server/rate-limits.test.ts).
 * Windows are short so that an attacker is slowed without locking the real owner out for long.
 */
import type { RateRule } from './rateLimiter'
import { COMPLAINT_LIMITS, MAIL_SEND_LIMITS, SHOW_LIMITS, PRICE_LIMITS, SHOP_LIMITS, TRAVEL_LIMITS, VISION_LIMITS } from '../../../types/limits'

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

/**
 * How long one account's password login stays refused once its guessing budget (10) is spent: the
 * budget then comes back one attempt per PASSWORD_LOCKOUT_MS. Short on purpose: anyone can spend the
 * budget of someone else's account from many addresses, and the owner should not wait long for a
 * retry; guessing is still held to about 960 tries a day per account. Code login (SMS, e-mail) never
 * counts against this budget, so the owner has a way in meanwhile.
 *
 * Decided: while the budget is spent the right password is refused too (429, like a wrong one), or a
 * guesser could go on guessing past the budget and be let in by the right guess: the limit would be
 * useless. What this does not do: an attacker who keeps spending the one attempt that comes back every
 * PASSWORD_LOCKOUT_MS keeps password login shut for as long as it keeps at it (code login still works);
 * and because the budget is the account's, someone who spends it through one identifier can learn
 * whether another identifier (a phone, an address) belongs to the same account, which per-identifier
 * budgets did not reveal.
 */
export const PASSWORD_LOCKOUT_MS = 90 * SECOND
const PASSWORD_BUDGET = 10

export const RULES = {
  /** One code per phone number or address per minute (the client counts down 60 s). */
  codeSendPerTarget: { name: 'code-target', limit: 1, periodMs: MINUTE },
  /** And at most 10 codes a day to one phone number or address. */
  codeSendPerTargetDaily: { name: 'code-target-day', limit: 10, periodMs: 24 * HOUR },
  /** At most 10 codes an hour requested from one IP, whatever the targets. */
  codeSendPerIp: { name: 'code-ip', limit: 10, periodMs: HOUR },
  /**
   * Guardian codes one account asks for (domain/age.ts), whatever the numbers: 5, then one every 4.8
   * hours; the three rules above hold for each number and address as well (tested in
   * guardian-consent.test.ts).
   */
  guardianCodePerAccount: { name: 'guardian-acct', limit: 5, periodMs: 24 * HOUR },
  /** Login attempts of every kind from one IP: 30 at once, then one every 2 s. */
  loginPerIp: { name: 'login-ip', limit: 30, periodMs: MINUTE },
  /** Password attempts on one account from one IP: 5, then one a minute; refunded on success. */
  passwordPerAccountAndIp: { name: 'pw-acct-ip', limit: 5, periodMs: 5 * MINUTE },
  /**
   * Password attempts on one account (whichever identifier names it: user name, phone or e-mail) from
   * anywhere: 10, then one every PASSWORD_LOCKOUT_MS; refunded on success. An identifier that names no
   * account has a budget of its own (its normalised text), so both answer alike.
   */
  passwordPerAccount: { name: 'pw-acct', limit: PASSWORD_BUDGET, periodMs: PASSWORD_BUDGET * PASSWORD_LOCKOUT_MS },
  /** Registrations from one IP. */
  registerPerIp: { name: 'register-ip', limit: 10, periodMs: HOUR },
  /** Mini-program URL links from one IP (each costs a WeChat API call). */
  mpUrlPerIp: { name: 'mp-url-ip', limit: 20, periodMs: MINUTE },
  /** Spreadsheet exports from one IP (each builds a workbook of up to 5,000 rows). */
  exportPerIp: { name: 'export-ip', limit: 10, periodMs: MINUTE },
  /** Order numbers issued to one user (each is a row until it is used). */
  orderNoPerUser: { name: 'order-no-user', limit: SHOP_LIMITS.orderNumbersPerMinute, periodMs: MINUTE },
  /** Map calls (geocoding, places, routes, IP location) of one user: each may spend provider quota (tested in geo-providers.test.ts). */
  mapsPerUser: { name: 'maps-user', limit: 60, periodMs: MINUTE },
  /** Parcel tracking calls of one user, Kuaidi100 charges per query (tested in express.test.ts). */
  expressPerUser: { name: 'express-user', limit: 20, periodMs: MINUTE },
  /** Image uploads of one operator (each up to UPLOAD_MAX_MB is kept in the database; tested in editor.test.ts). */
  uploadPerUser: { name: 'upload-user', limit: 60, periodMs: MINUTE },
  /** Text to speech of one account (each runs the local engine; tested in speech.test.ts). */
  ttsPerUser: { name: 'tts-user', limit: 30, periodMs: MINUTE },
  /** AI calls of one account (each costs provider tokens; tested in ai.test.ts). */
  aiPerUser: { name: 'ai-user', limit: 20, periodMs: MINUTE },
  /** OCR of one account (each runs the local engine on an image of up to UPLOAD_MAX_MB; tested in vision.test.ts). */
  ocrPerUser: { name: 'ocr-user', limit: 20, periodMs: MINUTE },
  /** Pictures drawn for one operator (each costs the shop and is stored; tested in vision.test.ts). */
  word2picPerOperator: { name: 'word2pic-operator', limit: 10, periodMs: MINUTE },
  /** Screenshots a shopper uploads (each is kept in the database; tested in vision.test.ts). */
  shopperUploadPerUser: { name: 'upload-shopper', limit: VISION_LIMITS.shopperUploadsPerHour, periodMs: HOUR },
  /** Long-running tasks one account starts (PDF pages, video, music: each runs the engine or costs the provider; tested in tasks.test.ts). */
  taskPerUser: { name: 'task-user', limit: 10, periodMs: MINUTE },
  /** Price comparisons of one account (JD Union quota; a kept answer counts too; tested in bijia.test.ts). */
  bijiaPerUser: { name: 'bijia-user', limit: PRICE_LIMITS.perMinute, periodMs: MINUTE },
  /** Train ticket and flight queries of one account (Juhe charges per call; tested in travel.test.ts). */
  travelPerUser: { name: 'travel-user', limit: TRAVEL_LIMITS.perMinute, periodMs: MINUTE },
  /** Error reports from one IP. */
  errorReportPerIp: { name: 'error-report-ip', limit: 30, periodMs: MINUTE },
  /** Complaints of one account (the form says when to try again; tested in complaints.test.ts). */
  complaintPerUser: { name: 'complaint-user', limit: COMPLAINT_LIMITS.perHour, periodMs: HOUR },
  /** /common/mail/send: a shopper's mails (only to the shop's mailbox), an operator's (to anyone). */
  mailSendPerShopper: { name: 'mail-send-shopper', limit: MAIL_SEND_LIMITS.shopperPerHour, periodMs: HOUR },
  mailSendPerOperator: { name: 'mail-send-operator', limit: MAIL_SEND_LIMITS.operatorPerHour, periodMs: HOUR },
  /** /api/feishuRobotText and /api/wechatRobotText of one operator (WeCom itself takes 20 a minute per robot). */
  robotPerOperator: { name: 'robot-operator', limit: 20, periodMs: MINUTE },
  /** The player show: posts, comments and reports of one account (tested in show.test.ts). */
  showPostPerUser: { name: 'show-post-user', limit: SHOW_LIMITS.postsPerHour, periodMs: HOUR },
  showCommentPerUser: { name: 'show-comment-user', limit: SHOW_LIMITS.commentsPerHour, periodMs: HOUR },
  showReportPerUser: { name: 'show-report-user', limit: SHOW_LIMITS.reportsPerHour, periodMs: HOUR }
} as const satisfies Record<string, RateRule>
