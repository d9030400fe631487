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
