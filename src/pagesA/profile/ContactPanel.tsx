import { useEffect, useState } from 'react'
import { View, Text, Input, Textarea } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { COMPLAINT_LIMITS, LOGIN_LIMITS } from '~types/limits'
import type { ComplaintTopic, ComplaintView } from '~types/complaints'
import Section from '@/components/Section'
import { complaintApi } from '@/services/complaints'
import { ApiError } from '@/services/errors'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { formatTime } from '@/utils/format'
import './ContactPanel.scss'

const TOPICS: ComplaintTopic[] = ['order', 'prize', 'shipping', 'payment', 'account', 'other']
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * Contact the shop (PRODUCT.md "Protecting shoppers"): a topic, what happened, optionally an order or
 * parcel number and an address for the answer. It reaches the operators (stored, mailed, their chat
 * robots); the shopper's messages are listed below with their status and the shop's answer.
 */
function ContactPanel () {
  const [topic, setTopic] = useState<ComplaintTopic>('order')
  const [text, setText] = useState('')
  const [contact, setContact] = useState('')
  const [reference, setReference] = useState('')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  const [mine, setMine] = useState<ComplaintView[] | null>(null)

  const load = () => complaintApi.list(1, 20).then(r => setMine(r.list), e => toast({ message: errorMessage(e) }))
  useEffect(() => { void load() }, [])

  const check = (): Record<string, string> => {
    const e: Record<string, string> = {}
    const body = text.trim()
    if (body.length < COMPLAINT_LIMITS.textMin) e.text = t('contact.textShort', { min: COMPLAINT_LIMITS.textMin })
    if (text.length > COMPLAINT_LIMITS.textMax) e.text = t('contact.textLong', { max: COMPLAINT_LIMITS.textMax })
    if (contact.trim() && !EMAIL.test(contact.trim())) e.contact = t('contact.emailInvalid')
    return e
  }

  const send = async () => {
    if (busy) return
    const found = check()
    setErrors(found)
    const first = Object.values(found)[0]
    if (first) { toast({ message: first }); return }
    setBusy(true)
    try {
      await loading.wrap(complaintApi.create({
        topic, text: text.trim(), ...(contact.trim() ? { contact: contact.trim() } : {}), ...(reference.trim() ? { reference: reference.trim() } : {})
      }))
      toast({ message: t('contact.sent'), level: 'success' })
      setText('')
      setReference('')
      await load()
    } catch (e) {
      const field = e instanceof ApiError ? (e.data as { field?: string } | null)?.field : undefined
      if (field) setErrors({ [field]: errorMessage(e) })
      toast({ message: errorMessage(e) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <Section title={t('contact.title')} className='contact-form'>
        <Text className='contact-hint'>{t('contact.hint')}</Text>
        <Text className='contact-label'>{t('contact.topic')}</Text>
        <View className='contact-topics'>
          {TOPICS.map(x => (
            <Text key={x} className={`contact-topic contact-topic-${x} ${topic === x ? 'contact-topic--on' : ''}`} onClick={() => setTopic(x)}>{t(`contact.topics.${x}`)}</Text>
          ))}
        </View>
        <Text className='contact-label'>{t('contact.text')}</Text>
        <Textarea className={`contact-text ${errors.text ? 'contact-field--error' : ''}`} value={text} maxlength={COMPLAINT_LIMITS.textMax}
          placeholder={t('contact.textPlaceholder')} onInput={e => setText(e.detail.value)} />
        <Text className={`contact-count ${errors.text ? 'contact-error' : ''}`}>{errors.text ?? `${text.length}/${COMPLAINT_LIMITS.textMax}`}</Text>
        <Text className='contact-label'>{t('contact.reference')}</Text>
        <Input className='contact-input contact-reference' value={reference} maxlength={COMPLAINT_LIMITS.referenceMax}
          placeholder={t('contact.referencePlaceholder')} onInput={e => setReference(e.detail.value)} />
        <Text className='contact-label'>{t('contact.contact')}</Text>
        <Input className={`contact-input contact-email ${errors.contact ? 'contact-field--error' : ''}`} value={contact} maxlength={LOGIN_LIMITS.emailMax}
          placeholder={t('contact.contactPlaceholder')} onInput={e => setContact(e.detail.value)} />
        {errors.contact && <Text className='contact-error'>{errors.contact}</Text>}
        <View className={`btn btn--primary contact-send ${busy ? 'btn--disabled' : ''}`} onClick={() => { void send() }}>{t('contact.send')}</View>
      </Section>
      <Section title={t('contact.mine')} className='contact-mine'>
        {mine === null && <Text className='contact-hint'>{t('feedback.loading')}</Text>}
        {mine?.length === 0 && <Text className='contact-hint'>{t('contact.none')}</Text>}
        {mine?.map(c => (
          <View key={c.id} className={`contact-item contact-item-${c.id}`}>
            <View className='contact-item__head'>
              <Text className='contact-item__topic'>#{c.id} · {t(`contact.topics.${c.topic}`)}</Text>
              <Text className={`contact-status contact-status--${c.status}`}>{t(`contact.status.${c.status}`)}</Text>
            </View>
            <Text className='contact-item__text'>{c.text}</Text>
            <Text className='contact-item__time'>{formatTime(c.createdAt)}</Text>
            {c.reply && (
              <View className='contact-reply'>
                <Text className='contact-reply__who'>{t('contact.replyFrom')}{c.repliedAt ? ` · ${formatTime(c.repliedAt)}` : ''}</Text>
                <Text className='contact-reply__text'>{c.reply}</Text>
              </View>
            )}
          </View>
        ))}
      </Section>
    </>
  )
}

export default observer(ContactPanel)
