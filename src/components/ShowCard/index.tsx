import { View, Text, Image } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { ShowPost } from '~types/show'
import RarityBadge from '@/components/RarityBadge'
import { t } from '@/stores/locale'
import { a11yControl, a11yImage, decorativeImage, formatTime, tr, A11Y_HIDDEN } from '@/utils/format'
import { mediaUrl } from '@/utils/media'
import './index.scss'

export interface ShowCardProps {
  post: ShowPost
  /** Tapped anywhere but the like button (the feed opens the post). */
  onOpen?: () => void
  /** The like button (absent: the count only). */
  onLike?: () => void
  /** The whole text and every photo large (the post's own page); else a summary. */
  full?: boolean
}

/**
 * One post of the player show: the masked author and time, the text, the photos, each prize with its
 * design and a "real pull" mark (its proof is on the post's page), likes and comments.
 */
function ShowCard ({ post, onOpen, onLike, full = false }: ShowCardProps) {
  const photos = full ? post.images : post.images.slice(0, 3)
  return (
    <View className={`show-card show-card-${post.id} ${full ? 'show-card--full' : ''}`}>
      <View className='show-card__body' {...(onOpen ? a11yControl(undefined, 'link') : {})} onClick={onOpen}>
        <Text className='show-card__by'>{t('show.by', { name: post.authorName, time: formatTime(post.createdAt) })}</Text>
        <Text className={`show-card__text ${full ? '' : 'show-card__text--clip'}`}>{post.text}</Text>
        {photos.length > 0 && (
          <View className='show-card__photos'>
            {photos.map((url, i) => (
              <Image key={url} className='show-card__photo' src={mediaUrl(url, full ? 640 : 240)} mode={full ? 'widthFix' : 'aspectFill'}
                {...a11yImage(t('show.photo', { n: i + 1 }))} />
            ))}
          </View>
        )}
        <View className='show-card__prizes'>
          {post.prizes.map(p => (
            <View key={p.prizeId} className='show-prize'>
              <Image className='show-prize__img' src={mediaUrl(p.design.image, 64)} mode='aspectFit' {...decorativeImage()} />
              <View className='show-prize__names'>
                <Text className='show-prize__name'>{tr(p.design.name)}</Text>
                <Text className='show-prize__series'>{tr(p.seriesTitle)}</Text>
              </View>
              <RarityBadge rarity={p.design.rarity} />
            </View>
          ))}
          <Text className='show-card__verified'><Text {...A11Y_HIDDEN}>✓ </Text>{t('show.verified')}</Text>
        </View>
      </View>
      <View className='show-card__foot'>
        {/* its name holds the words it shows (the count), and what a tap does */}
        {onLike
          ? (
            <View className={`show-like ${post.liked ? 'show-like--on' : ''}`} {...a11yControl(`${post.liked ? t('show.unlike') : t('show.like')} · ${t('show.likes', { n: post.likeCount })}`)}
              aria-pressed={post.liked ? 'true' : 'false'} onClick={onLike}>
              <Text {...A11Y_HIDDEN}>{post.liked ? '♥' : '♡'} </Text><Text>{t('show.likes', { n: post.likeCount })}</Text>
            </View>
            )
          : <Text className='show-card__count'>{t('show.likes', { n: post.likeCount })}</Text>}
        <Text className='show-card__count'>{t('show.comments', { n: post.commentCount })}</Text>
      </View>
    </View>
  )
}

export default observer(ShowCard)
