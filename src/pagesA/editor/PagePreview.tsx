import { useRef, useState } from 'react'
import { View, Text, Image } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { IMAGE_PREVIEW_ZOOM_MAX, IMAGE_PREVIEW_ZOOM_MIN } from '@/constants'
import { t } from '@/stores/locale'
import { mediaUrl } from '@/utils/media'
import { clampZoom, doubleTapZoom, pinchZoom, stepZoom, touchDistance } from '@/utils/zoom'
import { a11yControl } from '@/utils/format'

const DOUBLE_TAP_MS = 300

/** A PDF's pages full size, one at a time: zoom 1 to 4 (spec 9) by pinch, double tap or − / +, previous and next. */
function PagePreview ({ pages, start, onClose }: { pages: Array<{ url: string }>; start: number; onClose: () => void }) {
  const [index, setIndex] = useState(start)
  const [zoom, setZoom] = useState(IMAGE_PREVIEW_ZOOM_MIN)
  const pinch = useRef<{ zoom: number; distance: number } | null>(null)
  const lastTap = useRef(0)
  type Touches = { touches: ArrayLike<{ clientX: number; clientY: number }> }
  const go = (by: number) => { setIndex(i => Math.min(pages.length - 1, Math.max(0, i + by))); setZoom(IMAGE_PREVIEW_ZOOM_MIN) }
  const onTap = () => {
    const now = Date.now()
    if (now - lastTap.current < DOUBLE_TAP_MS) { setZoom(z => doubleTapZoom(z)); lastTap.current = 0 } else lastTap.current = now
  }
  return (
    <View className='page-preview' catchMove>
      <View className='page-preview__stage'
        onTouchStart={ev => { const e = ev as unknown as Touches; if (e.touches.length === 2) pinch.current = { zoom, distance: touchDistance(e.touches[0], e.touches[1]) } }}
        onTouchMove={ev => { const e = ev as unknown as Touches; if (pinch.current && e.touches.length === 2) setZoom(pinchZoom(pinch.current.zoom, pinch.current.distance, touchDistance(e.touches[0], e.touches[1]))) }}
        onTouchEnd={() => { pinch.current = null }} onTouchCancel={() => { pinch.current = null }}>
        <Image className='page-preview__img' src={mediaUrl(pages[index].url)} mode='widthFix' onClick={onTap} style={{ transform: `scale(${clampZoom(zoom)})` }} />
      </View>
      <View className='page-preview__panel'>
        <View className={`page-preview__btn page-preview-prev ${index === 0 ? 'page-preview__btn--off' : ''}`} {...a11yControl(t('a11y.prevPage'))} onClick={() => go(-1)}>‹</View>
        <Text className='page-preview__level page-preview-index'>{`${index + 1} / ${pages.length}`}</Text>
        <View className={`page-preview__btn page-preview-next ${index === pages.length - 1 ? 'page-preview__btn--off' : ''}`} {...a11yControl(t('a11y.nextPage'))} onClick={() => go(1)}>›</View>
        <View className={`page-preview__btn zoom-out ${zoom <= IMAGE_PREVIEW_ZOOM_MIN ? 'page-preview__btn--off' : ''}`} onClick={() => setZoom(z => stepZoom(z, -1))}>−</View>
        <Text className='page-preview__level page-preview-zoom'>{`${Math.round(zoom * 10) / 10}×`}</Text>
        <View className={`page-preview__btn zoom-in ${zoom >= IMAGE_PREVIEW_ZOOM_MAX ? 'page-preview__btn--off' : ''}`} onClick={() => setZoom(z => stepZoom(z, 1))}>+</View>
        <View className='page-preview__close page-preview-close' onClick={onClose}>{t('pdfPages.close')}</View>
      </View>
    </View>
  )
}

export default observer(PagePreview)
