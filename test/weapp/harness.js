/**
 * Runs the weapp build in miniprogram-simulate: App() and Page() are captured (Page is shimmed onto
 * Component, which is all simulate knows), and wx.* is a simulated WeChat that refuses what WeChat
 * refuses. Each rule below names the documentation page it comes from; test/weapp/harness.weapp.test.js
 * shows each refusal, so no test can pass only because this fake is kinder than WeChat.
 * - Network (wx.request, uploadFile, downloadFile): absolute http(s) URLs only; with the domain check on
 *   (urlCheck, as on a phone) only https hosts in the request-domain list; at most 10 at once (more
 *   wait their turn). The listed test host is delivered to the local server (state.apiOrigin).
 * - Storage: 1 MB per key, 10 MB in all. Page stack: 10 pages at most; unknown pages fail.
 * - setData: at most 1 MB at a time. wx.login: codes from the local code2session fake, each once.
 * Privacy, scopes and location: ./wx-privacy.js.
 */
const fs = require('node:fs')
const http = require('node:http')
const os = require('node:os')
const path = require('node:path')
const simulate = require('miniprogram-simulate')
const { WEAPP_TEST_API_ORIGIN } = require('./origin')

const DIST = path.resolve(__dirname, '../../dist/weapp')
const MB = 1024 * 1024

/** Bytes of a value as WeChat measures what it stores or sends across: its JSON text, in UTF-8. */
const jsonBytes = (v) => Buffer.byteLength(JSON.stringify(v === undefined ? null : v) || '', 'utf8')

/**
 * While an element's tap is handled (WeChat runs a bindtap handler, and what it calls before its first
 * await, in the tap's turn), state.tapping is true: the wrappers miniprogram-simulate hands out (the page's and its elements') get a
 * dispatchEvent that marks it.
 */
function tapMarker (state) {
  const mark = (wrapper) => {
    const proto = wrapper && Object.getPrototypeOf(wrapper)
    if (!proto || proto.__tapMarked || typeof proto.dispatchEvent !== 'function') return wrapper
    const dispatch = proto.dispatchEvent
    proto.dispatchEvent = function (name, ...rest) {
      if (name !== 'tap') return dispatch.call(this, name, ...rest)
      // j-component dispatches in a microtask ("模拟异步情况"): the flag drops in the one queued after it
      state.tapping = true
      try { return dispatch.call(this, name, ...rest) } finally { Promise.resolve().then(() => { state.tapping = false }) }
    }
    proto.__tapMarked = true
    return wrapper
  }
  return (page) => {
    mark(page)
    const one = page.querySelector.bind(page)
    const all = page.querySelectorAll.bind(page)
    page.querySelector = (selector) => mark(one(selector))
    page.querySelectorAll = (selector) => { const found = all(selector); found.forEach(mark); return found }
  }
}

