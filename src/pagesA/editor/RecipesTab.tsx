import { useState } from 'react'
import { View, Text, Input, ScrollView } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { RECIPE_LIMITS } from '~types/limits'
import type { OperatorRecipe } from '~types/combine'
import type { DesignInfo, Rarity, SeriesSummary } from '~types/shop'
import Section from '@/components/Section'
import RarityBadge from '@/components/RarityBadge'
import { recipeAdminApi } from '@/services/combine'
import { shopApi } from '@/services/shop'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { formatPpm, tr, a11yControl } from '@/utils/format'
import {
  emptyRecipeForm, formOfRecipe, poolPreview, recipeRequest, validateRecipe,
  type RecipeErrors, type RecipeField, type RecipeForm
} from './recipeForm'
import './RecipesTab.scss'
import { reveal } from '@/utils/reveal'
import { useRemote } from '@/utils/useRemote'

const RARITIES: Rarity[] = ['regular', 'rare', 'hidden']
/** Whole numbers: the mini-program's number keyboard; in a browser text, checked by the form (a number field drops what it dislikes). */
const WHOLE_INPUT_TYPE: 'text' | 'number' = process.env.TARO_ENV === 'h5' ? 'text' : 'number'

type SeriesOption = Pick<SeriesSummary, 'id' | 'title'>

