// A local SMS relay for the e2e suites, speaking the shop's SMS adapter (server/src/providers/sms.ts):
//   POST /send  JSON {phone, text}  with `Authorization: Bearer <key>`
// Answers 200 {ok: true}; refuses a wrong or missing key (401), a body that is not JSON or lacks a
// mainland mobile number or a text (400), anything but POST /send (404). Sent texts land in
// `fake.messages`; `fake.lastCode(phone)` reads the 6-digit code of the last text to that number.
const { listen, sendJson, answerTrouble } = require('./http')

const KEY = 'e2e-sms-key'

async function start ({ key = KEY } = {}) {
  const fake = { calls: [], messages: [], next: null, url: '', close: null, env: {} }
  const server = await listen((req, res, raw) => {
    fake.calls.push({ path: req.url, method: req.method, contentType: req.headers['content-type'] || '', body: raw, raw })
    if (answerTrouble(fake, res)) return
    if (req.method !== 'POST' || req.url !== '/send') return sendJson(res, { error: 'not found' }, 404)
    if (req.headers.authorization !== `Bearer ${key}`) return sendJson(res, { error: 'unauthorized' }, 401)
    let body
    try { body = JSON.parse(raw) } catch { return sendJson(res, { error: 'not json' }, 400) }
    if (!body || !/^1[3-9]\d{9}$/.test(String(body.phone)) || typeof body.text !== 'string' || !body.text) return sendJson(res, { error: 'phone and text required' }, 400)
    fake.messages.push({ phone: body.phone, text: body.text })
    sendJson(res, { ok: true })
  })
  fake.url = server.url
  fake.close = server.close
  fake.env = { SMS_PROVIDER_URL: `${server.url}/send`, SMS_API_KEY: key }
  fake.lastCode = (phone) => {
    const sms = [...fake.messages].reverse().find(m => m.phone === phone)
    const code = sms && /\b(\d{6})\b/.exec(sms.text)
    if (!code) throw new Error(`no code sent to ${phone}`)
    return code[1]
  }
  return fake
}

module.exports = { start, KEY }
