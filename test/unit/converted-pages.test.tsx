/**
 * Pages, tabs and components moved onto the shared loading hook (src/utils/useRemote.ts) behave as
 * before: the security page says it is loading, then its failure with a retry that loads it; the
 * Reviews tab pages with its "more" button and starts again on another filter; the packing slip and
 * the combine result say their failure; and nothing is set or told after an unmount.
 */
import { render, act, cleanup, fireEvent } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { Current, safeExecute } from '@tarojs/runtime'
import type { UserInfo } from '~types/accounts'
import type { SecurityOverview, OperatorCorrectionView } from '~types/security'
import { localeStore } from '@/stores/locale'
import { sessionStore } from '@/stores/session'
import { tokenStorage } from '@/services/token'
import { securityApi } from '@/services/security'
import { operatorApi } from '@/services/afterDraw'
import { combineApi } from '@/services/combine'
import { ApiError } from '@/services/errors'
import SecurityPage from '@/pagesA/security/index'
import CombineResultPage from '@/pagesA/combine_result/index'
import ReviewsTab from '@/pagesA/editor/ReviewsTab'
import PackingSlip from '@/pagesA/editor/PackingSlip'

const ok = () => Promise.resolve({ errMsg: 'ok' }) as never
const text = (c: Element) => c.textContent || ''
const flush = () => act(async () => { for (let i = 0; i < 5; i++) await Promise.resolve() })
const show = () => act(() => { safeExecute('taro-app', 'componentDidShow') })
const byText = (c: HTMLElement, words: string) => [...c.querySelectorAll('*')].find(e => e.children.length === 0 && e.textContent === words) as HTMLElement | undefined
const route = (path: string, params: Record<string, string> = {}) => {
  Current.router = { path, params, onReady: '', onHide: '', onShow: '', shareTimeline: '', shareAppMessage: '' } as never
}
function deferred<T> () {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej })
  return { promise, resolve, reject }
}

const limit = { cents: null, spentCents: 0, pending: null }
const overview: SecurityOverview = {
  hasPassword: true, phone: '138****0001', email: null,
  sessions: [{ id: 1, appType: 'h5', device: 'Chrome', maskedIp: '203.0.113.x', createdAt: '2026-11-20T08:00:00.000Z', lastSeenAt: '2026-11-20T08:00:00.000Z', current: true }],
  limits: { daily: limit, monthly: limit },
  age: { birthDate: null, age: null, minor: false, guardianConsent: false, guardian: null, minorDailyCapCents: null },
  correction: null
}

beforeEach(() => {
  jest.spyOn(Taro, 'showToast').mockImplementation(ok)
  jest.spyOn(Taro, 'setNavigationBarTitle').mockImplementation(ok)
  localeStore.setLocale('en')
  tokenStorage.set('token-of-test')
  sessionStore.setUser({ id: 1, userName: 'u', nickname: 'u', phone: null, email: null, avatar: null, role: 'operator' } as UserInfo)
})
afterEach(() => { cleanup(); jest.restoreAllMocks(); sessionStore.setUser(null); tokenStorage.clear() })

describe('the security page', () => {
  beforeEach(() => route('/pagesA/security/index'))

  it('loading, then a failure toasted with a retry, which loads the page', async () => {
    const answers = [deferred<SecurityOverview>(), deferred<SecurityOverview>()]
    let n = 0
    const load = jest.spyOn(securityApi, 'overview').mockImplementation(() => answers[n++].promise)
    const { container } = render(<SecurityPage />)
    show()
    expect(load).toHaveBeenCalledTimes(1)
    expect(text(container)).toContain('Loading')
    await act(async () => { answers[0].reject(new ApiError(500, 'down', null)) })
    expect(Taro.showToast).toHaveBeenCalledWith(expect.objectContaining({ title: 'down' }))
    expect(text(container)).toContain('Could not load your account security')
    await act(async () => { fireEvent.click(byText(container, 'Retry')!) })
    expect(load).toHaveBeenCalledTimes(2)
    await act(async () => { answers[1].resolve(overview) })
    await flush()
    expect(text(container)).not.toContain('Could not load your account security')
    expect(text(container)).toContain('138****0001')
  })

  it('left before the answer: nothing set and nothing told', async () => {
    const error = jest.spyOn(console, 'error')
    const answer = deferred<SecurityOverview>()
    jest.spyOn(securityApi, 'overview').mockReturnValue(answer.promise)
    const { unmount } = render(<SecurityPage />)
    show()
    unmount()
    await act(async () => { answer.reject(new ApiError(500, 'late', null)) })
    expect(Taro.showToast).not.toHaveBeenCalled()
    expect(error).not.toHaveBeenCalled()
  })
})

