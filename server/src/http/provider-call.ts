/**
 * Runs a call to a map or parcel provider and turns its failures into answers: a refusal (the provider
 * answered with an error status) is a 422 carrying the provider's own message (spec 8: "reports the
 * server message"), with data {provider, status}; an outage is the HTTP 502 of fail.providerUnavailable.
 * Each call is counted by its provider and outcome (providers/calls.ts).
 */
import { observedCall } from '../providers/calls'
import { ProviderFoundNothingError, ProviderRefusedError, ProviderUnavailableError } from '../providers/errors'
import { ApiFailure, fail, type ProviderName } from '../core/errors'

export async function providerCall<T> (provider: ProviderName, fn: () => Promise<T>): Promise<T> {
  try {
    return await observedCall(provider, fn)
  } catch (err) {
    if (err instanceof ProviderRefusedError) {
      throw new ApiFailure(422, 'provider.refused', { message: err.detail }, { provider, status: err.status })
    }
    if (err instanceof ProviderFoundNothingError) {
      // the provider's good answer about the caller's input: nothing at that point, no such route
      throw new ApiFailure(404, 'provider.foundNothing', {}, { provider })
    }
    if (err instanceof ProviderUnavailableError) {
      const failure = fail.providerUnavailable(provider)
      // the media store's errors name the operation, the object key and S3's error code (never a
      // credential): kept as the cause, which the error handler logs with the 502
      if (provider === 'media') failure.cause = err
      throw failure
    }
    throw err
  }
}

/** The client, or 422 "{provider} is not configured" with data {provider}. */
export function configured<C> (client: C | null, provider: ProviderName): C {
  if (!client) throw fail.providerNotConfigured(provider)
  return client
}