function createHarness () {
  const state = {
    app: null,
    route: { route: 'pages/login/index', query: {} },
    pageMethods: {},
    storage: {},
    navigations: [],
    toasts: [],
    /** Dialogs shown (wx.showModal), and what the next ones answer. */
    modals: [],
    modalConfirms: true,
    titles: [],
    requests: [],
    /** What wx.chooseImage picks next: a file on disk, or an errMsg to fail with (e.g. a cancel). */
    chooseImage: { path: '', fail: '' },
    uploads: [],
    downloads: [],
    /** The local server the test host is delivered to (http://127.0.0.1:PORT). */
    apiOrigin: '',
    /**
     * The domain check (project.config.json urlCheck; always on for a phone without debug mode): when on,
     * only https origins in `requestDomains` are reached.
     */
    urlCheck: true,
    requestDomains: [WEAPP_TEST_API_ORIGIN],
    /** Calls on the network now, and the most there ever were at once. */
    inFlight: 0,
    maxInFlight: 0,
    /** setData calls WeChat refused (over 1 MB). */
    setDataRefused: [],
    /** The local code2session fake wx.login asks for codes (test/support/providers/wechat.js startMiniProgram). */
    wechat: null,
    loginCodes: [],
    /** wx.openLocation calls WeChat took (its map opened on the point). */
    openedLocations: [],
    /** wx.openDocument calls WeChat took: { filePath, fileType, showMenu } */
    openedDocuments: [],
    /** What the user answers wx.requestSubscribeMessage, per template id ('accept' unless set: 'reject', 'ban', 'filter'). */
    subscribeAnswers: {},
    /** wx.requestSubscribeMessage calls: { tmplIds, inTap, requestsBefore, answer (the success result) | error ({errMsg, errCode}) } */
    subscribeRequests: [],
    /** A tap (dispatchEvent('tap')) is being handled now. */
    tapping: false
  }
  /** The page stack (routes, with their queries): what getCurrentPages() answers. */
  state.stack = [{ route: state.route.route, options: state.route.query }]

  global.App = (o) => { state.app = o }
  global.getApp = () => state.app
  global.getCurrentPages = () => state.stack.map(p => ({ route: p.route, options: p.options }))
  global.Page = (pageOpts) => {
    const { data, ...rest } = pageOpts
    const methods = {}
    for (const k of Object.keys(rest)) if (typeof rest[k] === 'function') methods[k] = rest[k]
    state.pageMethods[state.route.route] = Object.keys(methods)
    global.Component({
      data,
      methods,
      lifetimes: {
        attached () {
          this.route = this.__route__ = state.route.route
          // https://developers.weixin.qq.com/miniprogram/dev/reference/api/Page.html#Page-prototype-setData-Object-data-Function-callback
          // "单次设置的数据不能超过1024kB": WeChat refuses a larger setData
          const setData = this.setData.bind(this)
          this.setData = (data, cb) => {
            const bytes = jsonBytes(data)
            if (bytes > MB) {
              state.setDataRefused.push({ route: this.route, bytes })
              throw new Error(`setData: exceeded max data size 1024KB (${Math.ceil(bytes / 1024)} KB)`)
            }
            return setData(data, cb)
          }
          this.onLoad(state.route.query)
          this.onShow()
          this.onReady()
        }
      }
    })
  }

  const ok = (name, opts, extra = {}) => {
    const res = { errMsg: `${name}:ok`, ...extra }
    setTimeout(() => { opts && opts.success && opts.success(res); opts && opts.complete && opts.complete(res) }, 0)
  }
  const fail = (opts, errMsg, extra = {}) => {
    const res = { errMsg, ...extra }
    setTimeout(() => { opts && opts.fail && opts.fail(res); opts && opts.complete && opts.complete(res) }, 0)
  }
  // https://developers.weixin.qq.com/miniprogram/dev/api/storage/wx.setStorageSync.html
  // "单个 key 允许存储的最大数据长度为 1MB，所有数据存储上限为 10MB"; the sync forms throw, the others fail
  const storageBytes = () => Object.entries(state.storage).reduce((n, [k, v]) => n + Buffer.byteLength(k) + jsonBytes(v), 0)
  const storageRefusal = (name, k, v) => {
    if (typeof k !== 'string' || !k) return `${name}:fail parameter error: parameter.key should be String instead of ${typeof k}`
    const bytes = jsonBytes(v)
    if (bytes > MB) return `${name}:fail entry size limit reached (${bytes} bytes; 1 MB per key)`
    const others = storageBytes() - (k in state.storage ? Buffer.byteLength(k) + jsonBytes(state.storage[k]) : 0)
    if (others + Buffer.byteLength(k) + bytes > 10 * MB) return `${name}:fail exceed storage max size 10MB`
    return ''
  }
  // WeChat keeps a copy (JSON-able values), not the caller's object
  const stored = (v) => (v === undefined ? '' : JSON.parse(JSON.stringify(v)))
  wx.setStorageSync = (k, v) => {
    const refusal = storageRefusal('setStorageSync', k, v)
    if (refusal) throw new Error(refusal)
    state.storage[k] = stored(v)
  }
  wx.getStorageSync = (k) => (k in state.storage ? state.storage[k] : '')
  wx.removeStorageSync = (k) => { delete state.storage[k] }
  wx.clearStorageSync = () => { for (const k of Object.keys(state.storage)) delete state.storage[k] }
  wx.getStorageInfoSync = () => ({ keys: Object.keys(state.storage), currentSize: Math.ceil(storageBytes() / 1024), limitSize: 10 * 1024 })
  wx.setStorage = (opts) => {
    const refusal = storageRefusal('setStorage', opts.key, opts.data)
    if (refusal) return fail(opts, refusal)
    state.storage[opts.key] = stored(opts.data)
    ok('setStorage', opts)
  }
  wx.getStorage = (opts) => (opts.key in state.storage ? ok('getStorage', opts, { data: state.storage[opts.key] }) : fail(opts, 'getStorage:fail data not found'))
  wx.removeStorage = (opts) => { delete state.storage[opts.key]; ok('removeStorage', opts) }
  wx.getSystemInfoSync = () => ({ language: 'zh_CN', windowWidth: 375, windowHeight: 812, pixelRatio: 2, platform: 'devtools' })
  // https://developers.weixin.qq.com/miniprogram/dev/api/base/system/wx.getWindowInfo.html (base library 2.20.1)
  wx.getWindowInfo = () => ({ pixelRatio: 2, screenWidth: 375, screenHeight: 812, windowWidth: 375, windowHeight: 812, statusBarHeight: 20, screenTop: 0, safeArea: { left: 0, right: 375, top: 20, bottom: 812, width: 375, height: 792 } })

  // Navigation over a real page stack. Pages are not rendered by navigating (a test loads a page itself
  // with loadPage: the simulator runs a compiled page's code once per file); state.navigations keeps
  // every call. https://developers.weixin.qq.com/miniprogram/dev/api/route/wx.navigateTo.html: "小程序中页面栈最多十层";
  // a page missing from app.json fails (errMsg as WeChat's: 'navigateTo:fail page "x" is not found').
  const appJson = () => JSON.parse(fs.readFileSync(path.join(DIST, 'app.json'), 'utf8'))
  const routesOf = (app) => [...app.pages, ...(app.subPackages || app.subpackages || []).flatMap(p => p.pages.map(x => `${p.root.replace(/\/$/, '')}/${x}`))]
  const target = (name, url) => {
    const [raw, query = ''] = String(url || '').split('?')
    const here = state.stack[state.stack.length - 1].route
    const route = raw.startsWith('/') ? raw.slice(1) : path.posix.join(path.posix.dirname(here), raw)
    if (!routesOf(appJson()).includes(route)) return { errMsg: `${name}:fail page "${route}" is not found` }
    return { route, options: Object.fromEntries(new URLSearchParams(query)) }
  }
  const navigate = (name, opts, apply) => {
    state.navigations.push({ type: name, url: opts.url })
    const t = target(name, opts.url)
    if (t.errMsg) return fail(opts, t.errMsg)
    const refusal = apply(t)
    if (refusal) return fail(opts, refusal)
    ok(name, opts)
  }
  wx.navigateTo = (opts) => navigate('navigateTo', opts, (t) => {
    if (state.stack.length >= 10) return 'navigateTo:fail webview count limit exceed'
    state.stack.push(t)
  })
  wx.redirectTo = (opts) => navigate('redirectTo', opts, (t) => { state.stack[state.stack.length - 1] = t })
  wx.reLaunch = (opts) => navigate('reLaunch', opts, (t) => { state.stack = [t] })
  wx.switchTab = (opts) => navigate('switchTab', opts, (t) => {
    // https://developers.weixin.qq.com/miniprogram/dev/api/route/wx.switchTab.html: only tabBar pages
    const tabs = ((appJson().tabBar || {}).list || []).map(x => x.pagePath)
    if (!tabs.includes(t.route)) return 'switchTab:fail can not switch to no-tabBar page'
    state.stack = [t]
  })
  wx.navigateBack = (opts = {}) => {
    state.navigations.push({ type: 'navigateBack' })
    const delta = Math.max(1, opts.delta || 1)
    // "如果 delta 大于现有页面数，则返回到首页": the first page stays
    state.stack = state.stack.slice(0, Math.max(1, state.stack.length - delta))
    ok('navigateBack', opts)
  }
  wx.showToast = (opts) => { state.toasts.push(opts.title); ok('showToast', opts) }
  // https://developers.weixin.qq.com/miniprogram/dev/api/ui/interaction/wx.showModal.html: confirmText and
  // cancelText "最多 4 个字符" (a Chinese character counts two of eight, as Taro's H5 showModal counts too)
  wx.showModal = (opts) => {
    for (const k of ['confirmText', 'cancelText']) {
      if (opts[k] !== undefined && String(opts[k]).replace(/[\u0391-\uFFE5]/g, 'aa').length > 8) { fail(opts, `showModal:fail ${k} length should not be larger than 4 Chinese characters`); return }
    }
    state.modals.push(opts.content)
    ok('showModal', opts, { confirm: state.modalConfirms, cancel: !state.modalConfirms })
  }
  wx.showLoading = (opts) => ok('showLoading', opts)
  wx.hideLoading = (opts) => ok('hideLoading', opts)
  wx.setClipboardData = (opts) => { state.clipboard = opts.data; ok('setClipboardData', opts) }
  // https://developers.weixin.qq.com/miniprogram/dev/api/location/wx.openLocation.html: latitude
  // (-90..90) and longitude (-180..180) are required numbers, scale 5-18 (default 18), name and
  // address strings
  wx.openLocation = (opts = {}) => {
    const num = (v, lo, hi) => typeof v === 'number' && Number.isFinite(v) && v >= lo && v <= hi
    if (!num(opts.latitude, -90, 90) || !num(opts.longitude, -180, 180)) { fail(opts, 'openLocation:fail invalid latitude or longitude'); return }
    if (opts.scale !== undefined && !(Number.isInteger(opts.scale) && opts.scale >= 5 && opts.scale <= 18)) { fail(opts, 'openLocation:fail scale should be within 5-18'); return }
    for (const k of ['name', 'address']) if (opts[k] !== undefined && typeof opts[k] !== 'string') { fail(opts, `openLocation:fail parameter error: ${k} should be String`); return }
    state.openedLocations.push({ latitude: opts.latitude, longitude: opts.longitude, scale: opts.scale ?? 18, name: opts.name, address: opts.address })
    ok('openLocation', opts)
  }
  wx.setNavigationBarTitle = (opts) => { state.titles.push(opts.title); ok('setNavigationBarTitle', opts) }
  // https://developers.weixin.qq.com/miniprogram/dev/framework/ability/network.html: wx.request,
  // uploadFile and downloadFile reach only the https (or wss) domains configured for the app, not IP
  // addresses or localhost, and a configured domain without a port matches no URL with one; the check is
  // skipped only in DevTools with "do not verify domain names" or in a phone's debug mode (urlCheck
  // off). A URL must be absolute: a relative one fails as invalid. "最大并发限制是 10 个": since base
  // library 1.4.0 the ones beyond wait in a queue instead of failing.
  function route (name, rawUrl) {
    let url
    try {
      url = /^[a-z][a-z\d+.-]*:\/\//i.test(String(rawUrl)) ? new URL(String(rawUrl)) : null
    } catch { url = null }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return { errMsg: `${name}:fail invalid url "${rawUrl}"` }
    if (state.urlCheck && (url.protocol !== 'https:' || !state.requestDomains.includes(url.origin))) {
      return { errMsg: `${name}:fail url not in domain list` }
    }
    // delivery: the listed test host is the local server (a hosts entry and a TLS-terminating proxy);
    // any other reachable URL (urlCheck off) goes where it says
    const deliver = url.origin === WEAPP_TEST_API_ORIGIN ? new URL(url.pathname + url.search, state.apiOrigin) : url
    if (deliver.protocol !== 'http:') return { errMsg: `${name}:fail the simulator reaches only ${WEAPP_TEST_API_ORIGIN} and http URLs` }
    return { url, deliver }
  }
  const queue = []
  function onNetwork (start) {
    const run = () => {
      state.inFlight++
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight)
      let done = false
      start(() => {
        if (done) return
        done = true
        state.inFlight--
        const next = queue.shift()
        if (next) next()
      })
    }
    if (state.inFlight < 10) run()
    else queue.push(run)
  }

  wx.request = (opts) => {
    const r = route('request', opts.url)
    if (r.errMsg) { fail(opts, r.errMsg); return { abort () {} } }
    const method = (opts.method || 'GET').toUpperCase()
    // https://developers.weixin.qq.com/miniprogram/dev/api/network/request/wx.request.html ("data 参数说明"):
    // GET data becomes the query string (encodeURIComponent(k)=encodeURIComponent(v)&...); POST data is
    // JSON for content-type application/json (the default), a query string for x-www-form-urlencoded
    const contentType = String(Object.entries(opts.header || {}).find(([k]) => k.toLowerCase() === 'content-type')?.[1] || 'application/json')
    const form = (o) => Object.entries(o).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'object' && v !== null ? JSON.stringify(v) : v)}`).join('&')
    let body
    if (method === 'GET') {
      if (opts.data !== undefined && opts.data !== null) {
        const q = typeof opts.data === 'string' ? opts.data : form(opts.data)
        if (q) {
          for (const u of [r.url, r.deliver]) u.search = u.search ? `${u.search}&${q}` : `?${q}`
        }
      }
    } else if (opts.data !== undefined) {
      body = typeof opts.data === 'string' || opts.data instanceof ArrayBuffer ? opts.data
        : /x-www-form-urlencoded/i.test(contentType) ? form(opts.data) : JSON.stringify(opts.data)
      if (body instanceof ArrayBuffer) body = Buffer.from(body)
    }
    state.requests.push({ url: r.url.pathname + r.url.search, method, header: opts.header, data: opts.data })
    let req = null
    let aborted = false
    onNetwork((release) => {
      if (aborted) { release(); return }
      // the Host the URL names, as any HTTP client sends it (RFC 9110 section 7.2): WeChat's request to
      // the listed https://api.shop.test reaches the shop with Host: api.shop.test, not the local address
      const host = r.deliver === r.url ? {} : { host: r.url.host }
      req = http.request(r.deliver, { method, headers: { ...opts.header, ...host } }, (res) => {
        const chunks = []
        res.on('data', c => { chunks.push(c) })
        res.on('end', () => {
          release()
          const buf = Buffer.concat(chunks)
          const text = buf.toString('utf8')
          let data = text
          // responseType arraybuffer: the bytes as they came (as wx.request hands them over)
          if (opts.responseType === 'arraybuffer') data = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length)
          else try { data = JSON.parse(text) } catch { /* not JSON: left as text */ }
          const out = { statusCode: res.statusCode, data, header: res.headers, errMsg: 'request:ok' }
          opts.success && opts.success(out)
          opts.complete && opts.complete(out)
        })
      })
      req.on('error', (e) => {
        release()
        fail(opts, aborted ? 'request:fail abort' : `request:fail ${e.message}`)
      })
      if (body !== undefined) req.write(body)
      req.end()
    })
    return { abort () { aborted = true; if (req) req.destroy() } }
  }

  // https://developers.weixin.qq.com/miniprogram/dev/api/network/download/wx.downloadFile.html: the body
  // saved to a temporary file, its path and the HTTP status handed over (any status is a success)
  wx.downloadFile = (opts) => {
    const r = route('downloadFile', opts.url)
    if (r.errMsg) { fail(opts, r.errMsg); return { abort () {}, onProgressUpdate () {} } }
    state.downloads.push({ url: r.url.pathname + r.url.search, header: opts.header })
    let req = null
    onNetwork((release) => {
      req = http.request(r.deliver, { method: 'GET', headers: { ...opts.header, ...(r.deliver === r.url ? {} : { host: r.url.host }) } }, (res) => {
        const chunks = []
        res.on('data', c => chunks.push(c))
        res.on('end', () => {
          release()
          const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wxfile-')), path.basename(r.url.pathname) || 'download')
          fs.writeFileSync(file, Buffer.concat(chunks))
          const out = { statusCode: res.statusCode, tempFilePath: file, errMsg: 'downloadFile:ok' }
          opts.success && opts.success(out)
          opts.complete && opts.complete(out)
        })
      })
      req.on('error', (e) => { release(); fail(opts, `downloadFile:fail ${e.message}`) })
      req.end()
    })
    return { abort () { if (req) req.destroy() }, onProgressUpdate () {} }
  }

  // https://developers.weixin.qq.com/miniprogram/dev/api/file/wx.openDocument.html: filePath a local file
  // (what downloadFile saved; an http(s) URL is not one), fileType one of doc, docx, xls, xlsx, ppt, pptx,
  // pdf (WeChat reads it from the name when absent); state.openedDocuments holds what WeChat opened
  wx.openDocument = (opts = {}) => {
    const file = opts.filePath
    if (typeof file !== 'string' || /^[a-z]+:\/\//i.test(file) || !fs.existsSync(file)) return fail(opts, 'openDocument:fail file not found')
    const type = opts.fileType ?? path.extname(file).slice(1).toLowerCase()
    if (!['doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'pdf'].includes(type)) return fail(opts, 'openDocument:fail filetype not supported')
    state.openedDocuments.push({ filePath: file, fileType: type, showMenu: !!opts.showMenu })
    ok('openDocument', opts, {})
  }

  wx.chooseImage = (opts) => {
    const { path: file, fail } = state.chooseImage
    if (fail) {
      setTimeout(() => { opts.fail && opts.fail({ errMsg: fail }); opts.complete && opts.complete({ errMsg: fail }) }, 0)
      return
    }
    ok('chooseImage', opts, { tempFilePaths: [file], tempFiles: [{ path: file, size: fs.statSync(file).size }] })
  }
  // wx.uploadFile (https://developers.weixin.qq.com/miniprogram/dev/api/network/upload/wx.uploadFile.html):
  // the file read from its path and sent as multipart/form-data, the answer's body handed over as text
  wx.uploadFile = (opts) => {
    const r = route('uploadFile', opts.url)
    if (r.errMsg) { fail(opts, r.errMsg); return { abort () {}, onProgressUpdate () {} } }
    const boundary = `----wxupload${Date.now().toString(16)}`
    const bytes = fs.readFileSync(opts.filePath)
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${opts.name}"; filename="${path.basename(opts.filePath)}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`)
    ])
    state.uploads.push({ url: r.url.pathname, name: opts.name, header: opts.header, bytes: bytes.length })
    let req = null
    onNetwork((release) => {
      req = http.request(r.deliver, { method: 'POST', headers: { ...opts.header, ...(r.deliver === r.url ? {} : { host: r.url.host }), 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length } }, (res) => {
        const chunks = []
        res.on('data', c => chunks.push(c))
        res.on('end', () => {
          release()
          const out = { statusCode: res.statusCode, data: Buffer.concat(chunks).toString('utf8'), errMsg: 'uploadFile:ok' }
          opts.success && opts.success(out)
          opts.complete && opts.complete(out)
        })
      })
      req.on('error', (e) => { release(); fail(opts, `uploadFile:fail ${e.message}`) })
      req.end(body)
    })
    return { abort () { if (req) req.destroy() }, onProgressUpdate () {} }
  }

  // https://developers.weixin.qq.com/miniprogram/dev/api/open-api/login/wx.login.html: a code valid
  // for one code2Session call (and five minutes). Codes come from the local code2session fake
  // (state.wechat, test/support/providers/wechat.js startMiniProgram), as WeChat's client gets them from
  // WeChat; without one (a tourist app id) the code is one no server accepts.
  wx.login = (opts = {}) => {
    const code = state.wechat ? state.wechat.mint() : `tourist_${Date.now().toString(36)}`
    state.loginCodes.push(code)
    ok('login', opts, { code })
  }

  // https://developers.weixin.qq.com/miniprogram/dev/api/open-api/subscribe-message/wx.requestSubscribeMessage.html:
  // tmplIds 1-3 template ids (an empty list fails with errCode 10001, one that is not an array 10004
  // "参数类型错误", more than three 20003 "templates count out of max bounds", an id WeChat has no
  // template for 20001 "没有模板数据" when state.wechat says which it has); only from a user's tap
  // ("can only be invoked by user TAP gesture.", errCode 20001 in the simulator's terms: state.tapping,
  // set by the tap marker above while a tap's handler and its microtasks run); the answer per template:
  // accept, reject, ban or filter (state.subscribeAnswers, 'accept' unless set). An "accept" is recorded
  // with WeChat's servers (state.wechat.subscribe for its user.openid), which lets the server send one
  // message of that template to this user. Every call is in state.subscribeRequests.
  wx.requestSubscribeMessage = (opts = {}) => {
    const ids = Array.isArray(opts.tmplIds) ? opts.tmplIds : []
    // requestsBefore: how many wx.request calls came before it (a test checks the consent is asked before the server)
    const call = { tmplIds: ids, inTap: state.tapping, answer: null, error: null, requestsBefore: state.requests.length }
    state.subscribeRequests.push(call)
    const refuse = (errCode, errMsg) => {
      const e = { errMsg: `requestSubscribeMessage:fail ${errMsg}`, errCode }
      call.error = e
      setTimeout(() => { opts.fail && opts.fail(e); opts.complete && opts.complete(e) }, 0)
    }
    if (!call.inTap) return refuse(20001, 'can only be invoked by user TAP gesture.')
    if (opts.tmplIds !== undefined && !Array.isArray(opts.tmplIds)) return refuse(10004, 'TmplIds must be an array')
    if (ids.length === 0) return refuse(10001, 'TmplIds can\'t be empty')
    if (ids.length > 3) return refuse(20003, 'Templates count out of max bounds')
    const templates = state.wechat && state.wechat.templates
    if (templates && ids.some(id => !templates[id])) return refuse(20001, 'No template data return, verify the template id exist')
    const answer = { errMsg: 'requestSubscribeMessage:ok' }
    for (const id of ids) {
      answer[id] = state.subscribeAnswers[id] || 'accept'
      if (answer[id] === 'accept' && state.wechat) state.wechat.subscribe(state.wechat.user.openid, id)
    }
    call.answer = answer
    setTimeout(() => { opts.success && opts.success(answer); opts.complete && opts.complete(answer) }, 0)
  }

  function boot () {
    require(path.join(DIST, 'app.js'))
    state.app.onLaunch({ path: state.route.route, query: state.route.query })
  }

  function loadPage (route, query = {}) {
    state.route = { route, query }
    // the page on top of the stack is the one shown
    state.stack[state.stack.length - 1] = { route, options: query }
    const id = simulate.load(path.join(DIST, route), `p-${route.replace(/\W/g, '-')}`, { compiler: 'official', rootPath: DIST })
    const page = simulate.render(id)
    page.attach(document.createElement('parent-wrapper'))
    markTaps(page)
    return page
  }

  const markTaps = tapMarker(state)
  // privacy, scopes, location: ./wx-privacy.js
  require('./wx-privacy').install(wx, state, { ok })

  return { state, boot, loadPage, DIST }
}

