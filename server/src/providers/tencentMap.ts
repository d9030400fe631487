/**
 * The Tencent location service's WebService API (lbs.qq.com, https://apis.map.qq.com): GET requests
 * with `key` (and `sig` when the key has signature checking on), answering JSON `{status, message, ...}`
 * where status 0 is success and anything else a refusal with a message for people (e.g. 311 key format
 * error, 347 no result, 120 too many requests per second).
 *
 *  - ws/geocoder/v1?location=lat,lng       reverse geocoding
 *  - ws/geocoder/v1?address=...            address to point
 *  - ws/place/v1/search?keyword&boundary=nearby(lat,lng,radius,auto_extend)   places by keyword
 *  - ws/place/v1/explore?boundary=nearby(lat,lng,radius,auto_extend)          places around a point
 *  - ws/direction/v1/driving?from=lat,lng&to=lat,lng                          a driving route
 *
 * Signature (SK): sig = md5(path + '?' + the parameters sorted by name as name=value joined by '&',
 * values not URL-encoded + SK), lower-case hex; the request carries the same parameters (encoded) and sig.
 */
import type { AddressGeocode, DrivingRoute, PlaceList, Point, ReverseGeocode, RouteStep } from '../../../types/geo'
import { ProviderRefusedError, ProviderUnavailableError, PROVIDER_TIMEOUT_MS } from './errors'
import { arr, detailOf, fetchJson, md5Hex, num, obj, str, type Json } from './http'
import { emptyAnswer, needFirst, needList, needObject, needPoint, needText } from './mapAnswer'

const PROVIDER = 'tencentMap'

export interface TencentMapConfig { key: string; sk?: string }

/** The signature Tencent checks: md5 of path, '?', the sorted raw parameters and the SK. */
export function tencentSig (path: string, params: Record<string, string>, sk: string): string {
  const query = Object.keys(params).sort().map(k => `${k}=${params[k]}`).join('&')
  return md5Hex(`${path}?${query}${sk}`)
}

/**
 * Tencent compresses a route's polyline: the first two numbers are a latitude and a longitude, and
 * each later number is the difference from the number two places before it, times 1,000,000.
 */
export function decompressPolyline (coors: readonly number[]): number[] {
  const out = coors.slice()
  for (let i = 2; i < out.length; i++) out[i] = out[i - 2] + out[i] / 1_000_000
  return out
}

export interface NearbySearch {
  latitude: number
  longitude: number
  radius: number
  keyword?: string
  page: number
  pageSize: number
}

export class TencentMapClient {
  constructor (
    private readonly config: TencentMapConfig,
    private readonly apiBase: string,
    private readonly timeoutMs = PROVIDER_TIMEOUT_MS
  ) {}

  private async get (path: string, params: Record<string, string>): Promise<Json> {
    const all: Record<string, string> = { ...params, key: this.config.key }
    const url = new URL(this.apiBase + path)
    if (this.config.sk) all.sig = tencentSig(url.pathname, all, this.config.sk)
    for (const [k, v] of Object.entries(all)) url.searchParams.set(k, v)
    const answer = await fetchJson(PROVIDER, url, { method: 'GET' }, this.timeoutMs)
    const status = num(answer.status)
    if (!Number.isFinite(status)) throw new ProviderUnavailableError(PROVIDER, `${path}: no status in the answer`)
    if (status !== 0) throw new ProviderRefusedError(PROVIDER, String(status), str(answer.message) || `status ${status}`)
    return answer
  }

  async reverseGeocode (latitude: number, longitude: number): Promise<ReverseGeocode> {
    const answer = await this.get('/ws/geocoder/v1', { location: `${latitude},${longitude}` })
    // the one rule of map answers (mapAnswer.ts): no address at the point is no answer
    const result = needObject(PROVIDER, 'geocoder', answer.result, 'the result')
    const c = obj(result.address_component)
    const location = obj(result.location)
    const at = needPoint(PROVIDER, 'geocoder', location.lat, location.lng)
    const region = { province: str(c.province), city: str(c.city), district: str(c.district) }
    const address = needText(PROVIDER, 'geocoder', result.address, 'the address')
    return {
      ...at,
      address,
      recommend: str(obj(result.formatted_addresses).recommend) || address,
      region,
      detail: detailOf(address, region),
      street: str(c.street),
      streetNumber: str(c.street_number),
      adcode: str(obj(result.ad_info).adcode),
      nation: str(c.nation)
    }
  }

