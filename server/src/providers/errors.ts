/** A provider could not be reached or answered nonsense: an outage, not the user's fault. */
export class ProviderUnavailableError extends Error {
  constructor (readonly provider: string, message: string, options?: { cause?: unknown }) {
    super(`${provider}: ${message}`, options)
    this.name = 'ProviderUnavailableError'
  }
}

/** Default time a provider call may take. */
export const PROVIDER_TIMEOUT_MS = 10_000
