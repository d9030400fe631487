import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { SecurityOverview } from '~types/security'
import Section from '@/components/Section'
import { securityApi } from '@/services/security'
import { errorMessage } from '@/services/request'
import { sessionStore } from '@/stores/session'
import { t } from '@/stores/locale'
import { dialog, loading, toast } from '@/utils/feedback'
import { formatTime } from '@/utils/format'
import { ENTRY_PAGE } from '@/constants'

/** The app a session came from, in words (the APP_TYPE header as sent when it is not one of ours). */
function appLabel (appType: string | null): string | null {
  if (appType === 'h5') return t('security.appH5')
  if (appType === 'weapp') return t('security.appWeapp')
  return appType
}

/** The devices logged in to the account: end one, all others, or every session (this one too). */
function SessionsSection ({ sessions, onChanged }: { sessions: SecurityOverview['sessions']; onChanged: () => Promise<unknown> }) {
  const endOne = async (id: number, device: string) => {
    if (!(await dialog({ message: t('security.endOneConfirm', { device }) }))) return
    try {
      await loading.wrap(securityApi.endSession(id))
      toast({ message: t('security.sessionEnded'), level: 'success' })
      await onChanged()
    } catch (e) { toast({ message: errorMessage(e) }) }
  }
  const endOthers = async () => {
    if (!(await dialog({ message: t('security.endOthersConfirm') }))) return
    try {
      const { ended } = await loading.wrap(securityApi.endOthers())
      toast({ message: t('security.othersEnded', { n: ended }), level: 'success' })
      await onChanged()
    } catch (e) { toast({ message: errorMessage(e) }) }
  }
  const logoutAll = async () => {
    if (!(await dialog({ message: t('security.logoutAllConfirm') }))) return
    try {
      await loading.wrap(securityApi.logoutAll())
      sessionStore.clear()
      await Taro.reLaunch({ url: ENTRY_PAGE })
    } catch (e) { toast({ message: errorMessage(e) }) }
  }

  return (
    <Section title={t('security.sessions')} className='security-sessions'>
      {sessions.map(s => (
        <View key={s.id} className={`session session-${s.id} ${s.current ? 'session--current' : ''}`}>
          <View className='session__body'>
            <Text className='session__device'>{[s.device, appLabel(s.appType)].filter(Boolean).join(' · ')}</Text>
            <Text className='session__meta session__ip'>{t('security.sessionMeta', { ip: s.maskedIp, at: formatTime(s.lastSeenAt) })}</Text>
            <Text className='session__meta session__created'>{t('security.sessionCreated', { created: formatTime(s.createdAt) })}</Text>
          </View>
          {s.current
            ? <Text className='session__tag'>{t('security.thisDevice')}</Text>
            : <View className='session__end' onClick={() => { void endOne(s.id, [s.device, appLabel(s.appType)].filter(Boolean).join(' · ')) }}>{t('security.endSession')}</View>}
        </View>
      ))}
      <View className='security-actions'>
        <View className={`btn btn--ghost sessions-end-others ${sessions.length < 2 ? 'btn--disabled' : ''}`} onClick={() => { if (sessions.length > 1) void endOthers() }}>{t('security.endOthers')}</View>
        <View className='btn btn--ghost logout-all' onClick={logoutAll}>{t('security.logoutAll')}</View>
      </View>
    </Section>
  )
}

export default observer(SessionsSection)
