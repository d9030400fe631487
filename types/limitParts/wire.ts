/**
 * The wire's general limits: ids, pages, money fields, idempotency keys and order numbers, request
 * ids, error reports, and the control characters a text may not hold.
 * Plain constants, no schema code (types/limits.ts re-exports them all).
 */
/**
 * Integers on the wire fit the database and JavaScript: ids are PostgreSQL bigints, but no id above
 * 2^53 - 1 can exist here (JavaScript numbers), so larger ones are refused by the schema (400), never
 * passed to a query.
 */
export const MAX_ID = Number.MAX_SAFE_INTEGER
/** Pages: size at most 100; page at most 100,000, so an offset stays below 10^7 rows. */
export const PAGE_SIZE_MAX = 100
export const PAGE_MAX = 100_000
/** The largest case (series_case_size_check). */
export const CASE_SIZE_MAX = 100
/**
 * A kuji set (types/kuji.ts) is a case: its tickets, then the Last One, then one slot a Double Chance
 * winner, within CASE_SIZE_MAX slots.
 */
export const KUJI_TICKETS_MAX = 80
export const KUJI_DOUBLE_CHANCE_MAX = 10
/** The largest amount of money in one field of a request (1 million yuan, in cents). */
export const MONEY_MAX_CENTS = 100_000_000

/** Idempotency keys of money-moving calls; order numbers (opId). */
export const IDEMPOTENCY_KEY_PATTERN = '^[A-Za-z0-9_-]{8,64}$'
export const OP_ID_PATTERN = '^[A-Za-z0-9]{8,32}$'

/** Error reports (spec 3, 8): the longest text of each field, and the body. */
/** A request id: what the server takes from X-Request-Id (anything else is replaced by one it makes) and answers in it. */
export const REQUEST_ID_PATTERN = '^[A-Za-z0-9._:-]{8,64}$'

export const ERROR_REPORT_LIMITS = {
  error_message: 4000,
  path: 500,
  type: 50,
  sub_source: 50,
  app_id: 100,
  /** The X-Request-Id of the call that failed, when the error came from one. */
  request_id: 64,
  /** bytes of JSON: 4000 characters of CJK text with escapes fit */
  body: 32 * 1024
} as const

/**
 * Strings refuse control characters: a single-line text none of U+0000-U+001F and U+007F; a
 * multi-line text allows tab, line feed and carriage return. (PostgreSQL cannot store U+0000 at all.)
 */
export const SINGLE_LINE_PATTERN = '^[^\\u0000-\\u001f\\u007f]*$'
export const MULTI_LINE_PATTERN = '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$'
