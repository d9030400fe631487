/**
 * The series editor for a 一番赏 (kuji) series, rendered with the calls spied on: a new series made kuji
 * (the hidden chance gone, a price per ticket, a turn length), each design a tier and tickets, the odds of
 * each tier as the counts are typed, its problems named beside the fields, and the request saved; a
 * published kuji series shows its kind and tiers without letting them change.
 */
import { render, fireEvent, act, cleanup } from '@testing-library/react'
import Taro from '@tarojs/taro'
import type { EditorSeries, EditorSeriesSaveRequest } from '~types/editor'
import { localeStore } from '@/stores/locale'
import { editorApi } from '@/services/editor'
import SeriesTab from '@/pagesA/editor/SeriesTab'

const ok = () => Promise.resolve({ errMsg: 'ok' }) as never
const text = (c: Element | null) => c?.textContent || ''
const flush = () => act(async () => { for (let i = 0; i < 6; i++) await new Promise(r => setTimeout(r, 0)) })
const type = (el: Element, value: string) => act(() => { el.dispatchEvent(new CustomEvent('input', { detail: { value }, bubbles: true })) })
const click = async (el: Element) => { await act(async () => { fireEvent.click(el) }); await flush() }
/** The tier picker of design i set to the option at `index` (A is 0, the Last One 26, the Double Chance 27), as the picker reports it. */
const pickTier = (container: Element, i: number, index: number) => act(() => {
  const picker = container.querySelector(`.design-tier-${i}`)!.closest('taro-picker-core')!
  picker.dispatchEvent(new CustomEvent('change', { detail: { value: index }, bubbles: true }))
})
const $ = (c: Element, sel: string) => c.querySelector(sel)!

beforeEach(() => {
  jest.spyOn(Taro, 'showToast').mockImplementation(ok)
  jest.spyOn(Taro, 'showLoading').mockImplementation(ok)
  jest.spyOn(Taro, 'hideLoading').mockImplementation(ok)
  // anything else the editor asks (its helpers, tasks, stock) is left unanswered
  jest.spyOn(Taro, 'request').mockReturnValue(new Promise(() => undefined) as never)
  localeStore.setLocale('en')
})
afterEach(() => { cleanup(); jest.restoreAllMocks() })

const openNew = async () => {
  jest.spyOn(editorApi, 'list').mockResolvedValue({ list: [], total: 0, counts: { draft: 0, on_sale: 0, retired: 0 } } as never)
  const view = render(<SeriesTab />)
  await flush()
  await click($(view.container, '.series-new'))
  return view
}

const savedSeries = (req: EditorSeriesSaveRequest, over: Partial<EditorSeries> = {}): EditorSeries => ({
  id: 41, version: 1, status: 'draft', title: req.title, description: req.description, rules: req.rules, cover: req.cover, priceCents: req.priceCents,
  hiddenCasePpm: req.hiddenCasePpm, caseSize: 3, kind: req.kind ?? 'case', turnSeconds: req.turnSeconds ?? 60,
  doubleChanceWinners: req.doubleChanceWinners ?? 0, tags: req.tags ?? [],
  designs: req.designs.map((d, i) => ({
    id: 400 + i, name: d.name, alt: d.alt ?? { zh: '', en: '' }, rarity: d.rarity, image: d.image, referenceValueCents: d.referenceValueCents,
    recycleValueCents: d.recycleValueCents, stock: 0, committed: 0, tier: d.tier ?? null, tickets: d.tickets ?? 0
  })),
  ...over
}) as unknown as EditorSeries

