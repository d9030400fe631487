/**
 * A local fake of an OpenAI-compatible Images API ("Create image": POST /v1/images/generations, the
 * API OpenAI documents and LocalAI serves), checking what it checks: the bearer key (401 {error:
 * {message, type: 'invalid_request_error', code: 'invalid_api_key'}}), a JSON body with a non-empty
 * prompt (at most 4000 characters), a model, n 1..10, a size it draws, response_format b64_json or url
 * (400 {error: {message, type: 'invalid_request_error', param, code}}). A prompt containing "forbidden"
 * is refused the way the safety system refuses (400, code content_policy_violation).
 * It draws a PNG of the asked size in a colour taken from the prompt's hash (so the same words draw
 * the same picture), answered as base64 or by a URL served here (GET /files/<id>.png).
 */
const crypto = require('node:crypto')
const { listen, sendJson, answerTrouble } = require('./http')
const { makePng } = require('../png')

const KEY = 'sk-fake-images-key'
const MODEL = 'fake-draw-1'
const SIZES = ['256x256', '512x512', '1024x1024', '1024x1536', '1536x1024']

async function start () {
  const fake = { calls: [], next: null, url: '', close: null, files: new Map() }
  const server = await listen((req, res, raw) => {
    const file = /^\/files\/([0-9a-f-]+)\.png$/.exec(req.url)
    if (req.method === 'GET' && file && fake.files.has(file[1])) {
      res.writeHead(200, { 'content-type': 'image/png' })
      return res.end(fake.files.get(file[1]))
    }
    if (answerTrouble(fake, res)) return
    const error = (status, message, code, param = null) => sendJson(res, { error: { message, type: 'invalid_request_error', param, code } }, status)
    if (req.method !== 'POST' || req.url !== '/v1/images/generations') return error(404, `Invalid URL (${req.method} ${req.url})`, 'unknown_url')
    if (req.headers.authorization !== `Bearer ${KEY}`) return error(401, 'Incorrect API key provided.', 'invalid_api_key')
    if (!/^application\/json/.test(req.headers['content-type'] || '')) return error(400, 'Content-Type must be application/json', 'invalid_content_type')
    let body
    try { body = JSON.parse(raw) } catch { return error(400, 'We could not parse the JSON body of your request.', 'invalid_json') }
    if (typeof body.prompt !== 'string' || !body.prompt.trim()) return error(400, 'prompt is required', 'invalid_value', 'prompt')
    if (body.prompt.length > 4000) return error(400, 'prompt is too long', 'string_above_max_length', 'prompt')
    if (typeof body.model !== 'string' || !body.model) return error(400, 'model is required', 'invalid_value', 'model')
    const n = body.n ?? 1
    if (!Number.isInteger(n) || n < 1 || n > 10) return error(400, 'n must be between 1 and 10', 'invalid_value', 'n')
    const size = body.size ?? '1024x1024'
    if (!SIZES.includes(size)) return error(400, `'${size}' is not one of ${SIZES.join(', ')} - 'size'`, 'invalid_value', 'size')
    const format = body.response_format ?? 'url'
    if (format !== 'b64_json' && format !== 'url') return error(400, 'response_format must be b64_json or url', 'invalid_value', 'response_format')
    if (/forbidden/i.test(body.prompt)) {
      return sendJson(res, { error: { message: 'Your request was rejected as a result of our safety system.', type: 'image_generation_user_error', param: null, code: 'content_policy_violation' } }, 400)
    }
    fake.calls.push(body)
    const [w, h] = size.split('x').map(Number)
    const hash = crypto.createHash('sha256').update(body.prompt).digest()
    const data = []
    for (let i = 0; i < n; i++) {
      const png = makePng(w, h, [hash[0], hash[1], (hash[2] + i) % 256])
      if (format === 'b64_json') data.push({ b64_json: png.toString('base64'), revised_prompt: `A picture of ${body.prompt}` })
      else {
        const id = crypto.randomUUID()
        fake.files.set(id, png)
        data.push({ url: `${server.url}/files/${id}.png`, revised_prompt: `A picture of ${body.prompt}` })
      }
    }
    sendJson(res, { created: Math.floor(Date.now() / 1000), data })
  })
  fake.url = `${server.url}/v1`
  fake.close = server.close
  return fake
}

const envFor = fake => ({ IMAGE_API_BASE: fake.url, IMAGE_API_KEY: KEY, IMAGE_MODEL: MODEL })

module.exports = { start, envFor, KEY, MODEL }
