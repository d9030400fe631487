import { useState } from 'react'
import { View, Text, Input, Picker } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { SecurityOverview } from '~types/security'
import { CORRECTION_REASON_MAX } from '~types/limits'
import Section from '@/components/Section'
import GuardianConsent from '@/components/GuardianConsent'
import { securityApi } from '@/services/security'
import { errorMessage } from '@/services/request'
import { localeStore, t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { formatCents } from '@/utils/format'

/** Today in China (UTC+8), YYYY-MM-DD: the last day a birth date may be. */
const chinaToday = () => new Date(Date.now() + 8 * 3600 * 1000).toISOString().slice(0, 10)

interface AgeSectionProps {
  age: SecurityOverview['age']
  correction: SecurityOverview['correction']
  onChanged: () => Promise<unknown>
}

/** The recorded birth date, a minor's guardian consent and daily cap, and the one reviewed correction. */
function AgeSection ({ age, correction, onChanged }: AgeSectionProps) {
  const [draft, setDraft] = useState({ birthDate: '', reason: '' })
  const sendCorrection = async () => {
    if (!draft.birthDate) { toast({ message: t('security.pickDate') }); return }
    if (!draft.reason.trim()) { toast({ message: t('security.reasonRequired') }); return }
    try {
      await loading.wrap(securityApi.requestCorrection({ birthDate: draft.birthDate, reason: draft.reason.trim() }))
      toast({ message: t('security.correctionSent'), level: 'success' })
      await onChanged()
    } catch (e) { toast({ message: errorMessage(e) }) }
  }

  const today = chinaToday()
  return (
    <Section title={t('security.age')} className='security-age'>
      <View className='security-row'><Text className='security-row__label'>{t('security.birthDate')}</Text><Text className='security-row__value birth-date'>{age.birthDate ?? t('security.notRecorded')}</Text></View>
      {age.minor && (
        <>
          <View className='security-row'><Text className='security-row__label'>{t('security.guardian')}</Text><Text className='security-row__value guardian-status'>{age.guardianConsent ? t('security.consentGiven') : age.guardian?.state === 'pending' ? t('security.consentPending') : t('security.consentMissing')}</Text></View>
          {/* who consented and when; or asking for it, as on the purchase page */}
          {age.guardian && <GuardianConsent className='security-guardian' guardian={age.guardian} onChange={() => { void onChanged() }} />}
          {age.minorDailyCapCents !== null && <Text className='security-hint'>{t('security.minorCap', { cap: formatCents(age.minorDailyCapCents) })}</Text>}
        </>
      )}
      {correction
        ? (
          <View className={`correction correction--${correction.status}`}>
            <Text className='correction__title'>{t('security.correctionTitle')}</Text>
            <Text className='correction__line'>{correction.oldBirthDate} → {correction.newBirthDate}</Text>
            <Text className='correction__status'>{t(`security.correction_${correction.status}`)}</Text>
            {correction.reviewNote && <Text className='correction__line'>{correction.reviewNote}</Text>}
          </View>
          )
        : age.birthDate && (
          <View className='security-form correction-form'>
            <Text className='security-hint'>{t('security.correctionRule')}</Text>
            <Picker mode='date' value={draft.birthDate || age.birthDate} start='1900-01-01' end={today}
              textProps={{ okText: t('feedback.confirm'), cancelText: t('feedback.cancel') }}
              {...{ lang: localeStore.locale === 'en' ? 'en-US' : 'zh-CN' }}
              onChange={e => { const v = String(e.detail.value); setDraft(c => ({ ...c, birthDate: v })) }}>
              <View className='security-input correction-date'>{draft.birthDate || t('security.pickDate')}</View>
            </Picker>
            <Input className='security-input correction-reason' value={draft.reason} maxlength={CORRECTION_REASON_MAX} placeholder={t('security.reasonPlaceholder')}
              onInput={e => { const v = e.detail.value; setDraft(c => ({ ...c, reason: v })) }} />
            <View className='btn btn--ghost correction-send' onClick={sendCorrection}>{t('security.correctionSend')}</View>
          </View>
        )}
    </Section>
  )
}

export default observer(AgeSection)
