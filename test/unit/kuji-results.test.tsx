/**
 * A 一番赏 draw's opening and results (src/pagesA/open_chest_animation, src/pagesA/prize_show): each
 * ticket named by its number and its tier ("3 号签", "A赏" / "Ticket 3", "Prize A"), never by the wire's
 * names; the Last One (won with the set's final ticket: tier last_one, in the slot after the last
 * ticket) opens last on a stage of its own and heads the results. A draw without it has no such moment.
 */
import { act, cleanup, render } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { Current } from '@tarojs/runtime'
import type { DesignInfo, PurchaseResult } from '~types/shop'
import { localeStore } from '@/stores/locale'
import { capabilitiesStore } from '@/stores/capabilities'
import { drawStore } from '@/stores/draw'
import OpenChestPage from '@/pagesA/open_chest_animation/index'
import PrizeShowPage from '@/pagesA/prize_show/index'

const settle = () => act(async () => { for (let i = 0; i < 6; i++) await new Promise(r => setTimeout(r, 0)) })
const click = (el: Element | null) => act(() => { (el as HTMLElement).click() })

function setRoute (path: string) {
  Current.router = { path, params: {}, onReady: '', onHide: '', onShow: '', shareTimeline: '', shareAppMessage: '' } as never
}
const design = (id: number, tier: string, zh: string, en: string): DesignInfo => ({
  id, name: { zh, en }, image: `/media/art/${id}.webp`, rarity: 'regular', referenceValueCents: 2000, recycleValueCents: 300, oddsPpm: 0, tier, tickets: tier === 'last_one' ? 0 : 2
})
const result = (withLastOne: boolean): PurchaseResult => ({
  purchaseId: 77, caseId: 40, seriesId: 7, totalCents: 4500, spentCreditCents: 0, spentCashCents: 4500, xrayCardsEarned: 0,
  balance: { cashCents: 0, creditCents: 0 },
  prizes: [
    // the server's order: the Last One (slot ticketCount + 1) is not necessarily last here
    ...(withLastOne ? [{ prizeId: 903, caseId: 40, slot: 11, design: design(9, 'last_one', '最终大奖', 'The big one') }] : []),
    { prizeId: 901, caseId: 40, slot: 3, design: design(3, 'C', '小伙伴', 'Buddy') },
    { prizeId: 902, caseId: 40, slot: 10, design: design(1, 'A', '大公仔', 'Big figure') }
  ]
})

beforeAll(() => {
  // jsdom plays no sound
  Object.assign(window.HTMLMediaElement.prototype, { play: () => Promise.resolve(), pause: () => undefined })
})
beforeEach(() => {
  capabilitiesStore.clear()
  for (const api of ['showToast', 'setNavigationBarTitle', 'redirectTo'] as const) jest.spyOn(Taro, api).mockImplementation(() => Promise.resolve({ errMsg: 'ok' }) as never)
  jest.spyOn(Taro, 'request').mockImplementation((() => Promise.resolve({ statusCode: 200, header: {}, data: { code: 404, message: 'no', data: null } })) as never)
  // no shaking wait: the box opens on the tap
  Object.defineProperty(window, 'matchMedia', { configurable: true, value: () => ({ matches: true }) })
})
afterEach(() => {
  cleanup()
  jest.restoreAllMocks()
  drawStore.clear()
  localeStore.setLocale('zh')
})

describe.each([
  ['zh', '3 号签', 'C赏', '最终赏', '最终赏！', '你买下了这一套的最后一张签，最终赏归你'],
  ['en', 'Ticket 3', 'Prize C', 'Last One', 'Last One!', 'You bought the final ticket of the set: the Last One prize is yours']
] as const)('in %s', (locale, ticket3, tierC, lastOne, title, text) => {
  beforeEach(() => { localeStore.setLocale(locale) })

  test('the opening: ticket after ticket by number and tier, the Last One last on a gold stage', async () => {
    setRoute('/pagesA/open_chest_animation/index')
    drawStore.set(result(true))
    const { container } = render(<OpenChestPage />)
    await settle()
    expect(container.querySelector('.chest-count')?.textContent).toBe('1 / 3')
    expect(container.querySelector('.last-one-banner')).toBeNull()
    click(container.querySelector('.chest'))
    expect(container.querySelector('.chest-hint')?.textContent).toBe(ticket3)
    expect(container.querySelector('.reveal .tier-badge')?.textContent).toBe(tierC)
    click(container.querySelector('.chest-next'))
    click(container.querySelector('.chest'))
    click(container.querySelector('.chest-next'))
    // the third: the Last One, said before it opens
    expect(container.querySelector('.chest-count')?.textContent).toBe('3 / 3')
    expect(container.querySelector('.chest-stage--last-one')).not.toBeNull()
    expect(container.querySelector('.last-one-banner__title')?.textContent).toBe(title)
    expect(container.querySelector('.last-one-banner__text')?.textContent).toBe(text)
    click(container.querySelector('.chest'))
    expect(container.querySelector('.reveal--last-one .tier-badge')?.textContent).toBe(lastOne)
    expect(container.querySelector('.chest-hint')).toBeNull()
    expect(container.textContent).not.toMatch(/last_one/)
  })

  test('the results: the Last One above them all, then the tiers A first, each with its ticket', async () => {
    setRoute('/pagesA/prize_show/index')
    drawStore.set(result(true))
    const { container } = render(<PrizeShowPage />)
    await settle()
    expect(container.querySelector('.last-one__title')?.textContent).toBe(title)
    expect(container.querySelector('.last-one__name')?.textContent).toBe(locale === 'zh' ? '最终大奖' : 'The big one')
    const rows = [...container.querySelectorAll('.result')]
    expect(rows.map(r => r.querySelector('.tier-badge')?.textContent)).toEqual([lastOne, locale === 'zh' ? 'A赏' : 'Prize A', tierC])
    expect(rows[0].className).toContain('result--last-one')
    expect(rows[2].querySelector('.result__meta')?.textContent).toMatch(new RegExp(`^${ticket3} · `))
    expect(container.textContent).not.toMatch(/last_one/)
  })

  test('a draw without the final ticket: no Last One moment', async () => {
    setRoute('/pagesA/prize_show/index')
    drawStore.set(result(false))
    const { container } = render(<PrizeShowPage />)
    await settle()
    expect(container.querySelector('.last-one')).toBeNull()
    expect(container.querySelectorAll('.result')).toHaveLength(2)
  })
})
