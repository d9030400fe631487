/**
 * The map and parcel calls' client checks (same rules and messages as the server, no request when a
 * check fails), the spec 9 location constants, and locate(): the device's GCJ-02 position, else the IP
 * location's centre with accuracy 1000 - over the real H5 transport against a server on 127.0.0.1.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Taro from '@tarojs/taro'
import { geoApi, isNotConfigured, nearbyBoundary, nearbyHasPoint, parseLatLng, rectangleCentre } from '@/services/geo'
import { expressApi, needsPhone } from '@/services/express'
import { ApiError } from '@/services/errors'
import { resetInterceptors } from '@/services/request'
import { localeStore } from '@/stores/locale'
import { LocationError, locate, wgs84ToGcj02 } from '@/utils/location'
import * as C from '@/constants'

interface Seen { path: string; body: any }
const seen: Seen[] = []
let server: http.Server
let base = ''
let ipRectangle = '113.064,22.929;113.464,23.329'

function cors (h: Record<string, string> = {}) {
  return { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*', 'Access-Control-Allow-Methods': '*', ...h }
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.method === 'OPTIONS') { res.writeHead(204, cors()); res.end(); return }
    let body = ''
    req.on('data', c => { body += c })
    req.on('end', () => {
      const path = (req.url || '').split('?')[0].replace('/dev-api', '')
      seen.push({ path, body: body ? JSON.parse(body) : null })
      const data = path === '/api/amap_ip_location'
        ? { ip: '183.62.57.1', province: '广东省', city: '广州市', adcode: '', rectangle: ipRectangle, source: 'offline' }
        : { echoed: true }
      res.writeHead(200, cors({ 'Content-Type': 'application/json' }))
      res.end(JSON.stringify({ code: 200, message: 'OK', data }))
    })
  })
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise(r => server.close(r))
})

beforeEach(() => {
  seen.length = 0
  ipRectangle = '113.064,22.929;113.464,23.329'
  process.env.TARO_APP_API_BASE = `${base}/dev-api`
  localeStore.setLocale('en')
  resetInterceptors()
})
afterEach(() => {
  jest.restoreAllMocks()
  process.env.TARO_ENV = 'h5'
  delete process.env.TARO_APP_API_BASE
})

/** The call is refused before any request, with the server's 400 answer. */
async function refused (p: Promise<unknown>, field: string, message: string) {
  const e = await p.then(() => null, (err: unknown) => err)
  expect(e).toBeInstanceOf(ApiError)
  expect(e).toMatchObject({ code: 400, message, data: { field } })
  expect(seen).toHaveLength(0)
}

describe('spec 9 location constants', () => {
  test('have the values of the spec', () => {
    expect(C.GEOLOCATION_TIMEOUT_MS).toBe(100000)
    expect(C.LOCATION_REFRESH_MS).toBe(30000)
    expect([C.LOCATION_PAGE_SIZE, C.LOCATION_PAGE_SIZE_COMPACT]).toEqual([20, 10])
    expect([C.NEARBY_RADIUS_M, C.KEYWORD_SEARCH_RADIUS_M, C.DEFAULT_NEARBY_RADIUS_M]).toEqual([5000, 50000, 1000])
    expect(C.SEARCH_DEBOUNCE_MS).toBe(1000)
    expect([C.MAP_ZOOM_MIN, C.MAP_ZOOM_MAX, C.MAP_ZOOM_DEFAULT]).toEqual([5, 18, 16])
    expect(C.FALLBACK_LOCATION_ACCURACY_M).toBe(1000)
  })
})