/** Creates or changes a recipe: its series, names, what it takes, the pool with weights and a live odds preview. */
const RecipeEditor = observer(function RecipeEditor ({ initial, series, onDone }: { initial: RecipeForm; series: SeriesOption[]; onDone: (saved: boolean) => void }) {
  const [form, setForm] = useState<RecipeForm>(initial)
  const [errors, setErrors] = useState<RecipeErrors>({})
  const [tried, setTried] = useState(false)
  const [busy, setBusy] = useState(false)

  // the designs of the chosen series (the pool takes only these): null while they load
  const seriesId = form.seriesId
  const chosen = useRemote<DesignInfo[]>(async () => (seriesId === null ? [] : (await shopApi.seriesDetail(seriesId)).designs), [seriesId],
    { onError: e => toast({ message: errorMessage(e) }) })
  const designs = chosen.loading || chosen.failed ? null : chosen.data ?? null

  const update = (change: Partial<RecipeForm>) => {
    const next = { ...form, ...change }
    setForm(next)
    if (tried) setErrors(validateRecipe(next, designs ?? []))
  }
  const setWeight = (i: number, weight: string) => update({ pool: form.pool.map((p, j) => (j === i ? { ...p, weight } : p)) })
  const pickSeries = (id: number) => { if (id !== form.seriesId) update({ seriesId: id, pool: [] }) }

  const save = async () => {
    if (busy) return
    setTried(true)
    const found = validateRecipe(form, designs ?? [])
    setErrors(found)
    const first = Object.values(found)[0]
    if (first) { reveal('.editor-hint--error'); return }
    setBusy(true)
    try {
      await loading.wrap(recipeAdminApi.save(recipeRequest(form)))
      toast({ message: t('recipeForm.saved'), level: 'success' })
      onDone(true)
    } catch (e) {
      toast({ message: errorMessage(e) })
    } finally {
      setBusy(false)
    }
  }

  const error = (field: RecipeField) => errors[field] ? <Text className='editor-hint editor-hint--error'>{errors[field]}</Text> : null
  const chip = (key: string, label: string, on: boolean, pick: () => void) => (
    <Text key={key} className={`recipe-chip recipe-chip-${key} ${on ? 'recipe-chip--on' : ''}`} onClick={pick}>{label}</Text>
  )
  const preview = poolPreview(form, designs ?? [])
  const inPool = new Set(form.pool.map(p => p.designId))
  const designOf = (id: number) => designs?.find(d => d.id === id)

  return (
    <Section title={form.id === undefined ? t('recipeForm.newTitle') : t('recipeForm.editTitle', { id: form.id })} className='recipe-form'>
      <Text className='editor-label'>{t('recipeForm.series')}</Text>
      {series.length === 0
        ? <Text className='editor-hint'>{t('recipeForm.noSeries')}</Text>
        : (
          <ScrollView scrollX className='recipe-chips' enableFlex>
            {series.map(s => chip(`series-${s.id}`, tr(s.title), form.seriesId === s.id, () => pickSeries(s.id)))}
          </ScrollView>
          )}
      {error('seriesId')}

      <Text className='editor-label'>{t('recipeForm.nameZh')}</Text>
      <Input className={`editor-input recipe-name-zh ${errors.nameZh ? 'editor-input--error' : ''}`} value={form.nameZh} maxlength={RECIPE_LIMITS.nameMax}
        onInput={e => update({ nameZh: e.detail.value })} />
      {error('nameZh')}
      <Text className='editor-label'>{t('recipeForm.nameEn')}</Text>
      <Input className={`editor-input recipe-name-en ${errors.nameEn ? 'editor-input--error' : ''}`} value={form.nameEn} maxlength={RECIPE_LIMITS.nameMax}
        onInput={e => update({ nameEn: e.detail.value })} />
      {error('nameEn')}

      <Text className='editor-label'>{t('recipeForm.inputKind')}</Text>
      <View className='recipe-chips recipe-chips--wrap'>
        {chip('kind-rarity', t('recipeForm.kindRarity'), form.inputKind === 'rarity', () => update({ inputKind: 'rarity', inputRarity: form.inputRarity ?? 'regular' }))}
        {chip('kind-same', t('recipeForm.kindSame'), form.inputKind === 'same_design', () => update({ inputKind: 'same_design' }))}
      </View>
      {form.inputKind === 'rarity' && (
        <>
          <Text className='editor-label'>{t('recipeForm.rarity')}</Text>
          <View className='recipe-chips recipe-chips--wrap'>
            {RARITIES.map(r => chip(`rarity-${r}`, t(`rarity.${r}`), form.inputRarity === r, () => update({ inputRarity: r })))}
          </View>
          {error('inputRarity')}
        </>
      )}
      <Text className='editor-label'>{t('recipeForm.count', { min: RECIPE_LIMITS.inputCountMin, max: RECIPE_LIMITS.inputCountMax })}</Text>
      <Input className={`editor-input recipe-count ${errors.count ? 'editor-input--error' : ''}`} type={WHOLE_INPUT_TYPE} value={form.count} maxlength={2}
        onInput={e => update({ count: e.detail.value })} />
      {error('count')}

      <Text className='editor-label'>{t('recipeForm.pool')}</Text>
      {form.pool.length === 0 && <Text className='editor-hint recipe-pool__empty'>{t('recipeForm.poolEmpty')}</Text>}
      {form.pool.map((p, i) => {
        const d = designOf(p.designId)
        const odds = preview.entries[i]?.oddsPpm
        return (
          <View key={p.designId} className={`recipe-pool__row recipe-pool-${p.designId}`}>
            <View className='recipe-pool__design'>
              <Text className='recipe-pool__name'>{d ? tr(d.name) : `#${p.designId}`}</Text>
              {d && <RarityBadge rarity={d.rarity} />}
            </View>
            <View className='recipe-pool__weight'>
              <Text className='recipe-pool__label'>{t('recipeForm.weight')}</Text>
              <Input className={`editor-input recipe-weight ${errors[`weight${i}`] ? 'editor-input--error' : ''}`} type={WHOLE_INPUT_TYPE} value={p.weight} maxlength={7}
                onInput={e => setWeight(i, e.detail.value)} />
            </View>
            <Text className='recipe-pool__odds'>{odds === null || odds === undefined ? '—' : formatPpm(odds)}</Text>
            <Text className='recipe-pool__remove' {...a11yControl(t('a11y.remove'))} onClick={() => update({ pool: form.pool.filter((_, j) => j !== i) })}>✕</Text>
            {errors[`weight${i}`] && <Text className='editor-hint editor-hint--error recipe-pool__error'>{errors[`weight${i}`]}</Text>}
          </View>
        )
      })}
      {error('pool')}
      {designs && designs.some(d => !inPool.has(d.id)) && (
        <View className='recipe-chips recipe-chips--wrap recipe-designs'>
          {designs.filter(d => !inPool.has(d.id)).map(d => chip(`design-${d.id}`, `+ ${tr(d.name)}`, false, () => update({ pool: [...form.pool, { designId: d.id, weight: '1' }] })))}
        </View>
      )}

      <View className='recipe-preview'>
        <Text className='recipe-preview__title'>{t('recipeForm.odds')}</Text>
        <Text className='editor-hint recipe-preview__line'>
          {t('recipeForm.total', { total: preview.total })}
          {preview.guaranteed ? ` · ${t('combine.guarantee', { rarity: t(`rarity.${preview.guaranteed}`) })}` : ''}
        </Text>
        {preview.total > 0 && (
          <View className='recipe-preview__bar'>
            {form.pool.map((p, i) => {
              const odds = preview.entries[i]?.oddsPpm
              const d = designOf(p.designId)
              return odds ? <View key={p.designId} className={`recipe-preview__part recipe-preview__part--${d?.rarity ?? 'regular'}`} style={{ width: `${odds / 10000}%` }} /> : null
            })}
          </View>
        )}
      </View>

      <Text className='editor-label'>{t('recipeForm.status')}</Text>
      <View className='recipe-chips recipe-chips--wrap'>
        {chip('status-on', t('recipeForm.publishNow'), form.status === 'on', () => update({ status: 'on' }))}
        {chip('status-off', t('recipeForm.keepOff'), form.status === 'off', () => update({ status: 'off' }))}
      </View>

      <View className='recipe-form__actions'>
        <View className='btn btn--ghost recipe-cancel' onClick={() => onDone(false)}>{t('recipeForm.cancel')}</View>
        <View className={`btn btn--primary recipe-save ${busy ? 'btn--disabled' : ''}`} onClick={() => { void save() }}>{t('recipeForm.save')}</View>
      </View>
    </Section>
  )
})

