import { View, Text } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { SHOW_LIMITS } from '~types/limits'
import Section from '@/components/Section'
import ShowCard from '@/components/ShowCard'
import { showApi } from '@/services/show'
import { t } from '@/stores/locale'
import { a11yControl } from '@/utils/format'
import { navigate } from '@/utils/navigation'
import { useRemote } from '@/utils/useRemote'

/** The series' most liked player-show posts (none: no card), and the way to all of them. */
function BestPosts ({ seriesId }: { seriesId: number }) {
  const best = useRemote(() => showApi.list({ page: 1, size: SHOW_LIMITS.seriesBest, sort: 'popular', seriesId }), [seriesId])
  const list = best.data?.list ?? []
  if (!list.length) return null
  return (
    <Section title={t('show.best')} className='detail-best' extra={
      <Text className='detail-best__all' {...a11yControl(undefined, 'link')} onClick={() => navigate(`/pages/show/index?seriesId=${seriesId}&sort=popular`)}>{t('show.seeAll')} ›</Text>
    }>
      <View className='detail-best__list'>
        {list.map(p => <ShowCard key={p.id} post={p} onOpen={() => navigate(`/pages/show_post/index?id=${p.id}`)} />)}
      </View>
    </Section>
  )
}

export default observer(BestPosts)
