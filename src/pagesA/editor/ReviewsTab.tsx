import { useState } from 'react'
import { View, Text, Textarea } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { CorrectionStatus, OperatorCorrectionView } from '~types/security'
import { CORRECTION_REASON_MAX } from '~types/limits'
import Section from '@/components/Section'
import EmptyState from '@/components/EmptyState'
import { securityApi } from '@/services/security'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { dialog, loading, toast } from '@/utils/feedback'
import { formatTime } from '@/utils/format'
import { usePagedList } from '@/utils/useRemote'
import './WithdrawalsTab.scss'
import './ReviewsTab.scss'

const PAGE = 20
type Filter = 'pending' | 'all'

/** Birth-date corrections to review: the dates, the shopper's reason; approve (applied, audited) or reject with a note. */
function ReviewsTab () {
  const [filter, setFilter] = useState<Filter>('pending')
  const [rejecting, setRejecting] = useState<number | null>(null)
  const [note, setNote] = useState('')
  const [busy, setBusy] = useState(false)

  const corrections = usePagedList((page, size) => {
    const status: CorrectionStatus | undefined = filter === 'pending' ? 'pending' : undefined
    return securityApi.corrections({ page, size, ...(status ? { status } : {}) })
  }, { pageSize: PAGE, deps: [filter], onError: e => toast({ message: errorMessage(e) }) })
  const list = corrections.items ?? []
  const total = corrections.total

  const decide = async (c: OperatorCorrectionView, approve: boolean) => {
    if (busy) return
    if (approve && !(await dialog({ message: t('reviews.confirmApprove', { user: c.userLabel, from: c.oldBirthDate, to: c.newBirthDate }) }))) return
    if (!approve && !note.trim()) { toast({ message: t('reviews.noteRequired') }); return }
    setBusy(true)
    try {
      await loading.wrap(securityApi.reviewCorrection({ correctionId: c.id, approve, ...(approve ? {} : { note: note.trim() }) }))
      toast({ message: t(approve ? 'reviews.approved' : 'reviews.rejected'), level: 'success' })
      setRejecting(null)
      setNote('')
    } catch (e) {
      toast({ message: errorMessage(e) })
    } finally {
      setBusy(false)
      await corrections.refresh()
    }
  }

  return (
    <Section title={t('reviews.title')} className='reviews-tab'
      extra={(
        <View className='wq-filter'>
          {(['pending', 'all'] as const).map(f => (
            <Text key={f} className={`wq-filter__item review-filter-${f} ${filter === f ? 'wq-filter__item--on' : ''}`} onClick={() => setFilter(f)}>
              {t(f === 'all' ? 'reviews.filterAll' : 'reviews.filterPending')}
            </Text>
          ))}
        </View>
      )}>
      {list.length === 0
        ? <EmptyState icon='🗓️' text={t('reviews.empty')} />
        : list.map(c => (
          <View key={c.id} className={`wq-row review review-${c.id} review--${c.status}`}>
            <View className='wq-row__head'>
              <Text className='review__dates'>{c.oldBirthDate} → {c.newBirthDate}</Text>
              <Text className='wq-row__meta'>{t(`security.correction_${c.status}`)}</Text>
            </View>
            <Text className='wq-row__user'>{c.userLabel}</Text>
            <Text className='wq-row__meta'>#{c.id} · {formatTime(c.createdAt)}</Text>
            <Text className='review__text'>{t('reviews.reason', { reason: c.reason })}</Text>
            {c.reviewNote && <Text className='review__text'>{t('reviews.note', { note: c.reviewNote })}</Text>}
            {c.status === 'pending' && rejecting !== c.id && (
              <View className='wq-row__actions'>
                <View className='btn btn--ghost review-reject' onClick={() => { setRejecting(c.id); setNote('') }}>{t('reviews.reject')}</View>
                <View className={`btn btn--primary review-approve ${busy ? 'btn--disabled' : ''}`} onClick={() => { void decide(c, true) }}>{t('reviews.approve')}</View>
              </View>
            )}
            {rejecting === c.id && (
              <View className='wq-reject-form'>
                <Textarea className='wq-reason review-note' value={note} maxlength={CORRECTION_REASON_MAX} placeholder={t('reviews.notePlaceholder')}
                  onInput={e => setNote(e.detail.value)} />
                <View className='wq-row__actions'>
                  <View className='btn btn--ghost' onClick={() => setRejecting(null)}>{t('feedback.cancel')}</View>
                  <View className={`btn btn--primary review-confirm-reject ${busy || !note.trim() ? 'btn--disabled' : ''}`} onClick={() => { void decide(c, false) }}>{t('reviews.reject')}</View>
                </View>
              </View>
            )}
          </View>
        ))}
      {list.length < total && <View className='wq-more' onClick={() => { void corrections.loadMore() }}>{t('withdraw.more')}</View>}
    </Section>
  )
}

export default observer(ReviewsTab)
