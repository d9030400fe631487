/**
 * A parcel's journey on a map (issue 24 item 2; /api/expressMap, Kuaidi100's map track): where it left
 * from (the shop's city), where it is now and where it goes, as pins joined by a line, with the
 * expected arrival. Shown when the shop has tracking; when Kuaidi100 cannot answer, its message (or
 * spec 8's "接口请求失败") takes the map's place. The mini-program draws WeChat's map; H5 the shop's
 * web map when it has one, else the names alone.
 */
import { Text, View } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { ExpressMapResult } from '~types/express'
import MapView from '@/components/MapView'
import { expressApi } from '@/services/express'
import { errorMessage } from '@/services/request'
import { capabilitiesStore } from '@/stores/capabilities'
import { t } from '@/stores/locale'
import { useRemote } from '@/utils/useRemote'
import './index.scss'

interface Props { com: string; num: string; to: string; phone?: string }

type Ok = Extract<ExpressMapResult, { success: true }>
/** Kuaidi100's answer: off (the shop has no tracking), the route, or its message. */
type Answer = { kind: 'off' } | { kind: 'ok'; result: Ok } | { kind: 'failed'; message: string }

/** Kuaidi100 writes 广东,深圳市: shown as 广东 深圳市. */
const placeName = (name: string) => name.replace(/,/g, ' ')

function ParcelRoute ({ com, num, to, phone }: Props) {
  const answer = useRemote<Answer>(async () => {
    const s = await capabilitiesStore.ensure()
    if (!s.capabilities.tracking) return { kind: 'off' }
    const r = await expressApi.map(phone ? { com, num, to, phone } : { com, num, to })
    return r.success ? { kind: 'ok', result: r } : { kind: 'failed', message: r.message }
  }, [com, num, to, phone])
  const state: Answer | undefined = answer.failed ? { kind: 'failed', message: errorMessage(answer.error) } : answer.data

  if (!state || state.kind === 'off') return null
  if (state.kind === 'failed') return <Text className='parcel-route parcel-route--failed'>{state.message}</Text>
  const { route, arrivalTime } = state.result
  const stops = ([['from', route.from], ['current', route.current], ['to', route.to]] as const).flatMap(([kind, p], i) => (p ? [{ kind, id: i + 1, ...p }] : []))
  const placed = stops.filter(s => s.position).map(s => ({ id: s.id, title: placeName(s.name), latitude: s.position!.latitude, longitude: s.position!.longitude }))
  return (
    <View className='parcel-route'>
      <Text className='parcel-route__title'>{t('parcelMap.title')}</Text>
      <Text className='parcel-route__stops'>
        {stops.map(s => `${t(`parcelMap.${s.kind}`)} ${placeName(s.name)}`).join(' → ')}
      </Text>
      {arrivalTime && <Text className='parcel-route__eta'>{t('parcelMap.arrival', { time: arrivalTime })}</Text>}
      {placed.length > 0 && (
        <MapView points={placed} selectedId={stops.find(s => s.kind === 'current')?.id ?? null}
          route={placed.length > 1 ? placed.map(p => ({ latitude: p.latitude, longitude: p.longitude })) : null}
          webMapScript={capabilitiesStore.settings?.capabilities.webMap?.script ?? null} />
      )}
    </View>
  )
}

export default observer(ParcelRoute)
