import { View, Text, Input } from '@tarojs/components'
import type { ReauthVia } from '~types/security'
import { securityApi } from '@/services/security'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { toast } from '@/utils/feedback'
import { useCountdown } from '@/utils/useCountdown'
import { CODE_MAX, CODE_RESEND_SECONDS } from '@/constants'

export interface ReauthDraft { via: ReauthVia; code: string }

interface Props {
  /** The account's bindings, masked as the overview gives them. */
  phone: string | null
  email: string | null
  value: ReauthDraft
  onChange: (next: ReauthDraft) => void
  /** Distinguishes the two places it is used (password, delete) for tests and styles. */
  className: string
}

/**
 * Proving it is the owner of an account without a password: a code sent to the account's own phone or
 * address (POST /api/security/reauthCode), typed here. With both bound, the owner picks where it goes.
 */
export default function ReauthCode ({ phone, email, value, onChange, className }: Props) {
  const wait = useCountdown()
  const send = async () => {
    if (wait.running) return
    try {
      await securityApi.reauthCode({ via: value.via })
      wait.start(CODE_RESEND_SECONDS)
      toast({ message: t('login.codeSent'), level: 'success' })
    } catch (e) { toast({ message: `${t('login.codeSendFailed')}: ${errorMessage(e)}` }) }
  }
  const option = (via: ReauthVia, masked: string | null) => masked && (
    <View className={`reauth__via reauth__via-${via} ${value.via === via ? 'reauth__via--on' : ''}`}
      onClick={() => onChange({ ...value, via })}>
      {t(via === 'phone' ? 'security.viaPhone' : 'security.viaEmail', { target: masked })}
    </View>
  )
  return (
    <View className={`reauth ${className}`}>
      <Text className='security-hint'>{t('security.reauthHint')}</Text>
      <View className='reauth__vias'>
        {option('phone', phone)}
        {option('email', email)}
      </View>
      <View className='bind-code-row'>
        <Input className='security-input reauth-code' type='number' maxlength={CODE_MAX} value={value.code} placeholder={t('login.codePlaceholder')}
          onInput={e => onChange({ ...value, code: e.detail.value })} />
        <View className={`bind-send reauth-send ${wait.running ? 'bind-send--wait' : ''}`} onClick={() => { void send() }}>
          {wait.running ? t('login.resendIn', { n: wait.left }) : t('login.sendCode')}
        </View>
      </View>
    </View>
  )
}
