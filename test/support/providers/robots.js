/**
 * Local fakes of the operators' chat robots, speaking their documented webhook APIs:
 *  - Feishu custom bot: POST /open-apis/bot/v2/hook/<token> {timestamp, sign, msg_type: 'text',
 *    content: {text}}; the signature is checked as Feishu checks it (base64 HMAC-SHA256 keyed by
 *    `${timestamp}\n${secret}` over nothing, the timestamp within an hour); answers {code: 0, msg:
 *    'success', data: {}} or {code: 19021, msg: 'sign match fail or timestamp is not within one hour
 *    from current time'}, {code: 9499, msg: 'Bad Request'} for another body.
 *  - WeCom group robot: POST /cgi-bin/webhook/send?key=<key> {msgtype: 'text', text: {content}};
 *    answers {errcode: 0, errmsg: 'ok'} or {errcode: 93000, errmsg: 'invalid webhook url'} for a wrong
 *    key, {errcode: 40008, errmsg: 'invalid message type'} for another body.
 * Each keeps the texts it received in `calls`; `next` forces the next answer (see http.js).
 */
const crypto = require('node:crypto')
const { listen, sendJson, answerTrouble } = require('./http')

const FEISHU_TOKEN = 'fake-feishu-token'
const FEISHU_SECRET = 'fake-feishu-secret'
const WECOM_KEY = 'fake-wecom-key'

async function startFeishu ({ secret = FEISHU_SECRET, now = () => Date.now() } = {}) {
  const fake = { calls: [], next: null, url: '', close: null }
  const server = await listen((req, res, body) => {
    if (answerTrouble(fake, res)) return
    if (req.method !== 'POST' || req.url !== `/open-apis/bot/v2/hook/${FEISHU_TOKEN}`) return sendJson(res, { code: 19001, msg: 'param invalid: incoming webhook access token invalid' })
    let json
    try { json = JSON.parse(body) } catch { return sendJson(res, { code: 9499, msg: 'Bad Request' }) }
    if (secret) {
      const ts = Number(json.timestamp)
      const want = crypto.createHmac('sha256', `${json.timestamp}\n${secret}`).update('').digest('base64')
      if (!Number.isFinite(ts) || Math.abs(now() / 1000 - ts) > 3600 || json.sign !== want) {
        return sendJson(res, { code: 19021, msg: 'sign match fail or timestamp is not within one hour from current time' })
      }
    }
    if (json.msg_type !== 'text' || typeof json.content?.text !== 'string') return sendJson(res, { code: 9499, msg: 'Bad Request' })
    fake.calls.push({ text: json.content.text, timestamp: json.timestamp, sign: json.sign })
    sendJson(res, { code: 0, msg: 'success', data: {} })
  })
  fake.url = `${server.url}/open-apis/bot/v2/hook/${FEISHU_TOKEN}`
  fake.close = server.close
  return fake
}

async function startWeCom () {
  const fake = { calls: [], next: null, url: '', close: null }
  const server = await listen((req, res, body) => {
    if (answerTrouble(fake, res)) return
    const url = new URL(req.url, 'http://x')
    if (req.method !== 'POST' || url.pathname !== '/cgi-bin/webhook/send' || url.searchParams.get('key') !== WECOM_KEY) {
      return sendJson(res, { errcode: 93000, errmsg: 'invalid webhook url' })
    }
    let json
    try { json = JSON.parse(body) } catch { return sendJson(res, { errcode: 40008, errmsg: 'invalid message type' }) }
    if (json.msgtype !== 'text' || typeof json.text?.content !== 'string') return sendJson(res, { errcode: 40008, errmsg: 'invalid message type' })
    fake.calls.push({ text: json.text.content })
    sendJson(res, { errcode: 0, errmsg: 'ok' })
  })
  fake.url = `${server.url}/cgi-bin/webhook/send?key=${WECOM_KEY}`
  fake.close = server.close
  return fake
}

/** The environment that points the shop at both fakes. */
const envFor = (feishu, wecom) => ({ FEISHU_WEBHOOK_URL: feishu.url, FEISHU_WEBHOOK_SECRET: FEISHU_SECRET, WECOM_WEBHOOK_URL: wecom.url })

module.exports = { startFeishu, startWeCom, envFor, FEISHU_SECRET, WECOM_KEY }
