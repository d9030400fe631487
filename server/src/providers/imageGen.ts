/**
 * Pictures drawn from a text by an OpenAI-compatible Images API ("Create image",
 * https://platform.openai.com/docs/api-reference/images/create; LocalAI and other self-hosted servers
 * speak it too): POST {base}/images/generations with `Authorization: Bearer {key}` and JSON
 * {model, prompt, n: 1, size, response_format: 'b64_json'} (GPT image models always answer base64 and
 * take no response_format, so it is left out for them). The answer is {created, data: [{b64_json |
 * url, revised_prompt?}]}; a picture given by URL is fetched (at most 10 MB). A refusal is an HTTP 4xx
 * with {error: {message, type, code}} (a prompt the safety system rejects, a wrong size, no quota).
 */
import { ProviderRefusedError, ProviderUnavailableError } from './errors'
import { obj, str } from './http'

export interface GeneratedImage { bytes: Buffer; revisedPrompt?: string }

/** Drawing takes a while: 120 s for the whole call. */
export const IMAGE_TIMEOUT_MS = 120_000
const MAX_IMAGE_BYTES = 10 * 1024 * 1024

export class OpenAiImagesClient {
  constructor (
    private readonly base: string,
    private readonly apiKey: string,
    readonly model: string,
    private readonly timeoutMs = IMAGE_TIMEOUT_MS
  ) {}

  async generate (prompt: string, size: string): Promise<GeneratedImage> {
    const url = new URL(`${this.base.replace(/\/+$/, '')}/images/generations`)
    const signal = AbortSignal.timeout(this.timeoutMs)
    let status: number
    let text: string
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: this.model, prompt, n: 1, size,
          ...(/^gpt-image/i.test(this.model) ? {} : { response_format: 'b64_json' })
        }),
        signal
      })
      status = res.status
      text = await res.text()
    } catch (err) {
      throw new ProviderUnavailableError('imageGen', `${url.pathname}: ${(err as Error).message}`, { cause: err })
    }
    let json: Record<string, unknown> | null = null
    try { json = obj(JSON.parse(text)) } catch { json = null }
    const error = json ? obj(json.error) : null
    if (status >= 400 && status < 500 && status !== 401 && status !== 429 && error && (error.message || error.code)) {
      throw new ProviderRefusedError('imageGen', str(error.code) || str(error.type) || String(status), str(error.message) || 'refused')
    }
    if (status < 200 || status >= 300 || !json) throw new ProviderUnavailableError('imageGen', `${url.pathname}: HTTP ${status}`)
    const first = Array.isArray(json.data) ? obj(json.data[0]) : null
    if (!first) throw new ProviderUnavailableError('imageGen', `${url.pathname}: no picture in the answer`)
    const revisedPrompt = str(first.revised_prompt) || undefined
    if (typeof first.b64_json === 'string' && first.b64_json) {
      const bytes = Buffer.from(first.b64_json, 'base64')
      if (!bytes.length || bytes.length > MAX_IMAGE_BYTES) throw new ProviderUnavailableError('imageGen', `${url.pathname}: an unusable picture`)
      return { bytes, revisedPrompt }
    }
    if (typeof first.url === 'string' && /^https?:\/\//.test(first.url)) return { bytes: await this.download(first.url, signal), revisedPrompt }
    throw new ProviderUnavailableError('imageGen', `${url.pathname}: no picture in the answer`)
  }

  /** The picture at the URL the provider gave (it is kept there for a while), at most MAX_IMAGE_BYTES. */
  private async download (at: string, signal: AbortSignal): Promise<Buffer> {
    try {
      const res = await fetch(at, { signal, redirect: 'follow' })
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`)
      const chunks: Buffer[] = []
      let size = 0
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        size += chunk.length
        if (size > MAX_IMAGE_BYTES) throw new Error('the picture is too large')
        chunks.push(Buffer.from(chunk))
      }
      return Buffer.concat(chunks)
    } catch (err) {
      // the picture was made (and billed) before its download failed
      throw new ProviderUnavailableError('imageGen', `picture download: ${(err as Error).message}`, { cause: err, afterWork: true })
    }
  }
}
