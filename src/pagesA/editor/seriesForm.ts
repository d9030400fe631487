/**
 * The editor's series form: what the operator types (texts as typed: yuan, percent), checked as the
 * server checks a save (types/editor.ts EditorSeriesSaveRequest: lengths, one line for titles and names,
 * price 0.01-200 yuan, recycle never above reference) and a publish (server/src/domain/editor.ts
 * publishProblems: both languages, enough designs, every image, the composition), with the odds the
 * series will publish computed by the server's own code (types/odds.ts seriesOdds).
 */
import { EDITOR_LIMITS, MAX_BOX_PRICE_CENTS, MULTI_LINE_PATTERN, SERIES_SEARCH, SINGLE_LINE_PATTERN } from '~types/limits'
import { CompositionError, PPM, seriesOdds, type CompositionProblem } from '~types/odds'
import type { EditorSeries, EditorSeriesSaveRequest, EditorSeriesStatus } from '~types/editor'
import type { Rarity } from '~types/shop'
import type { MessageKey } from '@/locales/types'
import { t } from '@/stores/locale'
import { parseYuan } from '@/utils/format'

export interface DesignForm {
  /** A key for the list while the design has no id yet. */
  key: string
  id?: number
  nameZh: string
  nameEn: string
  /** The picture described (its accessible name on the pages); '' until written. */
  altZh: string
  altEn: string
  rarity: Rarity
  image: string | null
  reference: string
  recycle: string
}

export interface SeriesForm {
  id?: number
  version?: number
  status: EditorSeriesStatus
  titleZh: string
  titleEn: string
  descriptionZh: string
  descriptionEn: string
  rulesZh: string
  rulesEn: string
  /** Theme tags as typed: names split by commas (or 、), the English ones in the same order. */
  tagsZh: string
  tagsEn: string
  cover: string | null
  price: string
  /** The chance that a case carries the hidden design, in percent as typed. */
  hiddenPercent: string
  designs: DesignForm[]
}

export type SeriesErrors = Record<string, string>

let keys = 0
const newKey = () => `d${++keys}`
const yuan = (cents: number) => (cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2))

export const emptyDesign = (rarity: Rarity = 'regular'): DesignForm => ({ key: newKey(), nameZh: '', nameEn: '', altZh: '', altEn: '', rarity, image: null, reference: '', recycle: '' })

export const emptySeriesForm = (): SeriesForm => ({
  status: 'draft', titleZh: '', titleEn: '', descriptionZh: '', descriptionEn: '', rulesZh: '', rulesEn: '', tagsZh: '', tagsEn: '',
  cover: null, price: '', hiddenPercent: '0', designs: []
})

export const formOfSeries = (s: EditorSeries): SeriesForm => ({
  id: s.id,
  version: s.version,
  status: s.status,
  titleZh: s.title.zh,
  titleEn: s.title.en,
  descriptionZh: s.description.zh,
  descriptionEn: s.description.en,
  rulesZh: s.rules.zh,
  rulesEn: s.rules.en,
  tagsZh: s.tags.map(x => x.zh).join('、'),
  tagsEn: s.tags.map(x => x.en).join(', '),
  cover: s.cover,
  price: yuan(s.priceCents),
  hiddenPercent: String(s.hiddenCasePpm / 10000),
  designs: s.designs.map(d => ({
    key: newKey(), id: d.id, nameZh: d.name.zh, nameEn: d.name.en, altZh: d.alt.zh, altEn: d.alt.en, rarity: d.rarity, image: d.image,
    reference: yuan(d.referenceValueCents), recycle: yuan(d.recycleValueCents)
  }))
})

/** '12.5' (percent) -> 125000 ppm; at most 4 decimals (1 ppm); null for anything else or over 100. */
export function parsePercent (input: string): number | null {
  const s = input.trim()
  if (!/^\d{1,3}(\.\d{1,4})?$/.test(s)) return null
  const [int, frac = ''] = s.split('.')
  const ppm = Number(int) * 10000 + Number(frac.padEnd(4, '0'))
  return ppm <= PPM ? ppm : null
}

const SINGLE = new RegExp(SINGLE_LINE_PATTERN, 'u')
const MULTI = new RegExp(MULTI_LINE_PATTERN, 'u')

/**
 * The problems of the form as a save would meet them (`publish`: as publishing would, too). Keys are the
 * server's field names (title.zh, designs.2.image ...), so the server's answers land on the same fields.
 */
