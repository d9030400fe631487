/**
 * Maps and places (types/geo.ts geoRoutes): Tencent's geocoder, place search and driving route, AMap's
 * geocoder, reverse geocoder, IP location and driving route. Order of checks: login (401), the body's
 * schema (400), spec 5's checks (400 naming the field), the provider's key (422 not configured), the
 * caller's per-user limit (429), then the provider.
 */
import { isIP } from 'node:net'
import { geoRoutes as r, type Point, type PointInput } from '../../../types/geo'
import { GEO_LIMITS } from '../../../types/limits'
import type { Api, AppContext } from '../context'
import { fail } from '../core/errors'
import { configured, providerCall } from '../http/provider-call'
import { enforceLimits } from '../http/request'
import { defineRoute } from '../http/route'
import { RULES } from '../security/rules'

const NUMBER = '[-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)'

function inRange (latitude: number, longitude: number): boolean {
  return Number.isFinite(latitude) && Number.isFinite(longitude) && Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180
}

/** "lat,lng" (spaces allowed) as a point; null when it is not one. */
export function parseLatLng (text: string | undefined): Point | null {
  const m = new RegExp(`^\\s*(${NUMBER})\\s*,\\s*(${NUMBER})\\s*$`).exec(text ?? '')
  if (!m) return null
  const latitude = Number(m[1])
  const longitude = Number(m[2])
  return inRange(latitude, longitude) ? { latitude, longitude } : null
}

/**
 * "nearby(lat,lng)" or "nearby(lat,lng,radius)" (Tencent also allows a fourth auto_extend flag); the
 * radius defaults to 1000 m and is kept within 10-50,000 m. null when there is no usable point.
 */
export function parseNearby (text: string | undefined): (Point & { radius: number }) | null {
  const m = new RegExp(`^\\s*nearby\\s*\\(\\s*(${NUMBER})\\s*,\\s*(${NUMBER})\\s*(?:,\\s*(${NUMBER})\\s*)?(?:,\\s*[01]\\s*)?\\)\\s*$`, 'i').exec(text ?? '')
  if (!m) return null
  const latitude = Number(m[1])
  const longitude = Number(m[2])
  if (!inRange(latitude, longitude)) return null
  const asked = m[3] === undefined ? GEO_LIMITS.defaultNearbyRadius : Number(m[3])
  const radius = Math.round(Math.min(GEO_LIMITS.maxNearbyRadius, Math.max(GEO_LIMITS.minNearbyRadius, Number.isFinite(asked) ? asked : GEO_LIMITS.defaultNearbyRadius)))
  return { latitude, longitude, radius }
}

/** Both coordinates of a point of the body, else 400 "Missing latitude or longitude" on the field. */
function needPoint (p: PointInput | undefined, field: string): Point {
  if (p?.latitude === undefined || p.longitude === undefined) throw fail.field(field, 'geo.missingLatLng')
  return { latitude: p.latitude, longitude: p.longitude }
}

export function geoRoutes (app: Api, ctx: AppContext): void {
  const limit = (userId: number) => enforceLimits(ctx, [[RULES.mapsPerUser, String(userId)]])

  defineRoute(app, ctx, r.geocoder, async ({ body, userId }) => {
    const at = parseLatLng(body.location)
    if (!at) throw fail.field('location', 'geo.missingLatLng')
    const tencent = configured(ctx.maps.tencent, 'tencentMap')
    await limit(userId)
    return providerCall('tencentMap', () => tencent.reverseGeocode(at.latitude, at.longitude))
  })

  defineRoute(app, ctx, r.geoaddress, async ({ body, userId }) => {
    const address = body.address?.trim()
    if (!address) throw fail.field('address', 'geo.missingAddress')
    const tencent = configured(ctx.maps.tencent, 'tencentMap')
    await limit(userId)
    return providerCall('tencentMap', () => tencent.geocode(address))
  })

  defineRoute(app, ctx, r.mapsearch, async ({ body, userId }) => {
    const near = parseNearby(body.boundary)
    if (!near) throw fail.field('boundary', 'geo.latLngRequired')
    const tencent = configured(ctx.maps.tencent, 'tencentMap')
    await limit(userId)
    const keyword = body.keyword?.trim()
    return providerCall('tencentMap', () => tencent.nearby({
      ...near,
      ...(keyword ? { keyword } : {}),
      page: body.page ?? 1,
      pageSize: body.pageSize ?? GEO_LIMITS.placePageSizeMax
    }))
  })

  defineRoute(app, ctx, r.driving, async ({ body, userId }) => {
    const from = needPoint(body.from, 'from')
    const to = needPoint(body.to, 'to')
    const tencent = configured(ctx.maps.tencent, 'tencentMap')
    await limit(userId)
    return providerCall('tencentMap', () => tencent.driving(from, to))
  })

  defineRoute(app, ctx, r.amapGeo, async ({ body, userId }) => {
    const address = body.address?.trim()
    if (!address) throw fail.field('address', 'geo.missingAddress')
    const amap = configured(ctx.maps.amap, 'amap')
    await limit(userId)
    const city = body.city?.trim()
    return providerCall('amap', () => amap.geocode(address, city || undefined))
  })

  defineRoute(app, ctx, r.amapRegeocode, async ({ body, userId }) => {
    if (body.latitude === undefined) throw fail.field('latitude', 'geo.missingLatLng')
    if (body.longitude === undefined) throw fail.field('longitude', 'geo.missingLatLng')
    const at = { latitude: body.latitude, longitude: body.longitude }
    const amap = configured(ctx.maps.amap, 'amap')
    await limit(userId)
    return providerCall('amap', () => amap.regeocode(at))
  })

  defineRoute(app, ctx, r.amapIpLocation, async ({ body, request, userId }) => {
    const ip = body.ip?.trim() || request.ip
    if (body.ip !== undefined && !isIP(ip)) throw fail.field('ip', 'geo.badIp')
    await limit(userId)
    const amap = ctx.maps.amap
    if (amap) return providerCall('amap', () => amap.ip(ip))
    return ctx.maps.ipLocator.locate(ip)
  })

  defineRoute(app, ctx, r.amapDirectionDriving, async ({ body, userId }) => {
    const origin = needPoint(body.origin, 'origin')
    const destination = needPoint(body.destination, 'destination')
    const amap = configured(ctx.maps.amap, 'amap')
    await limit(userId)
    return providerCall('amap', () => amap.driving(origin, destination))
  })
}