/**
 * Every `src` and `poster` a rendered page hands to WeChat (image, video, audio, web-view), read from
 * Taro's render data (the simulator keeps no properties of built-in components on the DOM). WeChat
 * loads a path without a scheme from the package, so a server's file must come as an absolute URL:
 * https://developers.weixin.qq.com/miniprogram/dev/component/image.html ("图片资源地址").
 */
function mediaSources (page, dist = DIST) {
  // Taro shortens each component's attributes (image's src is i.p4, video's i.p41...): the compiled
  // templates (base.wxml, one tmpl_0_<nn> per component) say which key holds src and poster
  const keys = {}
  const wxml = fs.readFileSync(path.join(dist, 'base.wxml'), 'utf8')
  for (const m of wxml.matchAll(/<template name="tmpl_0_([\w-]+)">\s*<([\w-]+)([^>]*)>/g)) {
    const attrs = {}
    for (const a of m[3].matchAll(/\b(src|poster)="\{\{i\.(\w+)\}\}"/g)) attrs[a[1]] = a[2]
    if (Object.keys(attrs).length) keys[m[1]] = { tag: m[2], ...attrs }
  }
  const out = []
  const walk = (v) => {
    if (!v || typeof v !== 'object') return
    if (Array.isArray(v)) { v.forEach(walk); return }
    const k = keys[v.nn]
    if (k) for (const a of ['src', 'poster']) if (k[a] && typeof v[k[a]] === 'string' && v[k[a]]) out.push(v[k[a]])
    for (const x of Object.values(v)) walk(x)
  }
  walk(page.instance.data)
  return out
}