describe('map calls check first, with the messages of spec 5', () => {
  test('geocoder: "Missing latitude or longitude" unless location is "lat,lng"', async () => {
    for (const bad of ['', '39.9', 'a,b', '91,116', '39.9,181']) await refused(geoApi.geocoder(bad), 'location', 'Missing latitude or longitude')
    localeStore.setLocale('zh')
    await refused(geoApi.geocoder(''), 'location', '缺少纬度或经度')
    expect(await geoApi.geocoder('39.984154,116.30749')).toEqual({ echoed: true })
    expect(seen).toEqual([{ path: '/api/geocoder', body: { location: '39.984154,116.30749' } }])
  })

  test('geoaddress and amapGeo: "Missing address" when blank; the address is trimmed', async () => {
    await refused(geoApi.geoaddress('   '), 'address', 'Missing address')
    await refused(geoApi.amapGeo({ address: '' }), 'address', 'Missing address')
    localeStore.setLocale('zh')
    await refused(geoApi.geoaddress(''), 'address', '缺少地址')
    await geoApi.geoaddress('  北京市海淀区  ')
    expect(seen[0]).toEqual({ path: '/api/geoaddress', body: { address: '北京市海淀区' } })
  })

  test('mapsearch: "必须提供经纬度参数" without a nearby(lat,lng) point; the default radius 1000', async () => {
    localeStore.setLocale('zh')
    for (const boundary of [undefined, '', 'nearby()', 'nearby(39.9)', 'region(北京)']) {
      await refused(geoApi.mapsearch({ boundary, keyword: '书店' }), 'boundary', '必须提供经纬度参数')
    }
    localeStore.setLocale('en')
    await refused(geoApi.mapsearch({}), 'boundary', 'Latitude and longitude are required')
    expect(nearbyBoundary(39.9, 116.3)).toBe('nearby(39.9,116.3,1000)')
    expect(nearbyBoundary(39.9, 116.3, C.NEARBY_RADIUS_M)).toBe('nearby(39.9,116.3,5000)')
    await geoApi.mapsearch({ boundary: nearbyBoundary(39.9, 116.3), keyword: '书店', pageSize: C.LOCATION_PAGE_SIZE })
    expect(seen[0]).toEqual({ path: '/api/mapsearch', body: { boundary: 'nearby(39.9,116.3,1000)', keyword: '书店', pageSize: 20 } })
  })

  test('routes and reverse geocoding by AMap: both coordinates, the missing one named', async () => {
    const p = { latitude: 39.9, longitude: 116.3 }
    await refused(geoApi.driving({ from: p }), 'to', 'Missing latitude or longitude')
    await refused(geoApi.driving({ from: { latitude: 39.9 }, to: p }), 'from', 'Missing latitude or longitude')
    await refused(geoApi.amapDirectionDriving({ origin: p }), 'destination', 'Missing latitude or longitude')
    await refused(geoApi.amapRegeocode({ longitude: 116.3 }), 'latitude', 'Missing latitude or longitude')
    await refused(geoApi.amapRegeocode({ latitude: 39.9 }), 'longitude', 'Missing latitude or longitude')
    await geoApi.driving({ from: p, to: p })
    expect(seen[0].path).toBe('/api/driving')
  })

  test('the client reads "lat,lng" and nearby(...) as the server does', () => {
    expect(parseLatLng(' 39.9 , 116.3 ')).toEqual({ latitude: 39.9, longitude: 116.3 })
    for (const bad of [undefined, '', '39.9', '91,0', '0,181', 'a,b', '1,2,3', '1e3,2']) expect(parseLatLng(bad)).toBeNull()
    for (const good of ['nearby(39.9,116.3)', 'nearby(39.9,116.3,5000)', 'nearby(39.9,116.3,1,1)', ' nearby( 39.9 , 116.3 ) ']) expect(nearbyHasPoint(good)).toBe(true)
    for (const bad of [undefined, '', 'nearby()', 'nearby(39.9)', 'region(北京)', 'nearby(99,116.3,10)']) expect(nearbyHasPoint(bad)).toBe(false)
  })

  test('rectangleCentre: the middle of "lng1,lat1;lng2,lat2"; null when there is none', () => {
    expect(rectangleCentre('116.0119343,39.66127144;116.7829835,40.2164962')).toEqual({ latitude: (39.66127144 + 40.2164962) / 2, longitude: (116.0119343 + 116.7829835) / 2 })
    for (const bad of [undefined, '', '116,39', 'a,b;c,d', '116,39;117']) expect(rectangleCentre(bad)).toBeNull()
  })

  test('isNotConfigured: 422 naming a provider without a provider status', () => {
    expect(isNotConfigured(new ApiError(422, 'Tencent location service is not configured', { provider: 'tencentMap' }))).toBe(true)
    expect(isNotConfigured(new ApiError(422, '查询无结果', { provider: 'tencentMap', status: '347' }))).toBe(false)
    expect(isNotConfigured(new ApiError(400, 'x', { field: 'location' }))).toBe(false)
    expect(isNotConfigured(new Error('x'))).toBe(false)
  })
})

