/**
 * The editor's series form: what the operator types (texts as typed: yuan, percent), checked as the
 * server checks a save (types/editor.ts EditorSeriesSaveRequest: lengths, one line for titles and names,
 * price 0.01-200 yuan, recycle never above reference) and a publish (server/src/domain/editor.ts
 * publishProblems: both languages, enough designs, every image, the composition), with the odds the
 * series will publish computed by the server's own code (types/odds.ts seriesOdds).
 *
 * A 一番赏 (kuji) series (types/kuji.ts) has tiers instead of a hidden chance: each design a tier A..Z and
 * its tickets in a set, one design the Last One (no ticket: it goes to whoever buys the final ticket), and
 * at most one the Double Chance (no ticket: when the set sells out, that many of its tickets are drawn
 * and each buyer wins one); its composition is checked by the server's validateKuji and its odds are
 * kujiTierOdds.
 */
import { EDITOR_LIMITS, KUJI_DOUBLE_CHANCE_MAX, KUJI_TICKETS_MAX, MAX_BOX_PRICE_CENTS, MULTI_LINE_PATTERN, SERIES_SEARCH, SINGLE_LINE_PATTERN } from '~types/limits'
import { CompositionError, PPM, kujiOdds, kujiTierOdds, seriesOdds, validateKuji, type CompositionProblem } from '~types/odds'
import type { EditorSeries, EditorSeriesSaveRequest, EditorSeriesStatus, SeriesKind } from '~types/editor'
import type { Rarity } from '~types/shop'
import type { MessageKey } from '@/locales/types'
import { t } from '@/stores/locale'
import { parseWhole, parseYuan } from '@/utils/format'

/*
 * The kuji names and turn of the contract (types/kuji.ts). That module holds schema code, which the app
 * may not import as values (test/unit/contract-imports.test.ts): the same values here, and a unit test
 * that they stay the contract's (test/unit/series-form-kuji.test.ts). Its counts are in types/limits.
 */
/** The Last One's tier, and the Double Chance's: prizes without a ticket. */
export const KUJI_LAST_ONE = 'last_one'
export const KUJI_DOUBLE_CHANCE = 'double_chance'
/** A turn at a set (seconds). */
export const KUJI_TURN = { minSeconds: 20, maxSeconds: 300, defaultSeconds: 60 } as const
/** Whether a tier is drawn by tickets (a letter), not won otherwise (the Last One, the Double Chance). */
export const isTicketTier = (tier: string | null): tier is string => !!tier && /^[A-Z]$/.test(tier)

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
  /** A kuji series: the tier ('A'..'Z', or 'last_one' for the Last One), and its tickets in a set as typed. */
  tier: string | null
  tickets: string
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
  /** The chance that a case carries the hidden design, in percent as typed (a kuji series sends 0). */
  hiddenPercent: string
  /** case: blind-box cases; kuji: 一番赏 sets of tickets (fixed once published). */
  kind: SeriesKind
  /** A kuji series: each shopper's turn at the set, in seconds as typed. */
  turnSeconds: string
  /** A kuji series with a Double Chance design: its winners per set as typed (0 is sent without one). */
  doubleChanceWinners: string
  designs: DesignForm[]
}

export type SeriesErrors = Record<string, string>

let keys = 0
const newKey = () => `d${++keys}`
const yuan = (cents: number) => (cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2))

export const emptyDesign = (rarity: Rarity = 'regular', tier: string | null = null): DesignForm => ({
  key: newKey(), nameZh: '', nameEn: '', altZh: '', altEn: '', rarity, image: null, reference: '', recycle: '', tier, tickets: isTicketTier(tier) ? '1' : tier ? '0' : ''
})

export const emptySeriesForm = (kind: SeriesKind = 'case'): SeriesForm => ({
  status: 'draft', titleZh: '', titleEn: '', descriptionZh: '', descriptionEn: '', rulesZh: '', rulesEn: '', tagsZh: '', tagsEn: '',
  cover: null, price: '', hiddenPercent: '0', kind, turnSeconds: String(KUJI_TURN.defaultSeconds), doubleChanceWinners: '1', designs: []
})

/** The tiers a kuji design may take, in the order the editor offers them: A..Z, the Last One, the Double Chance. */
export const KUJI_TIERS: readonly string[] = [...Array.from({ length: 26 }, (_, i) => String.fromCharCode(65 + i)), KUJI_LAST_ONE, KUJI_DOUBLE_CHANCE]

