/**
 * What a first visitor and a shopper meet (issue 21): the entry page stays the login page and lets a
 * visitor look around first (browse the shop, the series with their odds, how a draw is checked), the
 * series asked for only when the visitor opens them; the optional features follow the shop's public
 * capabilities (GET /system/setting/login): reading aloud is not offered without text to speech, the
 * market price goes when its provider does, and none of it speaks of configuration.
 */
import { render, fireEvent, act, cleanup } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { Current } from '@tarojs/runtime'
import type { LoginSettings, ShopCapabilities } from '~types/accounts'
import type { PurchaseResult, SeriesSummary } from '~types/shop'
import { localeStore } from '@/stores/locale'
import { capabilitiesStore } from '@/stores/capabilities'
import { drawStore } from '@/stores/draw'
import LoginPage from '@/pages/login/index'
import { GUEST_PREVIEW_SIZE } from '@/pages/login/guestPreview'
import PrizeShowPage from '@/pagesA/prize_show/index'
import MarketPrice from '@/pagesA/prize_detail/MarketPrice'
import { prizeStatusKey } from '@/utils/prizeStatus'
import { t } from '@/stores/locale'
import { configWordIn } from '../support/configWords'

const ok = () => Promise.resolve({ errMsg: 'ok' }) as never
const text = (c: HTMLElement) => c.textContent || ''
const settle = () => act(async () => { for (let i = 0; i < 6; i++) await new Promise(r => setTimeout(r, 0)) })

function setRoute (path: string) {
  Current.router = { path, params: {}, onReady: '', onHide: '', onShow: '', shareTimeline: '', shareAppMessage: '' } as never
}

const SERIES: SeriesSummary[] = [
  { id: 11, title: { zh: '星空系列', en: 'Starry Sky' }, description: { zh: '', en: '' }, cover: '/media/art/1f381.webp', priceCents: 3900, caseSize: 12, kind: 'case', designCount: 13, oddsPpm: { regular: 900000, rare: 83333, hidden: 16667 }, status: 'on_sale', soldOut: false },
  { id: 12, title: { zh: '海洋系列', en: 'Ocean' }, description: { zh: '', en: '' }, cover: '/media/art/1f40b.webp', priceCents: 2900, caseSize: 9, kind: 'case', designCount: 10, oddsPpm: { regular: 880000, rare: 111111, hidden: 8889 }, status: 'on_sale', soldOut: false }
]

interface Call { url: string; data: unknown }
/** The server as the pages' requests see it (Taro.request replaced; paths without the API base). */
function fakeServer (caps: Partial<ShopCapabilities> = {}, answers: Record<string, (data: unknown) => { code: number; message?: string; data: unknown }> = {}) {
  const settings: LoginSettings = {
    password: true, sms: false, email: false, wechat: false, weapp: false, register: true,
    capabilities: { maps: false, tracking: false, priceCompare: false, speech: false, ai: false, ...caps }
  }
  const calls: Call[] = []
  jest.spyOn(Taro, 'request').mockImplementation(((params: { url: string; data?: unknown; __opts?: { data?: unknown } }) => {
    const url = new URL(params.url, 'http://localhost').pathname
    const data = params.__opts?.data ?? params.data
    calls.push({ url, data })
    const reply = (body: { code: number; message?: string; data: unknown }) =>
      Promise.resolve({ statusCode: 200, header: {}, data: { message: 'ok', ...body } })
    if (url.endsWith('/system/setting/login')) return reply({ code: 200, data: settings })
    if (url.endsWith('/api/seriesList')) return reply({ code: 200, data: { list: SERIES, total: SERIES.length } })
    for (const [path, answer] of Object.entries(answers)) if (url.endsWith(path)) return reply(answer(data))
    return reply({ code: 404, message: 'no such API', data: null })
  }) as never)
  return calls
}

beforeEach(() => {
  capabilitiesStore.clear()
  jest.spyOn(Taro, 'showToast').mockImplementation(ok)
  jest.spyOn(Taro, 'setNavigationBarTitle').mockImplementation(ok)
})
afterEach(() => {
  cleanup()
  jest.restoreAllMocks()
  capabilitiesStore.clear()
  drawStore.clear()
})

