import { View, Text, Image } from '@tarojs/components'
import { lightObserver } from '@/stores/lightObserver'
import type { SeriesSummary } from '~types/shop'
import { t } from '@/stores/locale'
import { formatCents, formatPpm, tr, decorativeImage } from '@/utils/format'
import { mediaUrl } from '@/utils/media'
import { useOnScreen } from '@/utils/onScreen'
import './index.scss'

/**
 * Covers load when they come on screen: on H5 the cover's box waits for useOnScreen (the first screen's
 * covers at once, the others from the first scroll on, a screen ahead), in the mini-program the
 * platform's lazyLoad. Taro's own lazyLoad on H5 watched each picture with an IntersectionObserver whose
 * late answer, after a card was taken away (a search replacing the list), set the src of a picture that
 * was gone (a page error, seen about 1 run in 4 of test/e2e/finder.e2e.js).
 */
const H5 = process.env.TARO_ENV === 'h5'
const COVER = decorativeImage()

/** A series on the home page: cover, title, price and the chance of a rare or hidden box. */
function SeriesCard ({ series, onClick }: { series: SeriesSummary; onClick: () => void }) {
  const [coverBox, coverShown] = useOnScreen()
  const kuji = series.kind === 'kuji'
  return (
    <View className={`series-card series-card-${series.id} ${series.status === 'retired' || series.soldOut ? 'series-card--off' : ''}`} onClick={onClick}>
      <View className='series-card__cover' ref={coverBox}>
        {coverShown && <Image className='series-card__img' src={mediaUrl(series.cover, 160)} mode='aspectFit' lazyLoad={!H5} {...COVER} />}
      </View>
      <View className='series-card__body'>
        <Text className='series-card__title'>{tr(series.title)}</Text>
        {/* a retired series is still listed (its cases are revealed for anyone to check), marked as such */}
        {series.status === 'retired' && <Text className='series-card__off'>{t('home.offSale')}</Text>}
        {/* on sale, but every box the warehouse holds is sold (a restock opens it again) */}
        {series.status === 'on_sale' && series.soldOut && <Text className='series-card__off series-card__sold-out'>{t('home.soldOut')}</Text>}
        <Text className='series-card__desc'>{tr(series.description)}</Text>
        {/* a 一番赏 series sells tickets of a set in tiers, with a Last One: no rare or hidden chance per box */}
        {kuji
          ? (
            <View className='series-card__odds'>
              <Text className='odds-chip odds-chip--kuji'>{t('home.kuji')}</Text>
              <Text className='odds-chip odds-chip--last-one'>{t('home.kujiLastOne')}</Text>
            </View>
            )
          : (
            <View className='series-card__odds'>
              <Text className='odds-chip odds-chip--rare'>{t('rarity.rare')} {formatPpm(series.oddsPpm.rare)}</Text>
              <Text className='odds-chip odds-chip--hidden'>{t('rarity.hidden')} {formatPpm(series.oddsPpm.hidden)}</Text>
            </View>
            )}
        <View className='series-card__foot'>
          <Text className='series-card__price'>{formatCents(series.priceCents)}</Text>
          <Text className='series-card__size'>{kuji ? t('home.perSet', { n: series.caseSize }) : t('home.perCase', { n: series.caseSize })}</Text>
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

export default lightObserver(SeriesCard)
