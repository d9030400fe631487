/**
 * The series form for a 一番赏 (kuji) series (types/kuji.ts): a tier and tickets per design, one Last One,
 * at most one Double Chance with its winners per set, no hidden chance, a turn length. Its checks are the
 * server's: a save passes the form exactly when its request passes the contract's schema (types/editor.ts
 * EditorSeriesSaveRequest) and the save's rule of at most KUJI_TICKETS_MAX tickets a set; its publish
 * check names the problem types/odds.ts validateKuji finds, in the operator's language; its odds preview
 * is kujiTierOdds.
 */
import { TextDecoder, TextEncoder } from 'node:util'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import type { TSchema } from 'typebox'
import { CompositionError, kujiTierOdds, validateKuji, type CompositionProblem } from '../../types/odds'
import { KUJI_DOUBLE_CHANCE_MAX, KUJI_TICKETS_MAX } from '../../types/limits'
import type { EditorSeries } from '../../types/editor'
import { localeStore } from '@/stores/locale'
import {
  emptyDesign, emptySeriesForm, formOfSeries, KUJI_DOUBLE_CHANCE, KUJI_LAST_ONE, KUJI_TIERS, KUJI_TURN, kujiTicketCount, nextTier, oddsPreview, seriesRequest,
  validateSeries, withDesignTier, withKind, withTier,
  type DesignForm, type SeriesForm
} from '@/pagesA/editor/seriesForm'

Object.assign(globalThis, { TextEncoder, TextDecoder })
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { EditorSeriesSaveRequest } = require('../../types/editor') as { EditorSeriesSaveRequest: TSchema }
const ajv = new Ajv({ strict: false, allErrors: true })
addFormats(ajv)
const schemaAccepts = ajv.compile(EditorSeriesSaveRequest as object)

const IMG = '/media/u/' + 'a'.repeat(64) + '.png'
const design = (tier: string, tickets: string, over: Partial<DesignForm> = {}): DesignForm =>
  ({ ...emptyDesign('regular', tier), nameZh: '款', nameEn: 'One', image: IMG, reference: '60', recycle: '10', tickets, ...over })
/** A set of 80 tickets: A 2, B 8, C 30, D 40, and the Last One. */
const valid: SeriesForm = {
  ...emptySeriesForm('kuji'), titleZh: '星际一番赏', titleEn: 'Star kuji', descriptionZh: '描述', descriptionEn: 'About', price: '59', turnSeconds: '90',
  designs: [design('A', '2', { rarity: 'rare', reference: '800', recycle: '200' }), design('B', '8'), design('C', '30'), design('D', '40'), design('last_one', '0', { rarity: 'rare', reference: '900', recycle: '300' })]
}
const withDesign = (i: number, over: Partial<DesignForm>): SeriesForm => ({ ...valid, designs: valid.designs.map((d, j) => (j === i ? { ...d, ...over } : d)) })
/** The valid set with a Double Chance prize added, its winners per set as typed. */
const withDouble = (winners: string): SeriesForm => ({ ...valid, doubleChanceWinners: winners, designs: [...valid.designs, design('double_chance', '0', { reference: '100', recycle: '20' })] })

/** What the server does with the request: the schema, then its save's own rules (recycle, tickets a set). */
const serverAccepts = (f: SeriesForm) => {
  const lettered = (tier: string | null | undefined) => !!tier && /^[A-Z]$/.test(tier)
  const dc = f.designs.some(d => d.tier === 'double_chance')
  if (f.designs.some(d => lettered(d.tier) && !/^\d+$/.test(d.tickets.trim()))) return false
  if (!/^\d+$/.test(f.turnSeconds.trim()) || (dc && !/^\d+$/.test(f.doubleChanceWinners.trim()))) return false
  const body = seriesRequest(f)
  // the numbers as typed (the request of a form that failed would hold what it could read)
  body.designs.forEach((d, i) => { if (lettered(d.tier)) d.tickets = Number(f.designs[i].tickets) })
  if (dc) body.doubleChanceWinners = Number(f.doubleChanceWinners)
  const tickets = body.designs.reduce((a, d) => a + (lettered(d.tier) ? d.tickets ?? 0 : 0), 0)
  return schemaAccepts(body) && tickets <= KUJI_TICKETS_MAX && body.designs.every(d => d.recycleValueCents <= d.referenceValueCents)
}

