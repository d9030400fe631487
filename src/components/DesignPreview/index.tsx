import { useRef, useState } from 'react'
import { View, Text, Image } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { DesignInfo } from '~types/shop'
import RarityBadge from '@/components/RarityBadge'
import { IMAGE_PREVIEW_ZOOM_MAX, IMAGE_PREVIEW_ZOOM_MIN } from '@/constants'
import { t } from '@/stores/locale'
import { formatCents, formatPpm, tr, a11yImage, designLabel, a11yControl } from '@/utils/format'
import { mediaUrl } from '@/utils/media'
import { clampZoom, doubleTapZoom, pinchZoom, stepZoom, touchDistance } from '@/utils/zoom'
import './index.scss'

export interface DesignPreviewProps {
  design: DesignInfo
  onClose: () => void
}

const DOUBLE_TAP_MS = 300

/** A design full size: zoom 1 to 4 by pinch, double tap or the − / + buttons, with its rarity, odds and values. */
function DesignPreview ({ design, onClose }: DesignPreviewProps) {
  const [zoom, setZoom] = useState(IMAGE_PREVIEW_ZOOM_MIN)
  const pinch = useRef<{ zoom: number; distance: number } | null>(null)
  const lastTap = useRef(0)

  // Taro types a View's touch handlers loosely: the event carries touches on every platform
  type Touches = { touches: ArrayLike<{ clientX: number; clientY: number }> }
  const onTouchStart = (ev: object) => {
    const e = ev as Touches
    if (e.touches.length === 2) pinch.current = { zoom, distance: touchDistance(e.touches[0], e.touches[1]) }
  }
  const onTouchMove = (ev: object) => {
    const e = ev as Touches
    if (pinch.current && e.touches.length === 2) setZoom(pinchZoom(pinch.current.zoom, pinch.current.distance, touchDistance(e.touches[0], e.touches[1])))
  }
  const onTouchEnd = () => { pinch.current = null }
  const onImageTap = () => {
    const now = Date.now()
    if (now - lastTap.current < DOUBLE_TAP_MS) { setZoom(z => doubleTapZoom(z)); lastTap.current = 0 } else lastTap.current = now
  }

  return (
    <View className='design-preview' catchMove onClick={onClose}>
      <View className='design-preview__stage' onClick={e => e.stopPropagation()}
        onTouchStart={onTouchStart} onTouchMove={onTouchMove} onTouchEnd={onTouchEnd} onTouchCancel={onTouchEnd}>
        <Image className='design-preview__img' src={mediaUrl(design.image, 600)} mode='aspectFit' {...a11yImage(designLabel(design))} onClick={onImageTap}
          style={{ transform: `scale(${clampZoom(zoom)})` }} />
      </View>
      <View className='design-preview__panel' onClick={e => e.stopPropagation()}>
        <View className='design-preview__head'>
          <Text className='design-preview__name'>{tr(design.name)}</Text>
          <RarityBadge rarity={design.rarity} />
        </View>
        <Text className='design-preview__line'>{t('detail.previewOdds', { odds: formatPpm(design.oddsPpm) })}</Text>
        <Text className='design-preview__line'>{t('detail.previewValues', { reference: formatCents(design.referenceValueCents), recycle: formatCents(design.recycleValueCents) })}</Text>
        <View className='design-preview__zoom'>
          <View className={`design-preview__btn zoom-out ${zoom <= IMAGE_PREVIEW_ZOOM_MIN ? 'design-preview__btn--off' : ''}`} {...a11yControl(t('a11y.zoomOut'))} onClick={() => setZoom(z => stepZoom(z, -1))}>−</View>
          <Text className='design-preview__level'>{`${Math.round(zoom * 10) / 10}×`}</Text>
          <View className={`design-preview__btn zoom-in ${zoom >= IMAGE_PREVIEW_ZOOM_MAX ? 'design-preview__btn--off' : ''}`} {...a11yControl(t('a11y.zoomIn'))} onClick={() => setZoom(z => stepZoom(z, 1))}>+</View>
          <View className='design-preview__close' {...a11yControl()} onClick={onClose}>{t('detail.previewClose')}</View>
        </View>
      </View>
    </View>
  )
}

export default observer(DesignPreview)
