/**
 * Every branch of the request client, over the real H5 transport (Taro.request -> fetch -> jsdom's
 * XMLHttpRequest) against a real HTTP server on 127.0.0.1.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Taro from '@tarojs/taro'
import { call, request, rawRequest, buildUrl, errorMessage, resetInterceptors } from '@/services/request'
import { ApiError, RequestError, normaliseTransportError } from '@/services/errors'
import { tokenStorage } from '@/services/token'
import { buildReport } from '@/utils/errorReport'
import { uploadFileObject, UploadError } from '@/services/upload'
import { browser } from '@/utils/browser'
import { localeStore } from '@/stores/locale'
import { REQUEST_TIMEOUT_MS, TOKEN_KEY } from '@/constants'

interface Seen { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }
const seen: Seen[] = []
let server: http.Server
let base = ''

const ROUTES: Record<string, (res: http.ServerResponse) => void> = {
  '/dev-api/ok': res => json(res, 200, { code: 200, message: 'ok', data: { n: 1 } }),
  '/dev-api/body401': res => json(res, 200, { code: 401, message: '请先登录', data: null }),
  '/dev-api/body403': res => json(res, 200, { code: 403, message: '无权访问', data: null }),
  '/dev-api/body409': res => json(res, 200, { code: 409, message: '已售出', data: { slot: 3 } }),
  // the server names each answer's request (X-Request-Id); a cross-origin page reads it only when exposed
  '/dev-api/body409id': res => { res.writeHead(200, cors({ 'Content-Type': 'application/json', 'X-Request-Id': 'req-409-abcdef', 'Access-Control-Expose-Headers': 'X-Request-Id' })); res.end(JSON.stringify({ code: 409, message: '已售出', data: null })) },
  '/dev-api/http500id': res => { res.writeHead(500, cors({ 'Content-Type': 'application/json', 'X-Request-Id': 'req-500-abcdef', 'Access-Control-Expose-Headers': 'X-Request-Id' })); res.end('{}') },
  '/dev-api/http401': res => json(res, 401, { code: 401, message: 'no' }),
  '/dev-api/http404': res => json(res, 404, {}),
  '/dev-api/http500': res => json(res, 500, {}),
  '/dev-api/notjson': res => { res.writeHead(200, cors({ 'Content-Type': 'text/html' })); res.end('<html>') },
  '/dev-api/slow': () => { /* never answers */ },
  '/report': res => json(res, 200, { received: true })
}

function cors (h: Record<string, string> = {}) {
  return { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*', 'Access-Control-Allow-Methods': '*', ...h }
}
function json (res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, cors({ 'Content-Type': 'application/json' }))
  res.end(JSON.stringify(body))
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.method === 'OPTIONS') { res.writeHead(204, cors()); res.end(); return }
    let body = ''
    req.on('data', c => { body += c })
    req.on('end', () => {
      const path = (req.url || '').split('?')[0]
      seen.push({ method: req.method || '', url: req.url || '', headers: req.headers, body })
      const route = ROUTES[path]
      if (route) route(res)
      else json(res, 200, { code: 404, message: 'not found', data: null })
    })
  })
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise(r => server.close(r))
})

let toast: jest.SpyInstance, relaunch: jest.SpyInstance, assign: jest.SpyInstance
beforeEach(() => {
  seen.length = 0
  process.env.TARO_APP_API_BASE = `${base}/dev-api`
  process.env.TARO_APP_ID = 'shop-test'
  process.env.TARO_APP_TYPE = 'h5'
  process.env.TARO_APP_ENV = 'test'
  localeStore.setLocale('zh')
  Taro.clearStorageSync()
  resetInterceptors()
  toast = jest.spyOn(Taro, 'showToast').mockImplementation(() => Promise.resolve({ errMsg: 'ok' }) as never)
  relaunch = jest.spyOn(Taro, 'reLaunch').mockImplementation(() => Promise.resolve({ errMsg: 'ok' }) as never)
  assign = jest.spyOn(browser, 'assign').mockImplementation(() => undefined)
})
afterEach(() => {
  jest.restoreAllMocks()
  jest.useRealTimers()
  delete process.env.TARO_APP_API_BASE
})

