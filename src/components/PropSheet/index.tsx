import { forwardRef, useImperativeHandle, useState } from 'react'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import type { PropKind, PropShown, PropsState } from '~types/props'
import { t } from '@/stores/locale'
import { tr } from '@/utils/format'
import './index.scss'

export interface PropSheetHandle {
  /** Shows the props for an unsold slot (what was shown about it already, and what can be used). */
  open: (slot: number) => void
  close: () => void
}

interface Props {
  state: PropsState | null
  hints: PropShown[]
  onUse: (kind: PropKind, slot: number) => void
}

const ICONS: Record<PropKind, string> = { shake: '📳', hint: '💡', xray: '🔍' }

/** The props of one slot, opened by a long press on it (through the component interaction helper). */
const PropSheet = forwardRef<PropSheetHandle, Props>(function PropSheet ({ state, hints, onUse }, ref) {
  const [slot, setSlot] = useState<number | null>(null)
  useImperativeHandle(ref, () => ({ open: (s: number) => setSlot(s), close: () => setSlot(null) }), [])
  if (slot === null) return null
  const left = (k: PropKind) => (state ? (k === 'shake' ? state.shakesLeft : state.cards[k]) : 0)
  const known = hints.filter(h => h.slot === slot)
  return (
    <View className='prop-sheet'>
      <View className='prop-sheet__mask' onClick={() => setSlot(null)} />
      <View className='prop-sheet__panel'>
        <Text className='prop-sheet__title'>{t('detail.propsFor', { slot })}</Text>
        {known.map((h, i) => (
          <Text key={i} className={`prop-sheet__known ${h.isNot ? '' : 'prop-sheet__known--is'}`}>
            {t(h.isNot ? 'props.isNot' : 'props.is', { slot, design: tr(h.design.name) })}
          </Text>
        ))}
        <View className='prop-sheet__buttons'>
          {(['shake', 'hint', 'xray'] as const).map(k => (
            <View key={k} className={`prop-sheet__use prop-sheet-${k} ${left(k) > 0 ? '' : 'prop-sheet__use--off'}`}
              onClick={() => { if (left(k) > 0) { setSlot(null); onUse(k, slot) } }}>
              <Text className='prop-sheet__icon'>{ICONS[k]}</Text>
              <Text className='prop-sheet__name'>{t(`props.${k}`)}</Text>
              <Text className='prop-sheet__left'>{k === 'shake' ? t('props.shakesLeft', { n: left(k) }) : t('props.owned', { n: left(k) })}</Text>
            </View>
          ))}
        </View>
        <Text className='prop-sheet__more'>{t('detail.propsMore')}</Text>
      </View>
    </View>
  )
})

export default observer(PropSheet)
