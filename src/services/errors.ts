import type { ClientErrorCode } from '~types/api'

/** A failure of the transport (spec 8): network, timeout, cancellation or a non-2xx HTTP status. */
export class RequestError extends Error {
  readonly code: ClientErrorCode
  readonly status?: number
  /** The server's X-Request-Id of the answer, when one came (its log lines carry it). */
  requestId?: string
  constructor (message: string, code: ClientErrorCode, status?: number) {
    super(message)
    this.name = 'RequestError'
    this.code = code
    this.status = status
  }
}

/** A handled outcome whose body code is not 200 (the server's {code, message, data}). */
export class ApiError<T = unknown> extends Error {
  readonly code: number
  readonly data: T
  /** The server's X-Request-Id of the answer (its log lines carry it). */
  requestId?: string
  constructor (code: number, message: string, data: T) {
    super(message)
    this.name = 'ApiError'
    this.code = code
    this.data = data
  }
}

export const isRequestError = (e: unknown): e is RequestError => e instanceof RequestError
export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError

export const networkError = () => new RequestError('Network Error', 'ERR_NETWORK')
export const timeoutError = (ms: number) => new RequestError(`timeout of ${ms}ms exceeded`, 'ECONNABORTED')
export const platformTimeoutError = () => new RequestError('timeout', 'ETIMEDOUT')
export const canceledError = () => new RequestError('canceled', 'ERR_CANCELED')
export const statusError = (status: number) => new RequestError(
  `Request failed with status code ${status}`,
  status >= 500 ? 'ERR_BAD_RESPONSE' : 'ERR_BAD_REQUEST',
  status
)

/**
 * Turns whatever a platform rejected with into a RequestError. H5 (fetch) rejects with a TypeError
 * or an AbortError; the mini-program rejects with `{ errMsg: 'request:fail ...' }`.
 */
export function normaliseTransportError (err: unknown): RequestError {
  if (err instanceof RequestError) return err
  const e = (err || {}) as { name?: string; message?: string; errMsg?: string }
  const text = `${e.errMsg || ''} ${e.message || ''}`.toLowerCase()
  if (e.name === 'AbortError' || /\babort/.test(text)) return canceledError()
  if (/time(d)?\s?out/.test(text)) return platformTimeoutError()
  if (/adapter/.test(text)) return new RequestError('Unknown adapter', 'ERR_BAD_REQUEST')
  return networkError()
}

/** The X-Request-Id of an answer (header names come in either case, by platform). */
export function requestIdOf (header: Record<string, unknown> | undefined): string | undefined {
  for (const [name, value] of Object.entries(header ?? {})) {
    if (name.toLowerCase() === 'x-request-id' && typeof value === 'string' && value) return value
  }
  return undefined
}

/** The error with the request id of the answer it came from. */
export function withRequestId<E extends ApiError | RequestError> (error: E, header: Record<string, unknown> | undefined): E {
  const id = requestIdOf(header)
  if (id) error.requestId = id
  return error
}