describe('a new kuji series', () => {
  it('kuji chosen: no hidden chance, a price per ticket and a turn; tiers and tickets per design; the tier odds; the save request', async () => {
    const { container } = await openNew()
    expect(text($(container, '.series-kind-case'))).toBe('Blind-box cases')
    expect($(container, '.series-kind-case').className).toContain('recipe-chip--on')
    expect(container.querySelector('.series-hidden')).not.toBeNull()
    expect(container.querySelector('.series-turn')).toBeNull()

    await click($(container, '.series-kind-kuji'))
    expect($(container, '.series-kind-kuji').getAttribute('aria-checked')).toBe('true')
    expect(container.querySelector('.series-hidden')).toBeNull()
    expect(text(container)).toContain('Price per ticket (yuan, at most 200)')
    expect(container.querySelector('.series-turn')).not.toBeNull()
    expect(text($(container, '.series-odds--kuji'))).toContain('No prize tiers yet')

    // three designs: A, B, then C made the Last One
    for (let i = 0; i < 3; i++) await click($(container, '.design-add'))
    expect([0, 1, 2].map(i => text($(container, `.design-tier-${i}`)))).toEqual(['Prize A ▾', 'Prize B ▾', 'Prize C ▾'])
    pickTier(container, 2, 26)
    await flush()
    expect(text($(container, '.design-tier-2'))).toBe('Last One ▾')
    expect(container.querySelector('.design-row-2 .design-tickets')).toBeNull()
    expect(text($(container, '.design-row-2 .design-tickets-none'))).toBe('No ticket')
    expect(text($(container, '.design-row-2 .design-row__odds'))).toBe('With the last ticket')

    await type($(container, '.design-row-0 .design-tickets'), '2')
    await type($(container, '.design-row-1 .design-tickets'), '78')
    await flush()
    expect(text($(container, '.series-set-size'))).toBe('80 tickets per set, plus the Last One')
    expect([...container.querySelectorAll('.series-tier-odds')].map(text)).toEqual(['Prize A 2/80 = 2.50%', 'Prize B 78/80 = 97.50%'])
    expect(container.querySelector('.series-odds--kuji .series-odds-problem')).toBeNull()

    // a fourth design made the Double Chance: no ticket, its winners per set in their place (1 to start)
    await click($(container, '.design-add'))
    pickTier(container, 3, 27)
    await flush()
    expect(text($(container, '.design-tier-3'))).toBe('Double Chance ▾')
    expect(container.querySelector('.design-row-3 .design-tickets')).toBeNull()
    expect(text($(container, '.design-row-3 .design-row__odds'))).toBe('1 winner at sell-out')
    await type($(container, '.series-dc-winners'), '3')
    await flush()
    expect(text($(container, '.design-row-3 .design-row__odds'))).toBe('3 winners at sell-out')
    expect(text($(container, '.series-double-chance'))).toBe('Double Chance: when the set sells out, 3 of its tickets are drawn and each buyer wins one')
    expect([...container.querySelectorAll('.series-tier-odds')].map(text)).toEqual(['Prize A 2/80 = 2.50%', 'Prize B 78/80 = 97.50%'])
    await type($(container, '.design-row-3 .design-name-zh'), '再来一次')

    // a problem is named beside its field before anything is sent
    const save = jest.spyOn(editorApi, 'save').mockImplementation(async req => savedSeries(req))
    await type($(container, '.series-price'), '59')
    await type($(container, '.series-turn'), '5')
    for (const [i, v] of [['0', '800'], ['1', '60'], ['2', '900'], ['3', '100']]) {
      await type($(container, `.design-row-${i} .design-reference`), v)
      await type($(container, `.design-row-${i} .design-recycle`), '10')
    }
    await click($(container, '.series-save'))
    expect(save).not.toHaveBeenCalled()
    expect(text($(container, '.error-turnSeconds'))).toBe('Turn length: whole seconds from 20 to 300')

    await type($(container, '.series-turn'), '90')
    await click($(container, '.series-save'))
    expect(save).toHaveBeenCalledTimes(1)
    const req = save.mock.calls[0][0]
    expect(req).toMatchObject({ kind: 'kuji', turnSeconds: 90, hiddenCasePpm: 0, priceCents: 5900, doubleChanceWinners: 3 })
    expect(req.designs.map(d => [d.tier, d.tickets])).toEqual([['A', 2], ['B', 78], ['last_one', 0], ['double_chance', 0]])
  })

  it('in Chinese: the kind, the tier names and the problems read in Chinese', async () => {
    localeStore.setLocale('zh')
    const { container } = await openNew()
    expect(text($(container, '.series-kind-kuji'))).toBe('一番赏')
    await click($(container, '.series-kind-kuji'))
    expect(text(container)).toContain('每张签价格（元，最多 200）')
    for (let i = 0; i < 2; i++) await click($(container, '.design-add'))
    expect(text($(container, '.design-tier-0'))).toBe('A赏 ▾')
    await type($(container, '.design-row-0 .design-tickets'), '3')
    await flush()
    expect([...container.querySelectorAll('.series-tier-odds')].map(text)).toEqual(['A赏 3/4 = 75.00%', 'B赏 1/4 = 25.00%'])
    // no Last One yet: the odds say so
    expect(text($(container, '.series-odds--kuji .series-odds-problem'))).toBe('要有且只有一个款式的赏级是“最终赏”（最终赏不占签）')
  })
})

