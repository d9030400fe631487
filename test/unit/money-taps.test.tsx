/**
 * Taps that move money or prizes, on the props page and in the collection:
 * - one idempotency key per intended request (src/utils/requestKey.ts): a tap again after an answer that
 *   never came sends the same key (the server applies it once and answers the first result), another
 *   card or account is another key, and after a success the same purchase again is a new one;
 * - the collection's recycling sends the same prizes in one order, whatever order they were picked in
 *   (the server refuses a key sent again with another body);
 * - a card refused by the age check shows that check on the page (components/AgeGate).
 */
import { render, act, cleanup, fireEvent } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { Current, safeExecute } from '@tarojs/runtime'
import type { UserInfo } from '~types/accounts'
import type { PropBuyRequest, PropsState } from '~types/props'
import { localeStore } from '@/stores/locale'
import { sessionStore } from '@/stores/session'
import { tokenStorage } from '@/services/token'
import { propsApi } from '@/services/props'
import { ApiError, RequestError } from '@/services/errors'
import type { AgeStatus, PrizeItem } from '~types/shop'
import type { RecycleRequest } from '~types/afterDraw'
import { shopApi } from '@/services/shop'
import { afterDrawApi } from '@/services/afterDraw'
import PropsPage from '@/pagesA/props/index'
import MyBlindBoxPage from '@/pagesA/my_blind_box/index'

const ok = () => Promise.resolve({ errMsg: 'ok' }) as never
const flush = () => act(async () => { for (let i = 0; i < 8; i++) await Promise.resolve() })
const state: PropsState = { cards: { hint: 0, xray: 0 }, shakesLeft: 3, shakesPerDay: 3, prices: { hint: 300, xray: 1500 }, reservations: [] }

beforeEach(() => {
  jest.spyOn(Taro, 'showToast').mockImplementation(ok)
  jest.spyOn(Taro, 'setNavigationBarTitle').mockImplementation(ok)
  jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false, errMsg: 'ok' } as never)
  localeStore.setLocale('en')
  tokenStorage.set('token-of-test')
  sessionStore.setUser({ id: 1, userName: 'u', nickname: 'u', phone: null, email: null, avatar: null, role: 'shopper' } as UserInfo)
  Current.router = { path: '/pagesA/props/index', params: {}, onReady: '', onHide: '', onShow: '', shareTimeline: '', shareAppMessage: '' } as never
  jest.spyOn(propsApi, 'state').mockResolvedValue(state)
  jest.spyOn(propsApi, 'history').mockResolvedValue({ list: [], total: 0 })
})
afterEach(() => { cleanup(); jest.restoreAllMocks(); sessionStore.setUser(null); tokenStorage.clear() })

test('buying a card: the same key after a lost answer, a new one for another purchase and after a success', async () => {
  const sent: PropBuyRequest[] = []
  const answers: Array<() => Promise<never>> = [
    () => Promise.reject(new RequestError('request:fail timeout', 'ECONNABORTED')),
    () => Promise.resolve({ state: { ...state, cards: { hint: 0, xray: 1 } }, balance: { cashCents: 0, creditCents: 0 }, paidCents: 1500 } as never),
    () => Promise.resolve({ state: { ...state, cards: { hint: 0, xray: 2 } }, balance: { cashCents: 0, creditCents: 0 }, paidCents: 1500 } as never),
    () => Promise.reject(new RequestError('request:fail timeout', 'ECONNABORTED'))
  ]
  jest.spyOn(propsApi, 'buy').mockImplementation(body => { sent.push(body); return answers[sent.length - 1]() })
  const { container } = render(<PropsPage />)
  await act(() => { safeExecute('taro-app', 'componentDidShow') })
  await flush()
  const tap = async (selector: string) => { fireEvent.click(container.querySelector(selector)!); await flush() }
  await tap('.prop-buy-xray-cash') // the answer is lost
  await tap('.prop-buy-xray-cash') // the same purchase again: same key
  await tap('.prop-buy-xray-cash') // bought; this is a second card: new key
  await tap('.prop-buy-xray-credit') // another account: new key
  expect(sent.map(b => [b.kind, b.pay])).toEqual([['xray', 'cash'], ['xray', 'cash'], ['xray', 'cash'], ['xray', 'credit']])
  const keys = sent.map(b => b.idempotencyKey)
  expect(keys[1]).toBe(keys[0])
  expect(new Set([keys[1], keys[2], keys[3]]).size).toBe(3)
  for (const k of keys) expect(k).toMatch(/^[A-Za-z0-9]{24}$/)
})

