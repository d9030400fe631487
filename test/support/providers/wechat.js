// A local WeChat web OAuth (official account web authorisation) for the Chromium tests, speaking what
// the shop's server and a browser use of it:
//   GET /connect/oauth2/authorize?appid&redirect_uri&response_type=code&scope&state  (the page a
//       browser is sent to; WeChat shows a consent page for snsapi_userinfo and goes straight back for
//       snsapi_base; "allow" redirects to redirect_uri?code=CODE&state=STATE, "deny" to
//       redirect_uri?state=STATE, as WeChat does)
//   GET /sns/oauth2/access_token?appid&secret&code&grant_type=authorization_code  (a code works once:
//       40163 afterwards, 40029 unknown; a wrong appid/secret 40013)
//   GET /sns/userinfo?access_token&openid&lang  (48001 for a snsapi_base token)
// and the mini-program's URL links (the H5 app's "open in WeChat", POST /get_mp_url):
//   GET /cgi-bin/token?grant_type=client_credential&appid&secret  (the mini-program's; 40013 otherwise)
//     https://developers.weixin.qq.com/miniprogram/dev/OpenApiDoc/mp-access-token/getAccessToken.html
//   POST /wxa/generate_urllink?access_token  {path, query, expire_type, expire_interval}
//     https://developers.weixin.qq.com/miniprogram/dev/OpenApiDoc/qrcode-link/url-link/generateUrlLink.html
//     40001 for a token it did not give; path: a page of the mini-program without a leading "/" ('' is
//     the home page), else 40165; query: at most 1024 of the allowed characters, else 40212;
//     expire_interval: 1-30 days, else 85402; answers url_link https://wxaurl.cn/<12 characters>.
// WeChat answers errors as HTTP 200 with {errcode, errmsg}. `fake.user` is who "is" in WeChat.
const crypto = require('node:crypto')
const { listen, sendJson } = require('./http')

const APPID = 'wxfakeoauth0001'
const SECRET = 'fake-oauth-secret-0001'