beforeEach(() => { localeStore.setLocale('en') })

test('the form\'s kuji rules are the contract\'s (types/kuji.ts, which the app may not import as values)', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const contract = require('../../types/kuji') as typeof import('../../types/kuji')
  expect(KUJI_LAST_ONE).toBe(contract.KUJI_LAST_ONE)
  expect(KUJI_DOUBLE_CHANCE).toBe(contract.KUJI_DOUBLE_CHANCE)
  expect(KUJI_TURN).toEqual(contract.KUJI_TURN)
  expect([KUJI_TICKETS_MAX, KUJI_DOUBLE_CHANCE_MAX]).toEqual([contract.KUJI_TICKETS_MAX, contract.KUJI_DOUBLE_CHANCE_MAX])
  const tier = new RegExp(contract.KUJI_TIER_PATTERN)
  expect(KUJI_TIERS.every(x => tier.test(x))).toBe(true)
})

test('a save of a kuji series: the form and the server agree on every case', () => {
  const cases: Array<[string, SeriesForm]> = [
    ['valid', valid],
    ['an empty kuji draft', { ...emptySeriesForm('kuji'), price: '10' }],
    ['price per ticket 200', { ...valid, price: '200' }],
    ['price per ticket 200.01', { ...valid, price: '200.01' }],
    ['turn 20 s', { ...valid, turnSeconds: '20' }],
    ['turn 19 s', { ...valid, turnSeconds: '19' }],
    ['turn 300 s', { ...valid, turnSeconds: '300' }],
    ['turn 301 s', { ...valid, turnSeconds: '301' }],
    ['turn 1.5 s', { ...valid, turnSeconds: '1.5' }],
    ['turn empty', { ...valid, turnSeconds: '' }],
    ['a hidden chance typed before choosing kuji', { ...valid, hiddenPercent: '12.5' }],
    ['a hidden chance that is not a number', { ...valid, hiddenPercent: 'x' }],
    ['80 tickets in one tier', { ...valid, designs: [design('A', '80'), design('last_one', '0')] }],
    ['81 tickets in one tier', { ...valid, designs: [design('A', '81'), design('last_one', '0')] }],
    ['81 tickets in all', withDesign(3, { tickets: '41' })],
    ['79 tickets in all', withDesign(3, { tickets: '39' })],
    ['a Double Chance with 3 winners', withDouble('3')],
    ['a Double Chance with 10 winners', withDouble('10')],
    ['a Double Chance with 11 winners', withDouble('11')],
    ['a Double Chance with 0 winners (a draft)', withDouble('0')],
    ['a Double Chance with winners not a number', withDouble('x')],
    ['winners not a number without a Double Chance (not sent)', { ...valid, doubleChanceWinners: 'x' }],
    ['no ticket (a draft may be half done)', withDesign(1, { tickets: '0' })],
    ['tickets not a number', withDesign(1, { tickets: 'x' })],
    ['tickets negative', withDesign(1, { tickets: '-1' })],
    ['tickets empty', withDesign(1, { tickets: '' })],
    ['the Last One with tickets typed before', withDesign(4, { tickets: '5' })],
    ['two Last Ones (a draft)', withDesign(0, { tier: 'last_one' })]
  ]
  for (const [name, f] of cases) {
    const formOk = Object.keys(validateSeries(f)).length === 0
    expect([name, formOk]).toEqual([name, serverAccepts(f)])
  }
})

test('the request: kind, turn, tier and tickets; no hidden chance; a case series sends none of them', () => {
  const body = seriesRequest({ ...valid, hiddenPercent: '12.5', designs: valid.designs.map((d, i) => (i === 4 ? { ...d, tickets: '7' } : d)) })
  expect(body.kind).toBe('kuji')
  expect(body.turnSeconds).toBe(90)
  // no Double Chance design: no winners, whatever was typed
  expect(body.doubleChanceWinners).toBe(0)
  expect(body.hiddenCasePpm).toBe(0)
  expect(body.priceCents).toBe(5900)
  expect(body.designs.map(d => [d.tier, d.tickets])).toEqual([['A', 2], ['B', 8], ['C', 30], ['D', 40], ['last_one', 0]])
  expect(schemaAccepts(body)).toBe(true)
  const double = seriesRequest(withDouble('3'))
  expect(double.doubleChanceWinners).toBe(3)
  expect(double.designs[5]).toMatchObject({ tier: 'double_chance', tickets: 0 })

  const asCase = seriesRequest({ ...valid, kind: 'case', hiddenPercent: '10' })
  expect(asCase.kind).toBe('case')
  expect(asCase.hiddenCasePpm).toBe(100000)
  expect('turnSeconds' in asCase).toBe(false)
  expect('doubleChanceWinners' in asCase).toBe(false)
  expect(asCase.designs.every(d => !('tier' in d) && !('tickets' in d))).toBe(true)
})