/** The tier a new kuji design starts in: the one after the last letter in use (A for the first, Z at most). */
export function nextTier (designs: ReadonlyArray<Pick<DesignForm, 'tier'>>): string {
  const letters = designs.map(d => d.tier).filter(isTicketTier).sort()
  const last = letters[letters.length - 1]
  return last ? String.fromCharCode(Math.min(90, last.charCodeAt(0) + 1)) : 'A'
}

/**
 * The form as the other kind (a draft's choice). Made kuji, a design with no tier yet takes the next
 * letter and one ticket; the hidden chance stays as typed, for a change of mind, but a kuji save sends 0.
 */
export function withKind (f: SeriesForm, kind: SeriesKind): SeriesForm {
  if (kind === f.kind) return f
  if (kind === 'case') return { ...f, kind }
  const tiered = f.designs.filter(d => d.tier)
  const designs = f.designs.map(d => {
    if (d.tier) return d
    const made = { ...d, tier: nextTier(tiered), tickets: d.tickets && d.tickets !== '0' ? d.tickets : '1' }
    tiered.push(made)
    return made
  })
  return { ...f, kind, designs }
}

/** A design's tier changed: the Last One and the Double Chance hold no ticket; a design leaving them starts with one. */
export function withTier (d: DesignForm, tier: string): DesignForm {
  if (!isTicketTier(tier)) return { ...d, tier, tickets: '0' }
  return { ...d, tier, tickets: !isTicketTier(d.tier) || !d.tickets || d.tickets === '0' ? '1' : d.tickets }
}

/** The form with one design's tier changed (by its list key); a Double Chance chosen starts with a winner if it had none. */
export function withDesignTier (f: SeriesForm, key: string, tier: string): SeriesForm {
  const designs = f.designs.map(d => (d.key === key ? withTier(d, tier) : d))
  const winners = tier === KUJI_DOUBLE_CHANCE && !/^\s*0*[1-9]\d*\s*$/.test(f.doubleChanceWinners) ? '1' : f.doubleChanceWinners
  return { ...f, designs, doubleChanceWinners: winners }
}

/** Whether a design of the form is the Double Chance prize. */
export const hasDoubleChance = (f: Pick<SeriesForm, 'designs'>): boolean => f.designs.some(d => d.tier === KUJI_DOUBLE_CHANCE)

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
  kind: s.kind,
  turnSeconds: String(s.turnSeconds || KUJI_TURN.defaultSeconds),
  doubleChanceWinners: String(s.doubleChanceWinners || 1),
  designs: s.designs.map(d => ({
    key: newKey(), id: d.id, nameZh: d.name.zh, nameEn: d.name.en, altZh: d.alt.zh, altEn: d.alt.en, rarity: d.rarity, image: d.image,
    reference: yuan(d.referenceValueCents), recycle: yuan(d.recycleValueCents),
    tier: d.tier, tickets: d.tier ? String(d.tickets) : ''
  }))
})

/** A whole number as typed ('60') up to `max`; null for anything else. */
const wholeUpTo = (input: string, max: number): number | null => {
  const n = parseWhole(input, 4)
  return n !== null && n <= max ? n : null
}

/** A kuji design's tickets as the server reads them: none for the Last One and the Double Chance, else as typed (null: unreadable). */
export const ticketsOf = (d: Pick<DesignForm, 'tier' | 'tickets'>): number | null => (d.tier && !isTicketTier(d.tier) ? 0 : wholeUpTo(d.tickets, KUJI_TICKETS_MAX))

