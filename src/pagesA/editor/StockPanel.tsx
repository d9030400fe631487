import { useState } from 'react'
import { View, Text, Input } from '@tarojs/components'
import type { SeriesKind, SeriesStock } from '~types/editor'
import { EDITOR_LIMITS } from '~types/limits'
import { observer } from '@/stores/mobx'
import Section from '@/components/Section'
import { editorApi } from '@/services/editor'
import { ApiError } from '@/services/errors'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { tr, WHOLE_INPUT_TYPE } from '@/utils/format'
import { useRemote } from '@/utils/useRemote'

/** A count from 0 to the most, or the problem in the operator's words. */
function countProblem (raw: string, committed: number): string | null {
  const text = raw.trim()
  if (!/^\d+$/.test(text)) return t('stock.whole', { max: EDITOR_LIMITS.stockMax })
  const n = Number(text)
  if (n > EDITOR_LIMITS.stockMax) return t('stock.whole', { max: EDITOR_LIMITS.stockMax })
  if (n < committed) return t('stock.belowHeld', { committed })
  return null
}

/**
 * The warehouse counts of a series (POST /api/operator/stock, stockSave): for each design the figures
 * on hand (editable), what cases on sale and shoppers' prizes hold of them, and what is free; and how many
 * new cases the warehouse can still fill. A save sends the counts the screen showed with the new ones,
 * so a parcel that left in between is not counted away (409: the screen reloads the counts). A kuji
 * series counts sets: each takes a tier design's tickets, one Last One and the Double Chance's winners.
 */
export default observer(function StockPanel ({ seriesId, kind = 'case' }: { seriesId: number; kind?: SeriesKind }) {
  const [edits, setEdits] = useState<Record<number, string>>({})
  const [shown, setShown] = useState(false)
  const [busy, setBusy] = useState(false)
  const stock = useRemote<SeriesStock>(() => editorApi.stock(seriesId), [seriesId], {
    onSuccess: () => { setEdits({}); setShown(false) }
  })
  const s = stock.data
  if (!s) return <Section title={t('stock.title')} className='stock-panel'><Text className='editor-hint'>{stock.failed ? t('stock.loadFailed') : t('feedback.loading')}</Text></Section>
  const valueOf = (designId: number, current: number) => edits[designId] ?? String(current)
  const problems = new Map(s.designs.map(d => [d.designId, countProblem(valueOf(d.designId, d.stock), d.committed)]))
  const changed = s.designs.filter(d => edits[d.designId] !== undefined && edits[d.designId].trim() !== String(d.stock))
  const save = async () => {
    setShown(true)
    if (busy || changed.length === 0 || changed.some(d => problems.get(d.designId))) return
    setBusy(true)
    try {
      const saved = await loading.wrap(editorApi.stockSave({
        seriesId,
        designs: changed.map(d => ({ designId: d.designId, stock: Number(edits[d.designId].trim()), was: d.stock }))
      }))
      stock.setData(() => saved)
      setEdits({})
      setShown(false)
      toast({ message: t('stock.saved'), level: 'success' })
    } catch (e) {
      toast({ message: errorMessage(e) })
      // a count changed meanwhile: show the counts as they are now (the operator's entries are kept)
      if (e instanceof ApiError && e.code === 409) {
        const keep = edits
        await stock.reload()
        setEdits(keep)
      }
    } finally {
      setBusy(false)
    }
  }
  return (
    <Section title={t('stock.title')} className='stock-panel'>
      <Text className='editor-hint'>{t(kind === 'kuji' ? 'stock.hintKuji' : 'stock.hint')}</Text>
      <View className='stock-summary'>
        <Text className={`stock-summary__fillable ${s.casesFillable === 0 ? 'stock-summary__fillable--none' : ''}`}>
          {t(kind === 'kuji' ? 'stock.fillableKuji' : 'stock.fillable', { n: s.casesFillable })}
        </Text>
        <Text className='stock-summary__open'>{t(kind === 'kuji' ? 'stock.openSets' : 'stock.openCases', { n: s.openCases })}</Text>
        {s.soldOut && <Text className='stock-summary__sold-out'>{t('stock.soldOut')}</Text>}
      </View>
      {s.designs.map((d, i) => {
        const problem = problems.get(d.designId)
        return (
          <View key={d.designId} className={`stock-row stock-row-${i + 1}`}>
            <View className='stock-row__name'>
              <Text className='stock-row__title'>{tr(d.name)}</Text>
              <Text className='stock-row__rarity'>{t(`rarity.${d.rarity}`)}{d.inEveryCase ? '' : ` · ${t('stock.notInCases')}`}</Text>
            </View>
            <View className='stock-row__counts'>
              <Text className='editor-label'>{t('stock.onHand')}</Text>
              <Input className={`editor-input stock-row__input ${shown && problem ? 'editor-input--error' : ''}`} type={WHOLE_INPUT_TYPE}
                value={valueOf(d.designId, d.stock)} aria-label={`${tr(d.name)} ${t('stock.onHand')}`}
                onInput={e => { const v = e.detail.value; setEdits(x => ({ ...x, [d.designId]: v })) }} />
              <Text className='stock-row__held'>{t('stock.held', { n: d.committed })}</Text>
              <Text className={`stock-row__free ${d.free === 0 && d.inEveryCase ? 'stock-row__free--none' : ''}`}>{t('stock.free', { n: d.free })}</Text>
            </View>
            {shown && problem && <Text className='editor-hint editor-hint--error stock-row__problem'>{problem}</Text>}
          </View>
        )
      })}
      <View className={`btn btn--ghost stock-save ${busy || changed.length === 0 ? 'btn--disabled' : ''}`} onClick={() => { void save() }}>{t('stock.save')}</View>
    </Section>
  )
})
