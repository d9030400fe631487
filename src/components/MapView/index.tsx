/**
 * The mini-program's map: WeChat's own (Taro's Map), zoom 5-18 starting at 16 (spec 9), the points
 * as pins, the shopper's start as a dot, and the chosen route as a line; the view holds the route or
 * the nearest points. A map WeChat cannot create says "Map load failed" (spec 8) in the shopper's
 * language, and the list beside it still works.
 */
import { useState } from 'react'
import { Map, Text, View } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { t } from '@/stores/locale'
import { ORIGIN_ID, ZOOM, checkMarkers, framePoints, markersOf, type MapViewProps } from './markers'
import './index.scss'

function MapView (props: MapViewProps) {
  const [failed, setFailed] = useState(false)
  const markers = markersOf(props)
  const refused = checkMarkers(markers)
  const frame = framePoints(props)
  const centre = frame[0] ?? props.points[0]
  if (failed || refused || !centre) {
    return <View className='map-view map-view--failed'><Text className='map-view__failed'>{refused ?? t('map.loadFailed')}</Text></View>
  }
  return (
    <Map className='map-view' id='pickup-map'
      latitude={centre.latitude} longitude={centre.longitude}
      scale={ZOOM.initial} minScale={ZOOM.min} maxScale={ZOOM.max}
      markers={markers.map(m => ({ ...m, callout: m.id === ORIGIN_ID ? undefined : { content: m.title, display: 'BYCLICK', padding: 6, borderRadius: 6, fontSize: 12, color: '#333333', bgColor: '#ffffff', textAlign: 'center' } })) as never}
      polyline={props.route && props.route.length > 1 ? [{ points: props.route, color: '#E0245EDD', width: 6, arrowLine: true, borderColor: '#FFFFFF', borderWidth: 1 }] as never : []}
      includePoints={frame}
      showLocation
      onMarkerTap={e => { const id = Number((e.detail as { markerId?: number }).markerId); if (id !== ORIGIN_ID) props.onMarkerTap?.(id) }}
      onError={() => setFailed(true)} />
  )
}

export default observer(MapView)
