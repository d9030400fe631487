/**
 * One rule for every map call (providers/mapAnswer.ts): a provider's success whose content is
 * malformed is reported exactly as its outage (HTTP 502, {code: 502, data: {provider}}), on every
 * call of both providers, never as a 200 with blanks; a success saying there is nothing for the input
 * (no address at the point, no route) is the handled 404 "nothing found" on every call, never a 5xx
 * (the point is the caller's); a search's empty list is an answer; an IP the provider says it cannot
 * place is an answer. The local fakes (test/support/providers/tencent.js,
 * amap.js) are made to answer empty through `fake.next`.
 */
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import * as tencent from '../support/providers/tencent'
import * as amap from '../support/providers/amap'

const BEIJING = '39.984154,116.30749'
const AT = { latitude: 39.984154, longitude: 116.30749 }
const THERE = { latitude: 39.976, longitude: 116.3176 }

const TENCENT_OK = (body: object) => ({ json: { status: 0, message: 'query ok', request_id: 'empty', ...body } })
const AMAP_OK = (body: object) => ({ json: { status: '1', info: 'OK', infocode: '10000', ...body } })

/** Each map call with the empty or unusable answers its provider could give it. */
const EMPTY: Array<{ path: string; body: object; provider: 'tencentMap' | 'amap'; answers: Array<{ json: object }>; nothing?: Array<{ json: object }> }> = [
  {
    path: '/api/geocoder', body: { location: BEIJING }, provider: 'tencentMap',
    answers: [TENCENT_OK({}), TENCENT_OK({ result: {} }), TENCENT_OK({ result: { location: { lat: 39.98, lng: 116.3 }, address: 7 } }), TENCENT_OK({ result: { address: '北京市海淀区' } })],
    nothing: [TENCENT_OK({ result: { location: { lat: 39.98, lng: 116.3 }, address: '' } })]
  },
  {
    path: '/api/geoaddress', body: { address: '北京市海淀区北四环西路66号' }, provider: 'tencentMap',
    answers: [TENCENT_OK({}), TENCENT_OK({ result: {} }), TENCENT_OK({ result: { title: '北四环西路66号', location: {} } })]
  },
  { path: '/api/mapsearch', body: { boundary: `nearby(${BEIJING})`, keyword: '地铁' }, provider: 'tencentMap', answers: [TENCENT_OK({}), TENCENT_OK({ data: {} })] },
  {
    path: '/api/driving', body: { from: AT, to: THERE }, provider: 'tencentMap',
    answers: [TENCENT_OK({}), TENCENT_OK({ result: {} }), TENCENT_OK({ result: { routes: {} } }), TENCENT_OK({ result: { routes: [{ polyline: [] }] } })],
    nothing: [TENCENT_OK({ result: { routes: [] } })]
  },
  { path: '/api/amap_geo', body: { address: '北京市朝阳区阜通东大街6号' }, provider: 'amap', answers: [AMAP_OK({}), AMAP_OK({ geocodes: '' })] },
  {
    path: '/api/amap_regeocode', body: AT, provider: 'amap',
    answers: [AMAP_OK({}), AMAP_OK({ regeocode: {} }), AMAP_OK({ regeocode: { formatted_address: { a: 1 }, addressComponent: {} } })],
    nothing: [AMAP_OK({ regeocode: { formatted_address: [], addressComponent: { province: [], city: [], district: [] } } })]
  },
  {
    path: '/api/amap_direction_driving', body: { origin: AT, destination: THERE }, provider: 'amap',
    answers: [AMAP_OK({}), AMAP_OK({ route: {} }), AMAP_OK({ route: { paths: '' } }), AMAP_OK({ count: '0', route: { paths: [{}] } })],
    nothing: [AMAP_OK({ route: { paths: [] } })]
  },
  { path: '/api/amap_ip_location', body: { ip: '101.6.6.6' }, provider: 'amap', answers: [AMAP_OK({}), AMAP_OK({ province: '北京市' })] }
]

