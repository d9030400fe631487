/**
 * Choosing a pickup point (自提): where the shopper is (the device, else the IP location; or a place
 * they search, debounced as in the address form), the open points nearest first (5 km, else 50 km,
 * 20 at a time: spec 9) on a map and in a list beside it, each with its driving distance and time
 * (the shop's route provider), and for the chosen one the route drawn on the map, its steps, and
 * "open in map app" (spec 9's deep links). While it is open and following the device, the position
 * is asked again every LOCATION_REFRESH_MS (30 s) and the list follows a move of more than 100 m.
 * Without a position, or with no counter within reach, every open counter is listed by city with a
 * search of its own (./Directory, issue 48), so the shopper can always choose one.
 */
import { useEffect, useRef, useState } from 'react'
import { Text, View } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { PickupNearbyResult, PickupPoint, PickupPointNear } from '~types/afterDraw'
import type { DrivingRoute } from '~types/geo'
import AddressLocator from '@/components/AddressLocator'
import MapView from '@/components/MapView'
import { LOCATION_REFRESH_MS, PAGE_LOAD_DELAY_MS } from '@/constants'
import { afterDrawApi } from '@/services/afterDraw'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { toast } from '@/utils/feedback'
import { locate, LocationError } from '@/utils/location'
import { openInMapApp } from '@/utils/mapLinks'
import { useRemote } from '@/utils/useRemote'
import PickupDirectory from './Directory'
import { drivingRoute, formatDistance, formatDuration, movedMetres, type Spot } from './routes'
import './index.scss'

interface Origin extends Spot { source: 'device' | 'ip' | 'search'; label?: string }

type RouteState = DrivingRoute | 'failed'

interface Props {
  selectedId: number | null
  onSelect: (point: PickupPoint) => void
}

/** Moves smaller than this do not ask for the list again. */
const FOLLOW_METRES = 100

