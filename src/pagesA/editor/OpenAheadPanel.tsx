import { useState } from 'react'
import { View, Text, Input } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { CASES_AHEAD_MAX } from '~types/limits'
import Section from '@/components/Section'
import { editorApi } from '@/services/editor'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { WHOLE_INPUT_TYPE } from '@/utils/format'

/** Whole number from 1 to CASES_AHEAD_MAX, or the problem in the user's words. */
function openAheadProblem (raw: string): string | null {
  const text = raw.trim()
  if (!/^\d+$/.test(text)) return t('openAhead.whole', { max: CASES_AHEAD_MAX })
  const n = Number(text)
  if (n < 1 || n > CASES_AHEAD_MAX) return t('openAhead.range', { max: CASES_AHEAD_MAX })
  return null
}

/**
 * For a series on sale: open cases ahead of a launch (POST /api/operator/casesOpenAhead), so shoppers
 * arriving at once are given ready cases instead of each waiting while one is made (docs/scaling.md).
 */
export default observer(function OpenAheadPanel ({ seriesId }: { seriesId: number }) {
  const [count, setCount] = useState('100')
  const [shown, setShown] = useState(false)
  const [busy, setBusy] = useState(false)
  const problem = openAheadProblem(count)
  const open = async () => {
    setShown(true)
    if (problem || busy) return
    setBusy(true)
    try {
      const r = await loading.wrap(editorApi.openAhead(seriesId, Number(count.trim())))
      const key = r.stockShort ? (r.opened > 0 ? 'openAhead.stockShort' : 'openAhead.noStock') : r.opened > 0 ? 'openAhead.done' : 'openAhead.full'
      toast({ message: t(key, { opened: r.opened, open: r.open, max: r.max }), ...(r.opened > 0 && !r.stockShort ? { level: 'success' as const } : {}) })
    } catch (e) {
      toast({ message: errorMessage(e) })
    } finally {
      setBusy(false)
    }
  }
  return (
    <Section title={t('openAhead.title')} className='open-ahead'>
      <Text className='editor-hint'>{t('openAhead.hint')}</Text>
      <Text className='editor-label'>{t('openAhead.count')}</Text>
      <Input className={`editor-input open-ahead__count ${shown && problem ? 'editor-input--error' : ''}`} type={WHOLE_INPUT_TYPE}
        value={count} onInput={e => setCount(e.detail.value)} aria-label={t('openAhead.count')} />
      {shown && problem && <Text className='editor-hint editor-hint--error open-ahead__problem'>{problem}</Text>}
      <View className={`btn btn--ghost open-ahead__go ${busy ? 'btn--disabled' : ''}`} onClick={() => { void open() }}>{t('openAhead.go')}</View>
    </Section>
  )
})
