// A local Feishu (飞书) custom bot webhook for tests, speaking its documented API:
//   POST /open-apis/bot/v2/hook/<token>  JSON {timestamp, sign, msg_type, content}
// With the signature check on, sign must be base64(HMAC-SHA256 keyed with `${timestamp}\n${secret}`,
// over an empty message) and the timestamp (seconds) within an hour of the bot's clock (`fake.now`).
// Answers {code: 0, msg: 'success', data: {}}; refusals (HTTP 200 unless said) with a non-zero code:
// 19001 an unknown token, 19021 a bad signature or timestamp, 19024 the keyword missing (`fake.keyword`),
// 11232 over `fake.perMinute` (100) or `fake.perSecond` (5) (documented: 100 a minute, 5 a second per bot), 9499 a body that is not a text message (HTTP 400 for one that is not JSON).
// Accepted texts land in `fake.messages`; `fake.next` forces the next answer (see http.js).
const crypto = require('node:crypto')
const { listen, sendJson, answerTrouble } = require('./http')

const TOKEN = 'b7a1c3d0-5e6f-4a2b-9c8d-0e1f2a3b4c5d'
const SECRET = 'FakeFeishuSignSecret0042'

const signOf = (timestamp, secret) => crypto.createHmac('sha256', `${timestamp}\n${secret}`).update('').digest('base64')

async function start ({ secret = SECRET, token = TOKEN } = {}) {
  const fake = {
    token, secret, calls: [], messages: [], next: null, url: '', close: null,
    /** The bot's clock (ms); a test may set it to its own. */
    now: () => Date.now(),
    /** A keyword every message must contain (the bot's "custom keywords" security setting), or null. */
    keyword: null,
    perMinute: 100,
    perSecond: 5,
    env: {}
  }
  const sent = []
  const refuse = (res, code, msg, status = 200) => sendJson(res, { code, msg, data: {} }, status)

  const server = await listen((req, res, raw) => {
    const url = new URL(req.url, 'http://fake')
    let body = null
    try { body = JSON.parse(raw) } catch { body = undefined }
    fake.calls.push({ path: url.pathname, method: req.method, contentType: req.headers['content-type'] || '', body, raw })
    if (answerTrouble(fake, res)) return
    if (req.method !== 'POST') return refuse(res, 9499, 'Bad Request', 405)
    if (url.pathname !== `/open-apis/bot/v2/hook/${token}`) return refuse(res, 19001, 'param invalid: incoming webhook access token invalid')
    if (body === undefined) return refuse(res, 9499, 'Bad Request', 400)
    if (!body || typeof body !== 'object') return refuse(res, 9499, 'Bad Request')
    const ts = Number(body.timestamp)
    if (typeof body.sign !== 'string' || !Number.isInteger(ts) || Math.abs(fake.now() / 1000 - ts) > 3600 || body.sign !== signOf(String(body.timestamp), secret)) {
      return refuse(res, 19021, 'sign match fail or timestamp is not within one hour from current time')
    }
    if (body.msg_type !== 'text' || !body.content || typeof body.content.text !== 'string' || !body.content.text) return refuse(res, 9499, 'Bad Request')
    if (fake.keyword && !body.content.text.includes(fake.keyword)) return refuse(res, 19024, 'Key Words Not Found')
    const minuteAgo = Date.now() - 60000
    while (sent.length && sent[0] < minuteAgo) sent.shift()
    const secondAgo = Date.now() - 1000
    if (sent.length >= fake.perMinute || sent.filter(at => at >= secondAgo).length >= fake.perSecond) {
      return refuse(res, 11232, 'frequency limited psm[lark.oapi.app_platform_runtime]appID[1]')
    }
    sent.push(Date.now())
    fake.messages.push(body.content.text)
    sendJson(res, { code: 0, msg: 'success', data: {} })
  })
  fake.url = `${server.url}/open-apis/bot/v2/hook/${token}`
  fake.close = server.close
  fake.env = { FEISHU_WEBHOOK_URL: fake.url, FEISHU_WEBHOOK_SECRET: secret }
  return fake
}

module.exports = { start, signOf, TOKEN, SECRET }
