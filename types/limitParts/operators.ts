/**
 * The operators' tools: operators, recipes, the series editor, cases opened ahead of a launch.
 * Plain constants, no schema code (types/limits.ts re-exports them all).
 */
import { CASE_SIZE_MAX } from './wire'

/**
 * Roles, the audit log and combine recipes (issue 10): the operators' user search, the audit log's
 * pages, and what a recipe may hold (the editor's form checks the same numbers as the server).
 */
export const OPERATOR_LIMITS = {
  /** The longest search text (a user name, a phone or an e-mail address, or a part of one). */
  userQueryMax: 100,
  /** Rows per page of the user search and of the audit log. */
  pageSizeMax: 50,
  /** An audit entity name (series, recipe, setting, user, ...). */
  auditEntityPattern: '^[a-z_]{1,32}$'
} as const
export const RECIPE_LIMITS = {
  nameMax: 100,
  inputCountMin: 2,
  inputCountMax: 20,
  poolMax: 100,
  weightMax: 1_000_000
} as const

/**
 * The series editor (issue 10). A draft may be saved half done; publishing asks for every rule at once.
 * Images: uploads of at most UPLOAD_MAX_MB megabytes (MiB), PNG, JPEG, WebP or GIF, recognised by their
 * bytes (not by a name or a declared type).
 */
export const EDITOR_LIMITS = {
  titleMax: 60,
  descriptionMax: 1000,
  rulesMax: 2000,
  designNameMax: 40,
  /** A design picture's description (its accessible name). */
  altMax: 200,
  /** Designs a series needs to be published. */
  designsToPublish: 3,
  designsMax: CASE_SIZE_MAX + 1,
  /** Largest reference or recycle value of a design (10,000 yuan). */
  valueMaxCents: 1_000_000,
  /** The most figures of one design an operator may count into the warehouse (a count, not money). */
  stockMax: 10_000_000
} as const
/**
 * The most cases an operator opens ahead of a launch in one call (each is a shuffle, a commitment and a
 * row per slot; a thousand take about a second on PostgreSQL). The series' cap of open cases at once
 * (CASE_SPREAD.maxOpenCases on the server) still holds.
 */
export const CASES_AHEAD_MAX = 1000

/** Drops (issue 50): a limited run of a series, every case made and committed before the sale. */
export const DROP_LIMITS = {
  /** The most cases in one drop (each is a shuffle, a commitment and a row per slot, made at once). */
  casesMax: 5000,
  /** How far ahead a drop's start may be set. */
  startsAheadMaxDays: 90,
  /** The waiting room: the fair window after the start (arrivals in it are put in a random order), */
  windowSecondsMax: 600,
  /** how many shop at once, */
  shoppersAtOnceMax: 10_000,
  /** and how long each may (minutes). */
  minutesEachMax: 60,
  /** Limits per account: the most boxes, whole cases and the account age (hours) an operator may set. */
  boxesPerAccountMax: 1000,
  casesPerAccountMax: 100,
  accountHoursMax: 8760,
  /** The waiting room's defaults in the editor's form (the bench measures what the shop serves). */
  defaults: { windowSeconds: 10, shoppersAtOnce: 200, minutesEach: 5 }
} as const