export function validateSeries (f: SeriesForm, publish = false): SeriesErrors {
  const e: SeriesErrors = {}
  const set = (field: string, key: MessageKey, params: Record<string, string | number> = {}) => { if (!e[field]) e[field] = t(key, params) }
  const text = (field: string, value: string, max: number, multiline: boolean, required: boolean) => {
    if (value.length > max) set(field, 'seriesForm.tooLong', { max })
    else if (!(multiline ? MULTI : SINGLE).test(value)) set(field, multiline ? 'seriesForm.badChars' : 'seriesForm.oneLine')
    else if (required && !value.trim()) set(field, 'seriesForm.required')
  }
  text('title.zh', f.titleZh, EDITOR_LIMITS.titleMax, false, publish)
  text('title.en', f.titleEn, EDITOR_LIMITS.titleMax, false, publish)
  text('description.zh', f.descriptionZh, EDITOR_LIMITS.descriptionMax, true, publish)
  text('description.en', f.descriptionEn, EDITOR_LIMITS.descriptionMax, true, publish)
  text('rules.zh', f.rulesZh, EDITOR_LIMITS.rulesMax, true, false)
  text('rules.en', f.rulesEn, EDITOR_LIMITS.rulesMax, true, false)
  const tagsZh = splitTags(f.tagsZh)
  const tagsEn = splitTags(f.tagsEn)
  if (tagsZh.length > SERIES_SEARCH.tagsPerSeriesMax) set('tags.zh', 'seriesForm.tagsTooMany', { max: SERIES_SEARCH.tagsPerSeriesMax })
  if (tagsZh.some(x => x.length > SERIES_SEARCH.tagNameMax || !SINGLE.test(x))) set('tags.zh', 'seriesForm.tagTooLong', { max: SERIES_SEARCH.tagNameMax })
  if (tagsEn.some(x => x.length > SERIES_SEARCH.tagNameMax || !SINGLE.test(x))) set('tags.en', 'seriesForm.tagTooLong', { max: SERIES_SEARCH.tagNameMax })
  if (tagsEn.length !== tagsZh.length) set('tags.en', 'seriesForm.tagsMismatch')
  const price = parseYuan(f.price)
  if (price === null) set('priceCents', 'seriesForm.priceInvalid')
  else if (price < 1 || price > MAX_BOX_PRICE_CENTS) set('priceCents', 'seriesForm.priceRange', { max: MAX_BOX_PRICE_CENTS / 100 })
  if (parsePercent(f.hiddenPercent) === null) set('hiddenCasePpm', 'seriesForm.percentInvalid')
  if (f.designs.length > EDITOR_LIMITS.designsMax) set('designs', 'seriesForm.designsMany', { max: EDITOR_LIMITS.designsMax })
  f.designs.forEach((d, i) => {
    text(`designs.${i}.name.zh`, d.nameZh, EDITOR_LIMITS.designNameMax, false, publish)
    text(`designs.${i}.name.en`, d.nameEn, EDITOR_LIMITS.designNameMax, false, publish)
    const ref = parseYuan(d.reference)
    const rec = parseYuan(d.recycle)
    if (ref === null || ref > EDITOR_LIMITS.valueMaxCents) set(`designs.${i}.referenceValueCents`, 'seriesForm.valueInvalid', { max: EDITOR_LIMITS.valueMaxCents / 100 })
    if (rec === null || rec > EDITOR_LIMITS.valueMaxCents) set(`designs.${i}.recycleValueCents`, 'seriesForm.valueInvalid', { max: EDITOR_LIMITS.valueMaxCents / 100 })
    else if (ref !== null && rec > ref) set(`designs.${i}.recycleValueCents`, 'seriesForm.recycleAbove')
    if (publish && !d.image) set(`designs.${i}.image`, 'seriesForm.imageMissing', { n: i + 1 })
  })
  if (publish) {
    if (f.designs.length < EDITOR_LIMITS.designsToPublish) set('designs', 'seriesForm.designsFew', { min: EDITOR_LIMITS.designsToPublish })
    const preview = oddsPreview(f)
    if (preview.problem) set(preview.problem.field, preview.problem.key)
    else if (preview.expectedRecycleCents !== null && price !== null && preview.expectedRecycleCents >= price) set('designs', 'seriesForm.recycleExpected')
  }
  return e
}

/** Tag names as typed: split at commas (full- or half-width) and 、, trimmed, empty ones dropped. */
/**
 * The designs worth less than one box as typed (indexes): shown with a warning under their value, since
 * WeChat's review asks that every item of a blind box be worth its price; publishing them needs the
 * operator's acknowledgement (the server's 409 low_value, types/editor.ts LowValueData).
 */
