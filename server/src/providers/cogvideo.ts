/**
 * Text to video through Zhipu BigModel's CogVideoX (https://docs.bigmodel.cn, "视频生成 CogVideoX"):
 * - create: POST {base}/videos/generations with `Authorization: Bearer {api key}` and JSON
 *   {model, prompt, request_id?} -> {id, request_id, model, task_status: 'PROCESSING'}
 * - result: GET {base}/async-result/{id} -> {task_status: 'PROCESSING' | 'SUCCESS' | 'FAIL',
 *   video_result: [{url, cover_image_url}], request_id}
 * A refusal is an HTTP 4xx with {error: {code, message}} (e.g. 1301 content not allowed, 1214 bad field).
 * Base default https://open.bigmodel.cn/api/paas/v4.
 */
import { obj, str } from './http'
import { ProviderUnavailableError } from './errors'
import { exchange } from './taskHttp'

export type VideoState = { status: 'running' } | { status: 'succeeded'; videoUrl: string; coverUrl: string | null } | { status: 'failed' }

const refusal = (json: unknown) => {
  const error = obj(obj(json)?.error)
  return error && (error.code || error.message) ? { code: str(error.code) || 'refused', message: str(error.message) || 'refused' } : null
}

export class CogVideoClient {
  constructor (private readonly base: string, private readonly apiKey: string, private readonly model: string) {}

  private url (path: string) { return new URL(`${this.base.replace(/\/+$/, '')}${path}`) }
  private get headers () { return { authorization: `Bearer ${this.apiKey}`, 'content-type': 'application/json' } }

  /** Starts a video; answers the provider's task id. */
  async create (prompt: string, requestId: string): Promise<string> {
    const json = obj(await exchange('video', this.url('/videos/generations'), {
      method: 'POST', headers: this.headers, body: JSON.stringify({ model: this.model, prompt, request_id: requestId })
    }, refusal))
    const id = str(json?.id)
    if (!id) throw new ProviderUnavailableError('video', '/videos/generations: no task id in the answer')
    return id
  }

  async result (id: string): Promise<VideoState> {
    const json = obj(await exchange('video', this.url(`/async-result/${encodeURIComponent(id)}`), { method: 'GET', headers: this.headers }, refusal))
    const status = str(json?.task_status)
    if (status === 'SUCCESS') {
      const first = obj(Array.isArray(json?.video_result) ? json.video_result[0] : null)
      const videoUrl = str(first?.url)
      if (!/^https?:\/\//.test(videoUrl)) throw new ProviderUnavailableError('video', '/async-result: SUCCESS without a video URL')
      const cover = str(first?.cover_image_url)
      return { status: 'succeeded', videoUrl, coverUrl: /^https?:\/\//.test(cover) ? cover : null }
    }
    if (status === 'FAIL') return { status: 'failed' }
    if (status === 'PROCESSING') return { status: 'running' }
    throw new ProviderUnavailableError('video', `/async-result: unknown task_status "${status.slice(0, 20)}"`)
  }
}
