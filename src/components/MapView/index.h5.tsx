/**
 * The H5 map: the provider's web map (Tencent's JavaScript API GL), loaded only when a map opens,
 * zoom 5-18 starting at 16 (spec 9), pins, the shopper's start and the chosen route, as in the
 * mini-program. Without a configured web map nothing is drawn (the list beside it is the picker); a
 * script that fails or times out says "Map load failed" (spec 8).
 */
import { useEffect, useRef, useState } from 'react'
import { Text, View } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { t } from '@/stores/locale'
import { ORIGIN_ID, ZOOM, checkMarkers, framePoints, markersOf, type MapViewProps } from './markers'
import { loadTMap, type TLayer, type TMapApi, type TMapInstance } from './tmap.h5'
import './index.scss'

interface Drawn { api: TMapApi; map: TMapInstance; pins: TLayer; line: TLayer }

function MapView (props: MapViewProps) {
  const box = useRef<HTMLDivElement | null>(null)
  const drawn = useRef<Drawn | null>(null)
  const tap = useRef(props.onMarkerTap)
  tap.current = props.onMarkerTap
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading')
  const markers = markersOf(props)
  const refused = checkMarkers(markers)
  const script = props.webMapScript

  // load and create once
  useEffect(() => {
    if (!script || refused) return undefined
    let gone = false
    loadTMap(script).then(api => {
      if (gone || !box.current) return
      const start = framePoints(props)[0] ?? props.points[0]
      const map = new api.Map(box.current, { center: new api.LatLng(start.latitude, start.longitude), zoom: ZOOM.initial, minZoom: ZOOM.min, maxZoom: ZOOM.max, showControl: true })
      const style = (src: string, w: number, h: number) => new api.MarkerStyle({ width: w, height: h, anchor: { x: w / 2, y: src.includes('origin') ? h / 2 : h }, src })
      const pins = new api.MultiMarker({
        map,
        styles: { pin: style('/static/map/pin.png', 28, 36), on: style('/static/map/pin-on.png', 34, 44), origin: style('/static/map/origin.png', 20, 20) },
        geometries: []
      })
      pins.on('click', e => { const id = Number(e.geometry.id); if (id !== ORIGIN_ID) tap.current?.(id) })
      const line = new api.MultiPolyline({
        map,
        styles: { route: new api.PolylineStyle({ color: '#E0245E', width: 6, borderWidth: 1, borderColor: '#FFFFFF', lineCap: 'round' }) },
        geometries: []
      })
      drawn.current = { api, map, pins, line }
      setState('ready')
    }, () => { if (!gone) setState('failed') })
    return () => {
      gone = true
      drawn.current?.map.destroy()
      drawn.current = null
    }
    // the map is made once per script: its first centre comes from the props of then, later ones are drawn below
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [script, refused])

  // draw what the props say, whenever they change
  const key = JSON.stringify([markers.map(m => [m.id, m.latitude, m.longitude, m.iconPath]), props.route?.length ?? 0, props.route?.[0], props.selectedId])
  useEffect(() => {
    const d = drawn.current
    if (state !== 'ready' || !d) return
    const { api } = d
    d.pins.setGeometries(markers.map(m => ({
      id: String(m.id),
      styleId: m.id === ORIGIN_ID ? 'origin' : m.id === props.selectedId ? 'on' : 'pin',
      position: new api.LatLng(m.latitude, m.longitude),
      properties: { title: m.title }
    })))
    d.line.setGeometries(props.route && props.route.length > 1
      ? [{ id: 'route', styleId: 'route', paths: props.route.map(p => new api.LatLng(p.latitude, p.longitude)) }]
      : [])
    const frame = framePoints(props)
    if (frame.length > 1) {
      const bounds = new api.LatLngBounds()
      for (const p of frame) bounds.extend(new api.LatLng(p.latitude, p.longitude))
      d.map.fitBounds(bounds, { padding: 48 })
    } else if (frame.length === 1) {
      d.map.setCenter(new api.LatLng(frame[0].latitude, frame[0].longitude))
      d.map.setZoom(ZOOM.initial)
    }
    // `key` is what is drawn (markers, route, selection): redrawn when it changes, not on every new props object
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state, key])

  if (!script) return null
  if (refused || state === 'failed') {
    return <View className='map-view map-view--failed'><Text className='map-view__failed'>{refused ?? t('map.loadFailed')}</Text></View>
  }
  return (
    <View className='map-view'>
      <div ref={box} className='map-view__canvas' style={{ width: '100%', height: '100%' }} />
      {state === 'loading' && <Text className='map-view__loading'>{t('map.loading')}</Text>}
    </View>
  )
}

export default observer(MapView)
