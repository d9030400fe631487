/**
 * Countdowns by the server's clock (src/utils/serverClock.ts, useTimeLeft): the offset from one
 * POST /api/serverTime over the real request client to a local server whose clock is ten minutes
 * ahead of the device's; a hold shown with the time left by that clock; the device's clock until the
 * server answers or when it cannot.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { act, render } from '@testing-library/react'
import { createElement } from 'react'
import Taro from '@tarojs/taro'
import { resetInterceptors } from '@/services/request'
import { offsetFrom, resetServerClock, serverNow, syncServerClock } from '@/utils/serverClock'
import { clockText, useTimeLeft } from '@/utils/useTimeLeft'

const AHEAD_MS = 10 * 60 * 1000
let server: http.Server
let calls = 0
let answering = true

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*', 'Access-Control-Allow-Methods': '*' }
    if (req.method === 'OPTIONS') { res.writeHead(204, cors); res.end(); return }
    req.resume()
    req.on('end', () => {
      if (req.url !== '/dev-api/api/serverTime') { res.writeHead(404, cors); res.end(); return }
      calls++
      if (!answering) { res.writeHead(500, cors); res.end('{}'); return }
      res.writeHead(200, { ...cors, 'Content-Type': 'application/json' })
      res.end(JSON.stringify({ code: 200, message: 'ok', data: { now: new Date(Date.now() + AHEAD_MS).toISOString(), timeZone: 'Asia/Shanghai', today: '2026-11-24' } }))
    })
  })
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
  process.env.TARO_APP_API_BASE = `http://127.0.0.1:${(server.address() as AddressInfo).port}/dev-api`
  resetInterceptors()
})
afterAll(async () => {
  delete process.env.TARO_APP_API_BASE
  server.closeAllConnections()
  await new Promise(r => server.close(r))
})
beforeEach(() => { resetServerClock(); calls = 0; answering = true })

test('the offset is the server\'s time less the middle of the round trip', () => {
  expect(offsetFrom(1000, 1200, new Date(61100).toISOString())).toBe(60000)
  expect(offsetFrom(1000, 1200, 'not a time')).toBe(0)
})

test('one sync per start measures the server ten minutes ahead; a failed one is tried again', async () => {
  answering = false
  const toast = jest.spyOn(Taro, 'showToast').mockImplementation(() => Promise.resolve({ errMsg: 'ok' }) as never)
  await syncServerClock()
  expect(Math.abs(serverNow() - Date.now())).toBeLessThan(1000)
  // in the background: no "network error" for the shopper
  expect(toast).not.toHaveBeenCalled()
  toast.mockRestore()
  answering = true
  await Promise.all([syncServerClock(), syncServerClock()])
  expect(calls).toBe(2)
  expect(Math.abs(serverNow() - Date.now() - AHEAD_MS)).toBeLessThan(2000)
  await syncServerClock()
  expect(calls).toBe(2)
})

function Hold ({ until, most }: { until: string; most?: number }) {
  const left = useTimeLeft(until, most)
  return createElement('span', { 'data-testid': 'left' }, left > 0 ? clockText(left) : 'over')
}

test('a hold ending five minutes after the server\'s now shows 5:00 left, though the device\'s clock says fifteen', async () => {
  const until = new Date(Date.now() + AHEAD_MS + 5 * 60 * 1000).toISOString()
  const view = render(createElement(Hold, { until }))
  // before the server answers: the device's clock (about fifteen minutes)
  expect(view.getByTestId('left').textContent).toMatch(/^1[45]:\d\d$/)
  await act(async () => { await syncServerClock() })
  await act(async () => { await new Promise(r => setTimeout(r, 1100)) })
  expect(view.getByTestId('left').textContent).toMatch(/^4:5\d|5:00$/)
  view.unmount()
})

test('a turn never shows more than its length, though the device\'s estimate of the server\'s clock is behind', async () => {
  await syncServerClock()
  // a one-minute turn that began now by the server's clock, as the device's estimate may place it:
  // 60.8 s ahead reads 1:01 by that estimate alone
  const until = new Date(serverNow() + 60_800).toISOString()
  const view = render(createElement(Hold, { until, most: 60 }))
  expect(view.getByTestId('left').textContent).toBe('1:00')
  view.unmount()
  const uncapped = render(createElement(Hold, { until }))
  expect(uncapped.getByTestId('left').textContent).toBe('1:01')
  uncapped.unmount()
})

test('a hold already over by the server\'s clock says so', async () => {
  await syncServerClock()
  const until = new Date(Date.now() + AHEAD_MS - 1000).toISOString()
  const view = render(createElement(Hold, { until }))
  expect(view.getByTestId('left').textContent).toBe('over')
  view.unmount()
})

test('clock text', () => {
  expect(clockText(272)).toBe('4:32')
  expect(clockText(59)).toBe('0:59')
  expect(clockText(3725)).toBe('1:02:05')
})