describe.each(testDialects())('map answers on %s', (dialect) => {
  let tx: tencent.FakeTencent
  let am: amap.FakeAmap
  let t: TestApp
  let token: string
  beforeAll(async () => {
    tx = await tencent.start()
    am = await amap.start()
    t = await createTestApp(dialect, { env: { TENCENT_MAP_KEY: tencent.KEY, TENCENT_MAP_API_BASE: tx.url, AMAP_KEY: amap.KEY, AMAP_API_BASE: am.url } })
    const u = await makeUser(t.db, t.clock)
    token = await loginToken(t.app, u.user_name!, u.password)
  })
  afterAll(async () => { await t?.close(); await tx?.close(); await am?.close() })
  const call = (path: string, body: object, lang = 'en') => post(t.app, path, body, { token, ip: nextIp(), lang })

  test.each(EMPTY.filter(e => e.nothing))('$path: "nothing here" from the provider is the handled 404, the same on every call', async ({ path, body, provider, nothing }) => {
    const fake = provider === 'amap' ? am : tx
    for (const answer of nothing!) {
      fake.next = answer
      const r = await call(path, body)
      expect([JSON.stringify(answer.json), r.status, r.body]).toEqual([JSON.stringify(answer.json), 200,
        { code: 404, message: 'Nothing was found for this place or route; try another spot', data: { provider } }])
    }
  })

  test.each(EMPTY)('$path: a malformed answer is reported as the outage is', async ({ path, body, provider, answers }) => {
    const fake = provider === 'amap' ? am : tx
    // first, what the provider's outage looks like on this call
    fake.next = 'http500'
    const outage = await call(path, body)
    expect(outage.status).toBe(502)
    for (const answer of answers) {
      fake.next = answer
      const r = await call(path, body)
      expect([JSON.stringify(answer.json), r.status, r.body]).toEqual([JSON.stringify(answer.json), 502, outage.body])
    }
    expect(outage.body).toEqual({ code: 502, message: `${provider === 'amap' ? 'AMap' : 'Tencent location service'} is unavailable, please try again later`, data: { provider } })
    // and the call still answers when the provider does
    expect((await call(path, body)).body.code).toBe(200)
  })

  test('a search that found nothing is an answer: an empty list', async () => {
    tx.next = TENCENT_OK({ count: 0, data: [] })
    expect((await call('/api/mapsearch', { boundary: `nearby(${BEIJING})`, keyword: '火星' })).body).toMatchObject({ code: 200, data: { list: [], total: 0 } })
    am.next = AMAP_OK({ count: '0', geocodes: [] })
    expect((await call('/api/amap_geo', { address: '无此地址' })).body).toMatchObject({ code: 200, data: { list: [] } })
  })

  test('an IP address AMap says it cannot place is an answer (rectangle ""), as the offline database gives', async () => {
    am.next = AMAP_OK({ province: [], city: [], adcode: [], rectangle: [] })
    expect((await call('/api/amap_ip_location', { ip: '8.8.8.8' })).body).toMatchObject({ code: 200, data: { ip: '8.8.8.8', province: '', rectangle: '', source: 'amap' } })
  })

  test("a point AMap has no address for (its [] fields) is not an answer of blanks, nor a 5xx; Tencent's own 347 stays its refusal", async () => {
    // the fake answers as AMap does out at sea: formatted_address []
    const sea = await call('/api/amap_regeocode', { latitude: -60, longitude: -30 }, 'zh')
    expect(sea.status).toBe(200)
    expect(sea.body).toEqual({ code: 404, message: '这个位置没有查到地址或路线，换个地点试试', data: { provider: 'amap' } })
    expect((await call('/api/geocoder', { location: '-33.86,151.2' })).body).toEqual({ code: 422, message: '查询无结果', data: { provider: 'tencentMap', status: '347' } })
  })
})
