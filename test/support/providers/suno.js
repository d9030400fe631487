/**
 * A local fake of a Suno-style music API as gcui-art/suno-api documents it: POST /api/generate
 * {prompt, make_instrumental, wait_audio} -> two clips [{id, title, image_url, lyric, audio_url,
 * video_url, created_at, model_name, status, prompt, type, tags, duration}]; GET /api/get?ids=a,b -> those
 * clips. It checks the Bearer key of the gateway in front (401 {error}), a non-empty prompt without line
 * breaks or tabs (what the shop's normalisation promises; 400 {error}), wait_audio false (the shop polls),
 * and ids it gave out (unknown ones are left out, as suno-api does). A clip is `submitted`, then
 * `streaming` for `fake.pollsBeforeDone` queries (default 2), then `complete` with its audio, or `error`
 * when the prompt contains "fail".
 */
const crypto = require('node:crypto')
const { listen, sendJson, answerTrouble } = require('./http')

const KEY = 'fake-suno-gateway-key'

async function start () {
  const fake = { calls: [], next: null, url: '', close: null, clips: new Map(), pollsBeforeDone: 2 }
  const view = clip => {
    const done = clip.polls > fake.pollsBeforeDone
    const status = !done ? (clip.polls === 0 ? 'submitted' : 'streaming') : clip.prompt.includes('fail') ? 'error' : 'complete'
    return {
      id: clip.id, title: clip.title, image_url: `https://cdn2.suno.ai/image_${clip.id}.jpeg`, lyric: '',
      audio_url: status === 'complete' ? `https://cdn1.suno.ai/${clip.id}.mp3` : status === 'streaming' ? `https://audiopipe.suno.ai/?item_id=${clip.id}` : '',
      video_url: '', created_at: clip.createdAt, model_name: 'chirp-v3-5', status, gpt_description_prompt: clip.prompt,
      prompt: '', type: 'gen', tags: 'jingle', duration: status === 'complete' ? 30.5 : null
    }
  }
  const server = await listen((req, res, raw) => {
    if (answerTrouble(fake, res)) return
    if (req.headers.authorization !== `Bearer ${KEY}`) return sendJson(res, { error: 'Unauthorized' }, 401)
    const url = new URL(req.url, 'http://x')
    if (req.method === 'POST' && url.pathname === '/api/generate') {
      let body
      try { body = JSON.parse(raw) } catch { return sendJson(res, { error: 'Invalid JSON' }, 400) }
      if (typeof body.prompt !== 'string' || !body.prompt.trim()) return sendJson(res, { error: 'prompt is required' }, 400)
      if (/[\r\n\t]| {2}/.test(body.prompt) || body.prompt !== body.prompt.trim()) return sendJson(res, { error: 'prompt was not normalised' }, 400)
      if (body.wait_audio !== false) return sendJson(res, { error: 'this fake only polls (wait_audio false)' }, 400)
      fake.calls.push({ kind: 'generate', body })
      const made = [1, 2].map(n => {
        const clip = { id: crypto.randomUUID(), title: `Jingle ${n}`, prompt: body.prompt, polls: 0, createdAt: new Date().toISOString() }
        fake.clips.set(clip.id, clip)
        return clip
      })
      return sendJson(res, made.map(view))
    }
    if (req.method === 'GET' && url.pathname === '/api/get') {
      const ids = (url.searchParams.get('ids') || '').split(',').filter(Boolean)
      fake.calls.push({ kind: 'get', ids })
      const found = ids.map(id => fake.clips.get(id)).filter(Boolean)
      for (const clip of found) clip.polls++
      return sendJson(res, found.map(view))
    }
    return sendJson(res, { error: 'Not found' }, 404)
  })
  fake.url = server.url
  fake.close = server.close
  return fake
}

const envFor = fake => ({ MUSIC_API_BASE: fake.url, MUSIC_API_KEY: KEY })

module.exports = { start, envFor, KEY }
