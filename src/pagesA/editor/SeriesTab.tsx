import { useState } from 'react'
import { View, Text, Image } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { EditorSeriesRow, EditorSeriesStatus } from '~types/editor'
import Section from '@/components/Section'
import EmptyState from '@/components/EmptyState'
import { editorApi } from '@/services/editor'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { formatCents, formatTime, tr, decorativeImage } from '@/utils/format'
import { mediaUrl } from '@/utils/media'
import { useRemote } from '@/utils/useRemote'
import { emptySeriesForm, formOfSeries, type SeriesForm } from './seriesForm'
import SeriesEditor from './SeriesEditor'
import './SeriesTab.scss'

const FILTERS: Array<EditorSeriesStatus | 'all'> = ['all', 'draft', 'on_sale', 'retired']

const NO_COUNTS: Record<EditorSeriesStatus, number> = { draft: 0, on_sale: 0, retired: 0 }

/** The series of the shop by status; a tap opens one in the editor, "+ New series" starts a draft. */
function SeriesTab () {
  const [filter, setFilter] = useState<EditorSeriesStatus | 'all'>('all')
  const [editing, setEditing] = useState<SeriesForm | null>(null)

  // one page of 50 (the shop's series); the rows and counts stay while another filter's answer comes
  const series = useRemote(() => editorApi.list({ page: 1, size: 50, ...(filter === 'all' ? {} : { status: filter }) }), [filter], {
    onError: e => toast({ message: errorMessage(e) })
  })
  const load = () => series.reload()
  const rows: EditorSeriesRow[] | null = series.data?.list ?? null
  const counts: Record<EditorSeriesStatus, number> = series.data?.counts ?? NO_COUNTS

  const open = async (id: number) => {
    try {
      setEditing(formOfSeries(await loading.wrap(editorApi.get(id))))
    } catch (e) {
      toast({ message: errorMessage(e) })
    }
  }

  if (editing) return <SeriesEditor initial={editing} onDone={changed => { setEditing(null); if (changed) void load() }} />
  const total = counts.draft + counts.on_sale + counts.retired
  return (
    <Section title={t('seriesForm.listTitle')} className='series-list'
      extra={<Text className='recipe-new series-new' onClick={() => setEditing(emptySeriesForm())}>+ {t('seriesForm.new')}</Text>}>
      <View className='recipe-chips recipe-chips--wrap series-filters'>
        {FILTERS.map(f => (
          <Text key={f} className={`recipe-chip series-filter-${f} ${filter === f ? 'recipe-chip--on' : ''}`} onClick={() => setFilter(f)}>
            {t(`seriesForm.filter.${f}`)} {f === 'all' ? total : counts[f]}
          </Text>
        ))}
      </View>
      {rows === null && <Text className='editor-hint'>{t('feedback.loading')}</Text>}
      {rows?.length === 0 && <EmptyState icon='🎨' text={t('seriesForm.none')} />}
      {rows?.map(s => (
        <View key={s.id} className={`series-row series-row-${s.id}`} onClick={() => { void open(s.id) }}>
          {s.cover ? <Image className='series-row__img' src={mediaUrl(s.cover, 120)} mode='aspectFit' lazyLoad {...decorativeImage()} /> : <View className='series-row__img series-row__img--none'>🎁</View>}
          <View className='series-row__body'>
            <View className='series-row__head'>
              <Text className='series-row__title'>{tr(s.title) || t('seriesForm.untitled')}</Text>
              <Text className={`series-status series-status--${s.status}`}>{t(`seriesForm.status.${s.status}`)}</Text>
            </View>
            <Text className='editor-hint series-row__meta'>
              {formatCents(s.priceCents)} · {t('seriesForm.designCount', { n: s.designCount })} · {t('seriesForm.sold', { n: s.boxesSold })}
            </Text>
            <Text className='editor-hint series-row__meta'>{t('seriesForm.updated', { time: formatTime(s.updatedAt) })}</Text>
          </View>
        </View>
      ))}
    </Section>
  )
}

export default observer(SeriesTab)
