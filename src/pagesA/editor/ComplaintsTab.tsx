import { useState } from 'react'
import { View, Text, Textarea } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { COMPLAINT_LIMITS } from '~types/limits'
import type { ComplaintCounts, ComplaintStatus, OperatorComplaintView } from '~types/complaints'
import Section from '@/components/Section'
import EmptyState from '@/components/EmptyState'
import { complaintApi } from '@/services/complaints'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { dialog, loading, toast } from '@/utils/feedback'
import { formatTime } from '@/utils/format'
import { usePagedList } from '@/utils/useRemote'
import { replyToast } from './mailOutcome'
import './ComplaintsTab.scss'

const PAGE = 20
type Filter = ComplaintStatus | 'all'
const FILTERS: Filter[] = ['open', 'answered', 'closed', 'all']

/**
 * The operators' complaints (issue 10): by status (with counts), newest first; one opens with the whole
 * message, the shopper, the contact and the number; a reply (which the shopper reads under Contact us,
 * and which may also be mailed to the contact address) and closing. The server audits both.
 */
function ComplaintsTab () {
  const [filter, setFilter] = useState<Filter>('open')
  const [open, setOpen] = useState<OperatorComplaintView | null>(null)
  const [reply, setReply] = useState('')
  const [mailContact, setMailContact] = useState(false)
  const [busy, setBusy] = useState(false)

  const queue = usePagedList((page, size) => complaintApi.queue({ page, size, ...(filter === 'all' ? {} : { status: filter }) }),
    { pageSize: PAGE, deps: [filter], onError: e => toast({ message: errorMessage(e) }) })
  const list = queue.items ?? []
  const total = queue.total
  // the counts per status come with each page
  const counts: ComplaintCounts | null = queue.last?.counts ?? null

  const show = (c: OperatorComplaintView) => {
    setOpen(c)
    setReply(c.reply ?? '')
    setMailContact(false)
  }

  const sendReply = async () => {
    if (!open || busy) return
    const text = reply.trim()
    if (!text) { toast({ message: t('complaints.replyRequired') }); return }
    if (text.length > COMPLAINT_LIMITS.replyMax) { toast({ message: t('complaints.replyLong', { max: COMPLAINT_LIMITS.replyMax }) }); return }
    setBusy(true)
    try {
      const res = await loading.wrap(complaintApi.reply({ complaintId: open.id, reply: text, ...(mailContact && open.contact ? { mailContact: true } : {}) }))
      show(res.complaint)
      toast(replyToast(res.mailed))
    } catch (e) {
      toast({ message: errorMessage(e) })
    } finally {
      setBusy(false)
      await queue.refresh()
    }
  }

  const close = async () => {
    if (!open || busy) return
    if (!(await dialog({ message: t('complaints.closeConfirm') }))) return
    setBusy(true)
    try {
      show(await loading.wrap(complaintApi.close(open.id)))
      toast({ message: t('complaints.closedToast'), level: 'success' })
    } catch (e) {
      toast({ message: errorMessage(e) })
    } finally {
      setBusy(false)
      await queue.refresh()
    }
  }

  const label = (f: Filter) => f === 'all' ? t('complaints.all') : `${t(`complaints.status.${f}`)}${counts ? ` ${counts[f]}` : ''}`

  if (open) {
    const c = open
    return (
      <Section title={`#${c.id} · ${t(`complaints.topics.${c.topic}`)}`} className='complaints-tab complaint-detail'
        extra={<Text className={`cq-status cq-status--${c.status}`}>{t(`complaints.status.${c.status}`)}</Text>}>
        <Text className='cq-back' onClick={() => setOpen(null)}>‹ {t('complaints.back')}</Text>
        <Text className='cq-detail__user'>{t('complaints.from', { user: c.userLabel })}</Text>
        <Text className='cq-detail__meta'>{t('complaints.created', { time: formatTime(c.createdAt) })}</Text>
        {c.orderNo && <Text className='cq-detail__meta'>{t('complaints.orderLabel', { no: c.orderNo })}</Text>}
        {c.contact && <Text className='cq-detail__meta'>{t('complaints.contactLabel', { contact: c.contact })}</Text>}
        <Text className='cq-detail__text'>{c.text}</Text>
        {c.reply && (
          <View className='cq-reply'>
            <Text className='cq-reply__title'>{t('complaints.reply')}{c.repliedAt ? ` · ${formatTime(c.repliedAt)}` : ''}</Text>
            <Text className='cq-reply__text'>{c.reply}</Text>
          </View>
        )}
        {c.closedAt && <Text className='cq-detail__meta'>{t('complaints.closedAt', { time: formatTime(c.closedAt) })}</Text>}
        {c.status !== 'closed' && (
          <View className='cq-form'>
            <Text className='editor-label'>{t('complaints.replyLabel')}</Text>
            <Textarea className='cq-reply-input' value={reply} maxlength={COMPLAINT_LIMITS.replyMax} placeholder={t('complaints.replyPlaceholder')}
              onInput={e => { const v = e.detail.value; setReply(v) }} />
            {c.contact && (
              <View className='cq-mail' onClick={() => setMailContact(m => !m)}>
                <View className={`cq-check ${mailContact ? 'cq-check--on' : ''}`} />
                <Text className='cq-mail__text'>{t('complaints.mailContact', { contact: c.contact })}</Text>
              </View>
            )}
            <View className='cq-actions'>
              <View className={`btn btn--ghost cq-close ${busy ? 'btn--disabled' : ''}`} onClick={() => { void close() }}>{t('complaints.close')}</View>
              <View className={`btn btn--primary cq-send ${busy || !reply.trim() ? 'btn--disabled' : ''}`} onClick={() => { void sendReply() }}>
                {c.reply ? t('complaints.updateReply') : t('complaints.sendReply')}
              </View>
            </View>
          </View>
        )}
      </Section>
    )
  }

  return (
    <Section title={t('complaints.queue')} className='complaints-tab'>
      <View className='cq-filter'>
        {FILTERS.map(f => (
          <Text key={f} className={`cq-filter__item cq-filter-${f} ${filter === f ? 'cq-filter__item--on' : ''}`} onClick={() => setFilter(f)}>{label(f)}</Text>
        ))}
      </View>
      {list.length === 0
        ? <EmptyState icon='💬' text={t('complaints.empty')} />
        : list.map(c => (
          <View key={c.id} className={`cq-row cq-row--${c.status}`} onClick={() => show(c)}>
            <View className='cq-row__head'>
              <Text className='cq-row__topic'>#{c.id} · {t(`complaints.topics.${c.topic}`)}</Text>
              <Text className={`cq-status cq-status--${c.status}`}>{t(`complaints.status.${c.status}`)}</Text>
            </View>
            <Text className='cq-row__user'>{c.userLabel}</Text>
            <Text className='cq-row__text'>{c.text}</Text>
            <Text className='cq-row__meta'>{formatTime(c.createdAt)}{c.orderNo ? ` · ${t('complaints.orderLabel', { no: c.orderNo })}` : ''}</Text>
          </View>
        ))}
      {list.length < total && <View className='cq-more' onClick={() => { void queue.loadMore() }}>{t('complaints.more')}</View>}
    </Section>
  )
}

export default observer(ComplaintsTab)
