import { useState } from 'react'
import { View, Text } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { PackingSlip as Slip } from '~types/afterDraw'
import QrCode from '@/components/QrCode'
import { operatorApi } from '@/services/afterDraw'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { formatTime, tr } from '@/utils/format'
import { useRemote } from '@/utils/useRemote'
import './slip.scss'

/**
 * The packing slip of a shipment over the editor: the address, the shipment number and per prize its
 * design, the proof of its draw (its case's commitment, or its combine's seeds and nonce) and a QR code
 * of its check link. On H5, "Print" prints the slip alone (see slip.scss).
 */
function PackingSlip ({ shipmentId, onClose }: { shipmentId: number; onClose: () => void }) {
  const answer = useRemote<Slip>(() => operatorApi.packingSlip(shipmentId), [shipmentId])
  const slip = answer.data ?? null
  const failed = answer.failed ? errorMessage(answer.error) : ''
  const top = useNavigationBarBottom()

  const print = () => {
    if (process.env.TARO_ENV === 'h5') window.print()
  }
  const s = slip?.shipment
  const codeOf = (prizeId: number) => slip?.codes.find(c => c.prizeId === prizeId)

  return (
    <View className='packing-slip-overlay' style={top ? { top: `${top}px` } : undefined}>
      <View className='packing-slip__actions'>
        {process.env.TARO_ENV === 'h5' && <View className={`btn btn--primary slip-print ${s ? '' : 'btn--disabled'}`} onClick={print}>{t('slip.print')}</View>}
        <View className='btn btn--ghost slip-close' onClick={onClose}>{t('slip.close')}</View>
      </View>
      {!s && <Text className='packing-slip__state'>{failed || t('feedback.loading')}</Text>}
      {s && (
        <View className='packing-slip'>
          <View className='packing-slip__head'>
            <View>
              <Text className='packing-slip__shop'>{t('app.name')}</Text>
              <Text className='packing-slip__title'>{t('slip.title')}</Text>
            </View>
            <View className='packing-slip__no'>
              <Text className='packing-slip__k'>{t('slip.number')}</Text>
              <Text className='packing-slip__number'>#{s.id}</Text>
              <Text className='packing-slip__k'>{t('slip.date')} {formatTime(s.createdAt).slice(0, 10)}</Text>
            </View>
          </View>
          <View className='packing-slip__to'>
            <Text className='packing-slip__k'>{t('slip.to')}</Text>
            {/* the full number: the slip travels in the parcel for the courier and the counter (operators print it) */}
            <Text className='packing-slip__receiver'>{s.address.name}  {s.address.phone}</Text>
            <Text className='packing-slip__address'>{s.address.region} {s.address.detail}</Text>
          </View>
          <Text className='packing-slip__k'>{t('slip.items')} ({s.items.length})</Text>
          {s.items.map((item, i) => {
            const code = codeOf(item.prizeId)
            const url = code?.verifyUrl
            const combine = code?.combineProof
            return (
              <View key={item.prizeId} className='slip-item'>
                {url ? <QrCode text={url} className='slip-item__qr' /> : <View className='slip-item__qr' />}
                <View className='slip-item__text'>
                  <Text className='slip-item__name'>{i + 1}. {tr(item.design.name)}</Text>
                  <Text className='slip-item__sub'>{tr(item.seriesTitle)}</Text>
                  {/* the proof of its draw: its case's commitment, or (a prize made by combining has no case) its combine's draw */}
                  {item.combineId !== null
                    ? <Text className='slip-item__sub slip-item__combine'>{t('slip.combine', { id: item.combineId, nonce: combine?.nonce ?? '', clientSeed: combine?.clientSeed ?? '' })}</Text>
                    : <Text className='slip-item__sub'>{t('chest.caseSlot', { case: item.caseId, slot: item.slot })}</Text>}
                  {combine && <Text className='slip-item__proof'>{t('slip.seedHash')}: {combine.serverSeedHash}</Text>}
                  {code?.caseCommit && <Text className='slip-item__proof'>{t('slip.commit')}: {code.caseCommit}</Text>}
                  <Text className='slip-item__id'>ID {item.prizeId}</Text>
                </View>
              </View>
            )
          })}
          <Text className='packing-slip__hint'>{t('slip.scanHint')}</Text>
        </View>
      )}
    </View>
  )
}

export default observer(PackingSlip)

/**
 * H5: where Taro's navigation bar ends. The page is its own stacking context under the bar, so an
 * overlay inside it cannot cover the bar: it starts below it instead (0 in the mini-program).
 */
function useNavigationBarBottom (): number {
  const [bottom] = useState(() => {
    if (process.env.TARO_ENV !== 'h5') return 0
    const bar = document.getElementById('taro-navigation-bar')
    return bar ? Math.max(0, Math.round(bar.getBoundingClientRect().bottom)) : 0
  })
  return bottom
}
