/**
 * Runs the weapp build in miniprogram-simulate: App() and Page() are captured (Page is shimmed onto
 * Component, which is all simulate knows), wx.* storage and navigation are kept in memory, and
 * wx.request is carried over real HTTP to a server the test names.
 */
const fs = require('node:fs')
const http = require('node:http')
const path = require('node:path')
const simulate = require('miniprogram-simulate')

const DIST = path.resolve(__dirname, '../../dist/weapp')

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
    apiOrigin: ''
  }

  global.App = (o) => { state.app = o }
  global.getApp = () => state.app
  global.getCurrentPages = () => [{ route: state.route.route, options: state.route.query }]
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
  wx.setStorageSync = (k, v) => { state.storage[k] = v }
  wx.getStorageSync = (k) => (k in state.storage ? state.storage[k] : '')
  wx.removeStorageSync = (k) => { delete state.storage[k] }
  wx.getSystemInfoSync = () => ({ language: 'zh_CN', windowWidth: 375, windowHeight: 812, pixelRatio: 2, platform: 'devtools' })
  for (const name of ['navigateTo', 'redirectTo', 'reLaunch', 'switchTab']) {
    wx[name] = (opts) => { state.navigations.push({ type: name, url: opts.url }); ok(name, opts) }
  }
  wx.navigateBack = (opts) => { state.navigations.push({ type: 'navigateBack' }); ok('navigateBack', opts) }
  wx.showToast = (opts) => { state.toasts.push(opts.title); ok('showToast', opts) }
  wx.showModal = (opts) => { state.modals.push(opts.content); ok('showModal', opts, { confirm: state.modalConfirms, cancel: !state.modalConfirms }) }
  wx.showLoading = (opts) => ok('showLoading', opts)
  wx.hideLoading = (opts) => ok('hideLoading', opts)
  wx.setClipboardData = (opts) => { state.clipboard = opts.data; ok('setClipboardData', opts) }
  wx.setNavigationBarTitle = (opts) => { state.titles.push(opts.title); ok('setNavigationBarTitle', opts) }
  wx.request = (opts) => {
    const url = new URL(opts.url, state.apiOrigin)
    const body = opts.data === undefined ? undefined : JSON.stringify(opts.data)
    state.requests.push({ url: url.pathname + url.search, method: opts.method || 'GET', header: opts.header, data: opts.data })
    const req = http.request(url, { method: opts.method || 'GET', headers: { ...opts.header } }, (res) => {
      const chunks = []
      res.on('data', c => { chunks.push(c) })
      res.on('end', () => {
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
      const out = { errMsg: `request:fail ${e.message}` }
      opts.fail && opts.fail(out)
      opts.complete && opts.complete(out)
    })
    if (body !== undefined && (opts.method || 'GET') !== 'GET') req.write(body)
    req.end()
    return { abort () { req.destroy() } }
  }

  wx.chooseImage = (opts) => {
    const { path: file, fail } = state.chooseImage
    if (fail) {
      setTimeout(() => { opts.fail && opts.fail({ errMsg: fail }); opts.complete && opts.complete({ errMsg: fail }) }, 0)
      return
    }
    ok('chooseImage', opts, { tempFilePaths: [file], tempFiles: [{ path: file, size: fs.statSync(file).size }] })
  }
  // wx.uploadFile: the file read from its path and sent as multipart/form-data over real HTTP, the answer's
  // body handed over as text (as WeChat does)
  wx.uploadFile = (opts) => {
    const url = new URL(opts.url, state.apiOrigin)
    const boundary = `----wxupload${Date.now().toString(16)}`
    const bytes = fs.readFileSync(opts.filePath)
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${opts.name}"; filename="${path.basename(opts.filePath)}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`)
    ])
    state.uploads.push({ url: url.pathname, name: opts.name, header: opts.header, bytes: bytes.length })
    const req = http.request(url, { method: 'POST', headers: { ...opts.header, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length } }, (res) => {
      const chunks = []
      res.on('data', c => chunks.push(c))
      res.on('end', () => {
        const out = { statusCode: res.statusCode, data: Buffer.concat(chunks).toString('utf8'), errMsg: 'uploadFile:ok' }
        opts.success && opts.success(out)
        opts.complete && opts.complete(out)
      })
    })
    req.on('error', (e) => {
      const out = { errMsg: `uploadFile:fail ${e.message}` }
      opts.fail && opts.fail(out)
      opts.complete && opts.complete(out)
    })
    req.end(body)
    return { abort () { req.destroy() }, onProgressUpdate () {} }
  }

  function boot () {
    require(path.join(DIST, 'app.js'))
    state.app.onLaunch({ path: state.route.route, query: state.route.query })
  }

  function loadPage (route, query = {}) {
    state.route = { route, query }
    const id = simulate.load(path.join(DIST, route), `p-${route.replace(/\W/g, '-')}`, { compiler: 'official', rootPath: DIST })
    const page = simulate.render(id)
    page.attach(document.createElement('parent-wrapper'))
    return page
  }

  // privacy, scopes, location: ./wx-privacy.js
  require('./wx-privacy').install(wx, state, { ok })

  return { state, boot, loadPage, DIST }
}

async function waitFor (fn, timeout = 5000) {
  const start = Date.now()
  for (;;) {
    try { return fn() } catch (e) { if (Date.now() - start > timeout) throw e }
    await simulate.sleep(20)
  }
}

module.exports = { createHarness, waitFor, simulate }