describe('request decoration', () => {
  it('sends JSON with the configured headers and no token when none is stored', async () => {
    const body = await request({ url: '/ok', method: 'POST', data: { a: 1 } })
    expect(body).toEqual({ code: 200, message: 'ok', data: { n: 1 } })
    const s = seen[0]
    expect(s.method).toBe('POST')
    expect(JSON.parse(s.body)).toEqual({ a: 1 })
    expect(s.headers['content-type']).toContain('application/json')
    expect(s.headers.app_id).toBe('shop-test')
    expect(s.headers.app_type).toBe('h5')
    expect(s.headers.x_env).toBe('test')
    expect(s.headers['accept-language']).toBe('zh-CN')
    expect(s.headers.authorization).toBeUndefined()
  })

  it('adds Authorization: Bearer when a token is stored under h5_token', async () => {
    Taro.setStorageSync(TOKEN_KEY, 'tok-123')
    await request({ url: '/ok' })
    expect(seen[0].headers.authorization).toBe('Bearer tok-123')
  })

  it('sends GET data as the query string', async () => {
    await request({ url: '/ok', data: { phone: '13800000000' } })
    expect(seen[0].url).toBe('/dev-api/ok?phone=13800000000')
  })

  it('never sends the token to an external URL', async () => {
    Taro.setStorageSync(TOKEN_KEY, 'tok-123')
    const res = await rawRequest({ url: `${base}/report`, method: 'POST', data: {}, external: true })
    expect(res.data).toEqual({ received: true })
    expect(seen[0].headers.authorization).toBeUndefined()
  })

  it('takes its base from configuration, default /dev-api', () => {
    delete process.env.TARO_APP_API_BASE
    expect(buildUrl('/login/passwd')).toBe('/dev-api/login/passwd')
    expect(buildUrl('getUserInfo')).toBe('/dev-api/getUserInfo')
    process.env.TARO_APP_API_BASE = 'https://shop.example.com/api/'
    expect(buildUrl('/x')).toBe('https://shop.example.com/api/x')
    expect(buildUrl('https://other.example.com/y')).toBe('https://other.example.com/y')
  })
})

