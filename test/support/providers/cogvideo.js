/**
 * A local fake of Zhipu BigModel's video API (CogVideoX, https://docs.bigmodel.cn):
 * POST /api/paas/v4/videos/generations {model, prompt, request_id?} -> {id, request_id, model,
 * task_status: 'PROCESSING'}; GET /api/paas/v4/async-result/{id} -> {model, request_id, task_status:
 * PROCESSING | SUCCESS | FAIL, video_result: [{url, cover_image_url}]}. It checks what the API checks:
 * the Bearer key (401 {error: {code: '1000', message}}), a known model and a prompt of at most 512
 * characters (400 {error: {code: '1214', message}}); a prompt containing "forbidden" is refused like
 * sensitive content (400 {error: {code: '1301', ...}}); an unknown task id is 404 {error: {code: '1205'}}.
 * A task is PROCESSING for `fake.pollsBeforeDone` queries (default 2), then SUCCESS, or FAIL when its
 * prompt contains "fail".
 */
const crypto = require('node:crypto')
const { listen, sendJson, answerTrouble } = require('./http')

const KEY = 'fake-zhipu-key.secret'
const MODELS = ['cogvideox-flash', 'cogvideox-3', 'cogvideox-2']

async function start () {
  const fake = { calls: [], next: null, url: '', close: null, tasks: new Map(), pollsBeforeDone: 2 }
  const server = await listen((req, res, raw) => {
    if (answerTrouble(fake, res)) return
    const error = (status, code, message) => sendJson(res, { error: { code, message } }, status)
    if (req.headers.authorization !== `Bearer ${KEY}`) return error(401, '1000', '身份验证失败')
    if (req.method === 'POST' && req.url === '/api/paas/v4/videos/generations') {
      let body
      try { body = JSON.parse(raw) } catch { return error(400, '1214', 'invalid JSON') }
      if (!MODELS.includes(body.model)) return error(400, '1211', '模型不存在')
      if (typeof body.prompt !== 'string' || !body.prompt || body.prompt.length > 512) return error(400, '1214', 'prompt 参数非法')
      if (body.prompt.includes('forbidden')) return error(400, '1301', '系统检测到输入或生成内容可能包含不安全或敏感内容')
      const id = `${Date.now()}-${crypto.randomInt(1e9)}`
      fake.tasks.set(id, { prompt: body.prompt, polls: 0, model: body.model, requestId: body.request_id || crypto.randomUUID() })
      fake.calls.push({ kind: 'create', body })
      return sendJson(res, { request_id: fake.tasks.get(id).requestId, id, model: body.model, task_status: 'PROCESSING' })
    }
    const m = /^\/api\/paas\/v4\/async-result\/([^/?]+)$/.exec(req.url)
    if (req.method === 'GET' && m) {
      const task = fake.tasks.get(decodeURIComponent(m[1]))
      if (!task) return error(404, '1205', '任务不存在')
      fake.calls.push({ kind: 'result', id: m[1] })
      task.polls++
      const base = { model: task.model, request_id: task.requestId }
      if (task.polls <= fake.pollsBeforeDone) return sendJson(res, { ...base, task_status: 'PROCESSING' })
      if (task.prompt.includes('fail')) return sendJson(res, { ...base, task_status: 'FAIL' })
      return sendJson(res, { ...base, task_status: 'SUCCESS', video_result: [{ url: `https://aigc-files.bigmodel.cn/api/cogvideo/${m[1]}.mp4`, cover_image_url: `https://aigc-files.bigmodel.cn/api/cogvideo/${m[1]}_cover.jpeg` }] })
    }
    return error(404, '1002', 'not found')
  })
  fake.url = `${server.url}/api/paas/v4`
  fake.close = server.close
  return fake
}

const envFor = fake => ({ VIDEO_API_BASE: fake.url, VIDEO_API_KEY: KEY })

module.exports = { start, envFor, KEY }