describe('the Reviews tab', () => {
  const correction = (id: number): OperatorCorrectionView => ({
    id, userId: 9, userLabel: `user ${id}`, oldBirthDate: '2000-01-01', newBirthDate: '2001-01-01', reason: 'typo', status: 'pending',
    reviewNote: null, createdAt: '2026-11-20T08:00:00.000Z', reviewedAt: null
  } as OperatorCorrectionView)

  it('page 1, the next with "more", and page 1 again on another filter', async () => {
    const list = jest.spyOn(securityApi, 'corrections')
      .mockResolvedValueOnce({ list: Array.from({ length: 20 }, (_, i) => correction(i + 1)), total: 21 })
      .mockResolvedValueOnce({ list: [correction(21)], total: 21 })
      .mockResolvedValueOnce({ list: [correction(5)], total: 1 })
    const { container } = render(<ReviewsTab />)
    await flush()
    expect(list).toHaveBeenLastCalledWith({ page: 1, size: 20, status: 'pending' })
    expect(container.querySelectorAll('.review')).toHaveLength(20)
    await act(async () => { fireEvent.click(container.querySelector('.wq-more')!) })
    await flush()
    expect(list).toHaveBeenLastCalledWith({ page: 2, size: 20, status: 'pending' })
    expect(container.querySelectorAll('.review')).toHaveLength(21)
    expect(container.querySelector('.wq-more')).toBeNull()
    await act(async () => { fireEvent.click(container.querySelector('.review-filter-all')!) })
    await flush()
    expect(list).toHaveBeenLastCalledWith({ page: 1, size: 20 })
    expect(container.querySelectorAll('.review')).toHaveLength(1)
  })

  it('a failure is toasted and leaves the empty state', async () => {
    jest.spyOn(securityApi, 'corrections').mockRejectedValue(new ApiError(500, 'down', null))
    const { container } = render(<ReviewsTab />)
    await flush()
    expect(Taro.showToast).toHaveBeenCalledWith(expect.objectContaining({ title: 'down' }))
    expect(container.querySelector('.review')).toBeNull()
  })
})

describe('the packing slip', () => {
  it('loading, then the failure in its place', async () => {
    const answer = deferred<never>()
    jest.spyOn(operatorApi, 'packingSlip').mockReturnValue(answer.promise)
    const { container } = render(<PackingSlip shipmentId={4} onClose={() => undefined} />)
    expect(text(container.querySelector('.packing-slip__state')!)).toContain('Loading')
    await act(async () => { answer.reject(new ApiError(404, 'no such shipment', null)) })
    expect(text(container.querySelector('.packing-slip__state')!)).toBe('no such shipment')
  })

  it('closed before the answer: nothing set, no warning', async () => {
    const error = jest.spyOn(console, 'error')
    const answer = deferred<never>()
    jest.spyOn(operatorApi, 'packingSlip').mockReturnValue(answer.promise)
    const { unmount } = render(<PackingSlip shipmentId={4} onClose={() => undefined} />)
    unmount()
    await act(async () => { answer.reject(new ApiError(404, 'late', null)) })
    expect(error).not.toHaveBeenCalled()
  })
})

describe('the combine result', () => {
  it('a bad id is "not found" without a call; a failed load is toasted and says not found', async () => {
    const detail = jest.spyOn(combineApi, 'detail').mockRejectedValue(new ApiError(404, 'no such combine', null))
    route('/pagesA/combine_result/index', { combineId: 'x' })
    const bad = render(<CombineResultPage />)
    show()
    await flush()
    expect(detail).not.toHaveBeenCalled()
    expect(text(bad.container)).toContain('not found')
    bad.unmount()
    route('/pagesA/combine_result/index', { combineId: '7' })
    const { container } = render(<CombineResultPage />)
    show()
    expect(text(container)).toContain('Loading')
    await flush()
    expect(detail).toHaveBeenCalledWith(7)
    expect(Taro.showToast).toHaveBeenCalledWith(expect.objectContaining({ title: 'no such combine' }))
    expect(text(container)).toContain('not found')
  })
})