describe('responses', () => {
  it('call() unwraps data; a body code other than 200 rejects with ApiError carrying code and message', async () => {
    await expect(call({ url: '/ok' })).resolves.toEqual({ n: 1 })
    const err = await call({ url: '/body409' }).catch(e => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({ code: 409, message: '已售出', data: { slot: 3 } })
    expect(errorMessage(err)).toBe('已售出')
  })

  it('a failure carries the X-Request-Id of its answer, refused (ApiError) or failed (RequestError), and an error report names it', async () => {
    const refused = await call({ url: '/body409id' }).catch(e => e) as ApiError
    expect(refused).toBeInstanceOf(ApiError)
    expect(refused.requestId).toBe('req-409-abcdef')
    const failed = await call({ url: '/http500id', quiet: true }).catch(e => e) as RequestError
    expect(failed).toBeInstanceOf(RequestError)
    expect(failed.requestId).toBe('req-500-abcdef')
    expect(buildReport(refused, 'unhandledrejection').request_id).toBe('req-409-abcdef')
    // an error from no request names none; an id that is not one is left out
    expect(buildReport(new Error('x'), 'error').request_id).toBeUndefined()
    expect(buildReport(Object.assign(new Error('x'), { requestId: 'bad id' }), 'error').request_id).toBeUndefined()
  })

  it.each(['/body401', '/body403'])('body code in %s clears the token and goes to /pages/login/index', async (url) => {
    Taro.setStorageSync(TOKEN_KEY, 'tok')
    const cleared = jest.fn()
    const off = tokenStorage.subscribe(cleared)
    const err = await request({ url }).catch(e => e)
    off()
    expect(err).toBeInstanceOf(ApiError)
    expect(Taro.getStorageSync(TOKEN_KEY)).toBe('')
    expect(cleared).toHaveBeenCalledWith('')
    // on H5 the browser loads the login page (a reLaunch could leave a mounting page on screen)
    expect(assign).toHaveBeenCalledWith('/pages/login/index')
    expect(relaunch).not.toHaveBeenCalled()
  })

  it('several calls answered 401 at once (a page loading after its session ended) go to the login page once', async () => {
    Taro.setStorageSync(TOKEN_KEY, 'tok')
    const errs = await Promise.all(['/body401', '/body401', '/body403'].map(url => request({ url }).catch(e => e)))
    expect(errs.every(e => e instanceof ApiError)).toBe(true)
    expect(assign).toHaveBeenCalledTimes(1)
  })

  it.each(['/body401', '/body403'])('an upload answered with body code %s ends the session as a request does', async (url) => {
    Taro.setStorageSync(TOKEN_KEY, 'tok')
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'a.png', { type: 'image/png' })
    const err = await uploadFileObject(file, url).catch(e => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err.code).toBe(url === '/body401' ? 401 : 403)
    // sent as a form with the token, then the token is gone and the login page loads
    expect(seen[0]).toMatchObject({ method: 'POST', url: `/dev-api${url}` })
    expect(seen[0].headers.authorization).toBe('Bearer tok')
    expect(seen[0].headers['content-type']).toMatch(/^multipart\/form-data/)
    expect(Taro.getStorageSync(TOKEN_KEY)).toBe('')
    expect(assign).toHaveBeenCalledWith('/pages/login/index')
  })

  it('an upload answered HTTP 401 goes to the app base; other failures keep the session and say the upload failed', async () => {
    Taro.setStorageSync(TOKEN_KEY, 'tok')
    const file = () => new File([new Uint8Array([137, 80, 78, 71])], 'a.png', { type: 'image/png' })
    const err = await uploadFileObject(file(), '/http401').catch(e => e)
    expect(err).toBeInstanceOf(RequestError)
    expect(Taro.getStorageSync(TOKEN_KEY)).toBe('')
    expect(assign).toHaveBeenCalledWith('/')
    Taro.setStorageSync(TOKEN_KEY, 'tok')
    for (const url of ['/http500', '/notjson']) {
      const e = await uploadFileObject(file(), url).catch(x => x)
      expect(e).toBeInstanceOf(UploadError)
      expect(e.reason).toBe('failed')
    }
    expect(Taro.getStorageSync(TOKEN_KEY)).toBe('tok')
    const conflict = await uploadFileObject(file(), '/body409').catch(x => x)
    expect(conflict).toMatchObject({ code: 409, message: '已售出' })
    expect(Taro.getStorageSync(TOKEN_KEY)).toBe('tok')
  })

  it('HTTP 401 clears the token and goes to the app base', async () => {
    Taro.setStorageSync(TOKEN_KEY, 'tok')
    const err = await request({ url: '/http401' }).catch(e => e)
    expect(err).toBeInstanceOf(RequestError)
    expect(err.message).toBe('Request failed with status code 401')
    expect(Taro.getStorageSync(TOKEN_KEY)).toBe('')
    expect(assign).toHaveBeenCalledWith('/')
    expect(toast).not.toHaveBeenCalled()
  })

  it.each([
    ['/http404', 404, 'ERR_BAD_REQUEST'],
    ['/http500', 500, 'ERR_BAD_RESPONSE']
  ])('other HTTP errors (%s) toast 网络异常，请稍后再试! and reject', async (url, status, code) => {
    Taro.setStorageSync(TOKEN_KEY, 'keep')
    const err = await request({ url }).catch(e => e)
    expect(err).toBeInstanceOf(RequestError)
    expect(err).toMatchObject({ code, status, message: `Request failed with status code ${status}` })
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: '网络异常，请稍后再试!' }))
    expect(Taro.getStorageSync(TOKEN_KEY)).toBe('keep')
  })

  it('a 2xx body that is not {code, message, data} is a bad response', async () => {
    const err = await request({ url: '/notjson' }).catch(e => e)
    expect(err).toMatchObject({ code: 'ERR_BAD_RESPONSE' })
  })
})

