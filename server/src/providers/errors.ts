/** A provider could not be reached or answered nonsense: an outage, not the user's fault. */
export class ProviderUnavailableError extends Error {
  /** The provider had done its (billed) work before this failed, e.g. fetching a picture it made. */
  readonly afterWork: boolean
  constructor (readonly provider: string, message: string, options?: { cause?: unknown; afterWork?: boolean }) {
    super(`${provider}: ${message}`, options)
    this.name = 'ProviderUnavailableError'
    this.afterWork = options?.afterWork ?? false
  }
}

/**
 * A provider answered, in good order, that it has nothing for this input: no address at a point in the
 * sea, no route between two points. An answer about the input (a handled 404), not an outage: a
 * shopper's own point must never make a 5xx.
 */
export class ProviderFoundNothingError extends Error {
  constructor (readonly provider: string, readonly where: string) {
    super(`${provider}: ${where}: nothing found`)
    this.name = 'ProviderFoundNothingError'
  }
}

/** Default time a provider call may take. */
export const PROVIDER_TIMEOUT_MS = 10_000

/**
 * A provider answered, and refused the request (Tencent status non-zero, AMap status "0", Kuaidi100
 * result false): its status code and its own message, which the caller is shown.
 */
export class ProviderRefusedError extends Error {
  constructor (readonly provider: string, readonly status: string, readonly detail: string) {
    super(`${provider} refused: ${status} ${detail}`)
    this.name = 'ProviderRefusedError'
  }
}
