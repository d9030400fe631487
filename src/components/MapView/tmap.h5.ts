/**
 * Loads Tencent's JavaScript API GL (https://lbs.qq.com/webApi/javascriptGL/glGuide/glBasic) only
 * when a map is opened: a script tag with the shop's browser key and a `callback` parameter naming a
 * global function the script calls once `TMap` is ready. One load per page life; a failed or slow
 * load (PAGE_LOAD_TIMEOUT_MS, spec 9) rejects, and the next opening tries again.
 *
 * Only the parts of the API the map uses are typed here: TMap.Map (container, {center, zoom, minZoom,
 * maxZoom}), LatLng, LatLngBounds.extend, map.fitBounds(bounds, {padding}), MultiMarker with
 * MarkerStyle and its 'click' event, MultiPolyline with PolylineStyle, setGeometries, destroy.
 * @h5only
 */
import { PAGE_LOAD_TIMEOUT_MS } from '@/constants'

export interface TLatLng { lat: number; lng: number }
export interface TGeometry { id: string; styleId: string; position?: TLatLng; paths?: TLatLng[]; properties?: Record<string, unknown> }
export interface TLayer {
  setGeometries: (g: TGeometry[]) => void
  on: (event: 'click', fn: (e: { geometry: TGeometry }) => void) => void
  setMap: (map: TMapInstance | null) => void
}
export interface TMapInstance {
  fitBounds: (b: unknown, options?: { padding?: number }) => void
  setCenter: (c: TLatLng) => void
  setZoom: (z: number) => void
  destroy: () => void
}
export interface TMapApi {
  Map: new (el: HTMLElement, options: { center: TLatLng; zoom: number; minZoom: number; maxZoom: number; showControl?: boolean }) => TMapInstance
  LatLng: new (lat: number, lng: number) => TLatLng
  LatLngBounds: new () => { extend: (p: TLatLng) => void }
  MultiMarker: new (o: { map: TMapInstance; styles: Record<string, unknown>; geometries: TGeometry[] }) => TLayer
  MarkerStyle: new (o: { width: number; height: number; anchor: { x: number; y: number }; src: string }) => unknown
  MultiPolyline: new (o: { map: TMapInstance; styles: Record<string, unknown>; geometries: TGeometry[] }) => TLayer
  PolylineStyle: new (o: { color: string; width: number; borderWidth: number; borderColor: string; lineCap: 'round' | 'butt' | 'square' }) => unknown
}

let loading: Promise<TMapApi> | null = null
let seq = 0

const ready = () => (window as unknown as { TMap?: TMapApi }).TMap

export function loadTMap (script: string, timeoutMs: number = PAGE_LOAD_TIMEOUT_MS): Promise<TMapApi> {
  const have = ready()
  if (have?.Map) return Promise.resolve(have)
  if (loading) return loading
  const attempt = new Promise<TMapApi>((resolve, reject) => {
    const callback = `__shiheTMapReady${++seq}`
    const tag = document.createElement('script')
    const done = (error?: Error) => {
      clearTimeout(timer)
      delete (window as unknown as Record<string, unknown>)[callback]
      const api = ready()
      if (!error && api?.Map) resolve(api)
      else { tag.remove(); reject(error ?? new Error('TMap missing after load')) }
    }
    const timer = setTimeout(() => done(new Error(`map script: no answer within ${timeoutMs} ms`)), timeoutMs)
    ;(window as unknown as Record<string, unknown>)[callback] = () => done()
    tag.src = `${script}${script.includes('?') ? '&' : '?'}callback=${callback}`
    tag.async = true
    tag.charset = 'utf-8'
    tag.onerror = () => done(new Error('map script failed to load'))
    document.head.appendChild(tag)
  })
  loading = attempt
  attempt.catch(() => { if (loading === attempt) loading = null })
  return attempt
}
