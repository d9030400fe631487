import { useEffect, useState } from 'react'
import { View, Text, Input } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { AgeStatus, GuardianView } from '~types/shop'
import { shopApi } from '@/services/shop'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { formatTime } from '@/utils/format'
import { useCountdown } from '@/utils/useCountdown'
import { checkPhone } from '@/utils/validation'
import { CODE_MAX } from '@/constants'
import './index.scss'

export interface GuardianConsentProps {
  guardian: GuardianView
  /** The age status after a code was sent or the consent recorded. */
  onChange: (status: AgeStatus) => void
  className?: string
}

/**
 * A minor's guardian consents (issue 21): the minor enters the guardian's phone, the shop sends the
 * guardian a code by SMS, the guardian tells it to the minor, who enters it here. States: not asked
 * yet (the number), pending (the code, send again after the wait, change the number), given (who and
 * when), and "cannot be asked now" when the shop cannot send SMS (said plainly: ask the shop).
 */
function GuardianConsent ({ guardian, onChange, className }: GuardianConsentProps) {
  const [phone, setPhone] = useState('')
  const [code, setCode] = useState('')
  const [changing, setChanging] = useState(false)
  const [phoneError, setPhoneError] = useState<string | null>(null)
  const wait = useCountdown()
  // the server says how long "send again" waits (also after a reload of the page): once per request
  // (state, requestedAt), not again each time the remaining seconds are re-read
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => { if (guardian.state === 'pending' && guardian.resendInSeconds > 0) wait.start(guardian.resendInSeconds) }, [guardian.state, guardian.requestedAt])

  if (guardian.state === 'given') {
    return (
      <View className={`guardian guardian--given ${className ?? ''}`}>
        <Text className='guardian__given'>{t('guardian.given', { phone: guardian.phone ?? '', at: guardian.consentedAt ? formatTime(guardian.consentedAt) : '' })}</Text>
      </View>
    )
  }
  if (!guardian.canRequest) {
    return (
      <View className={`guardian guardian--unavailable ${className ?? ''}`}>
        <Text className='guardian__text guardian__unavailable'>{t('guardian.unavailable')}</Text>
      </View>
    )
  }

  const send = async (body: { phone?: string }) => {
    try {
      const status = await loading.wrap(shopApi.guardianCode(body))
      setChanging(false)
      setPhone('')
      setCode('')
      toast({ message: t('guardian.sent'), level: 'success' })
      onChange(status)
    } catch (e) {
      toast({ message: errorMessage(e), duration: 3000 })
    }
  }
  const sendTo = () => {
    const bad = checkPhone(phone)
    setPhoneError(bad ? t(bad) : null)
    if (bad) return
    void send({ phone: phone.trim() })
  }
  const confirm = async () => {
    if (!/^\d{6}$/.test(code.trim())) { toast({ message: t('guardian.codeRequired') }); return }
    try {
      const status = await loading.wrap(shopApi.guardianConfirm({ code: code.trim() }))
      toast({ message: t('guardian.confirmed'), level: 'success' })
      onChange(status)
    } catch (e) {
      toast({ message: errorMessage(e) })
    }
  }

  if (guardian.state === 'none' || changing) {
    return (
      <View className={`guardian guardian--ask ${className ?? ''}`}>
        <Text className='guardian__text'>{t('guardian.intro')}</Text>
        <Input className={`guardian__input guardian-phone ${phoneError ? 'guardian__input--error' : ''}`} type='number' maxlength={11} value={phone}
          placeholder={t('guardian.phonePlaceholder')} onInput={e => { setPhone(e.detail.value); setPhoneError(null) }} />
        {phoneError && <Text className='guardian__error'>{phoneError}</Text>}
        <View className='guardian__actions'>
          {changing && <View className='btn btn--ghost guardian-cancel' onClick={() => setChanging(false)}>{t('feedback.cancel')}</View>}
          <View className='btn btn--primary guardian-send' onClick={sendTo}>{t('guardian.send')}</View>
        </View>
      </View>
    )
  }

  return (
    <View className={`guardian guardian--pending ${className ?? ''}`}>
      <Text className='guardian__text guardian__pending'>{t('guardian.pending', { phone: guardian.phone ?? '', at: guardian.requestedAt ? formatTime(guardian.requestedAt) : '' })}</Text>
      <View className='guardian__code-row'>
        <Input className='guardian__input guardian-code' type='number' maxlength={CODE_MAX} value={code}
          placeholder={t('guardian.codePlaceholder')} onInput={e => setCode(e.detail.value)} />
        <View className='btn btn--primary guardian-confirm' onClick={() => { void confirm() }}>{t('guardian.confirm')}</View>
      </View>
      <View className='guardian__links'>
        <Text className={`guardian__link guardian-resend ${wait.running ? 'guardian__link--wait' : ''}`} onClick={() => { if (!wait.running) void send({}) }}>
          {wait.running ? t('guardian.resendIn', { n: wait.left }) : t('guardian.resend')}
        </Text>
        <Text className='guardian__link guardian-change' onClick={() => { setChanging(true); setPhoneError(null) }}>{t('guardian.change')}</Text>
      </View>
    </View>
  )
}

export default observer(GuardianConsent)
