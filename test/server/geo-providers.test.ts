/**
 * Maps (types/geo.ts): the Tencent location service and AMap adapters against local fakes that speak
 * their documented APIs (test/support/providers), the offline IP location, spec 5's checks and
 * messages, refusals and outages, 401 without login, not configured, and the per-user limit.
 */
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import * as tencent from '../support/providers/tencent'
import * as amap from '../support/providers/amap'
import { md5 } from '../support/providers/http'
import { decompressPolyline, tencentSig, TencentMapClient } from '../../server/src/providers/tencentMap'
import { ProviderUnavailableError } from '../../server/src/providers/errors'
import { parseLatLng, parseNearby } from '../../server/src/routes/geo'
import { RULES } from '../../server/src/security/rules'

const BEIJING = '39.984154,116.30749'

describe('Tencent helpers', () => {
  test('decompressPolyline: numbers after the first two are differences times 1e6 from the one two places before', () => {
    const flat = [39.984154, 116.30749, 39.984054, 116.30769, 39.983, 116.31]
    expect(tencent.compress(flat)).toEqual([39.984154, 116.30749, -100, 200, -1054, 2310])
    const back = decompressPolyline(tencent.compress(flat))
    back.forEach((v, i) => expect(v).toBeCloseTo(flat[i], 6))
    expect(decompressPolyline([])).toEqual([])
  })

  test('tencentSig: md5 of path, "?", the parameters sorted by name unencoded, and the SK', () => {
    const sig = tencentSig('/ws/geocoder/v1', { location: '28.7033487,115.8660847', key: 'K' }, 'SK1')
    expect(sig).toBe(md5('/ws/geocoder/v1?key=K&location=28.7033487,115.8660847SK1'))
  })

  test("parseLatLng and parseNearby: 'lat,lng', nearby(lat,lng[,radius]) with the default and bounds of the radius", () => {
    expect(parseLatLng(' 39.9 , 116.3 ')).toEqual({ latitude: 39.9, longitude: 116.3 })
    for (const bad of [undefined, '', '39.9', '91,0', '0,181', 'a,b', '1,2,3', '1e3,2']) expect(parseLatLng(bad)).toBeNull()
    expect(parseNearby('nearby(39.9,116.3)')).toEqual({ latitude: 39.9, longitude: 116.3, radius: 1000 })
    expect(parseNearby('nearby(39.9,116.3,5000)')).toEqual({ latitude: 39.9, longitude: 116.3, radius: 5000 })
    expect(parseNearby('nearby(39.9,116.3,1,1)')!.radius).toBe(10)
    expect(parseNearby('nearby(39.9,116.3,999999)')!.radius).toBe(50000)
    for (const bad of [undefined, '', 'nearby()', 'nearby(39.9)', 'region(北京)', 'nearby(99,116.3,10)']) expect(parseNearby(bad)).toBeNull()
  })
})

