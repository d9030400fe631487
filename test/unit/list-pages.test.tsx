/**
 * The list pages on the shared loading hook (src/utils/useRemote.ts): home's series pages on
 * reach-bottom, says "no more" and offers a retry after a failure; the collection loads when shown,
 * pages on reach-bottom, reloads on a new filter and says a failure.
 */
import { render, act, cleanup, fireEvent } from '@testing-library/react'
import { listFoot } from '@/components/ListEnd/listFoot'
import Taro from '@tarojs/taro'
import { Current, safeExecute } from '@tarojs/runtime'
import type { UserInfo } from '~types/accounts'
import type { LedgerEntry, PrizeItem, SeriesSummary } from '~types/shop'
import { localeStore } from '@/stores/locale'
import { sessionStore } from '@/stores/session'
import { tokenStorage } from '@/services/token'
import { orderApi, shopApi } from '@/services/shop'
import { afterDrawApi } from '@/services/afterDraw'
import { ApiError } from '@/services/errors'
import HomePage from '@/pagesA/home/index'
import MyBlindBoxPage from '@/pagesA/my_blind_box/index'
import RechargePage from '@/pagesA/recharge/index'

const ok = () => Promise.resolve({ errMsg: 'ok' }) as never
const text = (c: HTMLElement) => c.textContent || ''
const flush = () => act(async () => { for (let i = 0; i < 5; i++) await Promise.resolve() })
let now = 1_000_000
/** A reach-bottom as the page gets it (past the 350 ms throttle of the one before). */
const reachBottom = async () => { now += 1000; act(() => { safeExecute('taro-app', 'onReachBottom') }); await flush() }

const design = { id: 3, name: { zh: '星星兔', en: 'Star bunny' }, image: '/x.webp', rarity: 'rare' as const, referenceValueCents: 5900, recycleValueCents: 1200, oddsPpm: 100000 }
const series = (id: number): SeriesSummary => ({
  id, title: { zh: `系列${id}`, en: `Series ${id}` }, description: { zh: '', en: '' }, status: 'on_sale', priceCents: 3900, caseSize: 12, kind: 'case',
  designCount: 12, cover: '/c.webp', oddsPpm: { regular: 800000, rare: 150000, hidden: 50000 }, soldOut: false
})
const prize = (prizeId: number): PrizeItem => ({
  prizeId, status: 'warehouse', seriesId: 1, seriesTitle: { zh: '星空系列', en: 'Starry series' }, origin: 'case', caseId: 9, slot: 1,
  combineId: null, design, parcelStatus: null, createdAt: '2026-11-20T08:00:00.000Z'
})

beforeEach(() => {
  jest.spyOn(Date, 'now').mockImplementation(() => now)
  jest.spyOn(Taro, 'showToast').mockImplementation(ok)
  jest.spyOn(Taro, 'setNavigationBarTitle').mockImplementation(ok)
  localeStore.setLocale('en')
})
afterEach(() => { cleanup(); jest.restoreAllMocks(); sessionStore.setUser(null); tokenStorage.clear() })

