import { useState } from 'react'
import { View, Text, Image, Textarea } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { SHOW_LIMITS, UPLOAD_IMAGE_TYPES } from '~types/limits'
import type { ShowPost } from '~types/show'
import EmptyState from '@/components/EmptyState'
import RarityBadge from '@/components/RarityBadge'
import { shopApi } from '@/services/shop'
import { showApi } from '@/services/show'
import { visionApi } from '@/services/vision'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { a11yControl, a11yImage, decorativeImage, tr, A11Y_HIDDEN } from '@/utils/format'
import { mediaUrl } from '@/utils/media'
import { useRemote } from '@/utils/useRemote'

/** Prizes that can be shown: the caller still has them (not recycled, not combined away). */
const SHOWABLE = new Set(['warehouse', 'shipping', 'received'])

export interface ComposeProps {
  /** A prize to start with (from the prize page's "share to the player show"). */
  prizeId?: number
  onClose: () => void
  onPosted: (post: ShowPost) => void
}

/** A new post: the caller's prizes to pick, photos (the shopper's upload), the text. */
function Compose ({ prizeId, onClose, onPosted }: ComposeProps) {
  const prizes = useRemote(async () => (await shopApi.prizeList({ page: 1, size: 50 })).list.filter(p => SHOWABLE.has(p.status)), [],
    { onError: e => toast({ message: errorMessage(e) }) })
  const [picked, setPicked] = useState<number[]>(prizeId ? [prizeId] : [])
  const [photos, setPhotos] = useState<string[]>([])
  const [text, setText] = useState('')
  const [busy, setBusy] = useState(false)

  const toggle = (id: number) => setPicked(list => list.includes(id)
    ? list.filter(x => x !== id)
    : list.length >= SHOW_LIMITS.prizesMax ? list : [...list, id])
  const upload = async (send: () => Promise<{ url: string }>) => {
    if (busy) return
    setBusy(true)
    try {
      const { url } = await send()
      setPhotos(list => list.includes(url) ? list : [...list, url])
    } catch (e) {
      toast({ message: errorMessage(e) })
    } finally { setBusy(false) }
  }
  const submit = async () => {
    if (busy) return
    const words = text.trim()
    if (!picked.length) { toast({ message: t('show.needPrize') }); return }
    if (!words) { toast({ message: t('show.needText') }); return }
    setBusy(true)
    try {
      const post = await loading.wrap(showApi.create({ prizeIds: picked, images: photos, text: words }))
      toast({ message: t('show.posted'), level: 'success' })
      onPosted(post)
    } catch (e) {
      toast({ message: errorMessage(e) })
    } finally { setBusy(false) }
  }

  const list = prizes.data
  return (
    <View className='show-compose'>
      <Text className='show-compose__title'>{t('show.composeTitle')}</Text>
      <Text className='show-compose__label'>{t('show.pickPrizes', { max: SHOW_LIMITS.prizesMax })}</Text>
      {list === undefined
        ? <Text className='show-compose__hint'>{t('feedback.loading')}</Text>
        : list.length === 0
          ? <EmptyState icon='🎁' text={t('show.noPrizes')} />
          : (
          <View className='show-compose__prizes'>
            {list.map(p => {
              const on = picked.includes(p.prizeId)
              return (
                <View key={p.prizeId} className={`show-pick show-pick-${p.prizeId} ${on ? 'show-pick--on' : ''}`}
                  {...a11yControl(undefined, 'checkbox')} aria-checked={on ? 'true' : 'false'} onClick={() => toggle(p.prizeId)}>
                  <Image className='show-pick__img' src={mediaUrl(p.design.image, 64)} mode='aspectFit' {...decorativeImage()} />
                  <Text className='show-pick__name'>{tr(p.design.name)}</Text>
                  <RarityBadge rarity={p.design.rarity} />
                  <Text className='show-pick__mark' {...A11Y_HIDDEN}>{on ? '✓' : ''}</Text>
                </View>
              )
            })}
          </View>
            )}
      <Text className='show-compose__label'>{t('show.photos', { max: SHOW_LIMITS.imagesMax })}</Text>
      <View className='show-compose__photos'>
        {photos.map((url, i) => (
          <View key={url} className='show-compose__photo-box'>
            <Image className='show-compose__photo' src={mediaUrl(url, 160)} mode='aspectFill' {...a11yImage(t('show.photo', { n: i + 1 }))} />
            <Text className='show-compose__remove' {...a11yControl(t('a11y.remove'))} onClick={() => setPhotos(l => l.filter(x => x !== url))}>×</Text>
          </View>
        ))}
        {photos.length < SHOW_LIMITS.imagesMax && (
          <View className='show-compose__add' {...(process.env.TARO_ENV === 'h5' ? {} : a11yControl(t('show.addPhoto')))}
            onClick={() => { if (process.env.TARO_ENV !== 'h5') void upload(visionApi.screenshotPick) }}>
            <Text className='show-compose__add-text'>{busy ? t('upload.sending') : `+ ${t('show.addPhoto')}`}</Text>
            {process.env.TARO_ENV === 'h5' && (
              // a browser picks the file through a real file input laid over the box
              <input className='show-compose__input' type='file' accept={UPLOAD_IMAGE_TYPES.join(',')} disabled={busy} aria-label={t('show.addPhoto')}
                onChange={e => {
                  const input = e.currentTarget
                  const file = input.files?.[0] ?? null
                  input.value = ''
                  void upload(() => visionApi.screenshotFile(file))
                }} />
            )}
          </View>
        )}
      </View>
      <Text className='show-compose__label'>{t('show.text')}</Text>
      <Textarea className='show-compose__text' value={text} maxlength={SHOW_LIMITS.textMax} placeholder={t('show.textHint', { max: SHOW_LIMITS.textMax })}
        aria-label={t('show.text')} onInput={e => setText(e.detail.value)} />
      <View className='show-compose__actions'>
        <View className='btn btn--ghost show-compose-cancel' {...a11yControl()} onClick={onClose}>{t('show.cancel')}</View>
        <View className={`btn btn--primary show-compose-post ${busy ? 'btn--disabled' : ''}`} {...a11yControl()} onClick={submit}>{t('show.post')}</View>
      </View>
    </View>
  )
}

export default observer(Compose)
