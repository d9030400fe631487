import { useRef, useState } from 'react'
import { View, Text, Input, Textarea, Image } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { COMPLAINT_LIMITS, COMPLAINT_TOPICS, LOGIN_LIMITS } from '~types/limits'
import type { ComplaintView } from '~types/complaints'
import EmptyState from '@/components/EmptyState'
import Section from '@/components/Section'
import { complaintApi } from '@/services/complaints'
import { aiApi } from '@/services/ai'
import { visionApi } from '@/services/vision'
import { mediaUrl } from '@/utils/media'
import PhotoButton from '@/components/PhotoButton'
import { notConfigured, useHelpers } from '@/utils/useHelpers'
import { errorMessage } from '@/services/request'
import { sessionStore } from '@/stores/session'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { formatTime, decorativeImage } from '@/utils/format'
import { randomString } from '@/utils/random'
import { redirect } from '@/utils/navigation'
import { usePagedList } from '@/utils/useRemote'
import { rememberReturn } from '@/utils/loginReturn'
import { complaintRequest, contactHint, emptyComplaintForm, validateComplaint, type ComplaintForm } from './complaintForm'
import { capabilitiesStore } from '@/stores/capabilities'
import './ContactPanel.scss'
import { reveal } from '@/utils/reveal'
import OrderList from './OrderList'
import { orderKindLabel } from './orderLabels'

const PAGE = 10

/**
 * The contact form of the personal centre (PRODUCT.md "Protecting shoppers"): a topic, the message, an
 * optional contact address and related number, checked as the server checks them; below it the
 * shopper's own messages with their status and the shop's reply. Anonymous visitors are asked to log in
 * (and come back here). One idempotency key per message: a retry after a lost answer files it once.
 */
