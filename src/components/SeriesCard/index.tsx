import { View, Text, Image } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import type { SeriesSummary } from '~types/shop'
import { t } from '@/stores/locale'
import { formatCents, formatPpm, tr, decorativeImage } from '@/utils/format'
import { mediaUrl } from '@/utils/media'
import './index.scss'

/** A series on the home page: cover, title, price and the chance of a rare or hidden box. */
function SeriesCard ({ series, onClick }: { series: SeriesSummary; onClick: () => void }) {
  return (
    <View className={`series-card series-card-${series.id}`} onClick={onClick}>
      <View className='series-card__cover'>
        <Image className='series-card__img' src={mediaUrl(series.cover, 160)} mode='aspectFit' lazyLoad {...decorativeImage()} />
      </View>
      <View className='series-card__body'>
        <Text className='series-card__title'>{tr(series.title)}</Text>
        <Text className='series-card__desc'>{tr(series.description)}</Text>
        <View className='series-card__odds'>
          <Text className='odds-chip odds-chip--rare'>{t('rarity.rare')} {formatPpm(series.oddsPpm.rare)}</Text>
          <Text className='odds-chip odds-chip--hidden'>{t('rarity.hidden')} {formatPpm(series.oddsPpm.hidden)}</Text>
        </View>
        <View className='series-card__foot'>
          <Text className='series-card__price'>{formatCents(series.priceCents)}</Text>
          <Text className='series-card__size'>{t('home.perCase', { n: series.caseSize })}</Text>
        </View>
      </View>
    </View>
  )
}

/** A card's outline while the series load: the same size as a card, grey bars for its lines. */
export function SeriesCardSkeleton () {
  return (
    <View className='series-skeleton'>
      <View className='series-card__cover' />
      <View className='series-card__body'>
        <View className='skeleton-bar skeleton-bar--title' />
        <View className='skeleton-bar' />
        <View className='skeleton-bar skeleton-bar--short' />
        <View className='series-card__foot'>
          <View className='skeleton-bar skeleton-bar--price' />
        </View>
      </View>
    </View>
  )
}

export default observer(SeriesCard)