describe('home', () => {
  beforeEach(() => {
    Current.router = { path: '/pagesA/home/index', params: {}, onReady: '', onHide: '', onShow: '', shareTimeline: '', shareAppMessage: '' } as never
    jest.spyOn(shopApi, 'liveFeed').mockResolvedValue([])
  })

  it('loads page 1, the next on reach-bottom, then says no more', async () => {
    const list = jest.spyOn(shopApi, 'seriesList')
      .mockResolvedValueOnce({ list: Array.from({ length: 10 }, (_, i) => series(i + 1)), total: 12 })
      .mockResolvedValueOnce({ list: [series(11), series(12)], total: 12 })
    const { container } = render(<HomePage />)
    expect(container.querySelector('.home-more')).not.toBeNull()
    await flush()
    expect(list).toHaveBeenCalledWith({ page: 1, size: 10 })
    expect(text(container)).toContain('Series 10')
    expect(container.querySelector('.home-no-more')).toBeNull()
    await reachBottom()
    expect(list).toHaveBeenLastCalledWith({ page: 2, size: 10 })
    expect(text(container)).toContain('Series 12')
    expect(container.querySelector('.home-no-more')).not.toBeNull()
    await reachBottom()
    expect(list).toHaveBeenCalledTimes(2)
  })

  it('a failed first page offers a retry that loads it', async () => {
    const list = jest.spyOn(shopApi, 'seriesList')
      .mockRejectedValueOnce(new ApiError(500, 'down', null))
      .mockResolvedValueOnce({ list: [series(1)], total: 1 })
    const { container } = render(<HomePage />)
    await flush()
    expect(container.querySelector('.home-more')).toBeNull()
    const retry = [...container.querySelectorAll('*')].find(e => e.children.length === 0 && e.textContent === 'Retry')
    expect(retry).toBeDefined()
    await act(async () => { fireEvent.click(retry!) })
    await flush()
    expect(list).toHaveBeenCalledTimes(2)
    expect(text(container)).toContain('Series 1')
    expect(container.querySelector('.home-no-more')).not.toBeNull()
  })
})

describe('my collection', () => {
  beforeEach(() => {
    Current.router = { path: '/pagesA/my_blind_box/index', params: {}, onReady: '', onHide: '', onShow: '', shareTimeline: '', shareAppMessage: '' } as never
    tokenStorage.set('token-of-test')
    sessionStore.setUser({ id: 1, userName: 'u', nickname: 'u', phone: null, email: null, avatar: null, role: 'shopper' } as UserInfo)
    jest.spyOn(afterDrawApi, 'collection').mockResolvedValue({ counts: { all: 25, warehouse: 25, shipping: 0, received: 0, combined: 0, recycled: 0 }, series: [] })
  })

  it('loads when shown, pages on reach-bottom, starts again on another filter', async () => {
    const list = jest.spyOn(shopApi, 'prizeList')
      .mockResolvedValueOnce({ list: Array.from({ length: 20 }, (_, i) => prize(i + 1)), total: 25 })
      .mockResolvedValueOnce({ list: Array.from({ length: 5 }, (_, i) => prize(i + 21)), total: 25 })
      .mockResolvedValueOnce({ list: [prize(7)], total: 1 })
    const { container } = render(<MyBlindBoxPage />)
    await flush()
    expect(list).not.toHaveBeenCalled()
    act(() => { safeExecute('taro-app', 'componentDidShow') })
    await flush()
    expect(list).toHaveBeenCalledTimes(1)
    expect(list).toHaveBeenLastCalledWith({ page: 1, size: 20 })
    expect(container.querySelectorAll('.prize-row')).toHaveLength(20)
    expect(text(container.querySelector('.collection-end') as HTMLElement)).toBe('Loading more…')
    await reachBottom()
    expect(list).toHaveBeenLastCalledWith({ page: 2, size: 20 })
    expect(container.querySelectorAll('.prize-row')).toHaveLength(25)
    expect(text(container.querySelector('.collection-end') as HTMLElement)).toBe('That is all')
    await act(async () => { fireEvent.click(container.querySelector('.filter-warehouse')!) })
    await flush()
    expect(list).toHaveBeenLastCalledWith({ page: 1, size: 20, status: 'warehouse' })
    expect(container.querySelectorAll('.prize-row')).toHaveLength(1)
  })

  it('a failure is toasted and shows the empty collection', async () => {
    jest.spyOn(shopApi, 'prizeList').mockRejectedValue(new ApiError(422, 'nope', null))
    const { container } = render(<MyBlindBoxPage />)
    act(() => { safeExecute('taro-app', 'componentDidShow') })
    await flush()
    expect(Taro.showToast).toHaveBeenCalledWith(expect.objectContaining({ title: 'nope' }))
    expect(container.querySelector('.prize-row')).toBeNull()
    expect(text(container)).toContain('No prizes yet')
  })
})

