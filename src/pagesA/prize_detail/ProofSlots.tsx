import { View, Text } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { shopApi } from '@/services/shop'
import { tr } from '@/utils/format'
import { useRemote } from '@/utils/useRemote'

export interface ProofSlotsProps {
  seriesId: number
  /** The design id of every slot, in slot order (what the commitment hashes). */
  arrangement: number[]
  /** The prize's own slot, marked. */
  mine: number
}

/**
 * The revealed arrangement of a case: each slot's design id, which the commitment hashes and a shopper
 * checks against, with the design's name beside it (from the series' designs). Without the names (the
 * series could not be read) the ids alone still show.
 */
function ProofSlots ({ seriesId, arrangement, mine }: ProofSlotsProps) {
  const series = useRemote(() => shopApi.seriesDetail(seriesId), [seriesId])
  const names = new Map((series.data?.designs ?? []).map(d => [d.id, d.name]))
  return (
    <View className='proof__slots'>
      {arrangement.map((id, i) => {
        const name = names.get(id)
        return (
          <View key={i} className={`proof__slot ${i + 1 === mine ? 'proof__slot--mine' : ''}`}>
            <Text className='proof__slot-id'>{i + 1}:{id}</Text>
            {name && <Text className='proof__slot-name'>{tr(name)}</Text>}
          </View>
        )
      })}
    </View>
  )
}

// observer: the names follow the language
export default observer(ProofSlots)
