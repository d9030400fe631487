import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { reportError, buildReport } from '@/utils/errorReport'
import { resetInterceptors } from '@/services/request'

const posts: { url: string; body: any }[] = []
let server: http.Server
let base = ''

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const h = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*', 'Content-Type': 'application/json' }
    if (req.method === 'OPTIONS') { res.writeHead(204, h); res.end(); return }
    let b = ''
    req.on('data', c => { b += c })
    req.on('end', () => {
      posts.push({ url: req.url || '', body: JSON.parse(b) })
      res.writeHead(200, h)
      res.end(JSON.stringify({ code: 200, message: 'ok', data: null }))
    })
  })
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => { await new Promise(r => server.close(r)) })

let log: jest.SpyInstance
beforeEach(() => {
  posts.length = 0
  resetInterceptors()
  process.env.TARO_APP_API_BASE = `${base}/dev-api`
  process.env.TARO_APP_ID = 'shop-test'
  log = jest.spyOn(console, 'error').mockImplementation(() => undefined)
})
afterEach(() => {
  jest.restoreAllMocks()
  delete process.env.TARO_APP_ERROR_REPORT
  delete process.env.TARO_APP_ERROR_REPORT_URL
})

it('a report has exactly error_message, path, type, sub_source, app_id', () => {
  const r = buildReport(new Error('boom'), 'error')
  expect(Object.keys(r).sort()).toEqual(['app_id', 'error_message', 'path', 'sub_source', 'type'])
  expect(r).toMatchObject({ type: 'error', sub_source: 'h5', app_id: 'shop-test' })
  expect(r.error_message).toContain('boom')
})

it('is logged but not posted when reporting is off', async () => {
  await reportError(new Error('quiet'), 'error')
  expect(log).toHaveBeenCalledWith('[error]', expect.stringContaining('quiet'))
  await new Promise(r => setTimeout(r, 50))
  expect(posts).toHaveLength(0)
})

it('is posted to /error/report and the configured URL when enabled', async () => {
  process.env.TARO_APP_ERROR_REPORT = 'true'
  process.env.TARO_APP_ERROR_REPORT_URL = `${base}/collector`
  await reportError('rejected!', 'unhandledrejection')
  expect(posts.map(p => p.url).sort()).toEqual(['/collector', '/dev-api/error/report'])
  for (const p of posts) {
    expect(p.body).toEqual({ error_message: 'rejected!', path: expect.any(String), type: 'unhandledrejection', sub_source: 'h5', app_id: 'shop-test' })
  }
})

it('uncaught errors and unhandled rejections reach the reporter once installed', async () => {
  process.env.TARO_APP_ERROR_REPORT = 'true'
  const { installErrorReporting } = await import('@/utils/errorReport')
  installErrorReporting()
  window.dispatchEvent(new ErrorEvent('error', { error: new Error('uncaught one'), message: 'uncaught one' }))
  const ev = new Event('unhandledrejection') as Event & { reason?: unknown }
  ev.reason = new Error('lost promise')
  window.dispatchEvent(ev)
  await new Promise(r => setTimeout(r, 200))
  const messages = posts.map(p => p.body.error_message).join('\n')
  expect(messages).toContain('uncaught one')
  expect(messages).toContain('lost promise')
  expect(posts.map(p => p.body.type).sort()).toEqual(['error', 'unhandledrejection'])
})

it('stops posting past the per-minute cap but keeps logging', async () => {
  process.env.TARO_APP_ERROR_REPORT = 'true'
  const { MAX_REPORTS_PER_MINUTE } = await import('@/utils/errorReport')
  await Promise.all(Array.from({ length: MAX_REPORTS_PER_MINUTE + 5 }, (_, i) => reportError(`e${i}`, 'error')))
  expect(posts.length).toBeLessThanOrEqual(MAX_REPORTS_PER_MINUTE)
  expect(log.mock.calls.length).toBe(MAX_REPORTS_PER_MINUTE + 5)
})

it('a URL in the message leaves the device with its query values redacted, for both sinks', async () => {
  process.env.TARO_APP_ERROR_REPORT = 'true'
  process.env.TARO_APP_ERROR_REPORT_URL = `${base}/collector`
  // a new minute: the cap test above used this one up
  const later = Date.now() + 120000
  jest.spyOn(Date, 'now').mockReturnValue(later)
  await reportError(new Error('GET https://api.shop.test/dev-api/x?id=5&access_token=leaky failed'), 'error')
  expect(posts.map(p => p.url).sort()).toEqual(['/collector', '/dev-api/error/report'])
  for (const p of posts) {
    expect(JSON.stringify(p.body)).not.toContain('leaky')
    expect(p.body.error_message).toContain('/dev-api/x?id=5&access_token=***')
  }
  expect(log).toHaveBeenCalledWith('[error]', expect.not.stringContaining('leaky'))
})
