import { useEffect, useState } from 'react'
import { View, Text, Textarea } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { COMPLAINT_LIMITS } from '~types/limits'
import type { ComplaintStatus, OperatorComplaintView } from '~types/complaints'
import Section from '@/components/Section'
import EmptyState from '@/components/EmptyState'
import { complaintApi } from '@/services/complaints'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { formatTime } from '@/utils/format'
import './ComplaintsTab.scss'

const FILTERS: ComplaintStatus[] = ['open', 'answered', 'closed']

/** One complaint: what the shopper wrote, and the operator's answer, which may also close it. */
const ComplaintCard = observer(function ComplaintCard ({ c, onChanged }: { c: OperatorComplaintView; onChanged: () => void }) {
  const [reply, setReply] = useState('')
  const [busy, setBusy] = useState(false)
  const act = async (close: boolean) => {
    if (busy) return
    const text = reply.trim()
    if (!close && !text) { toast({ message: t('opComplaints.replyEmpty') }); return }
    setBusy(true)
    try {
      await loading.wrap(complaintApi.reply({ id: c.id, close, ...(text ? { reply: text } : {}) }))
      toast({ message: t(close ? 'opComplaints.closedDone' : 'opComplaints.replied'), level: 'success' })
      setReply('')
      onChanged()
    } catch (e) {
      toast({ message: errorMessage(e) })
    } finally {
      setBusy(false)
    }
  }
  return (
    <View className={`op-complaint op-complaint-${c.id}`}>
      <View className='op-complaint__head'>
        <Text className='op-complaint__title'>#{c.id} · {t(`contact.topics.${c.topic}`)} · {c.user.name}</Text>
        <Text className={`contact-status contact-status--${c.status}`}>{t(`contact.status.${c.status}`)}</Text>
      </View>
      <Text className='op-complaint__meta'>{formatTime(c.createdAt)}{c.reference ? ` · ${c.reference}` : ''}{c.contact ? ` · ${c.contact}` : ''}</Text>
      <Text className='op-complaint__text'>{c.text}</Text>
      {c.reply && <Text className='op-complaint__reply'>{t('opComplaints.answer')}: {c.reply}</Text>}
      {c.status !== 'closed' && (
        <>
          <Textarea className='op-complaint__input' value={reply} maxlength={COMPLAINT_LIMITS.replyMax} placeholder={t('opComplaints.replyPlaceholder')}
            onInput={e => setReply(e.detail.value)} />
          <View className='op-complaint__actions'>
            <View className={`btn btn--primary op-complaint__send ${busy ? 'btn--disabled' : ''}`} onClick={() => { void act(false) }}>{t('opComplaints.send')}</View>
            <View className={`btn btn--ghost op-complaint__close ${busy ? 'btn--disabled' : ''}`} onClick={() => { void act(true) }}>{t(reply.trim() ? 'opComplaints.sendClose' : 'opComplaints.close')}</View>
          </View>
        </>
      )}
    </View>
  )
})

/** The shoppers' complaints by status (open ones oldest first): read, answer, close. */
function ComplaintsTab () {
  const [status, setStatus] = useState<ComplaintStatus>('open')
  const [list, setList] = useState<OperatorComplaintView[] | null>(null)
  const [counts, setCounts] = useState<Record<ComplaintStatus, number>>({ open: 0, answered: 0, closed: 0 })
  const load = () => complaintApi.operatorList({ page: 1, size: 50, status }).then(r => { setList(r.list); setCounts(r.counts) }, e => toast({ message: errorMessage(e) }))
  useEffect(() => { void load() }, [status])
  return (
    <Section title={t('opComplaints.title')} className='op-complaints'>
      <View className='recipe-chips recipe-chips--wrap'>
        {FILTERS.map(f => (
          <Text key={f} className={`recipe-chip op-complaints-filter-${f} ${status === f ? 'recipe-chip--on' : ''}`} onClick={() => setStatus(f)}>
            {t(`contact.status.${f}`)} {counts[f]}
          </Text>
        ))}
      </View>
      {list === null && <Text className='editor-hint'>{t('feedback.loading')}</Text>}
      {list?.length === 0 && <EmptyState icon='💬' text={t('opComplaints.none')} />}
      {list?.map(c => <ComplaintCard key={c.id} c={c} onChanged={() => { void load() }} />)}
    </Section>
  )
}

export default observer(ComplaintsTab)
