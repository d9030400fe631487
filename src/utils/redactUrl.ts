/**
 * Query values in what leaves the device (issue 48 item 5, the app's side): an error report's message
 * and path go to /error/report and to the operator's own report URL (config.errorReportUrl), which is
 * outside the shop, and a failed call's message or a stack can quote a URL with a token in its query
 * (`?token=`, `?code=` from a WeChat OAuth return, `?access_token=`). So every query found in the text
 * keeps its keys and shows values only for the harmless keys below; any other value becomes `***`, and
 * a key that does not look like one, or an unknown key without a value (a bare token, `?eyJhbGci...`),
 * becomes `[key]`. The server applies the same idea to its log (server/src/http/redact.ts); the two lists
 * are kept equal by test/unit/redactUrl.test.ts. Written for every engine the app runs on: no lookbehind,
 * no Unicode property escapes.
 *
 * Not redacted: a secret outside a query (in a path segment, a `#access_token=` fragment, or prose).
 */

/** Query keys whose values are harmless: ids, sizes, sorts and filters of the pages and the API. */
export const SHOWN_QUERY_KEYS: ReadonlySet<string> = new Set([
  // the API's own query strings
  'table', 'method', 'scope',
  // media width, a static file's version
  'w', 'v',
  // the pages' ids, filters and sorts
  'id', 'seriesId', 'prizeId', 'caseId', 'recipeId', 'purchaseId', 'combineId', 'sort', 'rarity', 'tags',
  'price', 'hidden', 'whole', 'compose', 'slots', 'tab', 'page', 'size', 'filter', 'lang'
])

export const HIDDEN_VALUE = '***'
export const HIDDEN_KEY = '[key]'

const LOOKS_LIKE_KEY = /^[A-Za-z_][A-Za-z0-9_.[\]-]{0,39}$/

function keyOf (raw: string): string {
  try { return decodeURIComponent(raw.replace(/\+/g, ' ')) } catch { return raw }
}

function redactPair (pair: string): string {
  if (pair === '') return pair
  const eq = pair.indexOf('=')
  if (eq < 0) return SHOWN_QUERY_KEYS.has(keyOf(pair)) ? pair : HIDDEN_KEY
  const rawKey = pair.slice(0, eq)
  const key = keyOf(rawKey)
  if (!LOOKS_LIKE_KEY.test(key)) return `${HIDDEN_KEY}=${HIDDEN_VALUE}`
  const value = pair.slice(eq + 1)
  if (value === '' || SHOWN_QUERY_KEYS.has(key)) return pair
  return `${rawKey}=${HIDDEN_VALUE}`
}

/** A query string (without its "?") with the values of unknown keys hidden. */
export function redactQuery (query: string): string {
  return query.split('&').map(redactPair).join('&')
}

/**
 * Every query in a text redacted: the run after a "?" up to white space, a quote, a bracket, a
 * backslash, "#" or another "?". A run counts as a query when it holds "=" or "&", or when the "?"
 * follows a URL (the word before it holds a "/"), so "what?no" in prose is left alone.
 */
const QUERY_RUN = /\?([^\s"'`<>()\\?#]+)/g
const WORD_END = /[\s"'`<>()\\?#]/

/** Whether the word just before `at` (back to white space, a quote or a bracket) holds a "/". */
function urlBefore (text: string, at: number): boolean {
  for (let i = at - 1; i >= 0 && at - i <= 2000; i--) {
    const c = text.charAt(i)
    if (c === '/') return true
    if (WORD_END.test(c)) return false
  }
  return false
}

export function redactUrls (text: string): string {
  if (text.indexOf('?') < 0) return text
  return text.replace(QUERY_RUN, (whole: string, query: string, at: number) => {
    const isQuery = query.indexOf('=') >= 0 || query.indexOf('&') >= 0 || urlBefore(text, at)
    return isQuery ? `?${redactQuery(query)}` : whole
  })
}
