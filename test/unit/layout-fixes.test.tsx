/**
 * Issue 21's small things that were wrong: the props sheet taking the end of the press that opened it,
 * an emoji nickname's avatar letter, the address form's messages, the purchase line's copy.
 */
import { createRef } from 'react'
import { render, act, fireEvent, cleanup } from '@testing-library/react'
import PropSheet, { type PropSheetHandle } from '@/components/PropSheet'
import { RELEASE_GUARD_MS } from '@/components/PropSheet/timing'
import { longPress, LONG_PRESS_MS } from '@/pagesA/blind_box_detail/longPress'
import { avatarInitial, firstGrapheme } from '@/pagesA/profile/initial'
import { addressProblems } from '@/components/ShipSheet/address'
import { localeStore, t } from '@/stores/locale'
import { Current } from '@tarojs/runtime'
import { shopApi } from '@/services/shop'
import BlindBoxDetailPage from '@/pagesA/blind_box_detail/index'

// a bare render has no page around it: "shown" is when it mounts
jest.mock('@tarojs/taro', () => {
  const actual = jest.requireActual('@tarojs/taro')
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { useEffect } = require('react')
  return { __esModule: true, ...actual, default: actual.default, useDidShow: (fn: () => void) => useEffect(() => { fn() }, []) }
})

afterEach(() => { cleanup(); jest.useRealTimers() })

const STATE = { shakesLeft: 2, cards: { hint: 1, xray: 0 }, prices: { hint: 300, xray: 900 } } as never

describe('the props sheet and the press that opens it', () => {
  beforeEach(() => { localeStore.setLocale('en') })

  test('the long press tells when its finger lifts (not for a tap, and once)', () => {
    jest.useFakeTimers()
    const onRelease = jest.fn()
    const h = longPress({ onLongPress: jest.fn(), onRelease })
    h.onTouchStart({ touches: [{ clientX: 0, clientY: 0 }] })
    jest.advanceTimersByTime(100)
    h.onTouchEnd({})
    expect(onRelease).not.toHaveBeenCalled()
    h.onTouchStart({ touches: [{ clientX: 0, clientY: 0 }] })
    jest.advanceTimersByTime(LONG_PRESS_MS + 500)
    h.onTouchEnd({})
    h.onTouchEnd({})
    expect(onRelease).toHaveBeenCalledTimes(1)
    h.onTouchStart({ touches: [{ clientX: 0, clientY: 0 }] })
    jest.advanceTimersByTime(LONG_PRESS_MS)
    h.onTouchCancel()
    expect(onRelease).toHaveBeenCalledTimes(2)
  })

  function openSheet () {
    jest.useFakeTimers()
    const ref = createRef<PropSheetHandle>()
    const onUse = jest.fn()
    const view = render(<PropSheet ref={ref} state={STATE} hints={[]} onUse={onUse} />)
    act(() => { ref.current!.open(4, true) })
    const sheet = () => view.container.querySelector('.prop-sheet')
    return { ref, onUse, view, sheet }
  }

  test('the click that ends the opening press neither closes the sheet nor uses a prop, however long the finger stays', () => {
    const { ref, onUse, view, sheet } = openSheet()
    jest.advanceTimersByTime(3000) // held long after the sheet opened
    fireEvent.click(view.container.querySelector('.prop-sheet__mask')!)
    fireEvent.click(view.container.querySelector('.prop-sheet-shake')!)
    expect(sheet()).not.toBeNull()
    act(() => { ref.current!.released() })
    fireEvent.click(view.container.querySelector('.prop-sheet__mask')!) // the click the lift makes, right after
    fireEvent.click(view.container.querySelector('.prop-sheet-hint')!)
    expect(sheet()).not.toBeNull()
    expect(onUse).not.toHaveBeenCalled()
    // a mouse click of its own, once the finger has been up a moment, is taken
    jest.advanceTimersByTime(RELEASE_GUARD_MS)
    fireEvent.click(view.container.querySelector('.prop-sheet__mask')!)
    expect(sheet()).toBeNull()
  })

  test('a touch that starts on the sheet is the shopper\'s own: taken at once', () => {
    const { ref, onUse, view, sheet } = openSheet()
    act(() => { ref.current!.released() })
    const hint = view.container.querySelector('.prop-sheet-hint')!
    fireEvent.touchStart(hint, { touches: [{ clientX: 1, clientY: 1 }] })
    fireEvent.click(hint)
    expect(onUse).toHaveBeenCalledWith('hint', 4)
    expect(sheet()).toBeNull()
    // opened again by a new press: the guard starts over
    act(() => { ref.current!.open(5, true) })
    fireEvent.click(view.container.querySelector('.prop-sheet__mask')!)
    expect(sheet()).not.toBeNull()
    fireEvent.touchStart(view.container.querySelector('.prop-sheet__mask')!, { touches: [{ clientX: 1, clientY: 1 }] })
    fireEvent.click(view.container.querySelector('.prop-sheet__mask')!)
    expect(sheet()).toBeNull()
  })
})

