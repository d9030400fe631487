/**
 * The one rule of every map call's answer (Tencent and AMap alike, routes/geo.ts): the provider's
 * answer holds what the call promises, or the call failed.
 *  - a refusal (Tencent status non-zero, e.g. 347 "查询无结果"; AMap status "0"): 422 with the
 *    provider's own message (ProviderRefusedError);
 *  - a success that says there is nothing for this input (no address at the point, no route between
 *    the two points): a handled 404 "nothing found" naming the provider (ProviderFoundNothingError),
 *    never a 200 with blanks a page would show as an answer, and never a 5xx, since the input is the
 *    caller's (a point in the sea);
 *  - no answer, an HTTP error, not JSON, no status (providers/http.ts), and equally a success whose
 *    content is malformed (no result object, no point, a list that is not a list, a route without a
 *    usable line): the provider failed, HTTP 502 naming it (ProviderUnavailableError,
 *    http/provider-call.ts);
 *  - a search is answered by a list, and an empty list is an answer (nothing matched there);
 *  - an IP address the provider cannot place is an answer of its own (rectangle '', as the offline
 *    database gives), but only when the provider said so in the fields it answers with.
 */
import { ProviderFoundNothingError, ProviderUnavailableError } from './errors'
import { num, obj, str, type Json } from './http'

/** The provider answered success with nothing usable: reported as its failure. */
export function emptyAnswer (provider: string, where: string, what: string): ProviderUnavailableError {
  return new ProviderUnavailableError(provider, `${where}: ${what} missing from the answer`)
}

/** The provider answered that it has nothing for this input. */
export const nothingFound = (provider: string, where: string) => new ProviderFoundNothingError(provider, where)

/** The first of a list the answer must have (routes, paths): an empty list is "nothing found". */
export function needFirst (provider: string, where: string, value: unknown, what: string): unknown {
  const list = needList(provider, where, value, what)
  if (!list.length) throw nothingFound(provider, where)
  return list[0]
}

/** A non-empty object of the answer (e.g. Tencent's `result`, AMap's `regeocode`). */
export function needObject (provider: string, where: string, value: unknown, what: string): Json {
  const o = obj(value)
  if (!Object.keys(o).length) throw emptyAnswer(provider, where, what)
  return o
}

/** A text the answer must have (an address): '' or AMap's [] for "none" is "nothing found"; another type is malformed. */
export function needText (provider: string, where: string, value: unknown, what: string): string {
  if (value !== undefined && value !== null && typeof value !== 'string' && !(Array.isArray(value) && value.length === 0)) throw emptyAnswer(provider, where, what)
  const text = str(value).trim()
  if (!text) throw nothingFound(provider, where)
  return text
}

/** A list the answer must have; it may be empty (a search that found nothing). */
export function needList (provider: string, where: string, value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw emptyAnswer(provider, where, what)
  return value
}

/** A field the answer must carry, whatever its value ('' and [] are AMap's "unknown"). */
export function needField (provider: string, where: string, answer: Json, field: string): unknown {
  if (!(field in answer)) throw emptyAnswer(provider, where, field)
  return answer[field]
}

/** A point of the answer: both coordinates finite and in range. */
export function needPoint (provider: string, where: string, lat: unknown, lng: unknown): { latitude: number; longitude: number } {
  const latitude = num(lat)
  const longitude = num(lng)
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
    throw emptyAnswer(provider, where, 'a usable location')
  }
  return { latitude, longitude }
}
