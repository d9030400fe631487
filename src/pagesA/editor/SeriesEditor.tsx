import { useState } from 'react'
import { View, Text, Input, Textarea, Picker } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { EDITOR_LIMITS, MAX_BOX_PRICE_CENTS, SERIES_SEARCH, UPLOAD_MAX_MB, VISION_LIMITS } from '~types/limits'
import type { LowValueData, PublishBlockedData, SeriesKind } from '~types/editor'
import type { Rarity } from '~types/shop'
import Section from '@/components/Section'
import RarityBadge from '@/components/RarityBadge'
import { editorApi } from '@/services/editor'
import { ApiError } from '@/services/errors'
import { errorMessage } from '@/services/request'
import { localeStore, t } from '@/stores/locale'
import { dialog, loading, toast } from '@/utils/feedback'
import { a11yControl, AMOUNT_INPUT_TYPE, formatCents, formatPpm, WHOLE_INPUT_TYPE } from '@/utils/format'
import {
  emptyDesign, formOfSeries, KUJI_DOUBLE_CHANCE, KUJI_LAST_ONE, KUJI_TIERS, KUJI_TURN, lowValueIndexes, nextTier, oddsPreview, seriesRequest, validateSeries,
  winnersOf, withDesignTier, withKind,
  type DesignForm, type SeriesErrors, type SeriesForm
} from './seriesForm'
import ImagePicker from './ImagePicker'
import PromoTasks from './PromoTasks'
import OpenAheadPanel from './OpenAheadPanel'
import DropsPanel from './DropsPanel'
import StockPanel from './StockPanel'
import { formPrint } from './seriesPrint'
import { useSeriesAi } from './useSeriesAi'
import { reveal } from '@/utils/reveal'

const RARITIES: Rarity[] = ['regular', 'rare', 'hidden']
const KINDS: SeriesKind[] = ['case', 'kuji']
/** A kuji tier as the operator reads it: "A赏" / "Prize A", the Last One and the Double Chance by their names. */
const tierName = (tier: string) => (tier === KUJI_LAST_ONE ? t('seriesForm.lastOne') : tier === KUJI_DOUBLE_CHANCE ? t('seriesForm.doubleChance') : t('seriesForm.tierName', { tier }))
// the tier picker's options, one list per wording (the language's): Taro's H5 picker starts over at its
// value whenever its range is another array, so a list made anew at each render would undo a choice
// being scrolled to
const tierRanges = new Map<string, string[]>()
const tierRange = (): string[] => {
  const wording = `${tierName('A')}|${tierName(KUJI_LAST_ONE)}`
  const made = tierRanges.get(wording) ?? KUJI_TIERS.map(tierName)
  tierRanges.set(wording, made)
  return made
}

/**
 * Creates or changes a series: texts in both languages, price, hidden chance, designs with images, the live odds.
 * A 一番赏 (kuji) series instead has a price per ticket, a turn length, and per design a tier and its tickets,
 * with the odds of each tier.
 */