  async geocode (address: string): Promise<AddressGeocode> {
    const answer = await this.get('/ws/geocoder/v1', { address })
    const result = needObject(PROVIDER, 'geocoder', answer.result, 'the result')
    const c = obj(result.address_components)
    const location = obj(result.location)
    const region = { province: str(c.province), city: str(c.city), district: str(c.district) }
    const street = str(c.street)
    const streetNumber = str(c.street_number)
    const title = str(result.title) || address
    return {
      ...needPoint(PROVIDER, 'geocoder', location.lat, location.lng),
      title,
      region,
      // the address asked for, less the region Tencent found it in
      detail: detailOf(address, region) || streetNumber || street,
      street,
      streetNumber,
      adcode: str(obj(result.ad_info).adcode),
      reliability: Math.trunc(num(result.reliability)) || 0,
      level: Math.trunc(num(result.level)) || 0
    }
  }

  async nearby (q: NearbySearch): Promise<PlaceList> {
    const boundary = `nearby(${q.latitude},${q.longitude},${q.radius},1)`
    const paging = { page_size: String(q.pageSize), page_index: String(q.page) }
    const answer = q.keyword
      ? await this.get('/ws/place/v1/search', { keyword: q.keyword, boundary, ...paging })
      : await this.get('/ws/place/v1/explore', { boundary, policy: '1', ...paging })
    // an empty list is an answer (nothing there); no list is none
    const list = needList(PROVIDER, 'place', answer.data, 'the places').map(obj).flatMap(p => {
      const location = obj(p.location)
      const lat = num(location.lat)
      const lng = num(location.lng)
      // a place without a usable point cannot be shown or picked: left out
      if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return []
      const ad = obj(p.ad_info)
      const distance = num(p._distance)
      return [{
        id: str(p.id),
        title: str(p.title),
        address: str(p.address),
        category: str(p.category),
        latitude: lat,
        longitude: lng,
        distance: Number.isFinite(distance) ? distance : null,
        region: { province: str(ad.province), city: str(ad.city), district: str(ad.district) },
        adcode: str(ad.adcode)
      }]
    })
    const count = Math.trunc(num(answer.count))
    return { list, total: Number.isFinite(count) && count >= list.length ? count : list.length }
  }

  async driving (from: Point, to: Point): Promise<DrivingRoute> {
    const answer = await this.get('/ws/direction/v1/driving', {
      from: `${from.latitude},${from.longitude}`,
      to: `${to.latitude},${to.longitude}`
    })
    const route = needObject(PROVIDER, 'driving', needFirst(PROVIDER, 'driving', needObject(PROVIDER, 'driving', answer.result, 'the result').routes, 'the routes'), 'a route')
    const coors = arr(route.polyline).map(num)
    if (coors.length < 2 || coors.length % 2 !== 0 || coors.some(n => !Number.isFinite(n))) throw emptyAnswer(PROVIDER, 'driving', 'a usable polyline')
    const flat = decompressPolyline(coors)
    const polyline: Point[] = []
    for (let i = 0; i < flat.length; i += 2) polyline.push({ latitude: round6(flat[i]), longitude: round6(flat[i + 1]) })
    const last = polyline.length - 1
    // polyline_idx counts numbers of the flat list (two per point): halved into point indices
    const toPoint = (n: number) => Math.min(last, Math.max(0, Math.floor(n / 2)))
    const steps: RouteStep[] = arr(route.steps).map(obj).map(s => {
      const idx = arr(s.polyline_idx).map(num)
      const a = Number.isFinite(idx[0]) ? toPoint(idx[0]) : 0
      const b = Number.isFinite(idx[1]) ? toPoint(idx[1]) : a
      return {
        instruction: str(s.instruction),
        road: str(s.road_name),
        distance: finiteOr0(num(s.distance)),
        polylineIdx: [a, Math.max(a, b)]
      }
    })
    return {
      distance: finiteOr0(num(route.distance)),
      // Tencent gives minutes
      duration: finiteOr0(num(route.duration)) * 60,
      polyline,
      steps
    }
  }
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6
const finiteOr0 = (n: number) => Number.isFinite(n) && n >= 0 ? n : 0
