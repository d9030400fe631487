/**
 * The driving route from the shopper to a pickup point, through the provider the shop chose
 * (/api/driving for Tencent, /api/amap_direction_driving for AMap: both answer the same shape), and
 * how distances and times read.
 */
import type { DrivingRoute } from '~types/geo'
import type { PickupNearbyResult } from '~types/afterDraw'
import { geoApi } from '@/services/geo'
import { t } from '@/stores/locale'

export interface Spot { latitude: number; longitude: number }

export function drivingRoute (provider: NonNullable<PickupNearbyResult['routeProvider']>, from: Spot, to: Spot): Promise<DrivingRoute> {
  const a = { latitude: from.latitude, longitude: from.longitude }
  const b = { latitude: to.latitude, longitude: to.longitude }
  return provider === 'amap' ? geoApi.amapDirectionDriving({ origin: a, destination: b }) : geoApi.driving({ from: a, to: b })
}

/** 850 m, 1.2 km, 36 km. */
export function formatDistance (metres: number): string {
  if (metres < 1000) return t('pickup.metres', { n: Math.max(0, Math.round(metres / 10) * 10) })
  return t('pickup.km', { n: metres < 10000 ? (metres / 1000).toFixed(1) : String(Math.round(metres / 1000)) })
}

/** About 7 min, about 1 h 20 min (rounded up to the minute). */
export function formatDuration (seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60))
  if (minutes < 60) return t('pickup.durMinutes', { n: minutes })
  return t('pickup.durHours', { h: Math.floor(minutes / 60), m: minutes % 60 })
}

/** Where an origin moved far enough to ask again (metres, roughly: fine at a city's scale). */
export function movedMetres (a: Spot, b: Spot): number {
  const dy = (b.latitude - a.latitude) * 111_320
  const dx = (b.longitude - a.longitude) * 111_320 * Math.cos(a.latitude * Math.PI / 180)
  return Math.sqrt(dx * dx + dy * dy)
}
