import { useState } from 'react'
import { View, Text } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { UPLOAD_IMAGE_TYPES } from '~types/limits'
import { t } from '@/stores/locale'
import './index.scss'

export interface PhotoButtonProps<T> {
  label: string
  className: string
  /** Mini-program: pick or take a photo and send it (chooseImage + uploadFile). */
  pick: () => Promise<T>
  /** Browser: send the file a file input picked. */
  file: (f: File | null) => Promise<T>
  onDone: (result: T) => void
  onError: (e: unknown) => void
}

/**
 * A button that takes a photo (or picks one) and sends it: the mini-program's chooseImage on a tap, or
 * in a browser a real file input laid over the button (a phone offers its camera there). While the
 * photo travels the button says so and takes no second one.
 */
function PhotoButton<T> ({ label, className, pick, file, onDone, onError }: PhotoButtonProps<T>) {
  const [busy, setBusy] = useState(false)
  const run = async (send: () => Promise<T>) => {
    if (busy) return
    setBusy(true)
    try {
      onDone(await send())
    } catch (e) {
      onError(e)
    } finally {
      setBusy(false)
    }
  }
  return (
    <View className={`photo-button ${className} ${busy ? 'photo-button--busy' : ''}`}
      onClick={() => { if (process.env.TARO_ENV !== 'h5') void run(pick) }}>
      <Text className='photo-button__label'>{busy ? t('vision.working') : `📷 ${label}`}</Text>
      {process.env.TARO_ENV === 'h5' && (
        <input className='photo-button__input' type='file' accept={UPLOAD_IMAGE_TYPES.join(',')} disabled={busy} aria-label={label}
          onChange={e => {
            const input = e.currentTarget
            const picked = input.files?.[0] ?? null
            input.value = ''
            void run(() => file(picked))
          }} />
      )}
    </View>
  )
}

export default observer(PhotoButton) as typeof PhotoButton
