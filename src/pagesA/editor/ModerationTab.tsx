import { useState } from 'react'
import { View, Text, Image, Textarea } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { SHOW_LIMITS } from '~types/limits'
import type { ShowModerationItem, ShowQueueFilter } from '~types/show'
import Section from '@/components/Section'
import EmptyState from '@/components/EmptyState'
import { showApi } from '@/services/show'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { a11yControl, a11yImage, formatTime } from '@/utils/format'
import { mediaUrl } from '@/utils/media'
import { navigate } from '@/utils/navigation'
import { usePagedList, useRemote } from '@/utils/useRemote'
import ModerationReports from './ModerationReports'
import './ModerationTab.scss'

const PAGE = 20
const FILTERS: ShowQueueFilter[] = ['reported', 'hidden', 'all']

/**
 * The player show's moderation (issue 27): reported and hidden posts and comments with their reports
 * (who reported, and whether it counts: ModerationReports);
 * hide with a reason (the author is told it) or restore; both audited by the server. Below, the word
 * list that posts and comments may not hold.
 */
function ModerationTab () {
  const [filter, setFilter] = useState<ShowQueueFilter>('reported')
  const [reasons, setReasons] = useState<Record<string, string>>({})
  const queue = usePagedList((page, size) => showApi.queue({ page, size, filter }), { pageSize: PAGE, deps: [filter], clearOnChange: true, onError: e => toast({ message: errorMessage(e) }) })
  const words = useRemote(() => showApi.words(), [], { onError: e => toast({ message: errorMessage(e) }) })
  const [draft, setDraft] = useState<string | null>(null)

  const keyOf = (x: ShowModerationItem) => `${x.target}-${x.id}`
  const act = async (x: ShowModerationItem, action: 'hide' | 'restore') => {
    const reason = (reasons[keyOf(x)] ?? '').trim()
    if (action === 'hide' && !reason) { toast({ message: t('moderation.reasonRequired') }); return }
    try {
      const item = await loading.wrap(showApi.moderate({ target: x.target, id: x.id, action, ...(action === 'hide' ? { reason } : {}) }))
      queue.setItems(list => list.map(i => keyOf(i) === keyOf(item) ? item : i))
      toast({ message: t(action === 'hide' ? 'moderation.hiddenToast' : 'moderation.restoredToast'), level: 'success' })
    } catch (e) { toast({ message: errorMessage(e) }) }
  }
  const saveWords = async () => {
    const list = (draft ?? '').split('\n').map(w => w.trim()).filter(Boolean)
    try {
      const saved = await loading.wrap(showApi.saveWords(list))
      words.setData(() => saved)
      setDraft(null)
      toast({ message: t('moderation.wordsSaved', { n: saved.words.length }), level: 'success' })
    } catch (e) { toast({ message: errorMessage(e) }) }
  }

  const items = queue.items ?? []
  return (
    <View className='moderation'>
      <View className='moderation__filters'>
        {FILTERS.map(f => (
          <View key={f} className={`moderation__filter moderation-filter-${f} ${filter === f ? 'moderation__filter--on' : ''}`} {...a11yControl(undefined, 'tab')}
            aria-selected={filter === f ? 'true' : 'false'} onClick={() => setFilter(f)}>{t(`moderation.${f}`)}</View>
        ))}
      </View>
      {queue.items !== null && items.length === 0 && !queue.loading && <EmptyState icon='✅' text={t('moderation.empty')} />}
      {items.map(x => (
        <View key={keyOf(x)} className={`moderation-item moderation-${x.target}-${x.id}`}>
          <View className='moderation-item__head'>
            <Text className='moderation-item__kind'>{t(`moderation.${x.target}`)} #{x.id}</Text>
            <Text className={`moderation-item__status moderation-item__status--${x.status}`}>{t(`moderation.status.${x.status}`)}</Text>
          </View>
          <Text className='moderation-item__by'>{t('show.by', { name: x.authorName, time: formatTime(x.createdAt) })} · #{x.authorId}</Text>
          <Text className='moderation-item__text'>{x.text}</Text>
          {x.images.length > 0 && (
            <View className='moderation-item__photos'>
              {x.images.map((url, i) => <Image key={url} className='moderation-item__photo' src={mediaUrl(url, 120)} mode='aspectFill' {...a11yImage(t('show.photo', { n: i + 1 }))} />)}
            </View>
          )}
          {x.reportCount > 0 && (
            <Text className='moderation-item__reports'>
              {t('moderation.reports', { n: x.reportCount })}: {x.reasons.map(r => `${t(`show.reason.${r.reason}`)} ×${r.count}`).join(', ')}
            </Text>
          )}
          <ModerationReports reports={x.reports} weightedCount={x.weightedCount} reportCount={x.reportCount} />
          {x.hiddenReason && <Text className='moderation-item__reason'>{t('show.hiddenNotice', { reason: x.hiddenReason })}</Text>}
          {x.status !== 'hidden' && (
            <Textarea className='moderation-item__input' value={reasons[keyOf(x)] ?? ''} maxlength={SHOW_LIMITS.moderationReasonMax}
              placeholder={t('moderation.reasonHint')} aria-label={t('moderation.reasonHint')}
              onInput={e => { const v = e.detail.value; setReasons(r => ({ ...r, [keyOf(x)]: v })) }} />
          )}
          <View className='moderation-item__buttons'>
            <View className='btn btn--ghost moderation-open' {...a11yControl()} onClick={() => navigate(`/pages/show_post/index?id=${x.postId}`)}>{t('moderation.open')}</View>
            {x.status !== 'hidden' && <View className='btn btn--primary moderation-hide' {...a11yControl()} onClick={() => { void act(x, 'hide') }}>{t('moderation.hide')}</View>}
            {x.status !== 'visible' && <View className='btn btn--primary moderation-restore' {...a11yControl()} onClick={() => { void act(x, 'restore') }}>{t('moderation.restore')}</View>}
          </View>
        </View>
      ))}
      {queue.hasMore && items.length > 0 && <View className='btn btn--ghost moderation-more' {...a11yControl()} onClick={() => { void queue.loadMore() }}>{t('moderation.more')}</View>}

      <Section title={t('moderation.words')} className='moderation-words'>
        <Text className='moderation-words__hint'>{t('moderation.wordsHint')}</Text>
        <Textarea className='moderation-words__input' value={draft ?? (words.data?.words ?? []).join('\n')} maxlength={SHOW_LIMITS.wordsMax * (SHOW_LIMITS.wordMax + 1)}
          aria-label={t('moderation.words')} onInput={e => setDraft(e.detail.value)} />
        <View className='btn btn--primary moderation-words-save' {...a11yControl()} onClick={() => { void saveWords() }}>{t('moderation.wordsSave')}</View>
      </Section>
    </View>
  )
}

export default observer(ModerationTab)
