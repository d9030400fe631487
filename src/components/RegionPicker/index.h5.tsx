/**
 * The 省市区 region of an address (issue 48), web build: a sheet that lists the provinces, then the
 * chosen province's cities, then the city's districts, each list asked of the server when it is needed
 * (types/regions.ts), so the bundle carries none of China's 3,900 names. The tabs at its top go back to
 * a level; picking a district closes it with the three parts.
 */
import { useState } from 'react'
import { Text, View } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { RegionEntry } from '~types/regions'
import { regionApi } from '@/services/orderHistory'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { a11yControl } from '@/utils/format'
import { useRemote } from '@/utils/useRemote'
import { regionPartsText, type RegionPickerProps } from './parts'
import './index.scss'

type Level = 0 | 1 | 2

function RegionPicker ({ value, fallback, invalid, onChange }: RegionPickerProps) {
  const [open, setOpen] = useState(false)
  // the entries picked so far, one per level
  const [path, setPath] = useState<RegionEntry[]>([])
  const level = path.length as Level
  const lists = useRemote(() => regionApi.list(path[level - 1]?.code), [open, level, path[level - 1]?.code], { enabled: open })
  const shown = value ? regionPartsText(value) : fallback

  const pick = (entry: RegionEntry) => {
    const next = [...path, entry]
    if (next.length < 3) { setPath(next); return }
    onChange({ province: next[0].name, city: next[1].name, district: next[2].name })
    setOpen(false)
  }
  const labels = [t('region.province'), t('region.city'), t('region.district')]

  return (
    <View className='region-picker'>
      <View className={`region-picker__field ${invalid ? 'region-picker__field--error' : ''}`} onClick={() => { setPath([]); setOpen(true) }}
        {...a11yControl(shown ? `${t('region.label')}: ${shown}` : t('region.choose'))}>
        <Text className={shown ? 'region-picker__value' : 'region-picker__placeholder'}>{shown || t('region.choose')}</Text>
        <Text className='region-picker__arrow'>›</Text>
      </View>
      {open && (
        <View className='region-sheet'>
          <View className='region-sheet__mask' onClick={() => setOpen(false)} />
          <View className='region-sheet__panel'>
            <View className='region-sheet__head'>
              <Text className='region-sheet__title'>{t('region.title')}</Text>
              <Text className='region-sheet__close' onClick={() => setOpen(false)} {...a11yControl(t('ship.close'))}>✕</Text>
            </View>
            <View className='region-sheet__tabs'>
              {labels.map((label, i) => i <= level && (
                <Text key={i} className={`region-sheet__tab ${i === level ? 'region-sheet__tab--on' : ''}`} onClick={() => setPath(path.slice(0, i))}>
                  {path[i]?.name ?? label}
                </Text>
              ))}
            </View>
            {lists.failed && <Text className='region-sheet__hint region-sheet__hint--warn'>{errorMessage(lists.error)}</Text>}
            {!lists.data && !lists.failed && <Text className='region-sheet__hint'>{t('feedback.loading')}</Text>}
            <View className='region-sheet__list'>
              {lists.data?.list.map(entry => (
                <Text key={entry.code} className={`region-sheet__item region-${entry.code}`} onClick={() => pick(entry)}>{entry.name}</Text>
              ))}
            </View>
          </View>
        </View>
      )}
    </View>
  )
}

export default observer(RegionPicker)
