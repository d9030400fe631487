/**
 * One idempotency key per intended request (src/utils/requestKey.ts), on the props page: a tap again
 * after an answer that never came sends the same key (the server applies the purchase once and answers
 * the first result), another card or account is another key, and after a success the same purchase
 * again is a new one.
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
import { RequestError } from '@/services/errors'
import PropsPage from '@/pagesA/props/index'

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