describe('the entry page: a visitor may look around first', () => {
  test.each(['zh', 'en'] as const)('%s: the login form with a way in for guests; the series are not asked for until opened', async (lang) => {
    localeStore.setLocale(lang)
    setRoute('/pages/login/index')
    const calls = fakeServer()
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockImplementation(ok)
    const { container } = render(<LoginPage />)
    await settle()
    // still the login page the spec describes
    expect(container.querySelector('.input-account')).not.toBeNull()
    expect(container.querySelector('.login-submit')).not.toBeNull()
    // and the guest's way: what there is to see, in the visitor's language
    const guest = container.querySelector('.login-guest') as HTMLElement
    expect(text(guest)).toContain(t('login.guestTitle'))
    expect(text(guest)).toContain(t('login.guestOdds'))
    expect(text(guest)).toContain(t('login.guestFairness'))
    expect(configWordIn(text(container))).toBeNull()
    // only the settings were asked for: the page stays light
    expect(calls.map(c => c.url)).toEqual([expect.stringMatching(/\/system\/setting\/login$/)])

    await act(async () => { fireEvent.click(container.querySelector('.login-guest__browse')!) })
    expect(navigateTo).toHaveBeenLastCalledWith(expect.objectContaining({ url: '/pagesA/home/index' }))

    await act(async () => { fireEvent.click(container.querySelector('.guest-fairness')!) })
    expect(navigateTo.mock.calls[navigateTo.mock.calls.length - 1][0].url).toMatch(/^\/pages\/web_view\/index\?doc=fairness$/)

    // the series and their odds, on demand
    await act(async () => { fireEvent.click(container.querySelector('.guest-odds')!) })
    await settle()
    const asked = calls.filter(c => c.url.endsWith('/api/seriesList'))
    expect(asked).toHaveLength(1)
    expect(asked[0].data).toEqual({ page: 1, size: GUEST_PREVIEW_SIZE })
    const rows = container.querySelectorAll('.guest-series')
    expect(rows).toHaveLength(2)
    expect(text(rows[0] as HTMLElement)).toContain(lang === 'zh' ? '星空系列' : 'Starry Sky')
    expect(text(rows[0] as HTMLElement)).toContain(`${t('rarity.hidden')} 1.67%`)
    expect(text(rows[0] as HTMLElement)).toContain(`${t('rarity.rare')} 8.33%`)
    await act(async () => { fireEvent.click(rows[1]) })
    expect(navigateTo).toHaveBeenLastCalledWith(expect.objectContaining({ url: '/pagesA/blind_box_detail/index?seriesId=12' }))
    await act(async () => { fireEvent.click(container.querySelector('.guest-preview__all')!) })
    expect(navigateTo).toHaveBeenLastCalledWith(expect.objectContaining({ url: '/pagesA/home/index' }))
  })

  test('signing up is about the account: the guest corner steps aside', async () => {
    localeStore.setLocale('en')
    setRoute('/pages/login/index')
    fakeServer()
    const { container } = render(<LoginPage />)
    await settle()
    await act(async () => { fireEvent.click(container.querySelector('.login-switch')!) })
    expect(container.querySelector('.login-guest')).toBeNull()
  })

  test('the series list cannot be had: a plain line and a retry, the login form untouched', async () => {
    localeStore.setLocale('zh')
    setRoute('/pages/login/index')
    const calls = fakeServer({}, {})
    ;(Taro.request as unknown as jest.SpyInstance).mockImplementation(((params: { url: string }) => {
      calls.push({ url: params.url, data: null })
      if (params.url.endsWith('/api/seriesList')) return Promise.reject(new Error('request:fail'))
      return Promise.resolve({ statusCode: 200, header: {}, data: { code: 404, message: 'x', data: null } })
    }) as never)
    const { container } = render(<LoginPage />)
    await settle()
    await act(async () => { fireEvent.click(container.querySelector('.guest-odds')!) })
    await settle()
    expect(text(container)).toContain('系列暂时加载不出来')
    expect(container.querySelector('.login-submit')).not.toBeNull()
  })
})