describe('transport failures', () => {
  it('an unreachable server is ERR_NETWORK "Network Error"', async () => {
    const closed = http.createServer()
    await new Promise<void>(r => closed.listen(0, '127.0.0.1', r))
    const port = (closed.address() as AddressInfo).port
    await new Promise(r => closed.close(r))
    process.env.TARO_APP_API_BASE = `http://127.0.0.1:${port}`
    const err = await request({ url: '/ok' }).catch(e => e)
    expect(err).toMatchObject({ code: 'ERR_NETWORK', message: 'Network Error' })
    expect(errorMessage(err)).toBe('网络异常，请稍后再试!')
  })

  it("a chunk of the app that did not arrive is told as the network's failure, not in webpack's words", () => {
    // as webpack 5's chunk loading builds it (webpack/lib/web/JsonpChunkLoadingRuntimeModule.js: error.name = 'ChunkLoadError')
    const err = new Error('Loading chunk 4321 failed.\n(error: http://127.0.0.1:3000/js/wechat-oauth.1234abcd.js)')
    err.name = 'ChunkLoadError'
    expect(errorMessage(err)).toBe('网络异常，请稍后再试!')
    // another error keeps its own message
    expect(errorMessage(new Error('Loading chunk is a phrase'))).toBe('Loading chunk is a phrase')
  })

  it('a request slower than its timeout is ECONNABORTED', async () => {
    const err = await request({ url: '/slow', timeout: 150 }).catch(e => e)
    expect(err).toMatchObject({ code: 'ECONNABORTED', message: 'timeout of 150ms exceeded' })
  })

  it('the default timeout is 50 s', async () => {
    expect(REQUEST_TIMEOUT_MS).toBe(50000)
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] })
    let outcome: unknown = 'pending'
    const p = request({ url: '/slow' }).catch(e => { outcome = e })
    await jest.advanceTimersByTimeAsync(49999)
    expect(outcome).toBe('pending')
    await jest.advanceTimersByTimeAsync(2)
    await p
    expect(outcome).toMatchObject({ code: 'ECONNABORTED', message: 'timeout of 50000ms exceeded' })
  })

  it('a cancelled request is ERR_CANCELED, before and during the call', async () => {
    const before = new AbortController()
    before.abort()
    await expect(request({ url: '/ok', signal: before.signal })).rejects.toMatchObject({ code: 'ERR_CANCELED', message: 'canceled' })
    const during = new AbortController()
    const p = request({ url: '/slow', signal: during.signal })
    setTimeout(() => during.abort(), 30)
    await expect(p).rejects.toMatchObject({ code: 'ERR_CANCELED' })
  })

  it.each([
    [{ errMsg: 'request:fail timeout' }, 'ETIMEDOUT'],
    [{ errMsg: 'request:fail abort' }, 'ERR_CANCELED'],
    [{ errMsg: 'request:fail net::ERR_CONNECTION_REFUSED' }, 'ERR_NETWORK'],
    [Object.assign(new Error('The user aborted a request.'), { name: 'AbortError' }), 'ERR_CANCELED'],
    [new TypeError('Failed to fetch'), 'ERR_NETWORK'],
    [new Error('Unknown adapter'), 'ERR_BAD_REQUEST']
  ])('normalises platform failure %p to %s', (raw, code) => {
    expect(normaliseTransportError(raw).code).toBe(code)
  })
})
