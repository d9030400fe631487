/**
 * Text to music through a Suno-style API: the open-source, self-hosted gcui-art/suno-api
 * (https://github.com/gcui-art/suno-api, reference at https://www.mintlify.com/gcui-art/suno-api):
 * - create: POST {base}/api/generate with JSON {prompt, make_instrumental, wait_audio: false} -> an array
 *   of clips (a generation makes two) [{id, title, image_url, audio_url, status, duration, ...}]
 * - query: GET {base}/api/get?ids={id},{id} -> the same array for those clips
 * A clip's status is submitted, queued or streaming while it is made, then complete or error.
 * suno-api itself holds the Suno account; MUSIC_API_KEY, when set, is sent as `Authorization: Bearer`
 * for the gateway in front of it (hosted suno-api services ask for one). A refusal is an HTTP 4xx with
 * {error: message}.
 */
import { arr, obj, str } from './http'
import { ProviderUnavailableError } from './errors'
import { exchange } from './taskHttp'

export interface MusicClip {
  providerId: string
  status: 'running' | 'succeeded' | 'failed'
  title: string
  audioUrl: string | null
  imageUrl: string | null
  durationS: number | null
}

const refusal = (json: unknown) => {
  const error = obj(json).error
  const message = typeof error === 'string' ? error : str(obj(error).message)
  return message ? { code: 'refused', message: message.slice(0, 200) } : null
}

const httpUrl = (v: unknown) => { const s = str(v); return /^https?:\/\//.test(s) ? s : null }

function clipOf (v: unknown): MusicClip {
  const c = obj(v)
  const id = str(c.id)
  if (!id) throw new ProviderUnavailableError('music', 'a clip without an id')
  const raw = str(c.status)
  const status = raw === 'complete' ? 'succeeded' : raw === 'error' ? 'failed' : 'running'
  const duration = typeof c.duration === 'number' ? c.duration : Number(c.duration)
  return {
    providerId: id,
    status: status === 'succeeded' && !httpUrl(c.audio_url) ? 'running' : status,
    title: str(c.title).slice(0, 200),
    audioUrl: httpUrl(c.audio_url),
    imageUrl: httpUrl(c.image_url),
    durationS: Number.isFinite(duration) && duration > 0 ? duration : null
  }
}

export class SunoClient {
  constructor (private readonly base: string, private readonly apiKey: string | null) {}

  private url (path: string) { return new URL(`${this.base.replace(/\/+$/, '')}${path}`) }
  private get headers (): Record<string, string> {
    return { 'content-type': 'application/json', ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}) }
  }

  async generate (prompt: string): Promise<MusicClip[]> {
    const json = await exchange('music', this.url('/api/generate'), {
      method: 'POST', headers: this.headers, body: JSON.stringify({ prompt, make_instrumental: false, wait_audio: false })
    }, refusal, 30_000)
    const clips = arr(json).map(clipOf)
    if (!clips.length) throw new ProviderUnavailableError('music', '/api/generate: no clips in the answer')
    return clips
  }

  async get (ids: string[]): Promise<MusicClip[]> {
    const url = this.url('/api/get')
    url.searchParams.set('ids', ids.join(','))
    const json = await exchange('music', url, { method: 'GET', headers: this.headers }, refusal)
    return arr(json).map(clipOf)
  }
}
