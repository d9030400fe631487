/**
 * A Dify-compatible chat API (https://docs.dify.ai, "Send Chat Message"): POST {base}/chat-messages with
 * `Authorization: Bearer {api key}` and JSON {inputs, query, response_mode: 'blocking', conversation_id,
 * user, files: [{type: 'image', transfer_method: 'remote_url', url}]}. The blocking answer is
 * {event: 'message', message_id, conversation_id, answer, ...}. A refusal is an HTTP 4xx with
 * {code, message, status} (invalid_param, app_unavailable, provider_quota_exceeded, ...).
 */
import { ProviderRefusedError, ProviderUnavailableError } from './errors'
import { obj, str } from './http'

export interface ChatRequest {
  query: string
  inputs?: Record<string, string>
  conversationId?: string
  /** Who the provider keeps the conversation for: always the caller's account. */
  user: string
  files?: Array<{ type: 'image'; transfer_method: 'remote_url'; url: string }>
}

export interface ChatAnswer { answer: string; conversationId: string; messageId: string }

/** AI answers take a while: 60 s (the platform's request timeout). */
export const AI_TIMEOUT_MS = 60_000

export class DifyClient {
  constructor (private readonly base: string, private readonly apiKey: string, private readonly timeoutMs = AI_TIMEOUT_MS) {}

  async chat (req: ChatRequest): Promise<ChatAnswer> {
    const url = new URL(`${this.base.replace(/\/+$/, '')}/chat-messages`)
    let status: number
    let text: string
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          inputs: req.inputs ?? {},
          query: req.query,
          response_mode: 'blocking',
          conversation_id: req.conversationId ?? '',
          user: req.user,
          ...(req.files?.length ? { files: req.files } : {})
        }),
        signal: AbortSignal.timeout(this.timeoutMs)
      })
      status = res.status
      text = await res.text()
    } catch (err) {
      throw new ProviderUnavailableError('ai', `${url.pathname}: ${(err as Error).message}`, { cause: err })
    }
    let json: Record<string, unknown> | null = null
    try { json = obj(JSON.parse(text)) } catch { json = null }
    if (status >= 400 && status < 500 && json && (json.code || json.message)) {
      throw new ProviderRefusedError('ai', str(json.code) || String(status), str(json.message) || 'refused')
    }
    if (status < 200 || status >= 300 || !json) throw new ProviderUnavailableError('ai', `${url.pathname}: HTTP ${status}`)
    const answer = json.answer
    if (typeof answer !== 'string') throw new ProviderUnavailableError('ai', `${url.pathname}: no answer in the reply`)
    return { answer, conversationId: str(json.conversation_id), messageId: str(json.message_id) }
  }
}
