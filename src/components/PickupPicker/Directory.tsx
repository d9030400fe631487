/**
 * Every open pickup point by city, with a search by name, address or city (issue 48): what the shopper
 * chooses from when their position is unknown (location refused, no map provider) or no counter is
 * within reach of it. Picking one chooses it, as a tap on the nearby list does.
 */
import { useState } from 'react'
import { Input, Text, View } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { PickupPoint } from '~types/afterDraw'
import { afterDrawApi } from '@/services/afterDraw'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { useRemote } from '@/utils/useRemote'
import { filterDirectory } from './directory'

interface Props {
  selectedId: number | null
  onSelect: (point: PickupPoint) => void
}

function PickupDirectory ({ selectedId, onSelect }: Props) {
  const [query, setQuery] = useState('')
  const dir = useRemote(() => afterDrawApi.pickupDirectory(), [])
  const cities = dir.data ? filterDirectory(dir.data, query) : null
  return (
    <View className='pickup-dir'>
      <Input className='pickup-dir__search' value={query} placeholder={t('pickup.searchCounters')} confirmType='search' maxlength={40}
        onInput={e => setQuery(e.detail.value)} />
      {dir.failed && <Text className='pickup__hint pickup__hint--warn'>{errorMessage(dir.error)}</Text>}
      {dir.data && dir.data.total === 0 && <Text className='pickup__hint pickup-none'>{t('pickup.noneAtAll')}</Text>}
      {cities && dir.data!.total > 0 && cities.length === 0 && <Text className='pickup__hint pickup-dir__nomatch'>{t('pickup.noMatch', { query: query.trim() })}</Text>}
      {cities?.map(c => (
        <View key={c.city} className='pickup-dir__city'>
          <Text className='pickup-dir__city-name'>{c.city || t('pickup.otherCity')} · {t('pickup.counters', { n: c.list.length })}</Text>
          <View className='pickup__list'>
            {c.list.map(p => (
              <View key={p.id} className={`pickup-point pickup-point-${p.id} ${p.id === selectedId ? 'pickup-point--on' : ''}`} onClick={() => onSelect(p)}>
                <Text className='pickup-point__name'>{p.name}</Text>
                <Text className='pickup-point__address'>{p.address}</Text>
                <Text className='pickup-point__hours'>{t('pickup.openHours', { hours: p.hours })}</Text>
              </View>
            ))}
          </View>
        </View>
      ))}
    </View>
  )
}

export default observer(PickupDirectory)
