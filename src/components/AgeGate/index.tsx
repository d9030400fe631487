import { useState } from 'react'
import { View, Text, Picker } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { AgeStatus } from '~types/shop'
import Section from '@/components/Section'
import GuardianConsent from '@/components/GuardianConsent'
import { shopApi } from '@/services/shop'
import { errorMessage } from '@/services/request'
import { isApiError } from '@/services/errors'
import { localeStore, t } from '@/stores/locale'
import { toast } from '@/utils/feedback'
import { ageGateState } from './state'
import './index.scss'

export interface AgeGateProps {
  age: AgeStatus
  /** The age status after the birth date was recorded or the guardian's consent changed. */
  onChange: (age: AgeStatus) => void
}

/**
 * The age check before buying (boxes, prop cards): the birth date, recorded once; under 8 told they
 * cannot buy; a minor's guardian consents by a code (GuardianConsent). Nothing once the shopper may buy.
 */
function AgeGate ({ age, onChange }: AgeGateProps) {
  const [birthDate, setBirthDate] = useState('')
  const { cleared, tooYoung, needsConsent } = ageGateState(age)
  if (cleared) return null
  const knownBirthDate = age.birthDate

  const verify = async () => {
    const chosen = knownBirthDate ?? birthDate
    if (!chosen) { toast({ message: t('purchase.birthDateRequired') }); return }
    try {
      onChange(await shopApi.ageVerify({ birthDate: chosen }))
    } catch (e) {
      // a minor: the date is recorded, and the gate now asks for the guardian's consent (no toast needed)
      const asking = isApiError(e) && (e.data as { reason?: string } | null)?.reason === 'guardian_consent'
      if (!asking) toast({ message: errorMessage(e) })
      onChange(await shopApi.ageStatus().catch(() => age))
    }
  }

  return (
    <Section title={t('purchase.ageTitle')} className='age-gate'>
      {!needsConsent && <Text className='age-gate__text'>{tooYoung ? t('purchase.tooYoung') : t('purchase.ageText')}</Text>}
      {!age.verified && (
        <Picker mode='date' value={birthDate || '2000-01-01'} start='1900-01-01' end={new Date().toISOString().slice(0, 10)}
          // H5's picker draws its own buttons and column labels: in the user's language (the mini-program's follows WeChat)
          textProps={{ okText: t('feedback.confirm'), cancelText: t('feedback.cancel') }}
          {...{ lang: localeStore.locale === 'en' ? 'en-US' : 'zh-CN' }}
          onChange={e => setBirthDate(String(e.detail.value))}>
          <View className='age-gate__date'>{birthDate || t('purchase.birthDate')}</View>
        </Picker>
      )}
      {knownBirthDate && <View className='age-gate__date age-gate__date--fixed'>{knownBirthDate}</View>}
      {!age.verified && <View className='btn btn--ghost age-gate__submit' onClick={verify}>{t('purchase.ageSubmit')}</View>}
      {needsConsent && age.guardian && <GuardianConsent guardian={age.guardian} onChange={onChange} />}
    </Section>
  )
}

export default observer(AgeGate)