const html = (res, body) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
  res.end(`<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>微信授权</title></head><body style="font-family:sans-serif;padding:24px">${body}</body></html>`)
}
const escapeHtml = s => String(s).replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`)

/** The mini-program's pages, as src/app.config.ts lists them (main package and the pagesA subpackage). */
function miniProgramPages () {
  const text = require('node:fs').readFileSync(require('node:path').resolve(__dirname, '../../../src/app.config.ts'), 'utf8')
  return [...text.matchAll(/'([\w/]+\/index)'/g)].map(m => (m[1].startsWith('pages/') ? m[1] : `pagesA/${m[1]}`))
}

// Subscription messages (订阅消息), for launch-event reminders, as
// https://developers.weixin.qq.com/miniprogram/dev/OpenApiDoc/mp-message-management/subscribe-message/sendMessage.html
// documents POST /cgi-bin/message/subscribe/send?access_token {touser, template_id, page, data,
// miniprogram_state, lang}: 40001 a token it did not give; 40003 a touser that is no openid of this
// mini-program; 40037 an unknown template_id; 43101 "user refuse to accept the msg" when the user has
// no unspent consent for that template (each wx.requestSubscribeMessage "accept" grants one: `subscribe`,
// what WeChat's client records; a send spends it); 47003 "argument invalid!" for data missing a keyword
// of the template or a value breaking its keyword's rule, a page that is not one of the mini-program's,
// a miniprogram_state or lang it does not know. Answers {errcode: 0, errmsg: 'ok', msgid}.
const EVENT_TEMPLATE_ID = 'tmpl_fake_event_reminder_01'
// "Notify me when restocked" (issue 50): the series' name, the new drop's start and a note
const RESTOCK_TEMPLATE_ID = 'tmpl_fake_restock_notice_01'

// A date (2026年12月12日 or 2026-12-12) and a time of day (14:00), as the page's examples write them.
const DAY = '(?:\\d{4}年\\d{1,2}月\\d{1,2}日|\\d{4}-\\d{1,2}-\\d{1,2})'
const CLOCK = '\\d{1,2}:\\d{2}'
/** time.DATA: "24小时制时间格式（支持+年月日），支持填时间段，两个时间点之间用“~”符号连接" (15:01, 2019年10月1日 15:01). */
const TIME_POINT = `(?:${DAY} ?)?${CLOCK}`
/** date.DATA: "年月日格式（支持+24小时制时间），支持填时间段" (2019年10月1日, 2019年10月1日 15:01). */
const DATE_POINT = `${DAY}(?: ${CLOCK})?`
const period = point => new RegExp(`^${point}(?: ?~ ?${point})?$`)

/** The keyword rules of the page above (kind = the keyword without its digits); a value is never empty. */
const KEYWORD_RULES = {
  // thing.DATA: 20个以内字符
  thing: v => [...v].length <= 20,
  // phrase.DATA: 5个以内汉字
  phrase: v => /^[\u4e00-\u9fa5]{1,5}$/.test(v),
  // character_string.DATA: 32位以内数字、字母或符号
  character_string: v => /^[\x21-\x7e]{1,32}$/.test(v),
  // number.DATA: 32位以内数字，只能数字，可带小数
  number: v => /^\d+(\.\d+)?$/.test(v) && v.length <= 32,
  // letter.DATA: 32位以内字母
  letter: v => /^[A-Za-z]{1,32}$/.test(v),
  time: v => period(TIME_POINT).test(v),
  date: v => period(DATE_POINT).test(v),
  // name.DATA: 10个以内纯汉字或20个以内纯字母或符号
  name: v => /^[\u4e00-\u9fa5]{1,10}$/.test(v) || /^[\x20-\x7e]{1,20}$/.test(v)
}

function subscriptions (fake, pages, isOpenid) {
  fake.templates = { [EVENT_TEMPLATE_ID]: ['thing1', 'time2', 'thing3', 'thing4'], [RESTOCK_TEMPLATE_ID]: ['thing1', 'time2', 'thing3'] }
  fake.messages = []
  const consents = new Map()
  const keyOf = (openid, templateId) => `${openid}\n${templateId}`
  /** The user allowed one message of the template (what WeChat records when they tap "allow"). */
  fake.subscribe = (openid, templateId) => {
    fake.knownOpenids.add(openid)
    consents.set(keyOf(openid, templateId), (consents.get(keyOf(openid, templateId)) || 0) + 1)
  }
  fake.consentsLeft = (openid, templateId) => consents.get(keyOf(openid, templateId)) || 0
  return (b) => {
    const err = (errcode, errmsg) => ({ errcode, errmsg })
    if (typeof b.touser !== 'string' || !isOpenid(b.touser)) return err(40003, 'invalid openid')
    const keywords = fake.templates[b.template_id]
    if (!keywords) return err(40037, 'invalid template_id')
    if (b.miniprogram_state !== undefined && !['developer', 'trial', 'formal'].includes(b.miniprogram_state)) return err(47003, 'argument invalid! miniprogram_state')
    if (b.lang !== undefined && !['zh_CN', 'en_US', 'zh_HK', 'zh_TW'].includes(b.lang)) return err(47003, 'argument invalid! lang')
    if (b.page !== undefined && !pages.has(String(b.page).split('?')[0])) return err(47003, 'argument invalid! page')
    const data = b.data && typeof b.data === 'object' ? b.data : {}
    for (const k of keywords) {
      const value = data[k] && data[k].value
      const rule = KEYWORD_RULES[k.replace(/\d+$/, '')]
      if (typeof value !== 'string' || !value || (rule && !rule(value))) return err(47003, `argument invalid! data.${k}.value`)
    }
    const left = consents.get(keyOf(b.touser, b.template_id)) || 0
    if (left <= 0) return err(43101, 'user refuse to accept the msg')
    consents.set(keyOf(b.touser, b.template_id), left - 1)
    fake.messages.push({
      touser: b.touser, templateId: b.template_id, page: b.page, lang: b.lang, state: b.miniprogram_state,
      data: Object.fromEntries(keywords.map(k => [k, data[k].value]))
    })
    return { errcode: 0, errmsg: 'ok', msgid: crypto.randomInt(1e9, 9e9) }
  }
}

async function start () {
  const pages = new Set(miniProgramPages())
  const appTokens = new Set()
  const fake = {
    appid: APPID,
    secret: SECRET,
    /** Who is logged in to WeChat in the test's browser. */
    user: { openid: 'o_fake_wechat_user_0001', nickname: '微信小明', headimgurl: '' },
    calls: [],
    codes: new Map(),
    /** The URL links made: {url, path, query, days}. */
    links: [],
    /** The openids of the mini-program's users (a message goes only to one of them). */
    knownOpenids: new Set(),
    url: '',
    close: null
  }
  const send = subscriptions(fake, pages, openid => fake.knownOpenids.has(openid))
  const used = new Set()
  const tokens = new Map()
  const server = await listen((req, res, body) => {
    const url = new URL(req.url || '/', 'http://x')
    const q = url.searchParams
    fake.calls.push({ path: url.pathname, query: Object.fromEntries(q) })
    const err = (errcode, errmsg) => sendJson(res, { errcode, errmsg })
    switch (url.pathname) {
      case '/cgi-bin/token': {
        if (q.get('grant_type') !== 'client_credential') return err(40002, 'invalid grant_type')
        if (q.get('appid') !== MINI_APPID || q.get('secret') !== MINI_SECRET) return err(40013, 'invalid appid')
        const token = `app_${crypto.randomBytes(12).toString('hex')}`
        appTokens.add(token)
        return sendJson(res, { access_token: token, expires_in: 7200 })
      }
      case '/wxa/generate_urllink': {
        if (req.method !== 'POST') return err(43002, 'require POST method')
        if (!appTokens.has(q.get('access_token') || '')) return err(40001, 'invalid credential, access_token is invalid or not latest')
        let b
        try { b = JSON.parse(body || '{}') } catch { return err(47001, 'data format error') }
        const path = b.path ?? ''
        if (path && (path.startsWith('/') || !pages.has(path))) return err(40165, 'invalid weapp pagepath')
        const query = b.query ?? ''
        if (query.length > 1024 || !/^[A-Za-z0-9!#$&'()*+,/:;=?@\-._~%]*$/.test(query)) return err(40212, 'invalid query')
        const days = b.expire_interval ?? 30
        if (b.expire_type === 1 && !(Number.isInteger(days) && days >= 1 && days <= 30)) return err(85402, 'invalid expire_interval')
        const link = `https://wxaurl.cn/${crypto.randomBytes(9).toString('base64url').slice(0, 12)}`
        fake.links.push({ url: link, path, query, days })
        return sendJson(res, { errcode: 0, errmsg: 'ok', url_link: link })
      }
      case '/cgi-bin/message/subscribe/send': {
        if (req.method !== 'POST') return err(43002, 'require POST method')
        if (!appTokens.has(q.get('access_token') || '')) return err(40001, 'invalid credential, access_token is invalid or not latest')
        let b
        try { b = JSON.parse(body || '{}') } catch { return err(47001, 'data format error') }
        return sendJson(res, send(b))
      }
      case '/connect/oauth2/authorize': {
        const redirect = q.get('redirect_uri') || ''
        const scope = q.get('scope') || ''
        if (q.get('appid') !== APPID) return html(res, '<p>appid 参数错误 (10003)</p>')
        if (!/^https?:\/\//.test(redirect) || q.get('response_type') !== 'code') return html(res, '<p>redirect_uri 参数错误 (10003)</p>')
        if (scope !== 'snsapi_base' && scope !== 'snsapi_userinfo') return html(res, '<p>scope 参数错误或没有 scope 权限 (10005)</p>')
        const back = new URL(redirect)
        const state = q.get('state') || ''
        const grant = () => {
          const code = `code_${crypto.randomBytes(12).toString('hex')}`
          fake.codes.set(code, { ...fake.user, scope })
          back.searchParams.set('code', code)
          back.searchParams.set('state', state)
          return back.toString()
        }
        // snsapi_base goes back at once; snsapi_userinfo asks first
        if (scope === 'snsapi_base' || q.get('decision') === 'allow') {
          res.writeHead(302, { location: grant() })
          return res.end()
        }
        if (q.get('decision') === 'deny') {
          back.searchParams.set('state', state)
          res.writeHead(302, { location: back.toString() })
          return res.end()
        }
        const self = new URL(req.url, 'http://x')
        const choice = d => { self.searchParams.set('decision', d); return escapeHtml(self.pathname + self.search) }
        return html(res, `<p class="wx-app">拾盒 申请获取你的昵称、头像</p><p><a class="wx-allow" href="${choice('allow')}">允许</a></p><p><a class="wx-deny" href="${choice('deny')}">拒绝</a></p>`)
      }
      case '/sns/oauth2/access_token': {
        if (q.get('appid') !== APPID || q.get('secret') !== SECRET) return err(40013, 'invalid appid')
        if (q.get('grant_type') !== 'authorization_code') return err(40002, 'invalid grant_type')
        const code = q.get('code') || ''
        if (used.has(code)) return err(40163, 'code been used')
        const user = fake.codes.get(code)
        if (!user) return err(40029, 'invalid code')
        used.add(code)
        const token = `at_${crypto.randomBytes(12).toString('hex')}`
        tokens.set(token, user)
        return sendJson(res, { access_token: token, expires_in: 7200, refresh_token: 'rt', openid: user.openid, scope: user.scope })
      }
      case '/sns/userinfo': {
        const user = tokens.get(q.get('access_token') || '')
        if (!user || user.openid !== q.get('openid')) return err(40001, 'invalid credential, access_token is invalid or not latest')
        if (user.scope !== 'snsapi_userinfo') return err(48001, 'api unauthorized')
        return sendJson(res, { openid: user.openid, nickname: user.nickname, sex: 0, province: '', city: '', country: '', headimgurl: user.headimgurl, privilege: [] })
      }
      default:
        return sendJson(res, { errcode: -1, errmsg: 'no such api' }, 404)
    }
  })
  fake.url = server.url
  fake.close = server.close
  /** The shop server's environment for this fake. */
  fake.env = {
    WECHAT_OAUTH_APPID: APPID,
    WECHAT_OAUTH_SECRET: SECRET,
    // the mini-program (its URL links; its logins happen in the simulator, not here)
    WECHAT_APPID: MINI_APPID,
    WECHAT_SECRET: MINI_SECRET,
    WECHAT_API_BASE: server.url,
    WECHAT_OAUTH_AUTHORIZE_URL: `${server.url}/connect/oauth2/authorize`
  }
  return fake
}