/** Sources WeChat could not load: not absolute http(s), not data:, and not a file of the package. */
function unloadableSources (page, dist = DIST) {
  return mediaSources(page).filter(src => {
    if (/^https?:\/\//i.test(src) || /^data:/i.test(src) || /^wxfile:\/\//i.test(src)) return false
    return !fs.existsSync(path.join(dist, src.replace(/^\//, '')))
  })
}

/**
 * The properties of every <map> on a rendered page, read from Taro's render data by the keys of the
 * compiled map template (as mediaSources does), with what WeChat's map would refuse of them:
 * https://developers.weixin.qq.com/miniprogram/dev/component/map.html — latitude and longitude are
 * required; scale, min-scale and max-scale within 3-20; each marker needs a number id, its latitude
 * and longitude, and iconPath (必填) that loads (a package file or an http(s) image); each polyline
 * needs points of latitude and longitude.
 */
function maps (page, dist = DIST) {
  const wxml = fs.readFileSync(path.join(dist, 'base.wxml'), 'utf8')
  const m = /<template name="tmpl_0_([\w-]+)">\s*<map([^>]*)>/.exec(wxml)
  if (!m) return []
  const nn = m[1]
  const keys = {}
  for (const a of m[2].matchAll(/\b([\w-]+)="\{\{(?:xs\.b\()?i\.(\w+)/g)) keys[a[1]] = a[2]
  const found = []
  const walk = (v) => {
    if (!v || typeof v !== 'object') return
    if (Array.isArray(v)) { v.forEach(walk); return }
    if (v.nn === nn) {
      const props = {}
      for (const [name, key] of Object.entries(keys)) if (v[key] !== undefined) props[name] = v[key]
      found.push({ props, problems: mapProblems(props, dist) })
    }
    for (const x of Object.values(v)) walk(x)
  }
  walk(page.instance.data)
  return found
}

function mapProblems (p, dist) {
  const out = []
  const num = (v, lo, hi) => typeof v === 'number' && Number.isFinite(v) && v >= lo && v <= hi
  if (!num(p.latitude, -90, 90) || !num(p.longitude, -180, 180)) out.push('latitude and longitude are required')
  for (const k of ['scale', 'min-scale', 'max-scale']) if (p[k] !== undefined && !num(p[k], 3, 20)) out.push(`${k} outside 3-20`)
  const loads = (src) => /^https?:\/\//i.test(src) || (typeof src === 'string' && src !== '' && fs.existsSync(path.join(dist, src.replace(/^\//, ''))))
  for (const mk of p.markers || []) {
    if (typeof mk.id !== 'number') out.push(`marker ${mk.id}: id must be a number`)
    if (!num(mk.latitude, -90, 90) || !num(mk.longitude, -180, 180)) out.push(`marker ${mk.id}: latitude and longitude are required`)
    if (!mk.iconPath) out.push(`marker ${mk.id}: iconPath is required`)
    else if (!loads(mk.iconPath)) out.push(`marker ${mk.id}: iconPath ${mk.iconPath} does not load`)
  }
  for (const line of p.polyline || []) {
    if (!Array.isArray(line.points) || !line.points.every(x => num(x.latitude, -90, 90) && num(x.longitude, -180, 180))) out.push('polyline points need latitude and longitude')
  }
  return out
}

async function waitFor (fn, timeout = 5000) {
  const start = Date.now()
  for (;;) {
    try { return fn() } catch (e) { if (Date.now() - start > timeout) throw e }
    await simulate.sleep(20)
  }
}

module.exports = { createHarness, waitFor, simulate, mediaSources, unloadableSources, maps, mapProblems }
