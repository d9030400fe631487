import { View, Text } from '@tarojs/components'
import { lightObserver } from '@/stores/lightObserver'
import type { SeriesSummary } from '~types/shop'
import { shopApi } from '@/services/shop'
import { t } from '@/stores/locale'
import { formatCents, formatPpm, tr } from '@/utils/format'
import { useRemote } from '@/utils/useRemote'
import { GUEST_PREVIEW_SIZE } from './guestPreview'

interface Props {
  onSeries: (id: number) => void
  onAll: () => void
}

/**
 * The series on sale with their odds, for a visitor who has not logged in: asked for only when the
 * visitor opens it (the entry page itself stays a few lines of text; scripts/prerender.js snapshots it
 * closed).
 */
function GuestPreview ({ onSeries, onAll }: Props) {
  const answer = useRemote(() => shopApi.seriesList({ page: 1, size: GUEST_PREVIEW_SIZE }), [])
  const list: SeriesSummary[] | null = answer.data?.list ?? null

  // a retry shows "loading" again until it answers
  if (answer.failed && !answer.loading) {
    return (
      <View className='guest-preview guest-preview--failed' onClick={answer.retry}>
        <Text className='guest-preview__note'>{t('login.guestFailed')} · {t('feedback.retry')}</Text>
      </View>
    )
  }
  if (!list) return <View className='guest-preview'><Text className='guest-preview__note'>{t('login.guestLoading')}</Text></View>
  return (
    <View className='guest-preview'>
      {list.length === 0 && <Text className='guest-preview__note'>{t('login.guestEmpty')}</Text>}
      {list.map(s => (
        <View key={s.id} className='guest-series' onClick={() => onSeries(s.id)}>
          <View className='guest-series__head'>
            <Text className='guest-series__title'>{tr(s.title)}</Text>
            <Text className='guest-series__price'>{formatCents(s.priceCents)}</Text>
          </View>
          <View className='guest-series__odds'>
            <Text className='guest-chip guest-chip--rare'>{t('rarity.rare')} {formatPpm(s.oddsPpm.rare)}</Text>
            <Text className='guest-chip guest-chip--hidden'>{t('rarity.hidden')} {formatPpm(s.oddsPpm.hidden)}</Text>
            <Text className='guest-series__size'>{t('home.perCase', { n: s.caseSize })}</Text>
          </View>
        </View>
      ))}
      <View className='guest-preview__all' onClick={onAll}>{t('login.guestAll')} ›</View>
    </View>
  )
}

export default lightObserver(GuestPreview)