function PickupPicker ({ selectedId, onSelect }: Props) {
  const [origin, setOrigin] = useState<Origin | null>(null)
  const [locateFailed, setLocateFailed] = useState('')
  const [slow, setSlow] = useState(false)
  const originRef = useRef<Origin | null>(null)
  originRef.current = origin
  const selectRef = useRef(onSelect)
  selectRef.current = onSelect
  const selectedRef = useRef(selectedId)
  selectedRef.current = selectedId

  // where the shopper is; again every 30 s while following the device
  useEffect(() => {
    let live = true
    const here = async (first: boolean) => {
      try {
        const at = await locate()
        if (!live) return
        const now = originRef.current
        if (now?.source === 'search') return
        if (!now || movedMetres(now, at) > FOLLOW_METRES || now.source !== at.source) {
          setOrigin({ latitude: at.latitude, longitude: at.longitude, source: at.source })
        }
      } catch (e) {
        if (live && first) setLocateFailed(e instanceof LocationError ? t('pickup.locateFailed') : errorMessage(e))
      }
    }
    void here(true)
    const timer = setInterval(() => { void here(false) }, LOCATION_REFRESH_MS)
    return () => { live = false; clearInterval(timer) }
  }, [])

  // the points near the origin, then each one's route (one at a time: they count against the shopper's map calls)
  const nearby = useRemote<PickupNearbyResult>(() => afterDrawApi.pickupNearby({ latitude: origin!.latitude, longitude: origin!.longitude }),
    [origin?.latitude, origin?.longitude], {
      enabled: !!origin,
      onSuccess: r => { if (r.list.length && !r.list.some(p => p.id === selectedRef.current)) selectRef.current(r.list[0]) }
    })
  // a failure shows its message alone (no list), until the next origin's answer
  const result = nearby.failed ? null : nearby.data ?? null
  const failed = nearby.failed && !nearby.loading ? errorMessage(nearby.error) : ''
  const routeAnswer = useRemote<Record<number, RouteState>>(async step => {
    const r = nearby.data!
    const from = origin!
    const found: Record<number, RouteState> = {}
    step.partial({})
    for (const p of r.list) {
      if (!step.live()) break
      try {
        found[p.id] = await drivingRoute(r.routeProvider!, from, p)
      } catch {
        found[p.id] = 'failed'
      }
      step.partial({ ...found })
    }
    return found
  }, [nearby.data], { enabled: !!nearby.data?.routeProvider && !nearby.failed })
  const routes = routeAnswer.data ?? {}

  // "loading" only when it takes longer than the spec's page-load delay
  useEffect(() => {
    if (result || failed) { setSlow(false); return undefined }
    const timer = setTimeout(() => setSlow(true), PAGE_LOAD_DELAY_MS)
    return () => clearTimeout(timer)
  }, [result, failed])

  const chosen = result?.list.find(p => p.id === selectedId) ?? null
  const chosenRoute = chosen ? routes[chosen.id] : undefined
  const route = chosenRoute && chosenRoute !== 'failed' ? chosenRoute : null

  // no position (refused, or no map provider), or none within reach of it: every counter, by city
  const directory = (!origin && !!locateFailed) || (!!result && result.list.length === 0)

  const openMap = (p: PickupPointNear) => {
    openInMapApp({ latitude: p.latitude, longitude: p.longitude, name: p.name, address: p.address })
      .catch(e => toast({ message: errorMessage(e) }))
  }

  return (
    <View className='pickup'>
      <View className='pickup__from'>
        <Text className='pickup__from-label'>
          {origin ? (origin.source === 'search' ? t('pickup.fromPlace', { place: origin.label ?? '' }) : origin.source === 'ip' ? t('pickup.fromCity') : t('pickup.fromHere')) : locateFailed || t('geo.locating')}
        </Text>
        {/* a place of the shopper's choosing instead of where the phone is */}
        <AddressLocator fields={false} onPick={p => setOrigin({ latitude: p.latitude, longitude: p.longitude, source: 'search', label: p.detail })} />
      </View>
      {result && result.list.length > 0 && (
        <MapView points={result.list.map(p => ({ id: p.id, latitude: p.latitude, longitude: p.longitude, title: p.name }))}
          selectedId={selectedId} origin={origin} route={route?.polyline ?? null}
          onMarkerTap={id => { const p = result.list.find(x => x.id === id); if (p) onSelect(p) }}
          webMapScript={result.webMap?.script ?? null} />
      )}
      {!result && !failed && origin && slow && <Text className='pickup__hint'>{t('feedback.loading')}</Text>}
      {failed && <Text className='pickup__hint pickup__hint--warn'>{failed}</Text>}
      {result && result.list.length === 0 && <Text className='pickup__hint pickup-none'>{t('pickup.none')}</Text>}
      {directory && <PickupDirectory selectedId={selectedId} onSelect={onSelect} />}
      {result && result.radius > 5000 && result.list.length > 0 && <Text className='pickup__hint'>{t('pickup.widened', { km: Math.round(result.radius / 1000) })}</Text>}
      <View className='pickup__list'>
        {result?.list.map(p => {
          const r = routes[p.id]
          const on = p.id === selectedId
          return (
            <View key={p.id} className={`pickup-point pickup-point-${p.id} ${on ? 'pickup-point--on' : ''}`} onClick={() => onSelect(p)}>
              <View className='pickup-point__head'>
                <Text className='pickup-point__name'>{p.name}</Text>
                <Text className='pickup-point__distance'>
                  {r && r !== 'failed' ? t('pickup.drive', { distance: formatDistance(r.distance), time: formatDuration(r.duration) }) : t('pickup.straight', { distance: formatDistance(p.distance) })}
                </Text>
              </View>
              <Text className='pickup-point__address'>{p.address}</Text>
              <Text className='pickup-point__hours'>{t('pickup.openHours', { hours: p.hours })}</Text>
              {on && r === 'failed' && <Text className='pickup__hint pickup__hint--warn'>{t('geo.mapRequestFailed')}</Text>}
              {on && r && r !== 'failed' && r.steps.length > 0 && (
                <View className='pickup-steps'>
                  {r.steps.map((s, i) => (
                    <Text key={i} className='pickup-steps__step'>{i + 1}. {s.instruction}{s.distance ? ` (${formatDistance(s.distance)})` : ''}</Text>
                  ))}
                </View>
              )}
              {on && <View className='btn btn--ghost pickup-point__open' onClick={e => { e.stopPropagation(); openMap(p) }}>{t('pickup.openMap')}</View>}
            </View>
          )
        })}
      </View>
    </View>
  )
}

export default observer(PickupPicker)