test('publishing: every problem validateKuji finds is named in both languages, on the field the server names', () => {
  expect(validateSeries(valid, true)).toEqual({})
  expect(validateSeries(withDouble('3'), true)).toEqual({})
  const composition = (f: SeriesForm): CompositionProblem | null => {
    try {
      const dc = f.designs.some(d => d.tier === 'double_chance')
      validateKuji(f.designs.map((d, i) => ({ id: i + 1, rarity: d.rarity, referenceValueCents: 0, tier: d.tier, tickets: /^[A-Z]$/.test(d.tier ?? '') ? Number(d.tickets) : 0 })), 0, dc ? Number(f.doubleChanceWinners) : 0)
      return null
    } catch (e) {
      return (e as CompositionError).problem
    }
  }
  const broken: Array<[CompositionProblem, SeriesForm, string, string]> = [
    ['kujiLastOne', { ...valid, designs: valid.designs.map((d, i) => (i === 4 ? { ...d, tier: 'E', tickets: '1' } : i === 3 ? { ...d, tickets: '39' } : d)) }, 'Exactly one design must have the prize tier "Last One" (it takes no ticket)', '要有且只有一个款式的赏级是“最终赏”（最终赏不占签）'],
    ['kujiLastOne', withDesign(0, { tier: 'last_one' }), 'Exactly one design must have the prize tier "Last One" (it takes no ticket)', '要有且只有一个款式的赏级是“最终赏”（最终赏不占签）'],
    ['kujiTier', withDesign(1, { tickets: '0' }), 'Every design but the Last One and the Double Chance needs a prize tier (A to Z) and at least 1 ticket', '除最终赏和双重机会赏外，每个款式都要选一个赏级（A 到 Z），签数至少 1'],
    ['kujiTier', withDesign(2, { tier: null }), 'Every design but the Last One and the Double Chance needs a prize tier (A to Z) and at least 1 ticket', '除最终赏和双重机会赏外，每个款式都要选一个赏级（A 到 Z），签数至少 1'],
    ['kujiTickets', withDesign(3, { tickets: '41' }), 'A set holds at most 80 tickets: lower the tickets', '每套最多 80 张签：请减少签数'],
    ['kujiDoubleChance', { ...withDouble('2'), designs: [...withDouble('2').designs, design('double_chance', '0')] },
      'At most one design is the Double Chance (it takes no ticket), with 1 to 10 winners per set', '双重机会赏最多一个款式（不占签），每套中奖人数 1 到 10'],
    ['kujiDoubleChance', withDouble('0'), 'At most one design is the Double Chance (it takes no ticket), with 1 to 10 winners per set', '双重机会赏最多一个款式（不占签），每套中奖人数 1 到 10']
  ]
  for (const [problem, f, en, zh] of broken) {
    expect(composition(f)).toBe(problem)
    expect(oddsPreview(f).problem?.field).toBe('designs')
    localeStore.setLocale('en')
    expect(validateSeries(f, true).designs).toBe(en)
    localeStore.setLocale('zh')
    expect(validateSeries(f, true).designs).toBe(zh)
  }
  localeStore.setLocale('en')
  // the row to mend is named too
  expect(validateSeries(withDesign(1, { tickets: '0' }), true)['designs.1.tickets']).toBe('At least 1 ticket (only the Last One and the Double Chance have none)')
  expect(validateSeries(withDesign(1, { tickets: 'x' }))).toEqual({ 'designs.1.tickets': 'Tickets: a whole number from 0 to 80' })
  expect(validateSeries(withDouble('0'), true).doubleChanceWinners).toBe('Winners per set: a whole number from 1 to 10')
  expect(validateSeries(withDouble('11'))).toEqual({ doubleChanceWinners: 'Winners per set: a whole number from 1 to 10' })
  expect(validateSeries({ ...valid, turnSeconds: '5' })).toEqual({ turnSeconds: 'Turn length: whole seconds from 20 to 300' })
  expect(validateSeries({ ...valid, price: '201' })).toEqual({ priceCents: 'A ticket costs from ¥0.01 to ¥200' })
  // a ticket recycling for its price or more, the Last One counted as the server counts it
  const greedy = { ...valid, designs: valid.designs.map(d => ({ ...d, reference: '100', recycle: '58.5' })) }
  expect(validateSeries(greedy, true)).toEqual({ designs: 'A ticket would recycle, on average (the Last One and the Double Chance included), for its price or more: lower the recycle values' })
  // no kuji problem is left without words, in either language
  for (const locale of ['zh', 'en'] as const) {
    localeStore.setLocale(locale)
    for (const key of ['kujiTier', 'kujiLastOne', 'kujiTickets', 'kujiHidden', 'kujiDoubleChance']) expect(localeStore.has(`seriesForm.${key}`)).toBe(true)
  }
})

