/**
 * Purchases whose answer is lost (issue 48): the request and its key are kept on the device while the
 * answer is awaited (services/purchaseInFlight.ts), so that
 * - a reload and Pay again replays the first attempt (same key) instead of checking anew and hearing
 *   "sold" about the shopper's own box;
 * - the app's start replays what is still kept and tells the outcome;
 * - a purchase that ends after its page is gone (Back) is told on whatever page shows (LateNotice).
 */
import { render, act, cleanup, fireEvent } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { Current, safeExecute } from '@tarojs/runtime'
import type { UserInfo } from '~types/accounts'
import type { PurchaseRequest, PurchaseResult } from '~types/shop'
import { localeStore } from '@/stores/locale'
import { sessionStore } from '@/stores/session'
import { tokenStorage } from '@/services/token'
import { shopApi, orderApi } from '@/services/shop'
import { ApiError, RequestError } from '@/services/errors'
import { IN_FLIGHT_KEY, REPLAY_WINDOW_MS, inFlightFor, inFlightPurchases, resolveInFlight, sendPurchase } from '@/services/purchaseInFlight'
import { lateNotices } from '@/stores/lateNotices'
import LateNotice from '@/components/LateNotice'
import PurchasePage from '@/pagesA/purchase/index'

const ok = () => Promise.resolve({ errMsg: 'ok' }) as never
const flush = () => act(async () => { for (let i = 0; i < 12; i++) await Promise.resolve() })
const user = (id: number) => ({ id, userName: `u${id}`, nickname: `u${id}`, phone: null, email: null, avatar: null, role: 'shopper' }) as unknown as UserInfo
const order = { caseId: 7, slots: [4], acknowledged: true as const, priceCents: 2500 }
const result: PurchaseResult = {
  purchaseId: 31, caseId: 7, seriesId: 3, totalCents: 2500, spentCreditCents: 0, spentCashCents: 2500,
  prizes: [{ prizeId: 90, caseId: 7, slot: 4, design: { id: 5, name: { zh: '甲', en: 'A' }, image: '/a.webp', rarity: 'regular', oddsPpm: 1, referenceValueCents: 1, recycleValueCents: 1 } }],
  balance: { cashCents: 1400, creditCents: 0 }, xrayCardsEarned: 0
} as never
const lost = () => new RequestError('timeout of 50000ms exceeded', 'ECONNABORTED')
const ownBox = () => new ApiError(409, 'You already bought box 4', { field: 'slots', slot: 4, boughtByYou: { purchaseId: 31, prizeId: 90 } })
const clearNotices = () => { for (const n of [...lateNotices.notices]) lateNotices.dismiss(n.id) }

beforeEach(() => {
  jest.spyOn(Taro, 'showToast').mockImplementation(ok)
  jest.spyOn(Taro, 'showLoading').mockImplementation(ok)
  jest.spyOn(Taro, 'hideLoading').mockImplementation(ok)
  jest.spyOn(Taro, 'setNavigationBarTitle').mockImplementation(ok)
  jest.spyOn(Taro, 'pageScrollTo').mockImplementation(ok)
  localeStore.setLocale('en')
  tokenStorage.set('token-of-test')
  sessionStore.setUser(user(1))
  Taro.removeStorageSync(IN_FLIGHT_KEY)
  clearNotices()
})
afterEach(() => { cleanup(); jest.restoreAllMocks(); sessionStore.setUser(null); tokenStorage.clear() })