function ContactPanel () {
  const [form, setForm] = useState<ComplaintForm>(emptyComplaintForm)
  const [tried, setTried] = useState(false)
  const [busy, setBusy] = useState(false)
  // the list of the shopper's orders to pick the related one from
  const [picking, setPicking] = useState(false)
  const key = useRef(randomString(24))
  // a screenshot read by the AI (spec 7 /api/questionRecognize), its text added to the message
  const [helpers, helperOff] = useHelpers(sessionStore.loggedIn)
  const [shot, setShot] = useState<string | null>(null)

  // the shopper's own messages, once logged in
  const mine = usePagedList((page, size) => complaintApi.list(page, size), { pageSize: PAGE, enabled: sessionStore.loggedIn, onError: e => toast({ message: errorMessage(e) }) })
  const list: ComplaintView[] = mine.items ?? []
  const total = mine.total

  if (!sessionStore.loggedIn) {
    return (
      <Section title={t('complaints.title')} className='contact-panel'>
        <EmptyState icon='💬' text={t('complaints.loginFirst')}
          action={{ label: t('profile.loginNow'), onClick: () => { rememberReturn('/pages/profile/index?contact=1'); void redirect('/pages/login/index') } }} />
      </Section>
    )
  }

  /** The uploaded screenshot read by the AI; what it says goes under the message for the shopper to check. */
  const recognize = async (upload: { url: string }) => {
    setShot(upload.url)
    const answer = (await aiApi.questionRecognize(t('complaints.recognizeQuery'), [upload.url])).answer.trim()
    if (!answer) return
    setForm(f => {
      const head = f.text.trim() ? `${f.text.trimEnd()}\n\n` : ''
      return { ...f, text: Array.from(`${head}${t('complaints.recognized')}\n${answer}`).slice(0, COMPLAINT_LIMITS.textMax).join('') }
    })
    toast({ message: t('complaints.recognizedToast') })
  }
  const recognizeFailed = (e: unknown) => {
    if (notConfigured(e, 'ai')) { helperOff('ai'); toast({ message: t('complaints.aiOff') }) } else toast({ message: errorMessage(e) })
  }

  const errors = validateComplaint(form)
  const shown = tried ? errors : {}
  const set = (patch: Partial<ComplaintForm>) => setForm(f => ({ ...f, ...patch }))

  const submit = async () => {
    if (busy) return
    setTried(true)
    const first = Object.values(errors)[0]
    // the errors show under their fields: bring the first into view rather than repeat it in a toast over them
    if (first) { reveal(`.contact-error-${Object.keys(errors)[0] === 'orderNo' ? 'order' : Object.keys(errors)[0]}`); return }
    setBusy(true)
    try {
      await loading.wrap(complaintApi.create(complaintRequest(form, key.current)))
      toast({ message: t('complaints.sent'), level: 'success' })
      key.current = randomString(24)
      setForm(emptyComplaintForm())
      setTried(false)
      await mine.refresh()
    } catch (e) {
      toast({ message: errorMessage(e) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <View className='contact-panel'>
      <Section title={t('complaints.title')}>
        <Text className='contact-intro'>{t('complaints.intro')}</Text>
        <Text className='contact-label'>{t('complaints.topic')}</Text>
        <View className='contact-topics'>
          {COMPLAINT_TOPICS.map(topic => (
            <Text key={topic} className={`contact-topic contact-topic-${topic} ${form.topic === topic ? 'contact-topic--on' : ''}`}
              onClick={() => set({ topic })}>{t(`complaints.topics.${topic}`)}</Text>
          ))}
        </View>
        {shown.topic && <Text className='contact-error contact-error-topic'>{shown.topic}</Text>}

        <Text className='contact-label'>{t('complaints.message')}</Text>
        <Textarea className={`contact-text ${shown.text ? 'contact-field--error' : ''}`} value={form.text} maxlength={COMPLAINT_LIMITS.textMax}
          placeholder={t('complaints.messagePlaceholder', { min: COMPLAINT_LIMITS.textMin })}
          onInput={e => { const v = e.detail.value; set({ text: v }) }} />
        <View className='contact-under'>
          {shown.text && <Text className='contact-error contact-error-text'>{shown.text}</Text>}
          <Text className='contact-counter'>{t('complaints.counter', { n: form.text.trim().length, max: COMPLAINT_LIMITS.textMax })}</Text>
        </View>
        {helpers?.ai && (
          <View className='contact-shot'>
            <PhotoButton className='contact-attach' label={t('complaints.attach')}
              pick={async () => recognize(await visionApi.screenshotPick())}
              file={async f => recognize(await visionApi.screenshotFile(f))}
              onDone={() => undefined} onError={recognizeFailed} />
            {shot && <Image className='contact-shot__img' src={mediaUrl(shot, 96)} mode='aspectFit' {...decorativeImage()} />}
            <Text className='contact-shot__hint'>{t('complaints.attachHint')}</Text>
          </View>
        )}

        <Text className='contact-label'>{t('complaints.contact')}</Text>
        <Input className={`contact-input contact-email ${shown.contact ? 'contact-field--error' : ''}`} type='text' maxlength={LOGIN_LIMITS.emailMax}
          value={form.contact} placeholder={contactHint(capabilitiesStore.settings)} onInput={e => { const v = e.detail.value; set({ contact: v }) }} />
        {shown.contact && <Text className='contact-error contact-error-contact'>{shown.contact}</Text>}

        <Text className='contact-label'>{t('complaints.orderNo')}</Text>
        {form.related
          ? (
            <View className='contact-related'>
              <Text className='contact-related__text'>{t('complaints.relatedChosen', { no: form.related.number })}</Text>
              <Text className='contact-related__clear' onClick={() => set({ related: null })}>{t('complaints.relatedClear')}</Text>
            </View>
            )
          : <View className='btn btn--ghost contact-pick-order' onClick={() => setPicking(p => !p)}>{t(picking ? 'complaints.pickClose' : 'complaints.pickOrder')}</View>}
        {picking && !form.related && (
          <View className='contact-orders'>
            <OrderList onTap={o => { set({ related: { kind: o.kind, id: o.id, number: `${orderKindLabel(o)} ${o.number}` } }); setPicking(false) }} />
          </View>
        )}
        {!form.related && <Input className={`contact-input contact-order ${shown.orderNo ? 'contact-field--error' : ''}`} type='text' maxlength={40}
          value={form.orderNo} placeholder={t('complaints.orderNoPlaceholder')} onInput={e => { const v = e.detail.value; set({ orderNo: v }) }} />}
        {shown.orderNo && <Text className='contact-error contact-error-order'>{shown.orderNo}</Text>}

        <Text className='contact-limit'>{t('complaints.limit', { max: COMPLAINT_LIMITS.perHour })}</Text>
        <View className={`btn btn--primary contact-submit ${busy ? 'btn--disabled' : ''}`} onClick={() => { void submit() }}>{t('complaints.submit')}</View>
      </Section>

      <Section title={t('complaints.mine')} className='contact-mine'>
        {list.length === 0
          ? <EmptyState icon='📭' text={t('complaints.none')} />
          : list.map(c => (
            <View key={c.id} className={`contact-item contact-item--${c.status}`}>
              <View className='contact-item__head'>
                <Text className='contact-item__topic'>{t(`complaints.topics.${c.topic}`)}</Text>
                <Text className={`contact-status contact-status--${c.status}`}>{t(`complaints.status.${c.status}`)}</Text>
              </View>
              <Text className='contact-item__meta'>#{c.id} · {formatTime(c.createdAt)}{c.orderNo ? ` · ${t('complaints.orderLabel', { no: c.orderNo })}` : ''}</Text>
              <Text className='contact-item__text'>{c.text}</Text>
              {c.reply
                ? (
                  <View className='contact-reply'>
                    <Text className='contact-reply__title'>{t('complaints.reply')}{c.repliedAt ? ` · ${formatTime(c.repliedAt)}` : ''}</Text>
                    <Text className='contact-reply__text'>{c.reply}</Text>
                  </View>
                  )
                : c.status === 'open' && <Text className='contact-item__waiting'>{t('complaints.waiting')}</Text>}
            </View>
          ))}
        {list.length < total && <View className='contact-more' onClick={() => { void mine.loadMore() }}>{t('complaints.more')}</View>}
      </Section>
    </View>
  )
}

export default observer(ContactPanel)