describe('an avatar\'s letter is a whole character', () => {
  const cases: Array<[string, string]> = [
    ['shopper', 'S'], ['小明', '小'], ['🐱cat', '🐱'], ['👍🏽 yes', '👍🏽'], ['👩‍👩‍👧 family', '👩‍👩‍👧'],
    ['🇨🇳 flag', '🇨🇳'], ['❤️ love', '❤️'], ['e\u0301cole', 'E\u0301'], ['  ', '?'], ['ß', 'ß']
  ]
  test.each(cases)('%s → %s (Intl.Segmenter)', (name, letter) => {
    expect(avatarInitial(name)).toBe(letter)
  })
  test.each(cases)('%s → %s (without Intl.Segmenter)', (name, letter) => {
    const Segmenter = (Intl as { Segmenter?: unknown }).Segmenter
    delete (Intl as { Segmenter?: unknown }).Segmenter
    try {
      expect(avatarInitial(name)).toBe(letter)
    } finally {
      (Intl as { Segmenter?: unknown }).Segmenter = Segmenter
    }
  })
  test('never half a surrogate pair', () => {
    expect(firstGrapheme('😀')).toBe('😀')
    expect(firstGrapheme('😀').length).toBe(2)
  })
})

describe('English copy', () => {
  beforeEach(() => { localeStore.setLocale('en') })
  test('the address form names what is missing in a sentence', () => {
    const empty = { name: '', phone: '', region: '', area: null, detail: '', isDefault: false }
    expect(addressProblems(empty)).toEqual({
      name: 'Enter the receiver\'s name',
      phone: 'Enter the receiver\'s mobile number',
      region: 'Choose the province, city and district',
      detail: 'Enter the street, building and room'
    })
    expect(addressProblems({ ...empty, name: 'Li' }).name).toBeUndefined()
    localeStore.setLocale('zh')
    expect(addressProblems(empty).name).toBe('请填写收货人')
  })
  test('a purchase line says the case and its boxes', () => {
    expect(`${t('purchase.caseNo', { id: 5 })} · ${t('purchase.slots', { n: 1, slots: '2' })}`).toBe('Case #5 · box 2')
    expect(t('purchase.slots', { n: 2, slots: '2, 3' })).toBe('boxes 2, 3')
    expect(t('detail.wholeCaseN', { n: 12, price: '¥468.00' })).toBe('Whole case (12) ¥468.00')
  })
})

describe('a series\' page', () => {
  const series = (rules: { zh: string; en: string }) => ({
    id: 3, title: { zh: '萌宠乐园', en: 'Pet park' }, description: { zh: '描述', en: 'About' }, cover: '/c.webp', priceCents: 3900, caseSize: 3, designCount: 1,
    oddsPpm: { regular: 1000000, rare: 0, hidden: 0 }, status: 'on_sale', hiddenCasePpm: 0, valueRange: { minCents: 100, maxCents: 100 }, rules,
    designs: [{ id: 11, name: { zh: '星星兔', en: 'Star bunny' }, image: '/a.webp', rarity: 'regular', referenceValueCents: 100, recycleValueCents: 10, oddsPpm: 1000000 }]
  }) as never
  const box = { caseId: 5, seriesId: 3, commit: 'ab'.repeat(32), size: 3, switchesLeft: 5, slots: [{ slot: 1, sold: false }, { slot: 2, sold: true }, { slot: 3, sold: false }] } as never
  async function open (rules: { zh: string; en: string }) {
    localeStore.setLocale('en')
    Current.router = { path: '/pagesA/blind_box_detail/index', params: { seriesId: '3' }, onReady: '', onHide: '', onShow: '', shareTimeline: '', shareAppMessage: '' } as never
    jest.spyOn(shopApi, 'seriesDetail').mockResolvedValue(series(rules))
    jest.spyOn(shopApi, 'caseCurrent').mockResolvedValue(box)
    const view = render(<BlindBoxDetailPage />)
    for (let i = 0; i < 5; i++) await act(async () => { await Promise.resolve() })
    return view.container
  }
  afterEach(() => { jest.restoreAllMocks() })

  test('without rules it has no rules card; with them it has', async () => {
    const none = await open({ zh: '', en: '  ' })
    expect(none.querySelector('.buy-whole')).not.toBeNull()
    expect(none.querySelector('.detail-rules')).toBeNull()
    expect(none.textContent).not.toContain('Rules')
    cleanup()
    const some = await open({ zh: '每箱 3 盒', en: '3 boxes a case' })
    expect(some.querySelector('.detail-rules')!.textContent).toBe('3 boxes a case')
  })

  test('the whole-case button says what the whole case costs: the unsold boxes at the box price', async () => {
    const c = await open({ zh: '', en: '' })
    expect(c.querySelector('.buy-whole')!.textContent).toBe('Whole case (2) ¥78.00')
    act(() => { localeStore.setLocale('zh') })
    expect(c.querySelector('.buy-whole')!.textContent).toBe('整箱 2 盒 ¥78.00')
  })
})