describe('parcel calls check first', () => {
  test('shunfeng and shunfengkuaiyun need the phone: "必须提供手机号参数"', async () => {
    expect(needsPhone('shunfeng') && needsPhone('shunfengkuaiyun') && !needsPhone('zhongtong')).toBe(true)
    localeStore.setLocale('zh')
    await refused(expressApi.inquiry({ com: 'shunfeng', num: 'SF1234567890123' }), 'phone', '必须提供手机号参数')
    await refused(expressApi.map({ com: 'shunfengkuaiyun', num: 'SF1234567890123', from: '深圳', to: '上海', phone: '  ' }), 'phone', '必须提供手机号参数')
    localeStore.setLocale('en')
    await refused(expressApi.inquiry({ com: 'shunfeng', num: 'SF1234567890123' }), 'phone', 'A phone number is required')
  })

  test('they send resultv2 4 (inquiry) and 5 (map), the phone trimmed', async () => {
    await expressApi.inquiry({ com: 'shunfeng', num: 'SF1234567890123', phone: ' 8000 ' })
    await expressApi.map({ com: 'zhongtong', num: '75312345678901', from: '广州', to: '北京', phone: '' })
    expect(seen).toEqual([
      { path: '/api/expressInquiry', body: { com: 'shunfeng', num: 'SF1234567890123', phone: '8000', resultv2: 4 } },
      { path: '/api/expressMap', body: { com: 'zhongtong', num: '75312345678901', from: '广州', to: '北京', resultv2: 5 } }
    ])
  })
})

describe('locate()', () => {
  const position = { latitude: 39.9087, longitude: 116.3975, speed: 1.5, altitude: 48, accuracy: 25, horizontalAccuracy: 25, verticalAccuracy: 0, errMsg: 'getLocation:ok' }

  test("the mini-program asks Taro.getLocation({type: 'gcj02'}) and uses it as it is", async () => {
    process.env.TARO_ENV = 'weapp'
    const spy = jest.spyOn(Taro, 'getLocation').mockResolvedValue(position as never)
    expect(await locate()).toEqual({ latitude: 39.9087, longitude: 116.3975, speed: 1.5, altitude: 48, horizontalAccuracy: 25, source: 'device' })
    expect(spy).toHaveBeenCalledWith({ type: 'gcj02' })
    expect(seen).toHaveLength(0)
  })

  test('H5 asks for WGS-84 (all Taro H5 supports) within the geolocation timeout and converts it to GCJ-02', async () => {
    const spy = jest.spyOn(Taro, 'getLocation').mockResolvedValue(position as never)
    const at = await locate()
    expect(spy).toHaveBeenCalledWith({ type: 'wgs84', highAccuracyExpireTime: 100000 })
    expect(at.source).toBe('device')
    // Beijing: GCJ-02 lies about 130 m north and 540 m east of WGS-84
    expect(at.latitude - position.latitude).toBeCloseTo(0.0013, 3)
    expect(at.longitude - position.longitude).toBeCloseTo(0.0062, 3)
    expect(wgs84ToGcj02(48.85, 2.35)).toEqual({ latitude: 48.85, longitude: 2.35 })
  })

  test('refused or failed: the centre of the IP location rectangle, accuracy 1000', async () => {
    jest.spyOn(Taro, 'getLocation').mockRejectedValue({ errMsg: 'getLocation:fail auth deny' } as never)
    expect(await locate()).toEqual({ latitude: expect.closeTo(23.129, 9), longitude: expect.closeTo(113.264, 9), speed: 0, altitude: 0, horizontalAccuracy: 1000, source: 'ip', refused: 'scope' })
    expect(seen).toEqual([{ path: '/api/amap_ip_location', body: {} }])
  })

  test('issue 22: why the device gave nothing is kept: the scope refused, privacy declined, or neither', async () => {
    const spy = jest.spyOn(Taro, 'getLocation')
    spy.mockRejectedValue({ errMsg: 'getLocation:fail privacy permission is not authorized', errno: 104 } as never)
    expect(await locate()).toMatchObject({ source: 'ip', refused: 'privacy' })
    spy.mockRejectedValue({ errMsg: 'getLocation:fail:auth denied' } as never)
    expect(await locate()).toMatchObject({ source: 'ip', refused: 'scope' })
    spy.mockRejectedValue({ errMsg: 'getLocation:fail system permission denied' } as never)
    expect((await locate()).refused).toBeUndefined()
    // the IP location failing too: the error still says the user refused
    ipRectangle = ''
    spy.mockRejectedValue({ errMsg: 'getLocation:fail auth deny' } as never)
    const e = await locate().then(() => null, (err: unknown) => err)
    expect(e).toBeInstanceOf(LocationError)
    expect((e as LocationError).refused).toBe('scope')
  })

  test('no position within the timeout: the IP location too', async () => {
    jest.spyOn(Taro, 'getLocation').mockReturnValue(new Promise(() => undefined) as never)
    const at = await locate({ timeoutMs: 30 })
    expect(at).toMatchObject({ source: 'ip', horizontalAccuracy: 1000 })
  })

  test('an IP location without a rectangle (abroad, a private address): LocationError', async () => {
    ipRectangle = ''
    jest.spyOn(Taro, 'getLocation').mockRejectedValue({ errMsg: 'getLocation:fail' } as never)
    await expect(locate()).rejects.toBeInstanceOf(LocationError)
  })
})
