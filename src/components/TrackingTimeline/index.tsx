/**
 * A parcel's journey (issue 8): the events of expressInquiry as a timeline, newest first. Carrier and
 * tracking number (with a copy button) are always shown, so when the shop has no tracking
 * (capabilitiesStore: then it is not even asked) or it fails, the shopper can still look the parcel
 * up with the carrier.
 */
import { Text, View } from '@tarojs/components'
import Taro from '@tarojs/taro'
import { observer } from '@/stores/mobx'
import type { ExpressTrack } from '~types/express'
import { isH5 } from '@/config'
import { expressApi } from '@/services/express'
import { isNotConfigured } from '@/services/geo'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { capabilitiesStore } from '@/stores/capabilities'
import { toast } from '@/utils/feedback'
import { withPrivacyRetry } from '@/utils/permission'
import { useRemote } from '@/utils/useRemote'
import { carrierName } from './carrier'
import './index.scss'

export interface TrackingTimelineProps {
  /** Kuaidi100's carrier code, e.g. zhongtong, shunfeng. */
  com: string
  num: string
  /** The phone of the sender or receiver (or its last four digits): needed for shunfeng. */
  phone?: string
}

type Answer = { kind: 'ok'; track: ExpressTrack } | { kind: 'off' }
type State = { kind: 'loading' } | Answer | { kind: 'failed'; message: string }

function TrackingTimeline ({ com, num, phone }: TrackingTimelineProps) {
  const answer = useRemote<Answer>(async () => {
    const settings = await capabilitiesStore.ensure().catch(() => null)
    if (settings && !settings.capabilities.tracking) return { kind: 'off' }
    try {
      return { kind: 'ok', track: await expressApi.inquiry(phone ? { com, num, phone } : { com, num }) }
    } catch (e) {
      if (isNotConfigured(e)) return { kind: 'off' }
      throw e
    }
  }, [com, num, phone])
  // "loading" while any request runs (a retry too), as before the answer
  const state: State = answer.loading || (!answer.data && !answer.failed)
    ? { kind: 'loading' }
    : answer.failed ? { kind: 'failed', message: errorMessage(answer.error) } : answer.data!
  const load = answer.retry

  const copy = async () => {
    try {
      // privacy declined (the mini-program): says why and offers to ask again (issue 22)
      await withPrivacyRetry(() => Taro.setClipboardData({ data: num }), 'privacy.clipboardNeeded')
      // the mini-program shows its own "copied" toast
      if (isH5()) await toast(t('tracking.copied'))
    } catch {
      // declined after all: the dialog said why; any other failure the platform reported itself
    }
  }

  return (
    <View className='tracking'>
      <View className='tracking__head'>
        <View className='tracking__ids'>
          <Text className='tracking__carrier'>{carrierName(com)}</Text>
          <Text className='tracking__num'>{t('tracking.number')} {num}</Text>
        </View>
        <View className='tracking__copy' onClick={copy}>{t('tracking.copy')}</View>
      </View>

      {state.kind === 'loading' && <Text className='tracking__hint'>{t('tracking.loading')}</Text>}

      {(state.kind === 'off' || state.kind === 'failed') && (
        <View className='tracking__notice'>
          <Text>{state.kind === 'off' ? t('tracking.notConfigured') : t('tracking.unavailable')}</Text>
          {state.kind === 'failed' && <Text className='tracking__reason'>{state.message}</Text>}
          {state.kind === 'failed' && <View className='tracking__retry' onClick={load}>{t('tracking.retry')}</View>}
        </View>
      )}

      {state.kind === 'ok' && (
        <View className='tracking__body'>
          <Text className={`tracking__state ${state.track.delivered ? 'tracking__state--done' : ''}`}>
            {state.track.delivered ? t('tracking.delivered') : (state.track.events[0]?.status || t('tracking.inTransit'))}
          </Text>
          {state.track.events.length === 0 && <Text className='tracking__hint'>{t('tracking.empty')}</Text>}
          <View className='tracking__events'>
            {state.track.events.map((e, i) => (
              <View key={`${e.time}-${i}`} className={`tracking__event ${i === 0 ? 'tracking__event--latest' : ''}`}>
                <View className='tracking__rail'>
                  <View className='tracking__dot' />
                  {i < state.track.events.length - 1 && <View className='tracking__line' />}
                </View>
                <View className='tracking__event-body'>
                  <Text className='tracking__context'>{e.context}</Text>
                  <Text className='tracking__time'>{e.time}{e.location ? ` · ${e.location}` : ''}</Text>
                </View>
              </View>
            ))}
          </View>
        </View>
      )}
    </View>
  )
}

export default observer(TrackingTimeline)