describe('a published kuji series', () => {
  it('shows its kind, tiers and tickets, none of which can change; the turn length still can', async () => {
    const req: EditorSeriesSaveRequest = {
      title: { zh: '星际一番赏', en: 'Star kuji' }, description: { zh: '描述', en: 'About' }, rules: { zh: '', en: '' }, cover: null, priceCents: 5900, hiddenCasePpm: 0,
      kind: 'kuji', turnSeconds: 45, tags: [],
      designs: [
        { name: { zh: '甲', en: 'One' }, rarity: 'rare', image: null, referenceValueCents: 80000, recycleValueCents: 1000, tier: 'A', tickets: 2 },
        { name: { zh: '乙', en: 'Two' }, rarity: 'regular', image: null, referenceValueCents: 6000, recycleValueCents: 1000, tier: 'B', tickets: 78 },
        { name: { zh: '丙', en: 'Three' }, rarity: 'rare', image: null, referenceValueCents: 90000, recycleValueCents: 1000, tier: 'last_one', tickets: 0 }
      ]
    } as EditorSeriesSaveRequest
    const series = savedSeries(req, { status: 'on_sale', caseSize: 80 })
    jest.spyOn(editorApi, 'list').mockResolvedValue({
      list: [{ id: 41, title: req.title, status: 'on_sale', priceCents: 5900, designCount: 3, cover: null, casesOnSale: 1, boxesSold: 0, updatedAt: '2026-03-01T08:00:00.000Z' }],
      total: 1, counts: { draft: 0, on_sale: 1, retired: 0 }
    } as never)
    jest.spyOn(editorApi, 'get').mockResolvedValue(series)
    const { container } = render(<SeriesTab />)
    await flush()
    await click($(container, '.series-row-41'))
    expect(text($(container, '.series-kind-fixed'))).toBe('Ichiban kuji · The kind cannot change once on sale')
    expect(container.querySelector('.series-kind-kuji')).toBeNull()
    expect(text($(container, '.series-locked'))).toContain('prize tiers, tickets')
    expect(text($(container, '.design-tier-0'))).toBe('Prize A')
    expect(($(container, '.design-row-1 .design-tickets') as HTMLElement & { disabled?: boolean }).getAttribute('disabled')).not.toBeNull()
    expect([...container.querySelectorAll('.series-tier-odds')].map(text)).toEqual(['Prize A 2/80 = 2.50%', 'Prize B 78/80 = 97.50%'])
    // one set at a time, drawn in turns: no drops and no sets opened ahead (the server refuses both)
    expect(container.querySelector('.open-ahead')).toBeNull()
    expect(container.querySelector('.drops-panel')).toBeNull()

    const save = jest.spyOn(editorApi, 'save').mockImplementation(async r => savedSeries(r, { status: 'on_sale', version: 2 }))
    await type($(container, '.series-turn'), '120')
    await click($(container, '.series-save'))
    expect(save.mock.calls[0][0]).toMatchObject({ id: 41, kind: 'kuji', turnSeconds: 120, hiddenCasePpm: 0 })
    expect(save.mock.calls[0][0].designs.map(d => [d.id, d.tier, d.tickets])).toEqual([[400, 'A', 2], [401, 'B', 78], [402, 'last_one', 0]])
  })
})
