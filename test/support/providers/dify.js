/**
 * A local fake of a Dify chat app's API (POST /v1/chat-messages, blocking), checking what Dify checks:
 * the bearer key (401 {code: 'unauthorized'}), a JSON body with a non-empty query, inputs an object,
 * response_mode 'blocking', a user, files each {type: 'image', transfer_method: 'remote_url', url}
 * (400 {code: 'invalid_param', message, status: 400}). It answers {event: 'message', message_id,
 * conversation_id, mode: 'chat', answer, metadata, created_at}; a conversation_id it never gave out is a
 * 404 {code: 'not_found', message: 'Conversation Not Exists.'}, and one of another user too.
 * The answers are deterministic: a translation request answers from a small dictionary (or the text
 * marked [en]/[zh]); anything else echoes what was asked, so a test can see it arrived whole.
 */
const crypto = require('node:crypto')
const { listen, sendJson, answerTrouble } = require('./http')

const KEY = 'app-fake-dify-key'
const DICTIONARY = {
  星际旅人: 'Star Travellers',
  领航员: 'Navigator',
  机械师: 'Mechanic',
  '六位在星海间旅行的伙伴。': 'Six friends travelling the sea of stars.'
}

function answerFor (body) {
  const m = /^Translate the following text from (.+?) into (Simplified Chinese|English)\. Answer with the translation only, nothing else\.\n\n([\s\S]*)$/.exec(body.query)
  if (m) {
    const text = m[3]
    if (m[2] === 'English') return DICTIONARY[text] ?? `[en] ${text}`
    const back = Object.entries(DICTIONARY).find(([, en]) => en === text)
    return back ? back[0] : `[zh] ${text}`
  }
  const files = (body.files || []).map(f => f.url).join(', ')
  return `AI answer to: ${body.query}${files ? ` (images: ${files})` : ''}`
}

async function start () {
  const fake = { calls: [], next: null, url: '', close: null, conversations: new Map() }
  const server = await listen((req, res, raw) => {
    if (answerTrouble(fake, res)) return
    if (req.method !== 'POST' || req.url !== '/v1/chat-messages') return sendJson(res, { code: 'not_found', message: 'The requested URL was not found on the server.', status: 404 }, 404)
    if (req.headers.authorization !== `Bearer ${KEY}`) return sendJson(res, { code: 'unauthorized', message: 'Access token is invalid', status: 401 }, 401)
    let body
    try { body = JSON.parse(raw) } catch { return sendJson(res, { code: 'invalid_param', message: 'Invalid JSON', status: 400 }, 400) }
    const bad = message => sendJson(res, { code: 'invalid_param', message, status: 400 }, 400)
    if (typeof body.query !== 'string' || !body.query) return bad('query is required')
    if (!body.inputs || typeof body.inputs !== 'object' || Array.isArray(body.inputs)) return bad('inputs must be an object')
    if (body.response_mode !== 'blocking') return bad('response_mode must be blocking here')
    if (typeof body.user !== 'string' || !body.user) return bad('user is required')
    for (const f of body.files || []) {
      if (f.type !== 'image' || f.transfer_method !== 'remote_url' || !/^https?:\/\//.test(f.url)) return bad('files: invalid file')
    }
    let conversation = body.conversation_id || ''
    if (conversation) {
      if (fake.conversations.get(conversation) !== body.user) return sendJson(res, { code: 'not_found', message: 'Conversation Not Exists.', status: 404 }, 404)
    } else {
      conversation = crypto.randomUUID()
      fake.conversations.set(conversation, body.user)
    }
    fake.calls.push(body)
    sendJson(res, {
      event: 'message', task_id: crypto.randomUUID(), id: crypto.randomUUID(), message_id: crypto.randomUUID(),
      conversation_id: conversation, mode: 'chat', answer: answerFor(body), metadata: { usage: { total_tokens: 42 } }, created_at: Math.floor(Date.now() / 1000)
    })
  })
  fake.url = `${server.url}/v1`
  fake.close = server.close
  return fake
}

const envFor = fake => ({ AI_API_BASE: fake.url, AI_API_KEY: KEY })

module.exports = { start, envFor, KEY, DICTIONARY }