// The mini-program's login, as https://developers.weixin.qq.com/miniprogram/dev/OpenApiDoc/user-login/code2Session.html
// describes it: GET /sns/jscode2session?appid&secret&js_code&grant_type=authorization_code answers
// {openid, session_key[, unionid]}; a code works once (40163 "code been used"), an unknown one is 40029,
// a wrong appid/secret 40013, a wrong grant_type 40002. Errors come as HTTP 200 with {errcode, errmsg}.
// wx.login's codes come from `fake.mint(user)` (the simulator's wx.login asks it, as WeChat's client
// asks WeChat's servers), so only codes WeChat itself handed out work.
const MINI_APPID = 'wxfakemini00001'
const MINI_SECRET = 'fake-mini-secret-0001'

async function startMiniProgram () {
  const fake = {
    appid: MINI_APPID,
    secret: MINI_SECRET,
    /** Who is logged in to WeChat on the simulated phone. */
    user: { openid: 'o_fake_mini_user_0001' },
    calls: [],
    url: '',
    close: null,
    /** A fresh login code for `user` (what wx.login answers). */
    mint (user = fake.user) {
      const code = `mini_${crypto.randomBytes(12).toString('hex')}`
      codes.set(code, user)
      fake.knownOpenids.add(user.openid)
      return code
    },
    /** The openids this mini-program's users have (each one a login code was minted for). */
    knownOpenids: new Set(),
    /** Hand out this many tokens WeChat no longer takes (40001 on use), as after a token was renewed elsewhere. */
    staleTokens: 0
  }
  const codes = new Map()
  const used = new Set()
  const appTokens = new Set()
  const send = subscriptions(fake, new Set(miniProgramPages()), openid => fake.knownOpenids.has(openid))
  const server = await listen((req, res, body) => {
    const url = new URL(req.url || '/', 'http://x')
    const q = url.searchParams
    fake.calls.push({ path: url.pathname, query: Object.fromEntries(q) })
    const err = (errcode, errmsg) => sendJson(res, { errcode, errmsg })
    // the access token (the same rules as start()'s) and subscription messages
    if (url.pathname === '/cgi-bin/token') {
      if (q.get('grant_type') !== 'client_credential') return err(40002, 'invalid grant_type')
      if (q.get('appid') !== MINI_APPID || q.get('secret') !== MINI_SECRET) return err(40013, 'invalid appid')
      const token = `app_${crypto.randomBytes(12).toString('hex')}`
      if (fake.staleTokens > 0) { fake.staleTokens--; return sendJson(res, { access_token: 'stale_token', expires_in: 7200 }) }
      appTokens.add(token)
      return sendJson(res, { access_token: token, expires_in: 7200 })
    }
    if (url.pathname === '/cgi-bin/message/subscribe/send') {
      if (req.method !== 'POST') return err(43002, 'require POST method')
      if (!appTokens.has(q.get('access_token') || '')) return err(40001, 'invalid credential, access_token is invalid or not latest')
      let b
      try { b = JSON.parse(body || '{}') } catch { return err(47001, 'data format error') }
      return sendJson(res, send(b))
    }
    if (url.pathname !== '/sns/jscode2session') return err(40066, 'invalid url')
    if (q.get('appid') !== MINI_APPID || q.get('secret') !== MINI_SECRET) return err(40013, 'invalid appid')
    if (q.get('grant_type') !== 'authorization_code') return err(40002, 'invalid grant_type')
    const code = q.get('js_code') || ''
    if (used.has(code)) return err(40163, 'code been used')
    const user = codes.get(code)
    if (!user) return err(40029, 'invalid code')
    used.add(code)
    return sendJson(res, { openid: user.openid, session_key: `sk-${user.openid}`, ...(user.unionid ? { unionid: user.unionid } : {}) })
  })
  fake.url = server.url
  fake.close = server.close
  return fake
}

module.exports = { start, startMiniProgram, APPID, SECRET, MINI_APPID, MINI_SECRET, EVENT_TEMPLATE_ID, RESTOCK_TEMPLATE_ID }