/** The Double Chance winners per set as the server reads them: 0 without a Double Chance design (null: unreadable). */
export const winnersOf = (f: Pick<SeriesForm, 'designs' | 'doubleChanceWinners'>): number | null =>
  hasDoubleChance(f) ? wholeUpTo(f.doubleChanceWinners, KUJI_DOUBLE_CHANCE_MAX) : 0

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
  const kuji = f.kind === 'kuji'
  const price = parseYuan(f.price)
  if (price === null) set('priceCents', 'seriesForm.priceInvalid')
  else if (price < 1 || price > MAX_BOX_PRICE_CENTS) set('priceCents', kuji ? 'seriesForm.priceRangeTicket' : 'seriesForm.priceRange', { max: MAX_BOX_PRICE_CENTS / 100 })
  if (kuji) {
    const turn = wholeUpTo(f.turnSeconds, KUJI_TURN.maxSeconds)
    if (turn === null || turn < KUJI_TURN.minSeconds) set('turnSeconds', 'seriesForm.turnInvalid', { min: KUJI_TURN.minSeconds, max: KUJI_TURN.maxSeconds })
    // a draft may hold 0 winners for now (the server's schema takes 0 to 10); on sale, a Double Chance has 1 or more
    const winners = winnersOf(f)
    if (winners === null || (publish && hasDoubleChance(f) && winners < 1)) set('doubleChanceWinners', 'seriesForm.winnersInvalid', { max: KUJI_DOUBLE_CHANCE_MAX })
  } else if (parsePercent(f.hiddenPercent) === null) set('hiddenCasePpm', 'seriesForm.percentInvalid')
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
    if (kuji && ticketsOf(d) === null) set(`designs.${i}.tickets`, 'seriesForm.ticketsInvalid', { max: KUJI_TICKETS_MAX })
    // the row to mend, besides the composition's problem (kujiTier) under the designs
    else if (kuji && publish && isTicketTier(d.tier) && ticketsOf(d) === 0) set(`designs.${i}.tickets`, 'seriesForm.ticketsAtLeastOne')
  })
  // a set the database could not hold is refused by a draft's save too (the server's kujiTickets)
  if (kuji && kujiTicketCount(f) > KUJI_TICKETS_MAX) set('designs', PROBLEM_KEYS.kujiTickets.key, PROBLEM_KEYS.kujiTickets.params)
  if (publish) {
    if (f.designs.length < EDITOR_LIMITS.designsToPublish) set('designs', 'seriesForm.designsFew', { min: EDITOR_LIMITS.designsToPublish })
    const preview = oddsPreview(f)
    if (preview.problem) set(preview.problem.field, preview.problem.key, preview.problem.params)
    else if (preview.expectedRecycleCents !== null && price !== null && preview.expectedRecycleCents >= price) set('designs', kuji ? 'seriesForm.recycleExpectedTicket' : 'seriesForm.recycleExpected')
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

/** The tickets of a kuji set as typed: every lettered design's (unreadable counts: none). */
export const kujiTicketCount = (f: Pick<SeriesForm, 'designs'>): number =>
  f.designs.reduce((a, d) => a + (isTicketTier(d.tier) ? ticketsOf(d) ?? 0 : 0), 0)

/** The save request of a form that validateSeries passed. */
export function seriesRequest (f: SeriesForm): EditorSeriesSaveRequest {
  const kuji = f.kind === 'kuji'
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
    // a kuji set has no hidden chance: every ticket's tier is counted in the open
    hiddenCasePpm: kuji ? 0 : parsePercent(f.hiddenPercent) ?? 0,
    kind: f.kind,
    ...(kuji ? { turnSeconds: Number(f.turnSeconds.trim()) || KUJI_TURN.defaultSeconds, doubleChanceWinners: winnersOf(f) ?? 0 } : {}),
    designs: f.designs.map(d => ({
      ...(d.id !== undefined ? { id: d.id } : {}),
      name: { zh: d.nameZh, en: d.nameEn },
      alt: { zh: d.altZh.trim().slice(0, EDITOR_LIMITS.altMax), en: d.altEn.trim().slice(0, EDITOR_LIMITS.altMax) },
      rarity: d.rarity,
      image: d.image,
      referenceValueCents: parseYuan(d.reference) ?? 0,
      recycleValueCents: parseYuan(d.recycle) ?? 0,
      ...(kuji && d.tier ? { tier: d.tier, tickets: ticketsOf(d) ?? 0 } : {})
    }))
  }
}

/** A problem of the composition: its field, its words and what they name. */
export interface ProblemKey { field: string; key: MessageKey; params?: Record<string, number> }