describe('optional features follow the shop\'s capabilities', () => {
  const RESULT: PurchaseResult = {
    purchaseId: 1, caseId: 3, seriesId: 11, totalCents: 3900, spentCreditCents: 0, spentCashCents: 3900, xrayCardsEarned: 0,
    balance: { cashCents: 100, creditCents: 0 },
    prizes: [{ prizeId: 5, caseId: 3, slot: 2, design: { id: 9, name: { zh: '月亮', en: 'Moon' }, image: '/media/art/1f319.webp', rarity: 'rare', referenceValueCents: 5900, recycleValueCents: 1500, oddsPpm: 83333 } }]
  }

  test('the results page offers reading aloud only when the shop can', async () => {
    localeStore.setLocale('en')
    setRoute('/pagesA/prize_show/index')
    drawStore.set(RESULT)
    fakeServer({ speech: false })
    const off = render(<PrizeShowPage />)
    await settle()
    expect(off.container.querySelector('.prize-read')).toBeNull()
    expect(text(off.container)).toContain('Moon')
    off.unmount()

    capabilitiesStore.clear()
    jest.restoreAllMocks()
    jest.spyOn(Taro, 'showToast').mockImplementation(ok)
    jest.spyOn(Taro, 'setNavigationBarTitle').mockImplementation(ok)
    fakeServer({ speech: true }, { '/api/text/tts': () => ({ code: 422, message: 'Text to speech is not available in this shop', data: { provider: 'tts' } }) })
    const on = render(<PrizeShowPage />)
    await settle()
    expect(on.container.querySelector('.prize-read')).not.toBeNull()
    // the engine went away since: the button goes, and the shopper is told plainly
    await act(async () => { fireEvent.click(on.container.querySelector('.prize-read')!) })
    await settle()
    expect(on.container.querySelector('.prize-read')).toBeNull()
    const said = (Taro.showToast as unknown as jest.Mock).mock.calls.map(c => c[0].title as string)
    expect(said).toContain('The results cannot be read aloud here')
    for (const s of said) expect(configWordIn(s)).toBeNull()
  })

  test('the market price: a provider gone since the page asked turns the feature off (the page then shows the plain reference value)', async () => {
    localeStore.setLocale('zh')
    fakeServer({ priceCompare: true }, { '/api/bijia_spu_search': () => ({ code: 422, message: '这个商城暂不提供京东联盟比价', data: { provider: 'jdUnion' } }) })
    await act(async () => { await capabilitiesStore.ensure() })
    expect(capabilitiesStore.has('priceCompare')).toBe(true)
    const { container } = render(<MarketPrice keyword='月亮' referenceCents={5900} />)
    await settle()
    expect(capabilitiesStore.has('priceCompare')).toBe(false)
    expect(configWordIn(text(container))).toBeNull()
  })

  test('until the shop has answered, or when it cannot be asked, every optional feature counts as off', async () => {
    expect(capabilitiesStore.has('maps')).toBe(false)
    jest.spyOn(Taro, 'request').mockImplementation((() => Promise.reject(new Error('request:fail'))) as never)
    await act(async () => { await capabilitiesStore.ensure().catch(() => undefined) })
    for (const f of ['maps', 'tracking', 'priceCompare', 'speech', 'ai'] as const) expect(capabilitiesStore.has(f)).toBe(false)
  })

  test('ensure asks once; the login page asks afresh', async () => {
    const calls = fakeServer({ maps: true })
    await act(async () => { await Promise.all([capabilitiesStore.ensure(), capabilitiesStore.ensure()]) })
    await act(async () => { await capabilitiesStore.ensure() })
    expect(calls).toHaveLength(1)
    expect(capabilitiesStore.has('maps')).toBe(true)
    await act(async () => { await capabilitiesStore.refresh() })
    expect(calls).toHaveLength(2)
  })
})

describe('a prize on its way is named by its parcel', () => {
  test.each(['zh', 'en'] as const)('%s', (lang) => {
    localeStore.setLocale(lang)
    const word = (status: 'warehouse' | 'shipping' | 'received', parcelStatus: 'requested' | 'shipping' | 'received' | null) => t(prizeStatusKey({ status, parcelStatus }))
    expect(word('shipping', 'requested')).toBe(t('parcel.requested'))
    expect(word('shipping', 'shipping')).toBe(t('parcel.shipping'))
    expect(word('shipping', 'requested')).not.toBe(word('shipping', 'shipping'))
    // never "in transit" while the parcel waits
    expect(word('shipping', 'requested')).not.toBe(t('tracking.inTransit'))
    expect(word('received', 'received')).toBe(t('collection.received'))
    expect(word('warehouse', null)).toBe(t('collection.warehouse'))
  })
})
