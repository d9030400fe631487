import { forwardRef, useImperativeHandle, useRef, useState } from 'react'
import { View, Text } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { PropKind, PropShown, PropsState } from '~types/props'
import { t } from '@/stores/locale'
import { tr, A11Y_HIDDEN } from '@/utils/format'
import { RELEASE_GUARD_MS } from './timing'
import './index.scss'

export interface PropSheetHandle {
  /**
   * Shows the props for an unsold slot (what was shown about it already, and what can be used).
   * `pressing`: opened by a finger that is still down (a long press); call `released` when it lifts.
   */
  open: (slot: number, pressing?: boolean) => void
  /** The finger that opened the sheet lifted. */
  released: () => void
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
  // pressing: the opening finger is still down; releasedAt: when it lifted; touched: a touch began on the sheet since
  const guard = useRef({ pressing: false, releasedAt: 0, touched: false })
  useImperativeHandle(ref, () => ({
    open: (s: number, pressing = false) => {
      guard.current = { pressing, releasedAt: pressing ? 0 : Date.now() - RELEASE_GUARD_MS, touched: false }
      setSlot(s)
    },
    released: () => {
      if (guard.current.pressing) guard.current = { ...guard.current, pressing: false, releasedAt: Date.now() }
    },
    close: () => setSlot(null)
  }), [])
  if (slot === null) return null
  /** Whether a tap on the sheet is the shopper's own (not the end of the press that opened it). */
  const own = () => guard.current.touched || (!guard.current.pressing && Date.now() - guard.current.releasedAt >= RELEASE_GUARD_MS)
  const left = (k: PropKind) => (state ? (k === 'shake' ? state.shakesLeft : state.cards[k]) : 0)
  const known = hints.filter(h => h.slot === slot)
  return (
    <View className='prop-sheet' onTouchStart={() => { guard.current.touched = true }}>
      <View className='prop-sheet__mask' onClick={() => { if (own()) setSlot(null) }} />
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
              onClick={() => { if (own() && left(k) > 0) { setSlot(null); onUse(k, slot) } }}>
              <Text className='prop-sheet__icon' {...A11Y_HIDDEN}>{ICONS[k]}</Text>
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