const SeriesEditor = observer(function SeriesEditor ({ initial, onDone }: { initial: SeriesForm; onDone: (changed: boolean) => void }) {
  const [form, setForm] = useState<SeriesForm>(initial)
  const [errors, setErrors] = useState<SeriesErrors>({})
  const [serverProblems, setServerProblems] = useState<string[]>([])
  // the series' drops as last read (null: not yet), and how many were made while the editor is open
  const [drops, setDrops] = useState<{ count: number | null; made: number }>({ count: null, made: 0 })
  const [tried, setTried] = useState<'save' | 'publish' | null>(null)
  const [busy, setBusy] = useState(false)
  const [changed, setChanged] = useState(false)
  // the form as last saved (or opened): Back asks before it drops anything typed or uploaded since
  const [savedPrint, setSavedPrint] = useState(() => formPrint(initial))
  const published = form.status !== 'draft'
  const kuji = form.kind === 'kuji'

  // every change goes through the previous state: two quick keystrokes never overwrite each other
  const update = (change: (f: SeriesForm) => SeriesForm) => {
    setForm(prev => {
      const next = change(prev)
      if (tried) setErrors(validateSeries(next, tried === 'publish'))
      return next
    })
  }
  const setField = <K extends keyof SeriesForm>(key: K, value: SeriesForm[K]) => update(f => ({ ...f, [key]: value }))
  const setDesign = (key: string, change: Partial<DesignForm>) => update(f => ({ ...f, designs: f.designs.map(d => (d.key === key ? { ...d, ...change } : d)) }))
  // the AI helpers and the drawn cover (./useSeriesAi.ts): shown once the server says it can answer them
  const { helpers, aiOn, aiBusy, coverPrompt, setCoverPrompt, drawing, drawCover, aiDescribe, aiAlt, aiPolish, aiTranslate } =
    useSeriesAi(form, { setField, setDesign, update })
  const move = (i: number, by: number) => update(f => {
    const j = i + by
    if (j < 0 || j >= f.designs.length) return f
    const designs = [...f.designs]
    ;[designs[i], designs[j]] = [designs[j], designs[i]]
    return { ...f, designs }
  })

  const check = (publish: boolean): boolean => {
    setTried(publish ? 'publish' : 'save')
    const found = validateSeries(form, publish)
    setErrors(found)
    const first = Object.values(found)[0]
    // shown under their fields: bring the first into view (a toast repeating it would cover it)
    if (first) reveal('.editor-hint--error')
    return !first
  }

  /** Saves; answers the saved form (null when the save failed, with the reason shown). */
  const save = async (): Promise<SeriesForm | null> => {
    try {
      const saved = formOfSeries(await loading.wrap(editorApi.save(seriesRequest(form))))
      // the saved form keeps the designs' list keys where it can (no remount of what is being typed)
      saved.designs = saved.designs.map((d, i) => ({ ...d, key: form.designs[i]?.key ?? d.key }))
      setForm(saved)
      setSavedPrint(formPrint(saved))
      setChanged(true)
      return saved
    } catch (e) {
      const field = e instanceof ApiError ? (e.data as { field?: string } | null)?.field : undefined
      if (field) {
        setErrors(prev => ({ ...prev, [field]: errorMessage(e) }))
        const message = errorMessage(e)
        reveal(`.error-${field.replace(/\./g, '-')}`, () => { toast({ message }) })
      } else toast({ message: errorMessage(e) })
      return null
    }
  }

  const onSave = async () => {
    if (busy || !check(false)) return
    setBusy(true)
    setServerProblems([])
    const saved = await save()
    setBusy(false)
    if (saved) toast({ message: t('seriesForm.saved'), level: 'success' })
  }

  const onPublish = async () => {
    if (busy || !check(true)) return
    if (!(await dialog({ title: t('seriesForm.publishTitle'), message: t(kuji ? 'seriesForm.publishConfirmKuji' : 'seriesForm.publishConfirm') }))) return
    setBusy(true)
    setServerProblems([])
    try {
      const saved = await save()
      if (!saved?.id) return
      if (!(await publishSaved(saved.id))) return
      toast({ message: t('seriesForm.published'), level: 'success' })
      onDone(true)
    } catch (e) {
      const problems = e instanceof ApiError ? (e.data as PublishBlockedData | null)?.problems : undefined
      if (problems?.length) {
        setServerProblems(problems.map(p => p.message))
        setErrors(prev => ({ ...prev, ...Object.fromEntries(problems.map(p => [p.field, p.message])) }))
      }
      toast({ message: errorMessage(e) })
    } finally {
      setBusy(false)
    }
  }

  /**
   * Publishes; a design worth less than one box is named by the server (409 low_value) and published
   * only once the operator confirms those very designs (the acknowledgement is audited). Answers
   * whether it is on sale.
   */
  const publishSaved = async (id: number): Promise<boolean> => {
    try {
      await loading.wrap(editorApi.publish(id))
      return true
    } catch (e) {
      const low = e instanceof ApiError && e.code === 409 ? e.data as LowValueData | null : null
      if (low?.reason !== 'low_value') throw e
      const lang = localeStore.locale === 'en' ? 'en' : 'zh'
      const names = low.designs.map(d => `${d.name[lang]} (${formatCents(d.referenceValueCents)})`).join(lang === 'en' ? ', ' : '、')
      if (!(await dialog({ title: t('seriesForm.lowValueTitle'), message: t('seriesForm.lowValueConfirm', { price: formatCents(low.priceCents), names }), confirmText: t('seriesForm.lowValuePublish') }))) return false
      await loading.wrap(editorApi.publish(id, low.designs.map(d => d.designId)))
      return true
    }
  }

  const onRetire = async () => {
    if (busy || form.id === undefined) return
    if (!(await dialog({ title: t('seriesForm.retireTitle'), message: t('seriesForm.retireConfirm') }))) return
    setBusy(true)
    try {
      await loading.wrap(editorApi.retire(form.id))
      toast({ message: t('seriesForm.retired'), level: 'success' })
      onDone(true)
    } catch (e) {
      toast({ message: errorMessage(e) })
    } finally {
      setBusy(false)
    }
  }

  const onBack = async () => {
    if (busy) return
    if (formPrint(form) !== savedPrint) {
      const fresh = form.id === undefined
      if (!(await dialog({
        title: t('seriesForm.discardTitle'),
        message: t(fresh ? 'seriesForm.discardNew' : 'seriesForm.discardChanges'),
        confirmText: t('seriesForm.discard')
      }))) return
    }
    onDone(changed)
  }

  const error = (field: string) => errors[field] ? <Text className={`editor-hint editor-hint--error error-${field.replace(/\./g, '-')}`}>{errors[field]}</Text> : null
  const input = (field: string, value: string, onInput: (v: string) => void, o: { max: number; cls: string; type?: 'text' | 'digit' | 'number'; placeholder?: string; disabled?: boolean; label?: string }) => (
    <Input className={`editor-input ${o.cls} ${errors[field] ? 'editor-input--error' : ''}`} value={value} maxlength={o.max} type={o.type ?? 'text'}
      placeholder={o.placeholder} disabled={o.disabled} aria-label={o.label} onInput={e => onInput(e.detail.value)} />
  )
  const preview = oddsPreview(form)
  const lowValue = lowValueIndexes(form)

  return (
    <View className='series-editor'>
      <Section title={form.id === undefined ? t('seriesForm.newTitle') : t('seriesForm.editTitle', { id: form.id })}
        extra={<Text className={`series-status series-status--${form.status}`}>{t(`seriesForm.status.${form.status}`)}</Text>}>
        {published && <Text className='editor-hint series-locked'>{t(kuji ? 'seriesForm.lockedNoteKuji' : 'seriesForm.lockedNote')}</Text>}
        <Text className='editor-label'>{t('seriesForm.kind')}</Text>
        {published
          ? <Text className={`editor-hint series-kind-fixed series-kind-fixed--${form.kind}`}>{t(kuji ? 'seriesForm.kindKuji' : 'seriesForm.kindCase')} · {t('seriesForm.kindLocked')}</Text>
          : (
            <View className='series-kind' {...a11yControl(t('seriesForm.kind'), 'radiogroup')}>
              {KINDS.map(k => (
                <Text key={k} className={`recipe-chip series-kind-${k} ${form.kind === k ? 'recipe-chip--on' : ''}`} {...a11yControl(undefined, 'radio')} aria-checked={form.kind === k}
                  onClick={() => update(f => withKind(f, k))}>{t(k === 'kuji' ? 'seriesForm.kindKuji' : 'seriesForm.kindCase')}</Text>
              ))}
            </View>
            )}
        {!published && <Text className='editor-hint series-kind-hint'>{t(kuji ? 'seriesForm.kindKujiHint' : 'seriesForm.kindCaseHint')}</Text>}
        <Text className='editor-label'>{t('seriesForm.titleZh')}</Text>
        {input('title.zh', form.titleZh, v => setField('titleZh', v), { max: EDITOR_LIMITS.titleMax, cls: 'series-title-zh' })}
        {error('title.zh')}
        <Text className='editor-label'>{t('seriesForm.titleEn')}</Text>
        {input('title.en', form.titleEn, v => setField('titleEn', v), { max: EDITOR_LIMITS.titleMax, cls: 'series-title-en' })}
        {error('title.en')}
        {aiOn && (
          <View className='series-ai'>
            <Text className={`series-ai__btn series-ai-describe ${aiBusy ? 'series-ai__btn--busy' : ''}`} onClick={() => { void aiDescribe() }}>✨ {t('seriesForm.aiDescribe')}</Text>
            <Text className={`series-ai__btn series-ai-polish ${aiBusy ? 'series-ai__btn--busy' : ''}`} onClick={() => { void aiPolish() }}>✍️ {t('seriesForm.aiPolish')}</Text>
            <Text className={`series-ai__btn series-ai-translate ${aiBusy ? 'series-ai__btn--busy' : ''}`} onClick={() => { void aiTranslate() }}>🌐 {t('seriesForm.aiTranslate')}</Text>
          </View>
        )}
        <Text className='editor-label'>{t('seriesForm.descriptionZh')}</Text>
        <Textarea className={`editor-textarea series-description-zh ${errors['description.zh'] ? 'editor-input--error' : ''}`} value={form.descriptionZh}
          maxlength={EDITOR_LIMITS.descriptionMax} onInput={e => setField('descriptionZh', e.detail.value)} />
        {error('description.zh')}
        <Text className='editor-label'>{t('seriesForm.descriptionEn')}</Text>
        <Textarea className={`editor-textarea series-description-en ${errors['description.en'] ? 'editor-input--error' : ''}`} value={form.descriptionEn}
          maxlength={EDITOR_LIMITS.descriptionMax} onInput={e => setField('descriptionEn', e.detail.value)} />
        {error('description.en')}
        <Text className='editor-label'>{t('seriesForm.rulesZh')}</Text>
        <Textarea className='editor-textarea series-rules-zh' value={form.rulesZh} maxlength={EDITOR_LIMITS.rulesMax} onInput={e => setField('rulesZh', e.detail.value)} />
        {error('rules.zh')}
        <Text className='editor-label'>{t('seriesForm.rulesEn')}</Text>
        <Textarea className='editor-textarea series-rules-en' value={form.rulesEn} maxlength={EDITOR_LIMITS.rulesMax} onInput={e => setField('rulesEn', e.detail.value)} />
        {error('rules.en')}
        <Text className='editor-label'>{t('seriesForm.tagsZh')}</Text>
        <Input className={`editor-input series-tags-zh ${errors['tags.zh'] || errors.tags ? 'editor-input--error' : ''}`} value={form.tagsZh} maxlength={200}
          aria-label={t('seriesForm.tagsZh')} onInput={e => setField('tagsZh', e.detail.value)} />
        {error('tags.zh')}
        {error('tags')}
        <Text className='editor-label'>{t('seriesForm.tagsEn')}</Text>
        <Input className={`editor-input series-tags-en ${errors['tags.en'] ? 'editor-input--error' : ''}`} value={form.tagsEn} maxlength={200}
          aria-label={t('seriesForm.tagsEn')} onInput={e => setField('tagsEn', e.detail.value)} />
        {error('tags.en')}
        <Text className='editor-hint'>{t('seriesForm.tagsHint', { max: SERIES_SEARCH.tagsPerSeriesMax })}</Text>
        <View className='editor-pair'>
          <View className='editor-pair__cell'>
            <Text className='editor-label'>{t(kuji ? 'seriesForm.priceTicket' : 'seriesForm.price', { max: MAX_BOX_PRICE_CENTS / 100 })}</Text>
            {input('priceCents', form.price, v => setField('price', v), { max: 9, cls: 'series-price', type: AMOUNT_INPUT_TYPE, disabled: published })}
          </View>
          {kuji
            ? (
              <View className='editor-pair__cell'>
                <Text className='editor-label'>{t('seriesForm.turn')}</Text>
                {input('turnSeconds', form.turnSeconds, v => setField('turnSeconds', v), { max: 3, cls: 'series-turn', type: WHOLE_INPUT_TYPE })}
              </View>
              )
            : (
              <View className='editor-pair__cell'>
                <Text className='editor-label'>{t('seriesForm.hidden')}</Text>
                {input('hiddenCasePpm', form.hiddenPercent, v => setField('hiddenPercent', v), { max: 8, cls: 'series-hidden', type: AMOUNT_INPUT_TYPE, disabled: published })}
              </View>
              )}
        </View>
        {error('priceCents')}
        {error('hiddenCasePpm')}
        {error('turnSeconds')}
        {error('kind')}
        {kuji && <Text className='editor-hint series-turn-hint'>{t('seriesForm.turnHint', { min: KUJI_TURN.minSeconds, max: KUJI_TURN.maxSeconds })}</Text>}
        <Text className='editor-label'>{t('seriesForm.cover')}</Text>
        <View className='series-cover-row'>
          <ImagePicker className='series-cover' value={form.cover} onChange={url => setField('cover', url)} label={t('seriesForm.coverPick')} />
          <Text className='editor-hint'>{t('seriesForm.coverHint', { mb: UPLOAD_MAX_MB })}</Text>
        </View>
        {helpers?.word2pic && (
          <View className='series-draw'>
            <Input className='editor-input series-cover-prompt' value={coverPrompt} maxlength={VISION_LIMITS.promptMax}
              placeholder={t('seriesForm.coverPromptPlaceholder')} onInput={e => setCoverPrompt(e.detail.value)} />
            <Text className={`series-ai__btn series-cover-draw ${drawing ? 'series-ai__btn--busy' : ''}`} onClick={() => { void drawCover() }}>🎨 {t('seriesForm.coverDraw')}</Text>
          </View>
        )}
      </Section>

      <Section title={t('seriesForm.designs', { n: form.designs.length })}>
        {form.designs.length === 0 && <Text className='editor-hint'>{t('seriesForm.noDesigns', { min: EDITOR_LIMITS.designsToPublish })}</Text>}
        {form.designs.map((d, i) => (
          <View key={d.key} className={`design-row design-row-${i}`}>
            <View className='design-row__top'>
              <ImagePicker className={`design-image design-image-${i}`} value={d.image} onChange={url => setDesign(d.key, { image: url })}
                label={t('seriesForm.image')} error={errors[`designs.${i}.image`]} />
              <View className='design-row__names'>
                {input(`designs.${i}.name.zh`, d.nameZh, v => setDesign(d.key, { nameZh: v }), { max: EDITOR_LIMITS.designNameMax, cls: 'design-name-zh', placeholder: t('seriesForm.nameZh') })}
                {input(`designs.${i}.name.en`, d.nameEn, v => setDesign(d.key, { nameEn: v }), { max: EDITOR_LIMITS.designNameMax, cls: 'design-name-en', placeholder: t('seriesForm.nameEn') })}
              </View>
            </View>
            <View className='design-row__rarity'>
              {RARITIES.map(r => (
                <Text key={r} className={`recipe-chip design-rarity-${r} ${d.rarity === r ? 'recipe-chip--on' : ''} ${published ? 'recipe-chip--off' : ''}`}
                  onClick={() => { if (!published) setDesign(d.key, { rarity: r }) }}>{t(`rarity.${r}`)}</Text>
              ))}
              <Text className='design-row__odds'>
                {kuji && d.tier === KUJI_LAST_ONE
                  ? t('seriesForm.lastOneOdds')
                  : kuji && d.tier === KUJI_DOUBLE_CHANCE
                    ? t('seriesForm.doubleChanceOdds', { n: winnersOf(form) ?? 0 })
                    : preview.perDesignPpm[i] === null || preview.perDesignPpm[i] === undefined ? '—' : formatPpm(preview.perDesignPpm[i] as number)}
              </Text>
            </View>
            {kuji && (
              <View className='editor-pair design-row__kuji'>
                <View className='editor-pair__cell'>
                  <Text className='editor-label'>{t('seriesForm.tier')}</Text>
                  <Picker mode='selector' range={tierRange()} value={Math.max(0, KUJI_TIERS.indexOf(d.tier ?? ''))} disabled={published}
                    onChange={e => { const tier = KUJI_TIERS[Number(e.detail.value)]; if (tier) update(f => withDesignTier(f, d.key, tier)) }}>
                    <View className={`editor-input design-tier design-tier-${i} ${errors[`designs.${i}.tier`] ? 'editor-input--error' : ''} ${published ? 'design-tier--off' : ''}`}
                      {...a11yControl(`${t('seriesForm.tier')} ${d.tier ? tierName(d.tier) : '—'}`)}>
                      {d.tier ? tierName(d.tier) : '—'}{published ? '' : ' ▾'}
                    </View>
                  </Picker>
                </View>
                {d.tier === KUJI_DOUBLE_CHANCE
                  ? (
                    <View className='editor-pair__cell'>
                      <Text className='editor-label'>{t('seriesForm.winners')}</Text>
                      {input('doubleChanceWinners', form.doubleChanceWinners, v => setField('doubleChanceWinners', v), { max: 2, cls: 'series-dc-winners', type: WHOLE_INPUT_TYPE, disabled: published, label: t('seriesForm.winners') })}
                    </View>
                    )
                  : (
                    <View className='editor-pair__cell'>
                      <Text className='editor-label'>{t('seriesForm.tickets')}</Text>
                      {d.tier === KUJI_LAST_ONE
                        ? <Text className='editor-hint design-tickets-none'>{t('seriesForm.ticketsLastOne')}</Text>
                        : input(`designs.${i}.tickets`, d.tickets, v => setDesign(d.key, { tickets: v }), { max: 2, cls: 'design-tickets', type: WHOLE_INPUT_TYPE, disabled: published, label: t('seriesForm.tickets') })}
                    </View>
                    )}
              </View>
            )}
            {kuji && d.tier === KUJI_DOUBLE_CHANCE && error('doubleChanceWinners')}
            <View className='editor-pair'>
              <View className='editor-pair__cell'>
                <Text className='editor-label'>{t('seriesForm.reference')}</Text>
                {input(`designs.${i}.referenceValueCents`, d.reference, v => setDesign(d.key, { reference: v }), { max: 9, cls: 'design-reference', type: AMOUNT_INPUT_TYPE, disabled: published })}
                {lowValue.includes(i) && <Text className='editor-hint editor-hint--warn design-low-value'>{t('seriesForm.lowValue')}</Text>}
              </View>
              <View className='editor-pair__cell'>
                <Text className='editor-label'>{t('seriesForm.recycle')}</Text>
                {input(`designs.${i}.recycleValueCents`, d.recycle, v => setDesign(d.key, { recycle: v }), { max: 9, cls: 'design-recycle', type: AMOUNT_INPUT_TYPE, disabled: published })}
              </View>
            </View>
            <View className='design-row__alt'>
              <Text className='editor-label'>{t('seriesForm.alt')}</Text>
              {input(`designs.${i}.alt.zh`, d.altZh, v => setDesign(d.key, { altZh: v }), { max: EDITOR_LIMITS.altMax, cls: 'design-alt-zh', placeholder: t('seriesForm.altZh') })}
              {input(`designs.${i}.alt.en`, d.altEn, v => setDesign(d.key, { altEn: v }), { max: EDITOR_LIMITS.altMax, cls: 'design-alt-en', placeholder: t('seriesForm.altEn') })}
              {aiOn && d.image && (
                <Text className={`series-ai__btn design-alt-ai ${aiBusy ? 'series-ai__btn--busy' : ''}`} onClick={() => { void aiAlt(d.key, d.image!) }}>✨ {t('seriesForm.altAi')}</Text>
              )}
            </View>
            {[`designs.${i}.image`, `designs.${i}.name.zh`, `designs.${i}.name.en`, `designs.${i}.alt.zh`, `designs.${i}.alt.en`, `designs.${i}.referenceValueCents`, `designs.${i}.recycleValueCents`, `designs.${i}.rarity`, `designs.${i}.tier`, `designs.${i}.tickets`, `designs.${i}.id`].map(f => <View key={f}>{error(f)}</View>)}
            <View className='design-row__actions'>
              <Text className='design-move-up' onClick={() => move(i, -1)}>↑ {t('seriesForm.up')}</Text>
              <Text className='design-move-down' onClick={() => move(i, 1)}>↓ {t('seriesForm.down')}</Text>
              {!published && <Text className='design-remove' onClick={() => update(f => ({ ...f, designs: f.designs.filter(x => x.key !== d.key) }))}>✕ {t('seriesForm.remove')}</Text>}
            </View>
          </View>
        ))}
        {!published && form.designs.length < EDITOR_LIMITS.designsMax && (
          <View className='btn btn--ghost design-add' onClick={() => update(f => ({ ...f, designs: [...f.designs, emptyDesign(f.designs.length === 0 ? 'rare' : 'regular', f.kind === 'kuji' ? nextTier(f.designs) : null)] }))}>
            + {t('seriesForm.addDesign')}
          </View>
        )}
        {error('designs')}
      </Section>

      {kuji && (
        <Section title={t('seriesForm.oddsKuji')} className='series-odds series-odds--kuji'>
          <Text className='editor-hint series-set-size'>{t('seriesForm.setSize', { n: preview.caseSize })}</Text>
          {preview.tiers.length
            ? (
              <View className='series-tiers'>
                {preview.tiers.map(x => (
                  <Text key={x.tier} className={`series-tier-odds series-tier-odds-${x.tier}`}>
                    {t('seriesForm.tierOdds', { name: tierName(x.tier), tickets: x.tickets, total: preview.caseSize, percent: `${(x.ppm / 10000).toFixed(2)}%` })}
                  </Text>
                ))}
              </View>
              )
            : <Text className='editor-hint series-tiers-none'>{t('seriesForm.noTiers')}</Text>}
          {form.designs.some(d => d.tier === KUJI_DOUBLE_CHANCE) && winnersOf(form) !== null && (
            <Text className='editor-hint series-double-chance'>{t('seriesForm.doubleChanceLine', { n: winnersOf(form) ?? 0 })}</Text>
          )}
          {preview.problem && <Text className='editor-hint editor-hint--error series-odds-problem'>{t(preview.problem.key, preview.problem.params)}</Text>}
          {preview.expectedRecycleCents !== null && (
            <Text className='editor-hint series-expected'>{t('seriesForm.expectedTicket', { value: formatCents(preview.expectedRecycleCents) })}</Text>
          )}
        </Section>
      )}
      {!kuji && <Section title={t('seriesForm.odds')} className='series-odds'>
        <Text className='editor-hint series-case-size'>{t('seriesForm.caseSize', { n: preview.caseSize })}</Text>
        {preview.problem
          ? <Text className='editor-hint editor-hint--error series-odds-problem'>{t(preview.problem.key, preview.problem.params)}</Text>
          : preview.perRarityPpm && (
            <View className='series-odds__rarities'>
              {RARITIES.map(r => (
                <View key={r} className={`series-odds__rarity series-odds-${r}`}>
                  <RarityBadge rarity={r} />
                  <Text className='series-odds__value'>{formatPpm(preview.perRarityPpm![r])}</Text>
                </View>
              ))}
            </View>
          )}
        {preview.expectedRecycleCents !== null && (
          <Text className='editor-hint series-expected'>{t('seriesForm.expected', { value: formatCents(preview.expectedRecycleCents) })}</Text>
        )}
      </Section>}

      <PromoTasks title={localeStore.locale === 'en' ? form.titleEn || form.titleZh : form.titleZh || form.titleEn}
        description={localeStore.locale === 'en' ? form.descriptionEn || form.descriptionZh : form.descriptionZh || form.descriptionEn} />

      {serverProblems.length > 0 && (
        <Section title={t('seriesForm.problems')} className='series-problems'>
          {serverProblems.map((p, i) => <Text key={i} className='editor-hint editor-hint--error series-problem'>{p}</Text>)}
        </Section>
      )}

      {/* a drop takes figures: the stock is read again whenever the drops are */}
      {form.id !== undefined && <StockPanel key={`${form.id}-${form.status}-${drops.made}`} seriesId={form.id} kind={form.kind} />}
      {/* a kuji series sells one set at a time, drawn in turns: no drops, no sets opened ahead (the server refuses both) */}
      {form.status === 'on_sale' && form.id !== undefined && !kuji && (
        <DropsPanel key={`drops-${form.id}`} seriesId={form.id} onLoaded={d => setDrops(x => ({ count: d.length, made: x.count !== null && d.length > x.count ? x.made + 1 : x.made }))} />
      )}
      {/* a series that sells by drops has every case made with its drop: nothing to open ahead */}
      {form.status === 'on_sale' && form.id !== undefined && !kuji && !drops.count && <OpenAheadPanel seriesId={form.id} />}

      <View className='series-actions'>
        <View className='btn btn--ghost series-back' onClick={() => { void onBack() }}>{t('seriesForm.back')}</View>
        <View className={`btn btn--ghost series-save ${busy ? 'btn--disabled' : ''}`} onClick={() => { void onSave() }}>{t(published ? 'seriesForm.saveChanges' : 'seriesForm.saveDraft')}</View>
        {form.status === 'draft' && <View className={`btn btn--primary series-publish ${busy ? 'btn--disabled' : ''}`} onClick={() => { void onPublish() }}>{t('seriesForm.publish')}</View>}
        {form.status === 'on_sale' && <View className={`btn btn--primary series-retire ${busy ? 'btn--disabled' : ''}`} onClick={() => { void onRetire() }}>{t('seriesForm.retire')}</View>}
      </View>
    </View>
  )
})

export default SeriesEditor