describe('the kept purchase', () => {
  it('is written before it is sent, kept while no answer came, and dropped on an answer', async () => {
    let seenWhileSending: unknown = null
    const send = jest.spyOn(shopApi, 'casePurchase').mockImplementation(() => {
      seenWhileSending = inFlightPurchases()
      return Promise.reject(lost())
    })
    const request: PurchaseRequest = { ...order, idempotencyKey: 'key-of-the-first-try-000' }
    await expect(sendPurchase(request, { seriesId: 3, toppedUpCents: 3900 })).rejects.toBeInstanceOf(RequestError)
    expect(seenWhileSending).toEqual([expect.objectContaining({ userId: 1, seriesId: 3, request, toppedUpCents: 3900 })])
    // what a reload finds: the same boxes at the same price, this account only
    expect(inFlightFor({ ...order, slots: [4] }, 1)?.request.idempotencyKey).toBe('key-of-the-first-try-000')
    expect(inFlightFor({ ...order, slots: [5] }, 1)).toBeNull()
    expect(inFlightFor({ ...order, priceCents: 2600 }, 1)).toBeNull()
    expect(inFlightFor(order, 2)).toBeNull()
    // a refusal settles it (the server stored nothing for it)
    send.mockRejectedValueOnce(new ApiError(409, 'Slot 4 already sold', { field: 'slots', slot: 4 }))
    await expect(sendPurchase(request, { seriesId: 3, toppedUpCents: 3900 })).rejects.toBeInstanceOf(ApiError)
    expect(inFlightPurchases()).toEqual([])
    send.mockResolvedValueOnce(result)
    await sendPurchase({ ...request, idempotencyKey: 'key-of-another-try-0000' }, { seriesId: 3, toppedUpCents: 0 })
    expect(inFlightPurchases()).toEqual([])
  })

  it('the app\'s start replays it with its key and tells the outcome; another account\'s is left alone', async () => {
    Taro.setStorageSync(IN_FLIGHT_KEY, [
      { userId: 1, seriesId: 3, request: { ...order, idempotencyKey: 'key-of-the-first-try-000' }, toppedUpCents: 3900, sentAt: Date.now() - 60_000 },
      { userId: 2, seriesId: 3, request: { ...order, slots: [6], idempotencyKey: 'key-of-someone-else-000' }, toppedUpCents: 0, sentAt: Date.now() - 60_000 }
    ])
    const send = jest.spyOn(shopApi, 'casePurchase').mockResolvedValue(result)
    await resolveInFlight()
    expect(send.mock.calls).toEqual([[{ ...order, idempotencyKey: 'key-of-the-first-try-000' }]])
    expect(lateNotices.notices).toEqual([expect.objectContaining({ kind: 'bought', purchaseId: 31, caseId: 7, slots: [4], totalCents: 2500 })])
    expect(inFlightPurchases().map(p => p.userId)).toEqual([2])
  })

  it('too old to send again (past REPLAY_WINDOW_MS): not sent, dropped, and the shopper sent to My orders', async () => {
    const sentAt = Date.now() - REPLAY_WINDOW_MS - 1
    Taro.setStorageSync(IN_FLIGHT_KEY, [{ userId: 1, seriesId: 3, request: { ...order, idempotencyKey: 'key-of-the-first-try-000' }, toppedUpCents: 0, sentAt }])
    const send = jest.spyOn(shopApi, 'casePurchase').mockResolvedValue(result)
    await resolveInFlight()
    expect(send).not.toHaveBeenCalled()
    expect(inFlightPurchases()).toEqual([])
    expect(lateNotices.notices).toEqual([expect.objectContaining({ kind: 'unknown', caseId: 7, slots: [4], sentAt })])
    const nav = jest.spyOn(Taro, 'navigateTo').mockImplementation(ok)
    const { container } = render(<LateNotice />)
    expect(container.textContent).toContain('A purchase got no answer')
    expect(container.textContent).toContain('it will not be tried again')
    fireEvent.click(container.querySelector('.late-notice__view')!)
    await flush()
    expect(nav).toHaveBeenCalledWith(expect.objectContaining({ url: '/pagesA/profile/index?orders=1' }))
  })

  it('still no answer at the start: kept for next time, nothing told', async () => {
    Taro.setStorageSync(IN_FLIGHT_KEY, [{ userId: 1, seriesId: 3, request: { ...order, idempotencyKey: 'key-of-the-first-try-000' }, toppedUpCents: 0, sentAt: Date.now() - 60_000 }])
    jest.spyOn(shopApi, 'casePurchase').mockRejectedValue(lost())
    await resolveInFlight()
    expect(lateNotices.notices).toEqual([])
    expect(inFlightPurchases()).toHaveLength(1)
  })
})

