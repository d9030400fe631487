import { View, Text } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { LoginSettings } from '~types/accounts'
import Section from '@/components/Section'
import { capabilitiesStore } from '@/stores/capabilities'
import { t } from '@/stores/locale'
import type { MessageKey } from '@/locales/types'
import { useHelpers } from '@/utils/useHelpers'
import { Known, SERVICES } from './services'
import { notifyApi } from '@/services/complaints'
import { errorMessage } from '@/services/request'
import { loading, toast } from '@/utils/feedback'
import { formatTime } from '@/utils/format'
import { useRemote } from '@/utils/useRemote'

/** The Settings tab's list of services: on or off here, and what to set on the server. */
function ServicesPanel () {
  const [helpers] = useHelpers()
  // asked afresh (another operator may have changed the server meanwhile); a failure leaves them unknown
  const settings: LoginSettings | null = useRemote(() => capabilitiesStore.refresh(), []).data ?? null
  const known: Known = { settings, helpers }
  // a test alert to each robot (spec 7 /api/feishuRobotText, /api/wechatRobotText): the answer says whether it is set up
  const robotTest = async (robot: 'feishu' | 'wecom') => {
    const text = t('notify.testText', { time: formatTime(new Date().toISOString()) })
    try {
      await loading.wrap(robot === 'feishu' ? notifyApi.feishuRobotText(text) : notifyApi.wechatRobotText(text))
      toast({ message: t(robot === 'feishu' ? 'notify.feishuSent' : 'notify.wecomSent'), level: 'success' })
    } catch (e) { toast({ message: errorMessage(e) }) }
  }
  return (
    <Section title={t('opSettings.services')} className='op-services'>
      <Text className='editor-hint op-services__intro'>{t('opSettings.servicesIntro')}</Text>
      {SERVICES.map(s => {
        const on = s.on?.(known)
        const state = s.on === undefined ? 'unknown' : on === undefined ? 'loading' : on && s.devLog?.(known) ? 'dev' : on ? 'on' : 'off'
        return (
          <View key={s.key} className={`op-service op-service-${s.key} op-service--${state}`}>
            <View className='op-service__head'>
              <Text className='op-service__name'>{t(`opSettings.svc.${s.key}` as MessageKey)}</Text>
              {state !== 'loading' && (
                <Text className={`op-service__state op-service__state--${state}`}>
                  {t(state === 'on' ? 'opSettings.serviceOn' : state === 'off' ? 'opSettings.serviceOff' : state === 'dev' ? 'opSettings.serviceDevLog' : 'opSettings.serviceUnknown')}
                </Text>
              )}
            </View>
            <Text className='op-service__env'>{t('opSettings.serviceSet')}: {s.env.join(', ')}</Text>
            {s.key === 'robots' && (
              <View className='op-service__tests'>
                <Text className='chip op-robot-test op-robot-feishu' onClick={() => { void robotTest('feishu') }}>{t('notify.testFeishu')}</Text>
                <Text className='chip op-robot-test op-robot-wecom' onClick={() => { void robotTest('wecom') }}>{t('notify.testWecom')}</Text>
              </View>
            )}
          </View>
        )
      })}
    </Section>
  )
}

export default observer(ServicesPanel)
