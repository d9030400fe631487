import { useState } from 'react'
import Taro from '@tarojs/taro'
import { Input, Text, View } from '@tarojs/components'
import type { ReminderChannel } from '~types/events'
import type { RestockReminderState } from '~types/restock'
import { restockApi } from '@/services/restock'
import { errorMessage } from '@/services/request'
import { sessionStore } from '@/stores/session'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { loginToContinue } from '@/utils/loginReturn'
import { detailLink } from '@/utils/slots'
import { useRemote } from '@/utils/useRemote'

/**
 * "Notify me when restocked" on a sold-out series (types/restock.ts): told once when it is restocked (a new
 * drop announced, or boxes on sale again). In the mini-program the tap first asks WeChat's consent for one subscription message
 * (wx.requestSubscribeMessage must come from the tap), then the server; elsewhere, or when WeChat is
 * refused, by mail. With no way to tell the shopper it says where the restock will show instead.
 */
export default function RestockNotice ({ seriesId }: { seriesId: number }) {
  const loggedIn = sessionStore.loggedIn
  const [email, setEmail] = useState('')
  const [askEmail, setAskEmail] = useState(false)
  const state = useRemote<RestockReminderState>(() => restockApi.state(seriesId), [seriesId], { enabled: loggedIn })
  if (!loggedIn) {
    return (
      <View className='restock restock--visitor'>
        <Text className='restock__hint'>{t('restock.logIn')}</Text>
        <View className='btn btn--ghost restock-login' onClick={() => { void loginToContinue(t('restock.logIn'), detailLink(seriesId)) }}>{t('restock.logInGo')}</View>
      </View>
    )
  }
  const s = state.data
  if (!s) return null
  // the subscription message is the mini-program's; in a browser, mail
  const usable = s.channels.filter(c => c !== 'wechat' || process.env.TARO_ENV === 'weapp')
  if (usable.length === 0) return <View className='restock restock--none'><Text className='restock__hint'>{t('restock.noChannel')}</Text></View>

  const ask = async (channel: ReminderChannel, address?: string) => {
    try {
      await loading.wrap(restockApi.remind(seriesId, channel, address))
      toast({ message: t('restock.set'), level: 'success' })
      setAskEmail(false)
    } catch (e) { toast({ message: errorMessage(e) }) }
    await state.reload()
  }
  const notifyMe = async () => {
    if (usable.includes('wechat') && s.wechatTemplateId) {
      const id = s.wechatTemplateId
      try {
        const answer = await Taro.requestSubscribeMessage({ tmplIds: [id], entityIds: [] } as never) as unknown as Record<string, string>
        if (answer[id] === 'accept') { await ask('wechat'); return }
      } catch { /* WeChat could not ask: mail instead, where the shop can */ }
      if (!usable.includes('mail')) { toast({ message: t('restock.refused') }); return }
    }
    if (s.accountEmail) await ask('mail')
    else setAskEmail(true)
  }
  const cancel = async () => {
    try {
      await loading.wrap(restockApi.cancel(seriesId))
      toast({ message: t('restock.cancelled'), level: 'success' })
    } catch (e) { toast({ message: errorMessage(e) }) }
    await state.reload()
  }

  const mine = s.mine
  if (mine) {
    return (
      <View className={`restock restock--${mine.channel}`}>
        <Text className='restock__state'>
          {mine.dropStartsAt ? t('restock.due') : mine.channel === 'wechat' ? t('restock.byWechat') : t('restock.byMail', { email: mine.email ?? '' })}
        </Text>
        {mine.status === 'waiting' && !mine.dropStartsAt && <View className='btn btn--ghost restock-cancel' onClick={() => { void cancel() }}>{t('restock.cancel')}</View>}
      </View>
    )
  }
  return (
    <View className='restock'>
      <Text className='restock__hint'>{t('restock.hint')}</Text>
      {askEmail && (
        <View className='restock-email'>
          <Input className='restock-email-input' type='text' value={email} maxlength={254} placeholder={t('restock.emailPlaceholder')} onInput={e => setEmail(e.detail.value)} />
          <View className='btn btn--primary restock-email-save' onClick={() => { void ask('mail', email) }}>{t('restock.byMailButton')}</View>
        </View>
      )}
      {/* in the mini-program the button asks WeChat again after a refusal */}
      {(!askEmail || usable.includes('wechat')) && (
        <View className={`btn ${askEmail ? 'btn--ghost' : 'btn--primary'} restock-notify`} onClick={() => { void notifyMe() }}>🔔 {t(askEmail ? 'restock.byWechatButton' : 'restock.button')}</View>
      )}
    </View>
  )
}