describe('the late notice', () => {
  it('says what was bought on any page and links to its opening', async () => {
    const nav = jest.spyOn(Taro, 'navigateTo').mockImplementation(ok)
    const { container } = render(<LateNotice />)
    expect(container.textContent).toBe('')
    act(() => lateNotices.add({ kind: 'bought', caseId: 7, slots: [4], purchaseId: 31, totalCents: 2500 }))
    expect(container.textContent).toContain('Purchase completed')
    expect(container.textContent).toContain('Case #7, box 4: bought for ¥25.00.')
    fireEvent.click(container.querySelector('.late-notice__view')!)
    await flush()
    expect(nav).toHaveBeenCalledWith(expect.objectContaining({ url: '/pagesA/open_chest_animation/index?purchaseId=31' }))
    expect(container.querySelector('.late-notice')).toBeNull()
  })

  it('a purchase refused after a top-up says the money stays (zh)', () => {
    localeStore.setLocale('zh')
    const { container } = render(<LateNotice />)
    act(() => lateNotices.add({ kind: 'failed', caseId: 7, slots: [4], reason: '4 号盒已被买走', toppedUpCents: 3900 }))
    expect(container.textContent).toContain('#7 箱的 4 号盒没有买成：4 号盒已被买走')
    expect(container.textContent).toContain('为它充值的 ¥39.00 留在你的余额里。')
    expect(container.querySelector('.late-notice__view')).toBeNull()
    fireEvent.click(container.querySelector('.late-notice__close')!)
    expect(container.querySelector('.late-notice')).toBeNull()
  })
})