test('the tier odds preview: each tier\'s tickets over the set\'s, A first, as kujiTierOdds counts them', () => {
  const p = oddsPreview(valid)
  expect(p.problem).toBeNull()
  expect(p.caseSize).toBe(80)
  expect(p.tiers).toEqual(kujiTierOdds(valid.designs.map(d => ({ tier: d.tier, tickets: d.tier === 'last_one' ? 0 : Number(d.tickets) }))))
  expect(p.tiers.map(x => `${x.tier} ${x.tickets}/${p.caseSize} = ${(x.ppm / 10000).toFixed(2)}%`)).toEqual(['A 2/80 = 2.50%', 'B 8/80 = 10.00%', 'C 30/80 = 37.50%', 'D 40/80 = 50.00%'])
  // per design: its tickets over the set's; the Last One is not drawn
  expect(p.perDesignPpm).toEqual([25000, 100000, 375000, 500000, 0])
  expect(p.perRarityPpm).toEqual({ regular: 975000, rare: 25000, hidden: 0 })
  // recycled on average per ticket: every figure of the set, the Last One's too, over 80 tickets
  expect(p.expectedRecycleCents).toBe(Math.round((2 * 20000 + 78 * 1000 + 30000) / 80))
  // a Double Chance: not drawn, its winners' figures counted in what a ticket recycles for
  const double = oddsPreview(withDouble('3'))
  expect(double.tiers).toEqual(p.tiers)
  expect(double.perDesignPpm[5]).toBe(0)
  expect(double.expectedRecycleCents).toBe(Math.round((2 * 20000 + 78 * 1000 + 30000 + 3 * 2000) / 80))
  expect(oddsPreview(withDouble('0')).problem?.key).toBe('seriesForm.kujiDoubleChance')
  // two designs in one tier count together, in letter order whatever the designs' order
  const shared = { ...valid, designs: [design('B', '3'), design('A', '1'), design('B', '4'), design('last_one', '0')] }
  expect(oddsPreview(shared).tiers).toEqual([{ tier: 'A', tickets: 1, ppm: 125000 }, { tier: 'B', tickets: 7, ppm: 875000 }])
  // the counts show while the composition is not sellable yet, with its problem
  const noLastOne = oddsPreview({ ...withDesign(4, { tier: 'E', tickets: '4' }), designs: withDesign(4, { tier: 'E', tickets: '4' }).designs.map((d, i) => (i === 3 ? { ...d, tickets: '30' } : d)) })
  expect(noLastOne.tiers.map(x => x.tier)).toEqual(['A', 'B', 'C', 'D', 'E'])
  expect(noLastOne.caseSize).toBe(74)
  expect(noLastOne.problem?.key).toBe('seriesForm.kujiLastOne')
  expect(oddsPreview({ ...valid, designs: [] })).toMatchObject({ caseSize: 0, tiers: [], problem: null })
  expect(kujiTicketCount(withDesign(1, { tickets: 'x' }))).toBe(72)
})

