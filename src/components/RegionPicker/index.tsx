/**
 * The 省市区 region of an address (issue 48), mini-program build: WeChat's own region picker
 * (`<picker mode="region">`, its province, city and district lists built in, nothing in our package):
 * https://developers.weixin.qq.com/miniprogram/dev/component/picker.html
 * The web build has its own (index.h5.tsx) over the shop's region lists.
 */
import { Picker, Text, View } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { RegionParts } from '~types/regions'
import { t } from '@/stores/locale'
import { regionPartsText, type RegionPickerProps } from './parts'
import './index.scss'

function RegionPicker ({ value, fallback, invalid, onChange }: RegionPickerProps) {
  const shown = value ? regionPartsText(value) : fallback
  return (
    <Picker className='region-picker' mode='region' value={value ? [value.province, value.city, value.district] : []}
      onChange={e => {
        const [province, city, district] = e.detail.value as string[]
        if (province && city && district) onChange({ province, city, district } satisfies RegionParts)
      }}>
      <View className={`region-picker__field ${invalid ? 'region-picker__field--error' : ''}`}>
        <Text className={shown ? 'region-picker__value' : 'region-picker__placeholder'}>{shown || t('region.choose')}</Text>
        <Text className='region-picker__arrow'>›</Text>
      </View>
    </Picker>
  )
}

export default observer(RegionPicker)