/** The combine recipes every series publishes: create and edit them, publish or withdraw them (audited). */
function RecipesTab () {
  const onError = (e: unknown) => toast({ message: errorMessage(e) })
  const recipeList = useRemote(() => recipeAdminApi.list(), [], { onError })
  const recipes: OperatorRecipe[] | null = recipeList.data ?? null
  const series: SeriesOption[] = useRemote(async () => (await shopApi.seriesList({ page: 1, size: 100 })).list, [], { onError }).data ?? []
  const [editing, setEditing] = useState<RecipeForm | null>(null)
  const load = recipeList.reload

  const flip = async (r: OperatorRecipe) => {
    try {
      await loading.wrap(recipeAdminApi.save({ ...recipeRequest(formOfRecipe(r)), status: r.status === 'on' ? 'off' : 'on' }))
      toast({ message: t('opRecipes.saved'), level: 'success' })
      await load()
    } catch (e) { toast({ message: errorMessage(e) }) }
  }

  if (editing) {
    // a recipe of a series no longer listed (retired) keeps its series as a choice
    const own = recipes?.find(r => r.id === editing.id)
    const options = own && !series.some(s => s.id === own.seriesId) ? [...series, { id: own.seriesId, title: own.seriesTitle }] : series
    return <RecipeEditor initial={editing} series={options} onDone={saved => { setEditing(null); if (saved) void load() }} />
  }
  if (!recipes) return <Text className='editor-hint'>{t('feedback.loading')}</Text>
  return (
    <Section title={t('opRecipes.title')} className='op-recipes'
      extra={<Text className='recipe-new' onClick={() => setEditing(emptyRecipeForm(series[0]?.id ?? null))}>+ {t('recipeForm.new')}</Text>}>
      {recipes.map(r => (
        <View key={r.id} className={`op-recipe op-recipe-${r.id}`}>
          <View className='op-recipe__head'>
            <Text className='op-recipe__name'>{tr(r.name)} · {tr(r.seriesTitle)}</Text>
            <Text className={`op-recipe__status op-recipe__status--${r.status}`}>{t(r.status === 'on' ? 'opRecipes.on' : 'opRecipes.off')}</Text>
          </View>
          <Text className='editor-hint'>
            {t('combine.needs', { count: r.input.count, what: r.input.kind === 'same_design' ? t('combine.sameDesign') : t(`rarity.${r.input.rarity ?? 'regular'}`) })}
            {' · '}{t('combine.guarantee', { rarity: t(`rarity.${r.guaranteedRarity}`) })}
          </Text>
          <Text className='editor-hint'>{r.pool.map(p => `${tr(p.design.name)} ${formatPpm(p.oddsPpm)}`).join(' / ')}</Text>
          <View className='op-recipe__actions'>
            <View className='btn btn--ghost op-recipe__edit' onClick={() => setEditing(formOfRecipe(r))}>{t('recipeForm.edit')}</View>
            <View className='btn btn--ghost op-recipe__flip' onClick={() => { void flip(r) }}>{t(r.status === 'on' ? 'opRecipes.withdraw' : 'opRecipes.publish')}</View>
          </View>
        </View>
      ))}
    </Section>
  )
}

export default observer(RecipesTab)
