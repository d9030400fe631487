/**
 * The AMap web service API v3 (https://restapi.amap.com): GET requests with `key`, answering JSON
 * `{status, info, infocode, ...}` where status "1" is success and "0" a refusal (info names it, e.g.
 * INVALID_USER_KEY 10001, DAILY_QUERY_OVER_LIMIT 10003, INVALID_PARAMS 20000). Coordinates go as
 * "lng,lat" (longitude first); fields AMap has no value for come as [] instead of "".
 *
 *  - v3/geocode/geo?address&city       address to points
 *  - v3/geocode/regeo?location         reverse geocoding
 *  - v3/ip?ip                          the city of an IP address (rectangle "lng,lat;lng,lat")
 *  - v3/direction/driving?origin&destination&extensions=base   a driving route
 */
import type { AmapGeoList, AmapRegeocode, DrivingRoute, IpLocation, Point, RouteStep } from '../../../types/geo'
import { ProviderRefusedError, ProviderUnavailableError, PROVIDER_TIMEOUT_MS } from './errors'
import { arr, detailOf, fetchJson, num, obj, str, type Json } from './http'
import { needField, needFirst, needList, needObject, needPoint, needText } from './mapAnswer'

const PROVIDER = 'amap'

export interface AmapConfig { key: string }

/** AMap's "lng,lat" text as a point; null when it is not one. */
export function parseLngLat (text: string): Point | null {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(text)
  if (!m) return null
  const longitude = Number(m[1])
  const latitude = Number(m[2])
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null
  return { latitude, longitude }
}

const lngLat = (p: Point) => `${p.longitude},${p.latitude}`

export class AmapClient {
  constructor (
    private readonly config: AmapConfig,
    private readonly apiBase: string,
    private readonly timeoutMs = PROVIDER_TIMEOUT_MS
  ) {}

  private async get (path: string, params: Record<string, string>): Promise<Json> {
    const url = new URL(this.apiBase + path)
    for (const [k, v] of Object.entries({ ...params, key: this.config.key, output: 'JSON' })) url.searchParams.set(k, v)
    const answer = await fetchJson(PROVIDER, url, { method: 'GET' }, this.timeoutMs)
    const status = str(answer.status)
    if (status === '1') return answer
    if (status === '0') throw new ProviderRefusedError(PROVIDER, str(answer.infocode) || '0', str(answer.info) || 'status 0')
    throw new ProviderUnavailableError(PROVIDER, `${path}: no status in the answer`)
  }

  async geocode (address: string, city?: string): Promise<AmapGeoList> {
    const answer = await this.get('/v3/geocode/geo', { address, ...(city ? { city } : {}) })
    // an empty list is an answer (no match); no list is none (mapAnswer.ts)
    const list = needList(PROVIDER, 'geocode/geo', answer.geocodes, 'the geocodes').map(obj).flatMap(g => {
      const at = parseLngLat(str(g.location))
      if (!at) return []
      const province = str(g.province)
      return [{
        formattedAddress: str(g.formatted_address),
        // a municipality has no city of its own: its name stands in (as Tencent does)
        region: { province, city: str(g.city) || province, district: str(g.district) },
        adcode: str(g.adcode),
        ...at,
        level: str(g.level)
      }]
    })
    return { list }
  }

  async regeocode (at: Point): Promise<AmapRegeocode> {
    const answer = await this.get('/v3/geocode/regeo', { location: lngLat(at), extensions: 'base' })
    // no address at the point (AMap writes [] for it) is no answer (mapAnswer.ts)
    const r = needObject(PROVIDER, 'geocode/regeo', answer.regeocode, 'the regeocode')
    const c = obj(r.addressComponent)
    const province = str(c.province)
    const region = { province, city: str(c.city) || province, district: str(c.district) }
    const sn = obj(c.streetNumber)
    const formattedAddress = needText(PROVIDER, 'geocode/regeo', r.formatted_address, 'the address')
    return {
      formattedAddress,
      region,
      detail: detailOf(formattedAddress, region),
      township: str(c.township),
      street: str(sn.street),
      streetNumber: str(sn.number),
      adcode: str(c.adcode)
    }
  }

  async ip (ip: string): Promise<IpLocation> {
    const answer = await this.get('/v3/ip', { ip })
    // "cannot place it" is an answer when AMap says so in its fields ([] or ''); without them, none
    needField(PROVIDER, 'ip', answer, 'province')
    const rectangle = str(needField(PROVIDER, 'ip', answer, 'rectangle'))
    return {
      ip,
      province: str(answer.province),
      city: str(answer.city),
      adcode: str(answer.adcode),
      // AMap answers "" or [] (and a province such as 局域网) for addresses it cannot place
      rectangle: /^-?[\d.]+,-?[\d.]+;-?[\d.]+,-?[\d.]+$/.test(rectangle) ? rectangle : '',
      source: 'amap'
    }
  }

  async driving (origin: Point, destination: Point): Promise<DrivingRoute> {
    const answer = await this.get('/v3/direction/driving', { origin: lngLat(origin), destination: lngLat(destination), extensions: 'base' })
    const route = needObject(PROVIDER, 'direction/driving', answer.route, 'the route')
    const path = needObject(PROVIDER, 'direction/driving', needFirst(PROVIDER, 'direction/driving', route.paths, 'the paths'), 'a path')
    const polyline: Point[] = []
    const steps: RouteStep[] = []
    for (const s of arr(path.steps).map(obj)) {
      const points = str(s.polyline).split(';').map(parseLngLat).filter((p): p is Point => p !== null)
      // consecutive steps share their joining point: kept once
      const first = polyline.length && points.length && samePoint(polyline[polyline.length - 1], points[0]) ? polyline.length - 1 : polyline.length
      for (const p of points.slice(polyline.length - first)) polyline.push(p)
      const last = Math.max(first, polyline.length - 1)
      steps.push({
        instruction: str(s.instruction),
        road: str(s.road),
        distance: nonNegative(num(s.distance)),
        polylineIdx: [Math.min(first, last), last]
      })
    }
    if (!polyline.length) {
      // a route needs at least its ends
      polyline.push(needPoint(PROVIDER, 'direction/driving', origin.latitude, origin.longitude), destination)
    }
    return {
      distance: nonNegative(num(path.distance)),
      duration: nonNegative(num(path.duration)),
      polyline,
      steps: steps.map(s => ({ ...s, polylineIdx: [Math.min(s.polylineIdx[0], polyline.length - 1), Math.min(s.polylineIdx[1], polyline.length - 1)] }))
    }
  }
}

const samePoint = (a: Point, b: Point) => a.latitude === b.latitude && a.longitude === b.longitude
const nonNegative = (n: number) => Number.isFinite(n) && n >= 0 ? n : 0
