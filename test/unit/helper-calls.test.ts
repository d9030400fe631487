/**
 * Payload rules of the price comparison, ticket/flight and generic-call client functions
 * (src/services/bijia.ts, travel.ts, methods.ts): what each sends for what it is given, and the market
 * price prize_detail shows, built from the two price calls.
 */
import * as request from '@/services/request'
import { bijiaApi, marketPrice, normaliseKeyword } from '@/services/bijia'
import { travelApi, travelDay } from '@/services/travel'
import { callMethod, METHOD_NAMES } from '@/services/methods'
import { HELPER_METHOD_NAMES, PRICE_LIMITS } from '../../types/limits'

afterEach(() => { jest.restoreAllMocks() })

const capture = (answers: Record<string, unknown> = {}) => {
  const sent: Array<[string, unknown]> = []
  const fake = ((url: string, body: unknown) => { sent.push([url, body]); return Promise.resolve(answers[url] ?? {}) }) as never
  jest.spyOn(request, 'postRoute').mockImplementation(fake)
  jest.spyOn(request, 'post').mockImplementation(fake)
  return sent
}

test('price comparison: the keyword trimmed, spaces folded, control characters gone, cut to 60 characters; the page clamped', async () => {
  expect(normaliseKeyword('  星际 \t 旅人\u0000领航员\n ')).toBe('星际 旅人 领航员')
  expect(Array.from(normaliseKeyword('😀'.repeat(80)))).toHaveLength(PRICE_LIMITS.keywordMax)
  expect(normaliseKeyword(' \u0007 ')).toBe('')
  const sent = capture()
  await bijiaApi.spuSearch('  领航员  ')
  await bijiaApi.spuSearch('领航员', 3.7)
  await bijiaApi.spuSearch('领航员', 99)
  await bijiaApi.spuSearch('领航员', -1)
  await bijiaApi.spuGoods('123456')
  await bijiaApi.spuGoods('123456', '  款式1 ')
  expect(sent).toEqual([
    ['/api/bijia_spu_search', { keyword: '领航员' }],
    ['/api/bijia_spu_search', { keyword: '领航员', page: 3 }],
    ['/api/bijia_spu_search', { keyword: '领航员', page: 10 }],
    ['/api/bijia_spu_search', { keyword: '领航员' }],
    ['/api/bijia_spu_goods_search', { spuId: '123456' }],
    ['/api/bijia_spu_goods_search', { spuId: '123456', keyword: '款式1' }]
  ])
})

test('the market price: the first product\'s offers, lowest and median; null without a product or an offer, and no request for a blank name', async () => {
  const offers = [1000, 1500, 2600].map((priceCents, i) => ({ skuId: String(i), title: 't', shop: `s${i}`, priceCents, url: 'https://item.jd.com/1.html', image: '' }))
  let sent = capture({
    '/api/bijia_spu_search': { source: 'jd', asOf: '2026-03-01T08:00:00.000Z', page: 1, total: 3, list: [{ spuId: '77', name: '领航员 正版手办', image: '', lowestCents: 1000, offers: 3 }] },
    '/api/bijia_spu_goods_search': { source: 'jd', asOf: '2026-03-01T08:00:05.000Z', spuId: '77', offers, lowestCents: 1000, medianCents: 1500 }
  })
  expect(await marketPrice(' 领航员 ')).toEqual({ source: 'jd', asOf: '2026-03-01T08:00:05.000Z', product: '领航员 正版手办', lowestCents: 1000, medianCents: 1500, count: 3, offers })
  expect(sent.map(([url, body]) => [url, body])).toEqual([['/api/bijia_spu_search', { keyword: '领航员' }], ['/api/bijia_spu_goods_search', { spuId: '77' }]])
  jest.restoreAllMocks()
  sent = capture({ '/api/bijia_spu_search': { list: [] } })
  expect(await marketPrice('无货')).toBeNull()
  expect(await marketPrice('   ')).toBeNull()
  expect(sent).toHaveLength(1)
  jest.restoreAllMocks()
  capture({ '/api/bijia_spu_search': { list: [{ spuId: '1', name: 'x', image: '', lowestCents: 1, offers: 1 }] }, '/api/bijia_spu_goods_search': { offers: [], lowestCents: null, medianCents: null } })
  expect(await marketPrice('x')).toBeNull()
})

test('tickets and flights: stations without spaces, airports upper-cased, the day in China time', async () => {
  expect(travelDay(new Date('2026-03-01T15:59:59Z'))).toBe('2026-03-01')
  expect(travelDay(new Date('2026-03-01T16:00:00Z'))).toBe('2026-03-02')
  expect(travelDay('2026/3/2')).toBe('2026-03-02')
  expect(travelDay(' 2026.12.31 ')).toBe('2026-12-31')
  expect(travelDay('tomorrow')).toBe('tomorrow') // left for the server to name the field
  const sent = capture()
  await travelApi.tickets(' 上海 虹桥 ', '北京南', '2026/3/2')
  await travelApi.flights(' sha', 'pek ', new Date('2026-03-01T20:00:00Z'))
  expect(sent).toEqual([
    ['/api/queryTickets', { from: '上海虹桥', to: '北京南', date: '2026-03-02' }],
    ['/api/queryFlight', { from: 'SHA', to: 'PEK', date: '2026-03-02' }]
  ])
})

test('the generic call: the contract\'s allow-list, the name in the path, nothing sent for another name', async () => {
  expect(METHOD_NAMES).toBe(HELPER_METHOD_NAMES)
  const sent = capture({ '/api/serverTime': { now: 'x', timeZone: 'Asia/Shanghai', today: '2026-03-01' } })
  expect(await callMethod('serverTime')).toMatchObject({ today: '2026-03-01' })
  await callMethod('helperFeatures')
  for (const bad of ['__proto__', 'constructor', '../serverTime', 'ServerTime']) {
    await expect(callMethod(bad as 'serverTime')).rejects.toThrow('unknown method')
  }
  expect(sent).toEqual([['/api/serverTime', {}], ['/api/helperFeatures', {}]])
})