describe('wallet ledger', () => {
  const entry = (id: number): LedgerEntry => ({ id, txId: id, kind: 'topup', account: 'cash', amountCents: 100, createdAt: '2026-11-20T08:00:00.000Z', reference: '' } as LedgerEntry)

  it('loads with the balance when shown, pages on reach-bottom, then says no more', async () => {
    Current.router = { path: '/pagesA/recharge/index', params: {}, onReady: '', onHide: '', onShow: '', shareTimeline: '', shareAppMessage: '' } as never
    tokenStorage.set('token-of-test')
    sessionStore.setUser({ id: 1, userName: 'u', nickname: 'u', phone: null, email: null, avatar: null, role: 'shopper' } as UserInfo)
    jest.spyOn(shopApi, 'walletBalance').mockResolvedValue({ cashCents: 500, creditCents: 0 } as never)
    jest.spyOn(orderApi, 'payMethods').mockResolvedValue([])
    const ledger = jest.spyOn(shopApi, 'walletLedger')
      .mockResolvedValueOnce({ list: Array.from({ length: 20 }, (_, i) => entry(i + 1)), total: 21 })
      .mockResolvedValueOnce({ list: [entry(21)], total: 21 })
    const { container } = render(<RechargePage />)
    act(() => { safeExecute('taro-app', 'componentDidShow') })
    await flush()
    expect(ledger).toHaveBeenLastCalledWith({ page: 1, size: 20 })
    expect(container.querySelectorAll('.ledger-row')).toHaveLength(20)
    expect(container.querySelector('.ledger-end')).toBeNull()
    await reachBottom()
    expect(ledger).toHaveBeenLastCalledWith({ page: 2, size: 20 })
    expect(container.querySelectorAll('.ledger-row')).toHaveLength(21)
    expect(container.querySelector('.ledger-end')).not.toBeNull()
    expect(text(container.querySelector('.ledger-end') as HTMLElement)).toBe('That is all')
  })

  it('an empty ledger says it is empty, not "no more" (issue 48)', async () => {
    Current.router = { path: '/pagesA/recharge/index', params: {}, onReady: '', onHide: '', onShow: '', shareTimeline: '', shareAppMessage: '' } as never
    tokenStorage.set('token-of-test')
    sessionStore.setUser({ id: 1, userName: 'u', nickname: 'u', phone: null, email: null, avatar: null, role: 'shopper' } as UserInfo)
    jest.spyOn(shopApi, 'walletBalance').mockResolvedValue({ cashCents: 0, creditCents: 0 } as never)
    jest.spyOn(orderApi, 'payMethods').mockResolvedValue([])
    jest.spyOn(shopApi, 'walletLedger').mockResolvedValue({ list: [], total: 0 })
    const { container } = render(<RechargePage />)
    act(() => { safeExecute('taro-app', 'componentDidShow') })
    await flush()
    expect(text(container.querySelector('.ledger') as HTMLElement)).toContain('No money in or out yet')
    expect(text(container)).not.toContain('That is all')
    expect(container.querySelector('.ledger-end')).toBeNull()
  })
})

describe('the foot of every list (components/ListEnd)', () => {
  it('empty, more to come, loading and the end are four different things', () => {
    expect(listFoot({ count: 0, hasMore: false })).toBe('empty')
    expect(listFoot({ count: 0, hasMore: true })).toBe('empty')
    expect(listFoot({ count: 3, hasMore: false })).toBe('end')
    expect(listFoot({ count: 3, hasMore: true, more: 'more' })).toBe('more')
    expect(listFoot({ count: 3, hasMore: true })).toBe('none')
    expect(listFoot({ count: undefined, hasMore: true })).toBe('none')
    expect(listFoot({ count: 0, hasMore: false, loading: true })).toBe('loading')
  })
})
