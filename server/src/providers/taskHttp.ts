/**
 * One JSON exchange with a task provider (video, music): a refusal (HTTP 4xx with the provider's own
 * error message) is a ProviderRefusedError, anything else that keeps a usable answer from arriving is a
 * ProviderUnavailableError naming the path (never the key).
 */
import { ProviderRefusedError, ProviderUnavailableError, PROVIDER_TIMEOUT_MS } from './errors'

export async function exchange (provider: string, url: URL, init: RequestInit, refusal: (json: unknown) => { code: string; message: string } | null, timeoutMs = PROVIDER_TIMEOUT_MS): Promise<unknown> {
  let status: number
  let text: string
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) })
    status = res.status
    text = await res.text()
  } catch (err) {
    throw new ProviderUnavailableError(provider, `${url.pathname}: ${(err as Error).message}`, { cause: err })
  }
  let json: unknown
  try { json = JSON.parse(text) } catch { json = undefined }
  if (status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 429) {
    const refused = json === undefined ? null : refusal(json)
    if (refused) throw new ProviderRefusedError(provider, refused.code, refused.message)
  }
  // a wrong key, the provider's rate limit, its outages: the shop's problem, not the caller's request
  if (status < 200 || status >= 300) throw new ProviderUnavailableError(provider, `${url.pathname}: HTTP ${status}`)
  if (json === undefined) throw new ProviderUnavailableError(provider, `${url.pathname}: the answer is not JSON`)
  return json
}
