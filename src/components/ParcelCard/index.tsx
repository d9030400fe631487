import { View, Text, Image } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { Shipment } from '~types/afterDraw'
import TrackingTimeline from '@/components/TrackingTimeline'
import ParcelRoute from '@/components/ParcelRoute'
import { afterDrawApi } from '@/services/afterDraw'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { dialog, loading, toast } from '@/utils/feedback'
import { formatCents, formatTime, tr, decorativeImage, maskPhone } from '@/utils/format'
import { mediaUrl } from '@/utils/media'
import { navigate } from '@/utils/navigation'
import { openInMapApp } from '@/utils/mapLinks'
import type { ReactNode } from 'react'
import './index.scss'

interface Props {
  shipment: Shipment
  onChanged: (s: Shipment) => void
  /** Instead of the tracking timeline (carrier, number with a copy button, the carrier's events). */
  tracking?: ReactNode
}

/** One parcel: status, address, items, carrier and number (copyable), tracking, and "confirm receipt". */
function ParcelCard ({ shipment: s, onChanged, tracking }: Props) {
  const confirm = async () => {
    if (!await dialog({ message: t('parcel.confirmAsk') })) return
    try {
      onChanged(await loading.wrap(afterDrawApi.confirm(s.id)))
      toast({ message: t('parcel.confirmed'), level: 'success' })
    } catch (e) { toast({ message: errorMessage(e) }) }
  }
  // at the counter: the shopper sees the prizes handed over as the operator scans them
  const refresh = async () => {
    try { onChanged(await afterDrawApi.shipmentDetail(s.id)) } catch (e) { toast({ message: errorMessage(e) }) }
  }
  const p = s.pickup
  const handed = s.items.filter(i => i.handedAt).length
  return (
    <View className={`parcel parcel-${s.id} parcel--${s.status} ${p ? 'parcel--pickup' : ''}`}>
      <View className='parcel__head'>
        <Text className='parcel__no'>{t(p ? 'pickup.number' : 'parcel.number', { id: s.id })}</Text>
        <Text className={`parcel__status parcel__status--${s.status}`}>{p ? t(s.status === 'received' ? 'pickup.collected' : 'pickup.waiting') : t(`parcel.${s.status}`)}</Text>
      </View>
      {p
        ? (
          <View className='parcel__pickup'>
            <Text className='parcel__addr'>{t('pickup.at', { name: p.name })} · {p.address}</Text>
            <Text className='parcel__addr'>{t('pickup.openHours', { hours: p.hours })} · {t('pickup.who', { name: s.address.name, phone: maskPhone(s.address.phone) })}</Text>
            {s.status === 'requested' && <Text className='parcel__auto'>{t('pickup.bring', { handed, n: s.items.length })}</Text>}
            {s.status === 'requested' && <Text className='parcel__refresh' onClick={refresh}>{t('pickup.refresh')}</Text>}
            {s.status === 'requested' && (
              <View className='btn btn--ghost parcel__map' onClick={() => { openInMapApp({ latitude: p.latitude, longitude: p.longitude, name: p.name, address: p.address }).catch(e => toast({ message: errorMessage(e) })) }}>{t('pickup.openMap')}</View>
            )}
          </View>
          )
        : <Text className='parcel__addr'>{s.address.name} {maskPhone(s.address.phone)} · {s.address.region} {s.address.detail}</Text>}
      <View className='parcel__items'>
        {s.items.map(i => (
          <View key={i.prizeId} className='parcel__item' onClick={() => navigate(`/pagesA/prize_detail/index?prizeId=${i.prizeId}`)}>
            <Image className='parcel__img' src={mediaUrl(i.design.image, 96)} mode='aspectFit' lazyLoad {...decorativeImage()} />
            <Text className='parcel__name'>{tr(i.design.name)}</Text>
          </View>
        ))}
      </View>
      <Text className='parcel__meta'>{t('parcel.items', { n: s.items.length })} · {s.feeCents ? t('parcel.fee', { fee: formatCents(s.feeCents) }) : t('ship.free')} · {formatTime(s.createdAt)}</Text>
      {s.carrier && s.trackingNo && (tracking ?? <TrackingTimeline com={s.carrier} num={s.trackingNo} phone={s.address.phone} />)}
      {s.carrier && s.trackingNo && !tracking && s.status === 'shipping' && <ParcelRoute com={s.carrier} num={s.trackingNo} to={`${s.address.region}${s.address.detail ? ` ${s.address.detail}` : ''}`.slice(0, 60)} phone={s.address.phone} />}
      {s.status === 'shipping' && s.autoReceiveAt && <Text className='parcel__auto'>{t('parcel.autoOn', { date: formatTime(s.autoReceiveAt) })}</Text>}
      {s.status === 'received' && s.receivedBy === 'auto' && <Text className='parcel__auto'>{t('parcel.auto')}</Text>}
      {s.status === 'shipping' && <View className='btn btn--primary parcel__confirm' onClick={confirm}>{t('parcel.confirm')}</View>}
    </View>
  )
}

export default observer(ParcelCard)
