/**
 * What a map shows, the same in both builds: the points as markers (each with its picture: WeChat's
 * map draws no marker without iconPath, spec 8's "Marker.iconPath is required"), where the shopper
 * starts, and a route.
 */
import { MAP_ZOOM_DEFAULT, MAP_ZOOM_MAX, MAP_ZOOM_MIN } from '@/constants'

export interface LatLng { latitude: number; longitude: number }

export interface MapMarker extends LatLng {
  /** A whole number (WeChat's marker ids are numbers). */
  id: number
  title: string
  iconPath: string
  width: number
  height: number
}

export interface MapViewProps {
  /** The points (pickup counters, a venue). */
  points: Array<LatLng & { id: number; title: string }>
  selectedId?: number | null
  /** Where the shopper starts (their position or a searched place). */
  origin?: LatLng | null
  /** The chosen route's line, when there is one. */
  route?: LatLng[] | null
  onMarkerTap?: (id: number) => void
  /** H5: the provider's web map script (null: no map on H5). */
  webMapScript?: string | null
}

/** Icons in the package (config/index.ts copies src/static/map): absolute package paths, which WeChat's map takes. */
export const PIN = '/static/map/pin.png'
export const PIN_ON = '/static/map/pin-on.png'
export const ORIGIN = '/static/map/origin.png'
/** The origin marker's id: points have positive ids. */
export const ORIGIN_ID = 0

export const ZOOM = { min: MAP_ZOOM_MIN, max: MAP_ZOOM_MAX, initial: MAP_ZOOM_DEFAULT }

/** Keeps a zoom within spec 9's 5-18. */
export const clampZoom = (z: number) => Math.min(ZOOM.max, Math.max(ZOOM.min, Math.round(z)))

/** The markers to draw: the chosen point's pin is the larger pink one; the origin a blue dot. */
export function markersOf ({ points, selectedId, origin }: Pick<MapViewProps, 'points' | 'selectedId' | 'origin'>): MapMarker[] {
  const list: MapMarker[] = points.map(p => ({
    id: p.id,
    latitude: p.latitude,
    longitude: p.longitude,
    title: p.title,
    iconPath: p.id === selectedId ? PIN_ON : PIN,
    width: p.id === selectedId ? 34 : 28,
    height: p.id === selectedId ? 44 : 36
  }))
  if (origin) list.push({ id: ORIGIN_ID, latitude: origin.latitude, longitude: origin.longitude, title: '', iconPath: ORIGIN, width: 20, height: 20 })
  return list
}

/** Spec 8: a marker without its picture is refused before the map sees it. */
export function checkMarkers (markers: MapMarker[]): string | null {
  return markers.some(m => !m.iconPath) ? 'Marker.iconPath is required' : null
}

/** What the view must hold: the route when there is one, else the origin and the points. */
export function framePoints ({ points, origin, route, selectedId }: Pick<MapViewProps, 'points' | 'origin' | 'route' | 'selectedId'>): LatLng[] {
  if (route && route.length > 1) return route
  const chosen = points.find(p => p.id === selectedId)
  const shown = chosen ? [chosen] : points.slice(0, 5)
  return [...(origin ? [origin] : []), ...shown].map(p => ({ latitude: p.latitude, longitude: p.longitude }))
}
