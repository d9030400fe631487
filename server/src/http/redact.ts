/**
 * Query values in the log (issue 48 item 5): a value the server does not know may be anything a caller
 * put there, a token sent as `?token=` or `?access_token=` included, so a logged URL keeps its keys and
 * shows the value only for the keys below, known to be harmless (ids, sizes, sorts, filters of the API,
 * the media and the H5 pages). Every other value is logged as `***`; a key that does not look like one
 * (too long, odd characters), or an unknown key without a value (a bare token sent as `?eyJhbGci...`),
 * is logged as `[key]`.
 *
 * Two places use it: the request serializer (http/logging.ts, every request's `url`), and the log's
 * stream, which applies the same rule to every query it finds in a finished log line (error messages,
 * Fastify's own warnings with the raw URL, anything else that prints a URL).
 */

/** Query keys whose values are logged as sent. Anything not listed is redacted. */
export const LOGGED_QUERY_KEYS: ReadonlySet<string> = new Set([
  // API query strings (types/): the register call's table, the data tab's table and method, WeChat's scope
  'table', 'method', 'scope',
  // a media file's width (http/media.ts), the cache-busting version of a static file
  'w', 'v',
  // the H5 pages' ids, filters and sorts (src/pages*, Taro's router)
  'id', 'seriesId', 'prizeId', 'caseId', 'recipeId', 'purchaseId', 'combineId', 'sort', 'rarity', 'tags',
  'price', 'hidden', 'whole', 'compose', 'slots', 'tab', 'page', 'size', 'filter', 'lang'
])

const KEY_SHAPE = /^[A-Za-z_][A-Za-z0-9_.[\]-]{0,39}$/
export const REDACTED = '***'

function decode (s: string): string {
  try { return decodeURIComponent(s.replace(/\+/g, ' ')) } catch { return s }
}

/** A query string (without its "?") with every value redacted but those of LOGGED_QUERY_KEYS. */
export function redactQuery (query: string): string {
  if (!query) return query
  return query.split('&').map(pair => {
    if (!pair) return pair
    const eq = pair.indexOf('=')
    const rawKey = eq < 0 ? pair : pair.slice(0, eq)
    const key = decode(rawKey)
    // a key alone may be a bare token: shown only when it is one of the known keys
    if (eq < 0) return LOGGED_QUERY_KEYS.has(key) ? rawKey : '[key]'
    if (!KEY_SHAPE.test(key)) return `[key]=${REDACTED}`
    const value = pair.slice(eq + 1)
    return LOGGED_QUERY_KEYS.has(key) || value === '' ? pair : `${rawKey}=${REDACTED}`
  }).join('&')
}

/** A request URL (path and query) as it may be logged. */
export function redactUrl (url: string): string {
  const q = url.indexOf('?')
  if (q < 0) return url
  const hash = url.indexOf('#', q)
  const end = hash < 0 ? url.length : hash
  return `${url.slice(0, q)}?${redactQuery(url.slice(q + 1, end))}${url.slice(end)}`
}

/**
 * Every query in a finished log line (JSON or text) redacted as redactUrl does: the run after a "?"
 * that holds a "key=value", up to a quote, white space, a backslash or an angle bracket.
 */
const QUERY_IN_TEXT = /\?([^\s"'\\<>?#]*=[^\s"'\\<>#]*)/g
export function redactLine (line: string): string {
  if (!line.includes('?')) return line
  return line.replace(QUERY_IN_TEXT, (_m, query: string) => `?${redactQuery(query)}`)
}

/** A stream for the logger: each line written with its queries redacted (then to `out`, stdout by default). */
export function redactingStream (out: { write: (s: string) => unknown } = process.stdout): { write: (line: string) => void } {
  return { write: (line: string) => { out.write(redactLine(line)) } }
}