describe.each(testDialects())('maps on %s', (dialect) => {
  let tx: tencent.FakeTencent
  let am: amap.FakeAmap
  let t: TestApp
  let bare: TestApp
  let token: string
  let bareToken: string

  beforeAll(async () => {
    tx = await tencent.start({ sk: tencent.SK })
    am = await amap.start()
    t = await createTestApp(dialect, {
      env: {
        TENCENT_MAP_KEY: tencent.KEY, TENCENT_MAP_SK: tencent.SK, TENCENT_MAP_API_BASE: tx.url,
        AMAP_KEY: amap.KEY, AMAP_API_BASE: am.url
      }
    })
    bare = await createTestApp(dialect)
    const u = await makeUser(t.db, t.clock)
    token = await loginToken(t.app, u.user_name!, u.password)
    const b = await makeUser(bare.db, bare.clock)
    bareToken = await loginToken(bare.app, b.user_name!, b.password)
  })
  afterAll(async () => {
    await t.close()
    await bare.close()
    await tx.close()
    await am.close()
  })

  const call = (path: string, body: unknown, o: { lang?: string; ip?: string; app?: TestApp; token?: string } = {}) =>
    post((o.app ?? t).app, path, body, { token: o.token ?? token, ip: o.ip ?? nextIp(), ...(o.lang ? { lang: o.lang } : {}) })
  const lastTencent = () => tx.calls[tx.calls.length - 1]
  const lastAmap = () => am.calls[am.calls.length - 1]

  test('geocoder: Tencent reverse geocoding, signed with the SK; region and detail for an address form', async () => {
    const r = await call('/api/geocoder', { location: BEIJING })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ code: 200 })
    expect(r.body.data).toEqual({
      latitude: 39.984154, longitude: 116.30749,
      address: '北京市海淀区北四环西路66号',
      recommend: '海淀区中关村中国技术交易大厦(彩和坊路)',
      region: { province: '北京市', city: '北京市', district: '海淀区' },
      detail: '北四环西路66号',
      street: '北四环西路', streetNumber: '北四环西路66号', adcode: '110108', nation: '中国'
    })
    const sent = lastTencent()
    expect(sent.path).toBe('/ws/geocoder/v1')
    expect(sent.query).toMatchObject({ location: BEIJING, key: tencent.KEY })
    const { sig, ...rest } = sent.query
    expect(sig).toBe(tencentSig('/ws/geocoder/v1', rest, tencent.SK))
  })

  test('geocoder: without both coordinates, 400 "Missing latitude or longitude" on location (zh too)', async () => {
    for (const body of [{}, { location: '' }, { location: '39.98' }, { location: 'north,east' }, { location: '91,116' }]) {
      const r = await call('/api/geocoder', body)
      expect(r.body).toEqual({ code: 400, message: 'Missing latitude or longitude', data: { field: 'location' } })
    }
    expect((await call('/api/geocoder', {}, { lang: 'zh' })).body.message).toBe('缺少纬度或经度')
    expect((await call('/api/geocoder', { location: BEIJING, extra: 1 })).body).toMatchObject({ code: 400, data: { field: 'extra' } })
  })

  test("geocoder: a non-zero status answers Tencent's own message (422), whatever the language", async () => {
    const far = await call('/api/geocoder', { location: '-33.86,151.2' })
    expect(far.body).toEqual({ code: 422, message: '查询无结果', data: { provider: 'tencentMap', status: '347' } })
    tx.next = { json: { status: 120, message: '此key每秒请求量已达到上限' } }
    const busy = await call('/api/geocoder', { location: BEIJING }, { lang: 'en' })
    expect(busy.body).toEqual({ code: 422, message: '此key每秒请求量已达到上限', data: { provider: 'tencentMap', status: '120' } })
  })

  test('a wrong SK is refused by Tencent (111) and reported as its message', async () => {
    const wrong = await createTestApp(dialect, { env: { TENCENT_MAP_KEY: tencent.KEY, TENCENT_MAP_SK: 'WrongSecret123', TENCENT_MAP_API_BASE: tx.url } })
    try {
      const u = await makeUser(wrong.db, wrong.clock)
      const tok = await loginToken(wrong.app, u.user_name!, u.password)
      const r = await call('/api/geocoder', { location: BEIJING }, { app: wrong, token: tok })
      expect(r.body).toEqual({ code: 422, message: '签名验证失败', data: { provider: 'tencentMap', status: '111' } })
    } finally {
      await wrong.close()
    }
  })

  test('an outage (HTTP error, not JSON, no answer in time) is HTTP 502 naming the provider', async () => {
    for (const trouble of ['http500', 'garbage'] as const) {
      tx.next = trouble
      const r = await call('/api/geocoder', { location: BEIJING })
      expect(r.status).toBe(502)
      expect(r.body).toEqual({ code: 502, message: 'Tencent location service is unavailable, please try again later', data: { provider: 'tencentMap' } })
    }
    tx.next = { json: { message: 'no status at all' } }
    expect((await call('/api/geocoder', { location: BEIJING })).body).toMatchObject({ code: 502 })
    // a provider that never answers: the adapter gives up after its time limit
    const slow = new TencentMapClient({ key: tencent.KEY, sk: tencent.SK }, tx.url, 300)
    tx.next = 'hang'
    await expect(slow.reverseGeocode(39.98, 116.3)).rejects.toBeInstanceOf(ProviderUnavailableError)
  })

  test('geoaddress: an address to its point; "Missing address" without one; 347 when Tencent finds nothing', async () => {
    const r = await call('/api/geoaddress', { address: '北京市海淀区北四环西路66号' })
    expect(r.body.data).toEqual({
      latitude: 39.984154, longitude: 116.30749, title: '北四环西路66号',
      region: { province: '北京市', city: '北京市', district: '海淀区' }, detail: '北四环西路66号',
      street: '北四环西路', streetNumber: '北四环西路66号', adcode: '110108', reliability: 7, level: 9
    })
    expect(lastTencent().query.address).toBe('北京市海淀区北四环西路66号')
    for (const body of [{}, { address: '' }, { address: '   ' }]) {
      expect((await call('/api/geoaddress', body)).body).toEqual({ code: 400, message: 'Missing address', data: { field: 'address' } })
    }
    expect((await call('/api/geoaddress', {}, { lang: 'zh' })).body.message).toBe('缺少地址')
    expect((await call('/api/geoaddress', { address: '火星基地' })).body).toMatchObject({ code: 422, message: '查询无结果' })
  })

  test('mapsearch: places by keyword near a point; location.lat/lng become latitude/longitude; radius default 1000', async () => {
    const r = await call('/api/mapsearch', { boundary: `nearby(${BEIJING})`, keyword: '地铁' })
    expect(r.body.code).toBe(200)
    expect(lastTencent().path).toBe('/ws/place/v1/search')
    expect(lastTencent().query).toMatchObject({ keyword: '地铁', boundary: `nearby(${BEIJING},1000,1)`, page_size: '20', page_index: '1' })
    const { list, total } = r.body.data
    expect(total).toBe(2)
    expect(list.map((p: { title: string }) => p.title)).toEqual(['中关村(地铁站)', '海淀黄庄(地铁站)'])
    expect(list[0]).toEqual({
      id: '4622718285442930542', title: '中关村(地铁站)', address: '地铁4号线', category: '基础设施:交通设施:地铁站',
      latitude: 39.9839, longitude: 116.3165, distance: expect.any(Number),
      region: { province: '北京市', city: '北京市', district: '海淀区' }, adcode: '110108'
    })
    expect(list[0].distance).toBeGreaterThan(700)
    expect(list[0].distance).toBeLessThan(800)
  })

  test('mapsearch: without a keyword the places around (explore); paging; the radius is kept within 10-50,000 m', async () => {
    const around = await call('/api/mapsearch', { boundary: `nearby(${BEIJING},5000)`, page: 2, pageSize: 2 })
    expect(lastTencent().path).toBe('/ws/place/v1/explore')
    expect(lastTencent().query).toMatchObject({ boundary: `nearby(${BEIJING},5000,1)`, page_size: '2', page_index: '2', policy: '1' })
    expect(around.body.data.total).toBe(6)
    expect(around.body.data.list).toHaveLength(2)
    await call('/api/mapsearch', { boundary: `nearby(${BEIJING},900000)`, keyword: '书' })
    expect(lastTencent().query.boundary).toBe(`nearby(${BEIJING},50000,1)`)
    expect((await call('/api/mapsearch', { boundary: 'nearby(22.5431,114.0579,1000)', keyword: '火星' })).body.data).toEqual({ list: [], total: 0 })
  })

  test('mapsearch: without a point, 400 "必须提供经纬度参数" on boundary', async () => {
    for (const body of [{}, { boundary: '' }, { boundary: 'nearby()' }, { boundary: 'region(北京)' }, { boundary: 'nearby(39.9)', keyword: '书' }]) {
      expect((await call('/api/mapsearch', body, { lang: 'zh' })).body).toEqual({ code: 400, message: '必须提供经纬度参数', data: { field: 'boundary' } })
    }
    expect((await call('/api/mapsearch', {})).body.message).toBe('Latitude and longitude are required')
    expect((await call('/api/mapsearch', { boundary: `nearby(${BEIJING})`, pageSize: 21 })).body).toMatchObject({ code: 400, data: { field: 'pageSize' } })
  })

  test('driving (Tencent): the polyline decompressed, steps with point index pairs, duration in seconds', async () => {
    const from = { latitude: 39.984154, longitude: 116.30749 }
    const to = { latitude: 39.976, longitude: 116.3176 }
    const r = await call('/api/driving', { from, to })
    expect(r.body.code).toBe(200)
    expect(lastTencent().query).toMatchObject({ from: BEIJING, to: '39.976,116.3176' })
    const route = r.body.data
    expect(route.polyline).toHaveLength(6)
    expect(route.polyline[0]).toEqual(from)
    expect(route.polyline[3]).toEqual({ latitude: 39.984154, longitude: 116.3176 })
    expect(route.polyline[5]).toEqual(to)
    expect(route.steps.map((s: { polylineIdx: number[] }) => s.polylineIdx)).toEqual([[0, 3], [3, 5]])
    expect(route.steps[0]).toMatchObject({ road: '北四环西路', instruction: expect.stringContaining('右转') })
    expect(route.distance).toBe(route.steps[0].distance + route.steps[1].distance)
    expect(route.duration % 60).toBe(0)
    expect(route.duration).toBeGreaterThan(0)
    expect((await call('/api/driving', { from })).body).toEqual({ code: 400, message: 'Missing latitude or longitude', data: { field: 'to' } })
    expect((await call('/api/driving', { from: { latitude: 39.9 }, to })).body).toMatchObject({ code: 400, data: { field: 'from' } })
  })

  test('amap_geo: AMap geocoding ("lng,lat" read the right way round), "Missing address"', async () => {
    const r = await call('/api/amap_geo', { address: '北京市朝阳区阜通东大街6号', city: '北京' })
    expect(lastAmap()).toMatchObject({ path: '/v3/geocode/geo', query: { key: amap.KEY, address: '北京市朝阳区阜通东大街6号', city: '北京' } })
    expect(r.body.data).toEqual({
      list: [{
        formattedAddress: '北京市朝阳区阜通东大街6号', region: { province: '北京市', city: '北京市', district: '朝阳区' },
        adcode: '110105', latitude: 39.990496, longitude: 116.482086, level: '门牌号'
      }]
    })
    expect((await call('/api/amap_geo', { address: '无此地址' })).body.data).toEqual({ list: [] })
    expect((await call('/api/amap_geo', { city: '北京' })).body).toEqual({ code: 400, message: 'Missing address', data: { field: 'address' } })
  })

  test('amap_regeocode: AMap reverse geocoding; [] fields become ""; "Missing latitude or longitude"', async () => {
    const r = await call('/api/amap_regeocode', { latitude: 39.990496, longitude: 116.482086 })
    expect(lastAmap().query.location).toBe('116.482086,39.990496')
    expect(r.body.data).toEqual({
      formattedAddress: '北京市朝阳区望京街道方恒国际中心B座',
      region: { province: '北京市', city: '北京市', district: '朝阳区' },
      detail: '望京街道方恒国际中心B座', township: '望京街道', street: '阜通东大街', streetNumber: '6号', adcode: '110105'
    })
    // no address there (AMap's [] fields): the one rule of map answers makes it "nothing found", never blanks nor a 5xx (map-answers.test.ts)
    const nowhere = await call('/api/amap_regeocode', { latitude: -60, longitude: -30 })
    expect(nowhere.status).toBe(200)
    expect(nowhere.body).toEqual({ code: 404, message: 'Nothing was found for this place or route; try another spot', data: { provider: 'amap' } })
    expect((await call('/api/amap_regeocode', { longitude: 116.4 })).body).toEqual({ code: 400, message: 'Missing latitude or longitude', data: { field: 'latitude' } })
    expect((await call('/api/amap_regeocode', { latitude: 39.9 }, { lang: 'zh' })).body).toEqual({ code: 400, message: '缺少纬度或经度', data: { field: 'longitude' } })
    expect((await call('/api/amap_regeocode', { latitude: 95, longitude: 116.4 })).body).toMatchObject({ code: 400, data: { field: 'latitude' } })
  })

  test("AMap's refusals (status 0) answer its info and infocode", async () => {
    am.next = { json: { status: '0', info: 'DAILY_QUERY_OVER_LIMIT', infocode: '10003' } }
    expect((await call('/api/amap_geo', { address: '阜通东大街6号' })).body).toEqual({ code: 422, message: 'DAILY_QUERY_OVER_LIMIT', data: { provider: 'amap', status: '10003' } })
    am.next = 'http500'
    const down = await call('/api/amap_regeocode', { latitude: 39.99, longitude: 116.48 }, { lang: 'zh' })
    expect(down.status).toBe(502)
    expect(down.body).toEqual({ code: 502, message: '高德地图暂时不可用，请稍后再试', data: { provider: 'amap' } })
  })

  test('amap_direction_driving: steps joined into one polyline, index pairs share the joints', async () => {
    const r = await call('/api/amap_direction_driving', { origin: { latitude: 39.990496, longitude: 116.482086 }, destination: { latitude: 39.96, longitude: 116.50 } })
    expect(lastAmap().query).toMatchObject({ origin: '116.482086,39.990496', destination: '116.5,39.96', extensions: 'base' })
    const route = r.body.data
    expect(route).toMatchObject({ distance: 5210, duration: 960 })
    expect(route.polyline).toHaveLength(5)
    expect(route.polyline[0]).toEqual({ latitude: 39.990496, longitude: 116.482086 })
    expect(route.polyline[4]).toEqual({ latitude: 39.96, longitude: 116.5 })
    expect(route.steps.map((s: { polylineIdx: number[] }) => s.polylineIdx)).toEqual([[0, 2], [2, 4]])
    expect(route.steps[1]).toMatchObject({ road: '阜通东大街', distance: 3110 })
    expect((await call('/api/amap_direction_driving', { origin: { latitude: 39.9, longitude: 116.4 } })).body).toMatchObject({ code: 400, message: 'Missing latitude or longitude', data: { field: 'destination' } })
  })

  test("amap_ip_location with AMAP_KEY: AMap's v3/ip for the caller's address or the ip given", async () => {
    const mine = await call('/api/amap_ip_location', {}, { ip: '101.6.6.6' })
    expect(lastAmap()).toMatchObject({ path: '/v3/ip', query: { ip: '101.6.6.6', key: amap.KEY } })
    expect(mine.body.data).toEqual({ ip: '101.6.6.6', province: '北京市', city: '北京市', adcode: '110000', rectangle: '116.0119343,39.66127144;116.7829835,40.2164962', source: 'amap' })
    const given = await call('/api/amap_ip_location', { ip: '183.62.57.1' })
    expect(given.body.data).toMatchObject({ city: '广州市', source: 'amap' })
    const lan = await call('/api/amap_ip_location', { ip: '192.168.1.20' })
    expect(lan.body.data).toMatchObject({ province: '局域网', city: '', rectangle: '' })
    expect((await call('/api/amap_ip_location', { ip: 'localhost' })).body).toEqual({ code: 400, message: 'ip is not a valid IP address', data: { field: 'ip' } })
  })

  test('amap_ip_location without AMAP_KEY: the offline database places a Chinese address in its city', async () => {
    const call0 = (body: object, ip?: string) => call('/api/amap_ip_location', body, { app: bare, token: bareToken, ...(ip ? { ip } : {}) })
    const gz = (await call0({ ip: '183.62.57.1' })).body.data
    expect(gz).toMatchObject({ ip: '183.62.57.1', province: '广东省', city: '广州市', source: 'offline' })
    const [sw, ne] = gz.rectangle.split(';').map((c: string) => c.split(',').map(Number))
    // the centre of the box is Guangzhou's
    expect((sw[0] + ne[0]) / 2).toBeCloseTo(113.264, 2)
    expect((sw[1] + ne[1]) / 2).toBeCloseTo(23.129, 2)
    expect((await call0({}, '114.114.114.114')).body.data).toMatchObject({ province: '江苏省', city: '南京市', source: 'offline' })
    expect((await call0({ ip: '::ffff:58.16.0.1' })).body.data).toMatchObject({ province: '贵州省', city: '贵阳市' })
    for (const ip of ['8.8.8.8', '127.0.0.1', '10.1.2.3']) {
      expect((await call0({ ip })).body.data).toEqual({ ip, province: '', city: '', adcode: '', rectangle: '', source: 'offline' })
    }
  })

  test('without keys: 422 "… is not configured" naming the provider, HTTP 200, in both languages', async () => {
    const tencentCalls: Array<[string, object]> = [
      ['/api/geocoder', { location: BEIJING }], ['/api/geoaddress', { address: '北京' }],
      ['/api/mapsearch', { boundary: `nearby(${BEIJING})` }], ['/api/driving', { from: { latitude: 1, longitude: 2 }, to: { latitude: 1, longitude: 3 } }]
    ]
    for (const [path, body] of tencentCalls) {
      const r = await call(path, body, { app: bare, token: bareToken })
      expect(r.status).toBe(200)
      expect(r.body).toEqual({ code: 422, message: 'Tencent location service is not available in this shop', data: { provider: 'tencentMap' } })
    }
    const amapCalls: Array<[string, object]> = [
      ['/api/amap_geo', { address: '北京' }], ['/api/amap_regeocode', { latitude: 1, longitude: 2 }],
      ['/api/amap_direction_driving', { origin: { latitude: 1, longitude: 2 }, destination: { latitude: 1, longitude: 3 } }]
    ]
    for (const [path, body] of amapCalls) {
      expect((await call(path, body, { app: bare, token: bareToken, lang: 'zh' })).body).toEqual({ code: 422, message: '这个商城暂不提供高德地图', data: { provider: 'amap' } })
    }
    // spec 5's checks come first: a missing point is still named
    expect((await call('/api/geocoder', {}, { app: bare, token: bareToken })).body).toMatchObject({ code: 400, data: { field: 'location' } })
  })

  test('every map call needs a login (401 before the body is looked at)', async () => {
    for (const path of ['/api/geocoder', '/api/geoaddress', '/api/mapsearch', '/api/driving', '/api/amap_geo', '/api/amap_regeocode', '/api/amap_ip_location', '/api/amap_direction_driving']) {
      const r = await post(t.app, path, { nonsense: true }, { ip: nextIp() })
      expect(r.body).toMatchObject({ code: 401 })
    }
  })

  test(`mapsPerUser: ${RULES.mapsPerUser.limit} map calls a minute per user, then 429; another user is not held up`, async () => {
    expect(RULES.mapsPerUser).toMatchObject({ limit: 60, periodMs: 60_000 })
    const u = await makeUser(bare.db, bare.clock)
    const tok = await loginToken(bare.app, u.user_name!, u.password)
    for (let i = 0; i < RULES.mapsPerUser.limit; i++) {
      // each from another address: the limit is the user's
      expect((await call('/api/amap_ip_location', { ip: '183.62.57.1' }, { app: bare, token: tok })).body.code).toBe(200)
    }
    const over = await call('/api/amap_ip_location', { ip: '183.62.57.1' }, { app: bare, token: tok })
    expect(over.body).toMatchObject({ code: 429, data: { retryAfter: expect.any(Number) } })
    expect((await call('/api/amap_ip_location', { ip: '183.62.57.1' }, { app: bare, token: bareToken })).body.code).toBe(200)
    bare.clock.advance(2000)
    expect((await call('/api/amap_ip_location', { ip: '183.62.57.1' }, { app: bare, token: tok })).body.code).toBe(200)
  })
})
