/**
 * Outgoing SMS through a generic HTTP adapter: POST {phone, text} as JSON to SMS_PROVIDER_URL with
 * `Authorization: Bearer SMS_API_KEY`; any 2xx is success. A small relay in front of a real SMS
 * vendor (Aliyun, Tencent Cloud ...) speaks this.
 */
import type { FastifyBaseLogger } from 'fastify'
import { ProviderUnavailableError, PROVIDER_TIMEOUT_MS } from './errors'

export interface SmsSender {
  send (phone: string, text: string): Promise<void>
}

export class HttpSmsSender implements SmsSender {
  constructor (private readonly url: string, private readonly apiKey?: string, private readonly timeoutMs = PROVIDER_TIMEOUT_MS) {}

  async send (phone: string, text: string): Promise<void> {
    let res: Response
    try {
      res = await fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {})
        },
        body: JSON.stringify({ phone, text }),
        signal: AbortSignal.timeout(this.timeoutMs)
      })
    } catch (err) {
      throw new ProviderUnavailableError('sms', (err as Error).message, { cause: err })
    }
    if (!res.ok) {
      const detail = (await res.text().catch(() => '')).slice(0, 200)
      throw new ProviderUnavailableError('sms', `HTTP ${res.status} ${detail}`)
    }
    await res.arrayBuffer().catch(() => undefined)
  }
}

/** Development without a provider: the text (and so the code) goes to the log. Never used in production. */
export class LogSmsSender implements SmsSender {
  constructor (private readonly log: FastifyBaseLogger) {}

  async send (phone: string, text: string): Promise<void> {
    this.log.info({ sms: { phone, text } }, 'SMS not sent (no SMS_PROVIDER_URL): logged instead')
  }
}
