// A local WeCom (企业微信) group robot webhook for tests, speaking its documented API:
//   POST /cgi-bin/webhook/send?key=<key>  JSON {msgtype: 'text', text: {content, mentioned_list?}}
// Answers {errcode: 0, errmsg: 'ok'}; refusals (HTTP 200) with a non-zero errcode: 93000 an unknown key,
// 40008 a message type it does not know, 44004 empty content, 45002 content over 2048 bytes of UTF-8,
// 45009 more than `fake.perMinute` (20) a minute, 40035 a body that is not JSON.
// Accepted texts land in `fake.messages`; `fake.next` forces the next answer (see http.js).
const { listen, sendJson, answerTrouble } = require('./http')

const KEY = '693a91f6-7a0c-4bc4-97a0-0ec2f1fa5aaa'

async function start ({ key = KEY } = {}) {
  const fake = { key, calls: [], messages: [], next: null, url: '', close: null, perMinute: 20, env: {} }
  const sent = []
  const refuse = (res, errcode, errmsg) => sendJson(res, { errcode, errmsg })

  const server = await listen((req, res, raw) => {
    const url = new URL(req.url, 'http://fake')
    let body = null
    try { body = JSON.parse(raw) } catch { body = undefined }
    fake.calls.push({ path: url.pathname, query: Object.fromEntries(url.searchParams), method: req.method, contentType: req.headers['content-type'] || '', body, raw })
    if (answerTrouble(fake, res)) return
    if (url.pathname !== '/cgi-bin/webhook/send' || url.searchParams.get('key') !== key) {
      return refuse(res, 93000, 'invalid webhook url, hint: [1700000000_1_abc], from ip: 127.0.0.1, more info at https://open.work.weixin.qq.com/devtool/query?e=93000')
    }
    if (req.method !== 'POST' || body === undefined || !body || typeof body !== 'object') return refuse(res, 40035, 'invalid parameter')
    if (body.msgtype !== 'text') return refuse(res, 40008, 'invalid message type')
    const content = body.text && body.text.content
    if (typeof content !== 'string' || !content) return refuse(res, 44004, 'empty content')
    if (Buffer.byteLength(content, 'utf8') > 2048) return refuse(res, 45002, 'content size out of limit')
    const minuteAgo = Date.now() - 60000
    while (sent.length && sent[0] < minuteAgo) sent.shift()
    if (sent.length >= fake.perMinute) return refuse(res, 45009, 'api freq out of limit')
    sent.push(Date.now())
    fake.messages.push(content)
    sendJson(res, { errcode: 0, errmsg: 'ok' })
  })
  fake.url = `${server.url}/cgi-bin/webhook/send?key=${encodeURIComponent(key)}`
  fake.close = server.close
  fake.env = { WECOM_WEBHOOK_URL: fake.url }
  return fake
}

module.exports = { start, KEY }