test('recycling from the collection: picked in another order after a lost answer, the same request with the same key', async () => {
  Current.router = { path: '/pagesA/my_blind_box/index', params: {}, onReady: '', onHide: '', onShow: '', shareTimeline: '', shareAppMessage: '' } as never
  const design = { id: 3, name: { zh: '星星兔', en: 'Star bunny' }, image: '/x.webp', rarity: 'rare' as const, referenceValueCents: 5900, recycleValueCents: 1200, oddsPpm: 100000 }
  const prize = (prizeId: number): PrizeItem => ({
    prizeId, status: 'warehouse', seriesId: 1, seriesTitle: { zh: '星空系列', en: 'Starry series' }, origin: 'case', caseId: 9, slot: 1,
    combineId: null, design, parcelStatus: null, createdAt: '2026-11-20T08:00:00.000Z'
  })
  jest.spyOn(afterDrawApi, 'collection').mockResolvedValue({ counts: { all: 2, warehouse: 2, shipping: 0, received: 0, combined: 0, recycled: 0 }, series: [] })
  jest.spyOn(shopApi, 'prizeList').mockResolvedValue({ list: [prize(4), prize(7)], total: 2 })
  const sent: RecycleRequest[] = []
  jest.spyOn(afterDrawApi, 'recycle').mockImplementation(body => {
    sent.push(body)
    return sent.length === 1 ? Promise.reject(new RequestError('request:fail timeout', 'ECONNABORTED')) : Promise.resolve({ creditCents: 2400 } as never)
  })
  const { container } = render(<MyBlindBoxPage />)
  await act(async () => { safeExecute('taro-app', 'componentDidShow'); await new Promise(resolve => setTimeout(resolve, 20)) })
  const tap = (selector: string) => act(async () => { fireEvent.click(container.querySelector(selector)!); await new Promise(resolve => setTimeout(resolve, 20)) })
  await tap('.collection-select')
  await tap('.prize-7')
  await tap('.prize-4')
  await tap('.select-recycle') // the answer is lost
  await tap('.prize-7') // picked again, in the other order
  await tap('.prize-7')
  await tap('.select-recycle')
  expect(sent.map(b => b.prizeIds)).toEqual([[4, 7], [4, 7]])
  expect(sent[1].idempotencyKey).toBe(sent[0].idempotencyKey)
})

test('a card refused by the age check: the page shows the check (birth date, then submit); other refusals do not', async () => {
  const unverified: AgeStatus = { verified: false, birthDate: null, age: null, minor: false, guardianConsent: false, dailyCapCents: null, guardian: null }
  jest.spyOn(shopApi, 'ageStatus').mockResolvedValue(unverified)
  const verify = jest.spyOn(shopApi, 'ageVerify')
  jest.spyOn(propsApi, 'buy')
    .mockRejectedValueOnce(new ApiError(422, 'You are 1 yuan short', { reason: 'insufficient_balance' }))
    .mockRejectedValueOnce(new ApiError(422, 'Verify your age (birth date) before your first purchase', { reason: 'age_required' }))
  const { container } = render(<PropsPage />)
  await act(async () => { safeExecute('taro-app', 'componentDidShow'); await new Promise(resolve => setTimeout(resolve, 20)) })
  const tap = (selector: string) => act(async () => { fireEvent.click(container.querySelector(selector)!); await new Promise(resolve => setTimeout(resolve, 20)) })
  await tap('.prop-buy-xray-cash')
  expect(container.querySelector('.age-gate')).toBeNull()
  await tap('.prop-buy-xray-cash')
  expect(Taro.showToast).toHaveBeenLastCalledWith(expect.objectContaining({ title: 'Verify your age (birth date) before your first purchase' }))
  expect(container.querySelector('.age-gate .age-gate__date')?.textContent).toBe('Pick your birth date')
  await tap('.age-gate__submit')
  expect(Taro.showToast).toHaveBeenLastCalledWith(expect.objectContaining({ title: 'Please pick your birth date' }))
  expect(verify).not.toHaveBeenCalled()
})