export function lowValueIndexes (f: SeriesForm): number[] {
  const price = parseYuan(f.price)
  if (price === null) return []
  return f.designs.flatMap((d, i) => {
    const ref = parseYuan(d.reference)
    return ref !== null && ref < price ? [i] : []
  })
}

export const splitTags = (typed: string): string[] => typed.split(/[,，、]/).map(x => x.trim()).filter(Boolean)

/** The save request of a form that validateSeries passed. */
export function seriesRequest (f: SeriesForm): EditorSeriesSaveRequest {
  return {
    ...(f.id !== undefined ? { id: f.id, version: f.version } : {}),
    title: { zh: f.titleZh, en: f.titleEn },
    description: { zh: f.descriptionZh, en: f.descriptionEn },
    rules: { zh: f.rulesZh, en: f.rulesEn },
    tags: (() => {
      const en = splitTags(f.tagsEn)
      return splitTags(f.tagsZh).map((zh, i) => ({ zh, en: en[i] ?? '' }))
    })(),
    cover: f.cover,
    priceCents: parseYuan(f.price) ?? 0,
    hiddenCasePpm: parsePercent(f.hiddenPercent) ?? 0,
    designs: f.designs.map(d => ({
      ...(d.id !== undefined ? { id: d.id } : {}),
      name: { zh: d.nameZh, en: d.nameEn },
      alt: { zh: d.altZh.trim().slice(0, EDITOR_LIMITS.altMax), en: d.altEn.trim().slice(0, EDITOR_LIMITS.altMax) },
      rarity: d.rarity,
      image: d.image,
      referenceValueCents: parseYuan(d.reference) ?? 0,
      recycleValueCents: parseYuan(d.recycle) ?? 0
    }))
  }
}

const PROBLEM_KEYS: Record<CompositionProblem, { field: string; key: MessageKey }> = {
  hiddenRange: { field: 'hiddenCasePpm', key: 'seriesForm.percentInvalid' },
  oneHidden: { field: 'designs', key: 'seriesForm.oneHidden' },
  needRegular: { field: 'designs', key: 'seriesForm.needRegular' },
  hiddenNeedsDesign: { field: 'hiddenCasePpm', key: 'seriesForm.hiddenNeedsDesign' },
  designNeedsHidden: { field: 'hiddenCasePpm', key: 'seriesForm.designNeedsHidden' },
  tooMany: { field: 'designs', key: 'seriesForm.tooMany' }
}

export interface OddsPreview {
  /** Boxes per case: the regular and rare designs. */
  caseSize: number
  /** Per design (in the form's order), null while the composition cannot be sold. */
  perDesignPpm: Array<number | null>
  perRarityPpm: Record<Rarity, number> | null
  /** What a box is worth recycled, on average (null without odds or with an unreadable value). */
  expectedRecycleCents: number | null
  problem: { field: string; key: MessageKey } | null
}

/** The odds the series will publish, as the server computes them (types/odds.ts). */
export function oddsPreview (f: SeriesForm): OddsPreview {
  const caseSize = f.designs.filter(d => d.rarity !== 'hidden').length
  const hidden = parsePercent(f.hiddenPercent)
  const none: OddsPreview = { caseSize, perDesignPpm: f.designs.map(() => null), perRarityPpm: null, expectedRecycleCents: null, problem: null }
  if (hidden === null) return { ...none, problem: PROBLEM_KEYS.hiddenRange }
  if (!f.designs.length) return none
  try {
    const odds = seriesOdds(f.designs.map((d, i) => ({ id: i + 1, rarity: d.rarity, referenceValueCents: parseYuan(d.reference) ?? 0 })), hidden)
    const recycle = f.designs.map(d => parseYuan(d.recycle))
    const expected = recycle.every(r => r !== null)
      ? f.designs.reduce((sum, _d, i) => { const fr = odds.perDesign.get(i + 1)!; return sum + (fr.num / fr.den) * (recycle[i] as number) }, 0)
      : null
    return {
      caseSize,
      perDesignPpm: f.designs.map((_d, i) => odds.perDesignPpm.get(i + 1) ?? 0),
      perRarityPpm: { ...odds.perRarityPpm },
      expectedRecycleCents: expected === null ? null : Math.round(expected),
      problem: null
    }
  } catch (err) {
    if (err instanceof CompositionError) return { ...none, problem: PROBLEM_KEYS[err.problem] }
    throw err
  }
}
