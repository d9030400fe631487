/**
 * Map calls (types/geo.ts geoRoutes), each checked here first with the server's rules and messages
 * (spec 5): a failed check rejects with the same ApiError(400, message, {field}) the server would
 * answer, without a request. Not configured: ApiError 422 with data {provider} (see isNotConfigured).
 */
import type {
  AmapGeoRequest, AmapDrivingRequest, DrivingRequest, IpLocation, MapSearchRequest, PointInput, geoRoutes
} from '~types/geo'
import { DEFAULT_NEARBY_RADIUS_M } from '@/constants'
import type { MessageKey } from '@/locales/types'
import { t } from '@/stores/locale'
import { ApiError, isApiError } from './errors'
import { postRoute } from './request'

type G = typeof geoRoutes

/** A check that failed: the ApiError the server would have answered. */
const refuse = (field: string, key: MessageKey) => Promise.reject(new ApiError(400, t(key), { field }))

const NUMBER = '[-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)'
const inRange = (lat: number, lng: number) => Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180

/** "lat,lng" as numbers, when it is a point (the server's parseLatLng). */
export function parseLatLng (text: string | undefined): { latitude: number; longitude: number } | null {
  const m = new RegExp(`^\\s*(${NUMBER})\\s*,\\s*(${NUMBER})\\s*$`).exec(text ?? '')
  if (!m) return null
  const latitude = Number(m[1])
  const longitude = Number(m[2])
  return inRange(latitude, longitude) ? { latitude, longitude } : null
}

/** Whether a nearby(lat,lng[,radius]) boundary names a point (the server's parseNearby). */
export function nearbyHasPoint (boundary: string | undefined): boolean {
  const m = new RegExp(`^\\s*nearby\\s*\\(\\s*(${NUMBER})\\s*,\\s*(${NUMBER})\\s*(?:,\\s*${NUMBER}\\s*)?(?:,\\s*[01]\\s*)?\\)\\s*$`, 'i').exec(boundary ?? '')
  return !!m && inRange(Number(m[1]), Number(m[2]))
}

/** The boundary of a nearby search: nearby(lat,lng,radius), radius default 1000 m. */
export const nearbyBoundary = (latitude: number, longitude: number, radius: number = DEFAULT_NEARBY_RADIUS_M) =>
  `nearby(${latitude},${longitude},${Math.round(radius)})`

const hasPoint = (p: PointInput | undefined) =>
  typeof p?.latitude === 'number' && typeof p.longitude === 'number' && inRange(p.latitude, p.longitude)

export const geoApi = {
  /** Reverse geocode "lat,lng" (Tencent). */
  geocoder: (location: string) =>
    parseLatLng(location) ? postRoute<G['geocoder']>('/api/geocoder', { location }) : refuse('location', 'geo.missingLatLng'),
  /** An address to its point (Tencent). */
  geoaddress: (address: string) =>
    address.trim() ? postRoute<G['geoaddress']>('/api/geoaddress', { address: address.trim() }) : refuse('address', 'geo.missingAddress'),
  /** Places near a point: boundary nearby(lat,lng[,radius]), with a keyword or without (Tencent). */
  mapsearch: (body: MapSearchRequest) =>
    nearbyHasPoint(body.boundary) ? postRoute<G['mapsearch']>('/api/mapsearch', body) : refuse('boundary', 'geo.latLngRequired'),
  /** A driving route (Tencent). */
  driving: (body: DrivingRequest) =>
    !hasPoint(body.from) ? refuse('from', 'geo.missingLatLng')
      : !hasPoint(body.to) ? refuse('to', 'geo.missingLatLng')
          : postRoute<G['driving']>('/api/driving', body),
  amapGeo: (body: AmapGeoRequest) =>
    body.address?.trim() ? postRoute<G['amapGeo']>('/api/amap_geo', body) : refuse('address', 'geo.missingAddress'),
  amapRegeocode: (body: PointInput) =>
    typeof body.latitude !== 'number' ? refuse('latitude', 'geo.missingLatLng')
      : typeof body.longitude !== 'number' ? refuse('longitude', 'geo.missingLatLng')
        : postRoute<G['amapRegeocode']>('/api/amap_regeocode', body),
  /** Where the caller's IP address (or `ip`) is, to a city. */
  amapIpLocation: (ip?: string) => postRoute<G['amapIpLocation']>('/api/amap_ip_location', ip ? { ip } : {}),
  amapDirectionDriving: (body: AmapDrivingRequest) =>
    !hasPoint(body.origin) ? refuse('origin', 'geo.missingLatLng')
      : !hasPoint(body.destination) ? refuse('destination', 'geo.missingLatLng')
          : postRoute<G['amapDirectionDriving']>('/api/amap_direction_driving', body)
}

/** The centre of an IP location's rectangle "lng1,lat1;lng2,lat2"; null when it has none (spec 8). */
export function rectangleCentre (rectangle: IpLocation['rectangle'] | undefined): { latitude: number; longitude: number } | null {
  const corners = (rectangle ?? '').split(';').map(c => c.split(',').map(Number))
  if (corners.length !== 2 || corners.some(c => c.length !== 2 || c.some(n => !Number.isFinite(n)))) return null
  const longitude = (corners[0][0] + corners[1][0]) / 2
  const latitude = (corners[0][1] + corners[1][1]) / 2
  return inRange(latitude, longitude) ? { latitude, longitude } : null
}

/** The server said the provider has no key: 422 with data {provider}. */
export function isNotConfigured (e: unknown): boolean {
  return isApiError(e) && e.code === 422 && !!e.data && typeof e.data === 'object' &&
    typeof (e.data as { provider?: unknown }).provider === 'string' && !('status' in (e.data as object))
}
