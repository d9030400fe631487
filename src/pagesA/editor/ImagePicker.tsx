import { useState } from 'react'
import { View, Text, Image } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { UPLOAD_IMAGE_TYPES, UPLOAD_MAX_MB } from '~types/limits'
import { t } from '@/stores/locale'
import { errorMessage } from '@/services/request'
import { chooseAndUpload, uploadFileObject } from '@/services/upload'
import { toast } from '@/utils/feedback'
import { decorativeImage } from '@/utils/format'
import { mediaUrl } from '@/utils/media'

export interface ImagePickerProps {
  value: string | null
  onChange: (url: string) => void
  /** A class for tests and layout (e.g. design-image-2). */
  className?: string
  label?: string
  error?: string
}

/**
 * One image of the editor: the picture (or a dashed box asking for one) and, tapped, an upload: the
 * mini-program's chooseImage + uploadFile, or in a browser a file input over the box. The size limit is
 * shown beside it; while uploading the box says so and takes no second pick.
 */
function ImagePicker ({ value, onChange, className = '', label, error }: ImagePickerProps) {
  const [busy, setBusy] = useState(false)
  const run = async (send: () => Promise<{ url: string }>) => {
    if (busy) return
    setBusy(true)
    try {
      const { url } = await send()
      onChange(url)
    } catch (e) {
      toast({ message: errorMessage(e) })
    } finally {
      setBusy(false)
    }
  }
  const pick = () => { if (process.env.TARO_ENV !== 'h5') void run(chooseAndUpload) }
  return (
    <View className={`image-picker ${className} ${error ? 'image-picker--error' : ''}`} onClick={pick}>
      {value
        ? <Image className='image-picker__img' src={mediaUrl(value, 140)} mode='aspectFit' {...decorativeImage()} />
        : <Text className='image-picker__empty'>{busy ? t('upload.sending') : `+ ${label ?? t('upload.pick')}`}</Text>}
      {value && busy && <Text className='image-picker__busy'>{t('upload.sending')}</Text>}
      {process.env.TARO_ENV === 'h5' && (
        // a browser picks the file through a real file input laid over the box
        <input className='image-picker__input' type='file' accept={UPLOAD_IMAGE_TYPES.join(',')} disabled={busy}
          aria-label={label ?? t('upload.pick')} title={t('upload.limit', { mb: UPLOAD_MAX_MB })}
          onChange={e => {
            const input = e.currentTarget
            const file = input.files?.[0] ?? null
            input.value = ''
            void run(() => uploadFileObject(file))
          }} />
      )}
    </View>
  )
}

export default observer(ImagePicker)