test('choosing kuji: designs take the next tiers and a ticket each; the Last One takes none', () => {
  const draft: SeriesForm = { ...emptySeriesForm(), hiddenPercent: '10', designs: [emptyDesign('rare'), emptyDesign(), emptyDesign('hidden')] }
  expect(draft.kind).toBe('case')
  const made = withKind(draft, 'kuji')
  expect(made.kind).toBe('kuji')
  expect(made.designs.map(d => [d.tier, d.tickets])).toEqual([['A', '1'], ['B', '1'], ['C', '1']])
  // tiers already chosen are kept, new ones follow the last letter in use
  const partly = withKind({ ...draft, designs: [{ ...emptyDesign(), tier: 'C', tickets: '4' }, emptyDesign(), { ...emptyDesign(), tier: 'last_one', tickets: '0' }] }, 'kuji')
  expect(partly.designs.map(d => [d.tier, d.tickets])).toEqual([['C', '4'], ['D', '1'], ['last_one', '0']])
  expect(withKind(made, 'case').kind).toBe('case')
  expect(withKind(made, 'kuji')).toBe(made)
  expect(nextTier([])).toBe('A')
  expect(nextTier([{ tier: 'last_one' }, { tier: 'B' }, { tier: null }])).toBe('C')
  expect(nextTier([{ tier: 'Z' }])).toBe('Z')
  expect(emptyDesign('regular', 'F')).toMatchObject({ tier: 'F', tickets: '1' })
  // the Last One holds no ticket; a design leaving it starts with one, one keeping its letter keeps its count
  const a = design('A', '5')
  expect(withTier(a, 'last_one')).toMatchObject({ tier: 'last_one', tickets: '0' })
  expect(withTier(withTier(a, 'last_one'), 'B')).toMatchObject({ tier: 'B', tickets: '1' })
  expect(withTier(a, 'C')).toMatchObject({ tier: 'C', tickets: '5' })
  expect(withTier(a, 'double_chance')).toMatchObject({ tier: 'double_chance', tickets: '0' })
  // the Double Chance chosen starts with one winner a set unless some were typed
  const f = { ...emptySeriesForm('kuji'), doubleChanceWinners: '', designs: [a] }
  expect(withDesignTier(f, a.key, 'double_chance')).toMatchObject({ doubleChanceWinners: '1', designs: [{ tier: 'double_chance', tickets: '0' }] })
  expect(withDesignTier({ ...f, doubleChanceWinners: '4' }, a.key, 'double_chance').doubleChanceWinners).toBe('4')
  expect(withDesignTier(f, a.key, 'B').doubleChanceWinners).toBe('')
  expect(KUJI_TIERS).toHaveLength(28)
  expect(KUJI_TIERS[0]).toBe('A')
  expect(KUJI_TIERS.slice(26)).toEqual(['last_one', 'double_chance'])
})

test('a saved kuji series reads back into the same form', () => {
  const saved: EditorSeries = {
    id: 9, version: 3, status: 'draft', title: { zh: '星际一番赏', en: 'Star kuji' }, description: { zh: '描述', en: 'About' }, rules: { zh: '', en: '' },
    cover: null, priceCents: 5900, hiddenCasePpm: 0, caseSize: 80, kind: 'kuji', turnSeconds: 90, doubleChanceWinners: 0, tags: [],
    designs: valid.designs.map((d, i) => ({
      id: 100 + i, name: { zh: d.nameZh, en: d.nameEn }, alt: { zh: '', en: '' }, rarity: d.rarity, image: d.image,
      referenceValueCents: Number(d.reference) * 100, recycleValueCents: Number(d.recycle) * 100, stock: 0, committed: 0,
      tier: d.tier, tickets: d.tier === 'last_one' ? 0 : Number(d.tickets)
    }))
  } as unknown as EditorSeries
  const f = formOfSeries(saved)
  expect(f.kind).toBe('kuji')
  expect(f.turnSeconds).toBe('90')
  expect(f.designs.map(d => [d.tier, d.tickets])).toEqual([['A', '2'], ['B', '8'], ['C', '30'], ['D', '40'], ['last_one', '0']])
  const body = seriesRequest(f)
  expect(body).toMatchObject({ id: 9, version: 3, kind: 'kuji', turnSeconds: 90, hiddenCasePpm: 0, doubleChanceWinners: 0 })
  expect(body.designs.map(d => [d.id, d.tier, d.tickets])).toEqual(saved.designs.map(d => [d.id, d.tier, d.tickets]))
  // a case series' designs carry no tier, and read back with none
  const asCase = formOfSeries({ ...saved, kind: 'case', designs: saved.designs.map(d => ({ ...d, tier: null, tickets: 0 })) })
  expect(asCase.designs.every(d => d.tier === null && d.tickets === '')).toBe(true)
})
