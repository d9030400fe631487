/**
 * Every call to a third party (and to a local engine the code treats as one, text to speech) is told on
 * the diagnostics channel `pickbox:provider-call` with its provider, outcome and duration; the metrics
 * listen there (server/src/metrics/metrics.ts). Nothing is measured while nobody listens.
 *
 * Outcomes: `ok`; `refused` (the provider answered and said no: a ProviderRefusedError, or what the
 * caller's `isRefusal` recognises, such as a WeChat errcode); `unavailable` (ProviderUnavailableError:
 * not reached, a timeout, an HTTP error, an answer that makes no sense); `error` (anything else).
 */
import diagnostics from 'node:diagnostics_channel'
import { ProviderRefusedError, ProviderUnavailableError, ProviderFoundNothingError } from './errors'

export type ProviderOutcome = 'ok' | 'refused' | 'unavailable' | 'error'

export interface ProviderCallEvent { provider: string; outcome: ProviderOutcome; seconds: number }

export const PROVIDER_CALL_CHANNEL = 'pickbox:provider-call'
const channel = diagnostics.channel(PROVIDER_CALL_CHANNEL)

export function outcomeOf (err: unknown, isRefusal?: (err: unknown) => boolean): ProviderOutcome {
  if (err instanceof ProviderUnavailableError) return 'unavailable'
  if (err instanceof ProviderRefusedError || err instanceof ProviderFoundNothingError || isRefusal?.(err)) return 'refused'
  return 'error'
}

/** Runs one call to `provider` and tells its outcome; the result or the error is the call's own. */
export async function observedCall<T> (provider: string, fn: () => Promise<T>, isRefusal?: (err: unknown) => boolean): Promise<T> {
  if (!channel.hasSubscribers) return fn()
  const started = performance.now()
  let outcome: ProviderOutcome = 'ok'
  try {
    return await fn()
  } catch (err) {
    outcome = outcomeOf(err, isRefusal)
    throw err
  } finally {
    channel.publish({ provider, outcome, seconds: (performance.now() - started) / 1000 } satisfies ProviderCallEvent)
  }
}

/** Listens to every provider call of this process; answers the function that stops listening. */
export function onProviderCall (listener: (event: ProviderCallEvent) => void): () => void {
  const handler = (message: unknown) => listener(message as ProviderCallEvent)
  diagnostics.subscribe(PROVIDER_CALL_CHANNEL, handler)
  return () => { diagnostics.unsubscribe(PROVIDER_CALL_CHANNEL, handler) }
}