const PROBLEM_KEYS: Record<CompositionProblem, ProblemKey> = {
  hiddenRange: { field: 'hiddenCasePpm', key: 'seriesForm.percentInvalid' },
  oneHidden: { field: 'designs', key: 'seriesForm.oneHidden' },
  needRegular: { field: 'designs', key: 'seriesForm.needRegular' },
  hiddenNeedsDesign: { field: 'hiddenCasePpm', key: 'seriesForm.hiddenNeedsDesign' },
  designNeedsHidden: { field: 'hiddenCasePpm', key: 'seriesForm.designNeedsHidden' },
  tooMany: { field: 'designs', key: 'seriesForm.tooMany' },
  kujiTier: { field: 'designs', key: 'seriesForm.kujiTier' },
  kujiLastOne: { field: 'designs', key: 'seriesForm.kujiLastOne' },
  kujiTickets: { field: 'designs', key: 'seriesForm.kujiTickets', params: { max: KUJI_TICKETS_MAX } },
  kujiHidden: { field: 'hiddenCasePpm', key: 'seriesForm.kujiHidden' },
  kujiDoubleChance: { field: 'designs', key: 'seriesForm.kujiDoubleChance', params: { max: KUJI_DOUBLE_CHANCE_MAX } }
}

export interface OddsPreview {
  /** Boxes per case: the regular and rare designs (a kuji series: the tickets in a set). */
  caseSize: number
  /** Per design (in the form's order), null while the composition cannot be sold. */
  perDesignPpm: Array<number | null>
  perRarityPpm: Record<Rarity, number> | null
  /** What a box is worth recycled, on average (null without odds or with an unreadable value). */
  expectedRecycleCents: number | null
  problem: ProblemKey | null
  /** A kuji series: each tier's tickets and chance per ticket, A first (types/odds.ts kujiTierOdds); [] otherwise. */
  tiers: Array<{ tier: string; tickets: number; ppm: number }>
}

/** The odds the series will publish, as the server computes them (types/odds.ts). */
export function oddsPreview (f: SeriesForm): OddsPreview {
  if (f.kind === 'kuji') return kujiPreview(f)
  const caseSize = f.designs.filter(d => d.rarity !== 'hidden').length
  const hidden = parsePercent(f.hiddenPercent)
  const none: OddsPreview = { caseSize, perDesignPpm: f.designs.map(() => null), perRarityPpm: null, expectedRecycleCents: null, problem: null, tiers: [] }
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
      problem: null,
      tiers: []
    }
  } catch (err) {
    if (err instanceof CompositionError) return { ...none, problem: PROBLEM_KEYS[err.problem] }
    throw err
  }
}

/**
 * A kuji series' odds as typed: each tier's tickets over the set's (kujiTierOdds), per design its tickets
 * over the set's (the Last One and the Double Chance: none, they are not drawn), and what a ticket
 * recycles for on average, as the server's publish check counts it (every figure of a set, the Last One's
 * and the Double Chance winners' too, over its tickets).
 */
function kujiPreview (f: SeriesForm): OddsPreview {
  const caseSize = kujiTicketCount(f)
  const counted = f.designs.map(d => ({ tier: d.tier, tickets: ticketsOf(d) ?? 0 }))
  const tiers = kujiTierOdds(counted)
  const none: OddsPreview = { caseSize, perDesignPpm: f.designs.map(() => null), perRarityPpm: null, expectedRecycleCents: null, problem: null, tiers }
  if (!f.designs.length) return none
  const designs = f.designs.map((d, i) => ({ id: i + 1, rarity: d.rarity, referenceValueCents: parseYuan(d.reference) ?? 0, ...counted[i] }))
  try {
    validateKuji(designs, 0, winnersOf(f) ?? 0)
  } catch (err) {
    if (err instanceof CompositionError) return { ...none, problem: PROBLEM_KEYS[err.problem] }
    throw err
  }
  const winners = winnersOf(f)
  if (winners === null || f.designs.some(d => ticketsOf(d) === null)) return none
  const odds = kujiOdds(designs)
  const recycle = f.designs.map(d => parseYuan(d.recycle))
  const figures = (d: DesignForm) => (d.tier === KUJI_LAST_ONE ? 1 : d.tier === KUJI_DOUBLE_CHANCE ? winners : ticketsOf(d) ?? 0)
  return {
    ...none,
    perDesignPpm: f.designs.map((_d, i) => odds.perDesignPpm.get(i + 1) ?? 0),
    perRarityPpm: { ...odds.perRarityPpm },
    expectedRecycleCents: recycle.every(r => r !== null)
      ? Math.round(f.designs.reduce((a, d, i) => a + figures(d) * (recycle[i] as number), 0) / Math.max(1, caseSize))
      : null
  }
}