describe('the purchase page', () => {
  const series = {
    id: 3, title: { zh: '系列', en: 'Series' }, cover: '/c.webp', priceCents: 2500, designs: [], hiddenCasePpm: 0,
    valueRange: { minCents: 100, maxCents: 200 }, rules: { zh: '规则', en: 'Rules' }
  }
  const box = { caseId: 7, seriesId: 3, commit: 'x', size: 12, slots: Array.from({ length: 12 }, (_, i) => ({ slot: i + 1, sold: false })), switchesLeft: 3, heldUntil: null }
  const open = async () => {
    Current.router = { path: '/pagesA/purchase/index', params: { seriesId: '3', caseId: '7', slots: '4' }, onReady: '', onHide: '', onShow: '', shareTimeline: '', shareAppMessage: '' } as never
    jest.spyOn(shopApi, 'seriesDetail').mockResolvedValue(series as never)
    jest.spyOn(shopApi, 'caseCurrent').mockResolvedValue(box as never)
    jest.spyOn(shopApi, 'walletBalance').mockResolvedValue({ cashCents: 5000, creditCents: 0 })
    jest.spyOn(shopApi, 'ageStatus').mockResolvedValue({ verified: true, birthDate: '1990-01-01', age: 36, minor: false, guardianConsent: false, dailyCapCents: null, guardian: null })
    jest.spyOn(orderApi, 'payMethods').mockResolvedValue([])
    const page = render(<PurchasePage />)
    await act(() => { safeExecute('taro-app', 'componentDidShow') })
    await flush()
    fireEvent.click(page.container.querySelector('.purchase-ack')!)
    await flush()
    return page
  }

  it('Back while the answer is on its way: the purchase is told on the page that shows, with its opening', async () => {
    jest.spyOn(Taro, 'redirectTo').mockImplementation(ok)
    jest.spyOn(shopApi, 'purchaseCheck').mockResolvedValue({ shortfallCents: 0 } as never)
    let answer: (r: PurchaseResult) => void = () => undefined
    jest.spyOn(shopApi, 'casePurchase').mockImplementation(() => new Promise(resolve => { answer = resolve }))
    const page = await open()
    fireEvent.click(page.container.querySelector('.purchase-pay')!)
    await flush()
    expect(inFlightPurchases()).toHaveLength(1)
    page.unmount() // Back
    await act(async () => { answer(result) })
    await flush()
    expect(Taro.redirectTo).not.toHaveBeenCalled()
    expect(lateNotices.notices).toEqual([expect.objectContaining({ kind: 'bought', purchaseId: 31, totalCents: 2500 })])
    expect(inFlightPurchases()).toEqual([])
  })

  it('Back pops the page before it unmounts (H5 unloads after its animation): told elsewhere all the same, no redirect', async () => {
    const redirect = jest.spyOn(Taro, 'redirectTo').mockImplementation(ok)
    const pages = [{ route: 'pagesA/blind_box_detail/index' }, { route: 'pagesA/purchase/index?seriesId=3' }]
    jest.spyOn(Taro, 'getCurrentPages').mockImplementation(() => pages as never)
    jest.spyOn(shopApi, 'purchaseCheck').mockResolvedValue({ shortfallCents: 0 } as never)
    let answer: (r: PurchaseResult) => void = () => undefined
    jest.spyOn(shopApi, 'casePurchase').mockImplementation(() => new Promise(resolve => { answer = resolve }))
    const page = await open()
    fireEvent.click(page.container.querySelector('.purchase-pay')!)
    await flush()
    pages.pop() // Back: off the stack, still mounted
    await act(async () => { answer(result) })
    await flush()
    expect(redirect).not.toHaveBeenCalled()
    expect(lateNotices.notices).toEqual([expect.objectContaining({ kind: 'bought', purchaseId: 31 })])
    page.unmount()
  })

  it('a reload after a lost answer, Pay again: the first attempt is replayed with its key, no new check', async () => {
    const redirect = jest.spyOn(Taro, 'redirectTo').mockImplementation(ok)
    Taro.setStorageSync(IN_FLIGHT_KEY, [{ userId: 1, seriesId: 3, request: { ...order, idempotencyKey: 'key-of-the-first-try-000' }, toppedUpCents: 3900, sentAt: Date.now() - 60_000 }])
    const check = jest.spyOn(shopApi, 'purchaseCheck').mockRejectedValue(ownBox())
    const send = jest.spyOn(shopApi, 'casePurchase').mockResolvedValue(result)
    const page = await open()
    fireEvent.click(page.container.querySelector('.purchase-pay')!)
    await flush()
    expect(check).not.toHaveBeenCalled()
    expect(send.mock.calls).toEqual([[{ ...order, idempotencyKey: 'key-of-the-first-try-000' }]])
    expect(redirect).toHaveBeenCalledWith(expect.objectContaining({ url: '/pagesA/open_chest_animation/index?purchaseId=31' }))
  })

  it('the key lost too (another device): "you already bought this box", with its opening, not "nothing charged"', async () => {
    const redirect = jest.spyOn(Taro, 'redirectTo').mockImplementation(ok)
    jest.spyOn(shopApi, 'purchaseCheck').mockRejectedValue(ownBox())
    const page = await open()
    fireEvent.click(page.container.querySelector('.purchase-pay')!)
    await flush()
    const text = page.container.querySelector('.purchase-notice')!.textContent
    expect(text).toContain('You already bought this box')
    expect(text).toContain('Case #7, box 4 is yours from before; nothing was charged again.')
    expect(text).not.toContain('Nothing was charged and nothing was topped up')
    fireEvent.click(page.container.querySelector('.purchase-notice__open')!)
    await flush()
    expect(redirect).toHaveBeenCalledWith(expect.objectContaining({ url: '/pagesA/open_chest_animation/index?purchaseId=31' }))
  })
})
