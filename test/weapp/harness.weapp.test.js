/**
 * The simulated WeChat refuses what WeChat refuses (each rule's documentation page is cited in
 * harness.js): no later weapp test can pass against a friendlier fake. A small local server stands in
 * for the shop; the compiled app is loaded only for setData.
 */
const fs = require('node:fs')
const http = require('node:http')
const os = require('node:os')
const path = require('node:path')
const { createHarness, waitFor, mapProblems } = require('./harness')
const { WEAPP_TEST_API_ORIGIN } = require('./origin')
const { startMiniProgram } = require('../support/providers/wechat')

const h = createHarness()
let server
let origin
let inFlight = 0
let most = 0

/** wx.* with callbacks, as a promise of the callback that came (success or fail). */
const call = (name, opts = {}) => new Promise(resolve => {
  wx[name]({ ...opts, success: res => resolve({ ok: true, ...res }), fail: res => resolve({ ok: false, ...res }) })
})

beforeAll(async () => {
  if (!fs.existsSync(path.join(h.DIST, 'app.js'))) throw new Error('dist/weapp is missing: run npm run build:weapp first')
  server = http.createServer((req, res) => {
    inFlight++
    most = Math.max(most, inFlight)
    const wait = req.url.startsWith('/slow') ? 80 : 0
    let body = ''
    req.on('data', c => { body += c })
    req.on('end', () => setTimeout(() => {
      inFlight--
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ code: 200, path: req.url, method: req.method, bytes: body.length }))
    }, wait))
  })
  await new Promise(resolve => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${server.address().port}`
  h.state.apiOrigin = origin
})

afterAll(() => new Promise(resolve => server.close(resolve)))

describe('network: wx.request, uploadFile, downloadFile', () => {
  const file = path.join(os.tmpdir(), `wx-upload-${process.pid}.txt`)
  beforeAll(() => fs.writeFileSync(file, 'hello'))
  beforeEach(() => { h.state.urlCheck = true })

  test('a relative or non-http(s) URL is invalid, for each of the three', async () => {
    for (const url of ['/dev-api/ping', 'dev-api/ping', 'ftp://api.shop.test/x', '//api.shop.test/x']) {
      expect(await call('request', { url })).toMatchObject({ ok: false, errMsg: `request:fail invalid url "${url}"` })
    }
    expect(await call('uploadFile', { url: '/dev-api/common/upload', filePath: file, name: 'file' })).toMatchObject({ ok: false, errMsg: 'uploadFile:fail invalid url "/dev-api/common/upload"' })
    expect(await call('downloadFile', { url: '/media/a.png' })).toMatchObject({ ok: false, errMsg: 'downloadFile:fail invalid url "/media/a.png"' })
  })

  test('with the domain check on (a phone): http, other hosts and a listed host on another port are refused', async () => {
    const refused = [origin + '/ping', 'http://api.shop.test/ping', 'https://other.example.com/ping', 'https://api.shop.test:8443/ping']
    for (const url of refused) expect(await call('request', { url })).toMatchObject({ ok: false, errMsg: 'request:fail url not in domain list' })
    expect(await call('downloadFile', { url: 'https://cdn.example.com/a.png' })).toMatchObject({ ok: false, errMsg: 'downloadFile:fail url not in domain list' })
    expect(await call('uploadFile', { url: origin + '/up', filePath: file, name: 'file' })).toMatchObject({ ok: false, errMsg: 'uploadFile:fail url not in domain list' })
  })

  test('the listed https host reaches the shop; uploads and downloads too', async () => {
    const res = await call('request', { url: `${WEAPP_TEST_API_ORIGIN}/dev-api/ping?x=1`, method: 'POST', data: { a: 1 } })
    expect(res).toMatchObject({ ok: true, statusCode: 200, errMsg: 'request:ok', data: { path: '/dev-api/ping?x=1', method: 'POST' } })
    // GET data goes as the query string, as WeChat sends it
    const get = await call('request', { url: `${WEAPP_TEST_API_ORIGIN}/dev-api/code`, data: { phone: '13800000001', n: 2 } })
    expect(get.data).toMatchObject({ path: '/dev-api/code?phone=13800000001&n=2', method: 'GET' })
    const up = await call('uploadFile', { url: `${WEAPP_TEST_API_ORIGIN}/dev-api/common/upload`, filePath: file, name: 'file' })
    expect(up).toMatchObject({ ok: true, statusCode: 200, errMsg: 'uploadFile:ok' })
    expect(typeof up.data).toBe('string')
    const down = await call('downloadFile', { url: `${WEAPP_TEST_API_ORIGIN}/media/a.json` })
    expect(down).toMatchObject({ ok: true, statusCode: 200, errMsg: 'downloadFile:ok' })
    expect(JSON.parse(fs.readFileSync(down.tempFilePath, 'utf8'))).toMatchObject({ path: '/media/a.json' })
  })

  test('with the domain check off (DevTools, "do not verify domain names"): http on the LAN is reached, relative still is not', async () => {
    h.state.urlCheck = false
    expect(await call('request', { url: `${origin}/ping` })).toMatchObject({ ok: true, statusCode: 200 })
    expect(await call('request', { url: '/ping' })).toMatchObject({ ok: false, errMsg: 'request:fail invalid url "/ping"' })
  })

  test('at most 10 at once: the others wait their turn and all are answered', async () => {
    most = 0
    h.state.maxInFlight = 0
    const all = await Promise.all(Array.from({ length: 16 }, (_, i) => call('request', { url: `${WEAPP_TEST_API_ORIGIN}/slow/${i}` })))
    expect(all.every(r => r.ok && r.statusCode === 200)).toBe(true)
    expect(h.state.maxInFlight).toBe(10)
    expect(most).toBeLessThanOrEqual(10)
  })
})

describe('storage', () => {
  beforeEach(() => wx.clearStorageSync())

  test('1 MB per key: a larger value throws and keeps the old one', () => {
    wx.setStorageSync('k', 'small')
    expect(() => wx.setStorageSync('k', 'x'.repeat(1024 * 1024 + 1))).toThrow(/setStorageSync:fail entry size limit/)
    expect(wx.getStorageSync('k')).toBe('small')
  })

  test('10 MB in all: the write that would pass it fails', async () => {
    const chunk = 'y'.repeat(1000 * 1000)
    for (let i = 0; i < 10; i++) wx.setStorageSync(`big${i}`, chunk)
    expect(() => wx.setStorageSync('one-more', chunk)).toThrow(/exceed storage max size 10MB/)
    expect(await call('setStorage', { key: 'one-more', data: chunk })).toMatchObject({ ok: false, errMsg: 'setStorage:fail exceed storage max size 10MB' })
    // replacing a key counts its new size, not both
    expect(() => wx.setStorageSync('big0', chunk)).not.toThrow()
  })

  test('a copy is stored, not the caller\'s object', () => {
    const o = { n: 1 }
    wx.setStorageSync('o', o)
    o.n = 2
    expect(wx.getStorageSync('o')).toEqual({ n: 1 })
    expect(wx.getStorageSync('missing')).toBe('')
  })
})

describe('the page stack', () => {
  test('at most 10 pages; a page not in app.json fails; back pops; redirect replaces', async () => {
    h.state.stack = [{ route: 'pages/login/index', options: {} }]
    expect(await call('navigateTo', { url: '/pagesA/nowhere/index' })).toMatchObject({ ok: false, errMsg: 'navigateTo:fail page "pagesA/nowhere/index" is not found' })
    for (let i = 0; i < 9; i++) expect(await call('navigateTo', { url: `/pagesA/blind_box_detail/index?seriesId=${i}` })).toMatchObject({ ok: true })
    expect(getCurrentPages()).toHaveLength(10)
    expect(getCurrentPages()[9]).toEqual({ route: 'pagesA/blind_box_detail/index', options: { seriesId: '8' } })
    expect(await call('navigateTo', { url: '/pagesA/home/index' })).toMatchObject({ ok: false, errMsg: 'navigateTo:fail webview count limit exceed' })
    expect(await call('redirectTo', { url: '/pagesA/home/index' })).toMatchObject({ ok: true })
    expect(getCurrentPages()).toHaveLength(10)
    expect(await call('navigateBack', { delta: 3 })).toMatchObject({ ok: true })
    expect(getCurrentPages()).toHaveLength(7)
    // no tab bar in this app: switchTab has nowhere to go
    expect(await call('switchTab', { url: '/pagesA/home/index' })).toMatchObject({ ok: false, errMsg: 'switchTab:fail can not switch to no-tabBar page' })
    expect(await call('reLaunch', { url: '/pagesA/home/index' })).toMatchObject({ ok: true })
    expect(getCurrentPages()).toEqual([{ route: 'pagesA/home/index', options: {} }])
  })
})

describe('setData and wx.login', () => {
  test('a setData over 1 MB is refused', async () => {
    h.state.urlCheck = true
    h.boot()
    const page = h.loadPage('pages/web_view/index', { doc: 'service' })
    await waitFor(() => expect(page.dom.textContent.length).toBeGreaterThan(0))
    expect(() => page.instance.setData({ blob: 'z'.repeat(1024 * 1024 + 10) })).toThrow(/exceeded max data size 1024KB/)
    expect(h.state.setDataRefused).toEqual([expect.objectContaining({ route: 'pages/web_view/index' })])
    expect(() => page.instance.setData({ small: 'ok' })).not.toThrow()
  })

  test('each wx.login code is new and code2session takes it once', async () => {
    const wechat = await startMiniProgram()
    try {
      h.state.wechat = wechat
      const a = await call('login')
      const b = await call('login')
      expect(a.code).not.toBe(b.code)
      const ask = (code) => new Promise((resolve, reject) => {
        http.get(`${wechat.url}/sns/jscode2session?appid=${wechat.appid}&secret=${wechat.secret}&js_code=${code}&grant_type=authorization_code`, res => {
          let t = ''
          res.on('data', c => { t += c })
          res.on('end', () => resolve(JSON.parse(t)))
        }).on('error', reject)
      })
      expect(await ask(a.code)).toMatchObject({ openid: wechat.user.openid })
      expect(await ask(a.code)).toMatchObject({ errcode: 40163 })
      expect(await ask('made-up')).toMatchObject({ errcode: 40029 })
      // without WeChat's servers (a tourist app id) the code is one no server accepts
      h.state.wechat = null
      const c = await call('login')
      expect(await ask(c.code)).toMatchObject({ errcode: 40029 })
    } finally {
      h.state.wechat = null
      await wechat.close()
    }
  })
})

test('wx.showModal refuses a button text over 4 characters (a Latin letter half), as WeChat does', async () => {
  const before = h.state.modals.length
  expect(await call('showModal', { content: 'x', confirmText: 'Publish anyway' })).toMatchObject({ ok: false, errMsg: 'showModal:fail confirmText length should not be larger than 4 Chinese characters' })
  expect(await call('showModal', { content: 'x', cancelText: '仍要取消上架' })).toMatchObject({ ok: false })
  expect(h.state.modals).toHaveLength(before)
  expect(await call('showModal', { content: 'x', confirmText: '仍要上架', cancelText: 'Go back' })).toMatchObject({ ok: true })
})

test('wx.openLocation takes a point and a scale within 5-18, as WeChat does', async () => {
  const before = h.state.openedLocations.length
  expect(await call('openLocation', { longitude: 116.3 })).toMatchObject({ ok: false, errMsg: 'openLocation:fail invalid latitude or longitude' })
  expect(await call('openLocation', { latitude: 39.9, longitude: 116.3, scale: 19 })).toMatchObject({ ok: false, errMsg: 'openLocation:fail scale should be within 5-18' })
  expect(await call('openLocation', { latitude: 39.9, longitude: 116.3, name: 5 })).toMatchObject({ ok: false })
  expect(h.state.openedLocations).toHaveLength(before)
  expect(await call('openLocation', { latitude: 39.9, longitude: 116.3, name: 'x', scale: 16 })).toMatchObject({ ok: true, errMsg: 'openLocation:ok' })
  expect(h.state.openedLocations.at(-1)).toMatchObject({ latitude: 39.9, longitude: 116.3, scale: 16 })
})

test('a map WeChat would not draw: no point, scale outside 3-20, a marker without a number id or an icon that loads, a line without points', () => {
  const good = { latitude: 39.9, longitude: 116.3, scale: 16, 'min-scale': 5, 'max-scale': 18, markers: [{ id: 1, latitude: 39.9, longitude: 116.3, iconPath: '/static/map/pin.png' }], polyline: [{ points: [{ latitude: 39.9, longitude: 116.3 }, { latitude: 39.91, longitude: 116.31 }] }] }
  expect(mapProblems(good, h.DIST)).toEqual([])
  expect(mapProblems({ ...good, latitude: undefined, scale: 2, markers: [{ id: '1', latitude: 39.9, longitude: 116.3, iconPath: '' }, { id: 2, latitude: 39.9, longitude: 116.3, iconPath: '/static/map/nope.png' }], polyline: [{ points: [{ latitude: 39.9 }] }] }, h.DIST)).toEqual([
    'latitude and longitude are required',
    'scale outside 3-20',
    'marker 1: id must be a number',
    'marker 1: iconPath is required',
    'marker 2: iconPath /static/map/nope.png does not load',
    'polyline points need latitude and longitude'
  ])
})

describe('subscription messages: wx.requestSubscribeMessage, and WeChat sending one', () => {
  test('only from a tap, 1 to 3 templates; an "accept" lets the server send one message of it, a second is refused', async () => {
    const mini = await startMiniProgram()
    try {
      h.state.wechat = mini
      mini.mint({ openid: 'o_subscribe_rules_01' })
      mini.user = { openid: 'o_subscribe_rules_01' }
      const id = mini.templates && Object.keys(mini.templates)[0]
      // outside a tap (e.g. on page load): refused
      const outside = await call('requestSubscribeMessage', { tmplIds: [id] })
      expect(outside).toMatchObject({ ok: false, errCode: 20001 })
      h.state.tapping = true
      try {
        expect(await call('requestSubscribeMessage', { tmplIds: [] })).toMatchObject({ ok: false, errCode: 10001 })
        expect(await call('requestSubscribeMessage', { tmplIds: ['a', 'b', 'c', 'd'] })).toMatchObject({ ok: false, errCode: 20003 })
        h.state.subscribeAnswers[id] = 'reject'
        expect(await call('requestSubscribeMessage', { tmplIds: [id] })).toMatchObject({ ok: true, [id]: 'reject' })
        expect(mini.consentsLeft('o_subscribe_rules_01', id)).toBe(0)
        h.state.subscribeAnswers[id] = 'accept'
        expect(await call('requestSubscribeMessage', { tmplIds: [id] })).toMatchObject({ ok: true, [id]: 'accept' })
      } finally { h.state.tapping = false }
      expect(mini.consentsLeft('o_subscribe_rules_01', id)).toBe(1)

      // WeChat's side (sendMessage's rules): a token first; the message spends the consent
      // (jsdom has no fetch: node's http)
      const ask = (url, body) => new Promise((resolve, reject) => {
        const req = http.request(url, { method: body === undefined ? 'GET' : 'POST' }, res => {
          const chunks = []
          res.on('data', c => chunks.push(c))
          res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))))
        })
        req.on('error', reject)
        req.end(body === undefined ? undefined : JSON.stringify(body))
      })
      const token = (await ask(`${mini.url}/cgi-bin/token?grant_type=client_credential&appid=${mini.appid}&secret=${mini.secret}`)).access_token
      const send = (body, t = token) => ask(`${mini.url}/cgi-bin/message/subscribe/send?access_token=${t}`, body)
      const data = { thing1: { value: '上海首发会' }, time2: { value: '2026年12月12日 14:00' }, thing3: { value: '上海 静安嘉里中心' }, thing4: { value: '活动即将开始' } }
      const good = { touser: 'o_subscribe_rules_01', template_id: id, page: 'pagesA/event/index?id=1', data }
      expect(await send(good, 'not-a-token')).toMatchObject({ errcode: 40001 })
      expect(await send({ ...good, touser: 'o_nobody' })).toMatchObject({ errcode: 40003 })
      expect(await send({ ...good, template_id: 'tmpl_unknown' })).toMatchObject({ errcode: 40037 })
      expect(await send({ ...good, data: { ...data, thing1: { value: '一'.repeat(21) } } })).toMatchObject({ errcode: 47003 })
      expect(await send({ ...good, data: { ...data, time2: { value: 'tomorrow' } } })).toMatchObject({ errcode: 47003 })
      expect(await send({ ...good, page: 'pagesA/nowhere/index' })).toMatchObject({ errcode: 47003 })
      expect(await send(good)).toMatchObject({ errcode: 0 })
      expect(await send(good)).toMatchObject({ errcode: 43101 })
      expect(mini.messages).toHaveLength(1)
    } finally {
      h.state.wechat = null
      await mini.close()
    }
  })

  test('the answers: ok result per template (accept, reject, ban, filter); an id WeChat has no template for, or no array, fails; each call recorded', async () => {
    const mini = await startMiniProgram()
    const before = h.state.subscribeRequests.length
    try {
      h.state.wechat = mini
      mini.user = { openid: 'o_subscribe_answers_01' }
      const ids = ['tmpl_a', 'tmpl_b', 'tmpl_c', 'tmpl_d']
      for (const id of ids) mini.templates[id] = ['thing1']
      Object.assign(h.state.subscribeAnswers, { tmpl_a: 'accept', tmpl_b: 'ban', tmpl_c: 'filter', tmpl_d: 'reject' })
      h.state.tapping = true
      try {
        const three = await call('requestSubscribeMessage', { tmplIds: ids.slice(0, 3) })
        expect(three).toEqual({ ok: true, errMsg: 'requestSubscribeMessage:ok', tmpl_a: 'accept', tmpl_b: 'ban', tmpl_c: 'filter' })
        expect(await call('requestSubscribeMessage', { tmplIds: ['tmpl_d'] })).toEqual({ ok: true, errMsg: 'requestSubscribeMessage:ok', tmpl_d: 'reject' })
        expect(await call('requestSubscribeMessage', { tmplIds: ['tmpl_a', 'tmpl_nowhere'] })).toMatchObject({ ok: false, errCode: 20001 })
        expect(await call('requestSubscribeMessage', { tmplIds: 'tmpl_a' })).toMatchObject({ ok: false, errCode: 10004 })
      } finally { h.state.tapping = false }
      // only the accepted template got a consent, for the phone's user
      expect(ids.map(id => mini.consentsLeft('o_subscribe_answers_01', id))).toEqual([1, 0, 0, 0])
      expect(h.state.subscribeRequests.slice(before).map(r => [r.tmplIds.length, r.inTap, Boolean(r.answer), r.error && r.error.errCode])).toEqual([
        [3, true, true, null], [1, true, true, null], [2, true, false, 20001], [0, true, false, 10004]
      ])
    } finally {
      for (const id of ['tmpl_a', 'tmpl_b', 'tmpl_c', 'tmpl_d']) delete h.state.subscribeAnswers[id]
      h.state.wechat = null
      await mini.close()
    }
  })
})
