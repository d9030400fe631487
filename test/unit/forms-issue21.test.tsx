/**
 * Issue 21 (items 10, 11, 15) in the forms, rendered with the calls spied on: the shop settings checked
 * together beside the field before anything is sent (and a minus sign refused, not dropped); a phone
 * written "+86 138 0000 0000" read as the number it is; the address form showing every problem beside
 * its field; the security page refusing the same password and a daily limit above the monthly one,
 * confirming a limit lowered (to 0 above all) before it applies, and checking the password before it
 * asks to confirm a deletion; the series editor asking before Back drops an unsaved series.
 */
import { render, fireEvent, act, cleanup } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { Current } from '@tarojs/runtime'
import * as TaroModule from '@tarojs/taro'
import { useEffect } from 'react'
import type { ShopSettings } from '~types/limits'
import { DEFAULT_SHOP_SETTINGS } from '~types/limits'
import type { SecurityOverview } from '~types/security'
import { localeStore } from '@/stores/locale'
import { sessionStore } from '@/stores/session'
import { tokenStorage } from '@/services/token'
import { ApiError } from '@/services/errors'
import { addressApi, afterDrawApi, operatorApi } from '@/services/afterDraw'
import { securityApi } from '@/services/security'
import { aiApi } from '@/services/ai'
import { editorApi } from '@/services/editor'
import { normalizePhone, checkPhone } from '@/utils/validation'
import { parseWhole } from '@/utils/format'
import SettingsTab from '@/pagesA/editor/SettingsTab'
import SeriesTab from '@/pagesA/editor/SeriesTab'
import ShipSheet from '@/components/ShipSheet'
import SecurityPage from '@/pagesA/security/index'
import { limitProblems } from '@/pagesA/security/limits'

const ok = () => Promise.resolve({ errMsg: 'ok' }) as never
const text = (c: Element | null) => c?.textContent || ''
const flush = () => act(async () => { for (let i = 0; i < 6; i++) await new Promise(r => setTimeout(r, 0)) })
const type = (el: Element, value: string) => act(() => { el.dispatchEvent(new CustomEvent('input', { detail: { value }, bubbles: true })) })
const click = async (el: Element) => { await act(async () => { fireEvent.click(el) }); await flush() }
const answerModal = (confirm: boolean) => jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm, cancel: !confirm, errMsg: 'ok' } as never)

beforeEach(() => {
  jest.spyOn(Taro, 'showToast').mockImplementation(ok)
  jest.spyOn(Taro, 'showLoading').mockImplementation(ok)
  jest.spyOn(Taro, 'hideLoading').mockImplementation(ok)
  localeStore.setLocale('en')
})
afterEach(() => { cleanup(); jest.restoreAllMocks(); sessionStore.setUser(null); tokenStorage.clear() })

describe('reading what people type', () => {
  it('a phone as people write it is the 11 digits; anything else is refused, never trimmed into another number', () => {
    expect(normalizePhone('+86 138 0000 0000')).toBe('13800000000')
    expect(normalizePhone('0086-138-0000-0000')).toBe('13800000000')
    expect(normalizePhone('138 0000 0000')).toBe('13800000000')
    expect(normalizePhone('(+86) 13800000000')).toBe('13800000000')
    expect(normalizePhone('86138000000')).toBeNull() // 11 digits that are not a mobile number
    expect(normalizePhone('+1 415 555 0100')).toBeNull()
    expect(normalizePhone('138000000001')).toBeNull()
    expect(normalizePhone('-13800000000')).toBeNull()
    expect(checkPhone('+86 138 0000 0000')).toBeNull()
  })

  it('a whole number refuses a sign or decimals', () => {
    expect(parseWhole('3')).toBe(3)
    expect(parseWhole(' 12 ')).toBe(12)
    expect(parseWhole('-5')).toBeNull()
    expect(parseWhole('+5')).toBeNull()
    expect(parseWhole('2.5')).toBeNull()
    expect(parseWhole('1e3')).toBeNull()
  })
})

describe('the shop settings form', () => {
  const open = async (stored: ShopSettings = DEFAULT_SHOP_SETTINGS) => {
    jest.spyOn(operatorApi, 'settings').mockResolvedValue(stored)
    jest.spyOn(aiApi, 'usage').mockResolvedValue({ day: '2026-03-01', shopUsed: 0, perShop: stored.aiDailyPerShop, perAccount: stored.aiDailyPerAccount, accountMostUsed: 0, accountsAtBudget: 0 })
    const view = render(<SettingsTab />)
    await flush()
    return view
  }
  const input = (c: Element, key: string) => c.querySelector(`.op-setting-${key} input, .op-setting-${key} .editor-input`)!

  it('a smallest withdrawal above the daily maximum is said beside the field, in yuan, and nothing is sent', async () => {
    const save = jest.spyOn(operatorApi, 'saveSettings')
    const { container } = await open()
    await type(input(container, 'withdrawMinCents'), '6000')
    const row = container.querySelector('.op-setting-withdrawMinCents')!
    expect(text(row)).toContain('Cannot be above the daily withdrawal maximum (¥5,000.00): every withdrawal would be refused')
    expect(container.querySelector('.op-settings__save')!.className).toContain('btn--disabled')
    await click(container.querySelector('.op-settings__save')!)
    expect(save).not.toHaveBeenCalled()
    // raising the maximum with it clears it
    await type(input(container, 'withdrawDailyMaxCents'), '6000')
    expect(container.querySelectorAll('.editor-hint--error')).toHaveLength(0)
  })

  it('zh: lowering the maximum under the minimum names the maximum', async () => {
    localeStore.setLocale('zh')
    const { container } = await open({ ...DEFAULT_SHOP_SETTINGS, withdrawMinCents: 20000 })
    await type(input(container, 'withdrawDailyMaxCents'), '100')
    expect(text(container.querySelector('.op-setting-withdrawDailyMaxCents'))).toContain('不能低于最低提现金额（¥200.00）')
  })

  it('a minus sign is refused, not dropped; the range is in yuan', async () => {
    const save = jest.spyOn(operatorApi, 'saveSettings')
    const { container } = await open()
    await type(input(container, 'shipFeeCents'), '-5')
    expect(text(container.querySelector('.op-setting-shipFeeCents'))).toContain('From ¥0.00 to ¥1,000.00')
    await type(input(container, 'shipFreeFromItems'), '-3')
    expect(text(container.querySelector('.op-setting-shipFreeFromItems'))).toContain('From 1 to 50')
    await click(container.querySelector('.op-settings__save')!)
    expect(save).not.toHaveBeenCalled()
  })

  it('a refusal of the server naming a field shows beside it', async () => {
    jest.spyOn(operatorApi, 'saveSettings').mockRejectedValue(new ApiError(400, 'Smallest withdrawal cannot be above the daily withdrawal maximum (¥50.00): every withdrawal would be refused', { field: 'withdrawMinCents' }))
    const { container } = await open()
    await type(input(container, 'withdrawMinCents'), '100')
    await click(container.querySelector('.op-settings__save')!)
    expect(text(container.querySelector('.op-setting-withdrawMinCents'))).toContain('(¥50.00)')
    expect(Taro.showToast).not.toHaveBeenCalledWith(expect.objectContaining({ title: expect.stringContaining('¥50.00') }))
  })
})

describe('the address form', () => {
  const open = async () => {
    jest.spyOn(addressApi, 'list').mockResolvedValue([])
    jest.spyOn(afterDrawApi, 'shippingRule').mockResolvedValue({ freeFromItems: 3, feeCents: 1200 } as never)
    const view = render(<ShipSheet prizeIds={[1]} onClose={() => undefined} onShipped={() => undefined} />)
    await flush()
    return view
  }
  const field = (c: Element, name: string) => c.querySelector(`.ship-${name}`)!

  it('every problem beside its own field, not one at the bottom', async () => {
    const save = jest.spyOn(addressApi, 'save')
    const { container } = await open()
    await type(field(container, 'phone'), '12345')
    await click(container.querySelector('.ship-form__save')!)
    expect(text(container.querySelector('.ship-row-name'))).toContain('Enter the receiver\'s name')
    expect(text(container.querySelector('.ship-row-phone'))).toContain('11-digit')
    expect(container.querySelector('.ship-row-region .ship-form__problem')).not.toBeNull()
    expect(container.querySelector('.ship-row-detail .ship-form__problem')).not.toBeNull()
    expect(save).not.toHaveBeenCalled()
    // typing in a field clears its own problem only
    await type(field(container, 'name'), 'Zhang San')
    expect(container.querySelector('.ship-row-name .ship-form__problem')).toBeNull()
    expect(container.querySelector('.ship-row-detail .ship-form__problem')).not.toBeNull()
  })

  it('"+86 138 0000 0000" is saved as 13800000000; a refusal naming a field shows beside it', async () => {
    const save = jest.spyOn(addressApi, 'save').mockRejectedValue(new ApiError(400, 'Street, building, room must not be blank', { field: 'detail' }))
    const { container } = await open()
    await type(field(container, 'name'), 'Zhang San')
    await type(field(container, 'phone'), '+86 138 0000 0000')
    // the region is picked (components/RegionPicker: WeChat's region picker here, the H5 sheet in the e2e), not typed
    act(() => { container.querySelector('.ship-row-region .region-picker')!.dispatchEvent(new CustomEvent('change', { detail: { value: ['广东省', '深圳市', '福田区'] }, bubbles: true })) })
    await type(field(container, 'detail'), '1 Road')
    await click(container.querySelector('.ship-form__save')!)
    expect(save).toHaveBeenCalledWith(expect.objectContaining({ phone: '13800000000', name: 'Zhang San', region: '广东省 深圳市 福田区' }))
    expect(text(container.querySelector('.ship-row-detail'))).toContain('Street, building, room must not be blank')
  })
})

describe('the security page', () => {
  const overview = (over: Partial<SecurityOverview> = {}): SecurityOverview => ({
    hasPassword: true, phone: '138****0001', email: null, sessions: [],
    limits: { daily: { cents: 50000, spentCents: 0, pending: null }, monthly: { cents: 100000, spentCents: 0, pending: null } },
    age: { birthDate: '1990-05-01', age: 36, minor: false, guardianConsent: false, minorDailyCapCents: null, guardian: null },
    correction: null, ...over
  })
  const open = async (o: SecurityOverview = overview()) => {
    // the page loads on show; outside a Taro page that is once, on mount
    jest.spyOn(TaroModule, 'useDidShow').mockImplementation((fn: () => void) => { useEffect(() => { fn() }, []) })
    Current.router = { path: '/pagesA/security/index', params: {}, onReady: '', onHide: '', onShow: '', shareTimeline: '', shareAppMessage: '' } as never
    tokenStorage.set('shopper-token')
    sessionStore.setUser({ id: 5, userName: 's', nickname: 'S', phone: null, email: null, avatar: null, role: 'shopper' })
    jest.spyOn(securityApi, 'overview').mockResolvedValue(o)
    const view = render(<SecurityPage />)
    await flush()
    return view
  }

  it('limitProblems: a daily limit above the monthly one, beside the daily one', () => {
    expect(limitProblems('2000', '1000')).toEqual({ daily: 'The daily limit cannot be above the monthly one (¥1,000.00)' })
    expect(limitProblems('2000', '')).toEqual({})
    expect(limitProblems('-5', '100')).toEqual({ daily: 'Enter a plain amount in yuan, or leave it empty for no limit' })
  })

  it('limitProblems: above the most a limit may be (the server\'s maximum), before any confirmation', () => {
    expect(limitProblems('999999999999', '')).toEqual({ daily: 'A limit can be at most ¥1,000,000.00' })
    expect(limitProblems('1000000', '1000000.01')).toEqual({ monthly: 'A limit can be at most ¥1,000,000.00' })
    expect(limitProblems('1000000', '1000000')).toEqual({})
  })

  it('a huge daily limit is refused beside the field, never confirmed as a lowering', async () => {
    const set = jest.spyOn(securityApi, 'setLimits')
    const modal = answerModal(true)
    const { container } = await open()
    await type(container.querySelector('.limit-input-daily')!, '99999999999')
    await click(container.querySelector('.limits-save')!)
    expect(modal).not.toHaveBeenCalled()
    expect(set).not.toHaveBeenCalled()
    expect(text(container.querySelector('.limit-daily'))).toContain('A limit can be at most ¥1,000,000.00')
  })

  it('a daily limit of 0 asks first, saying it applies at once and raising it waits 24 hours; cancelled, nothing is sent', async () => {
    const set = jest.spyOn(securityApi, 'setLimits')
    const modal = answerModal(false)
    const { container } = await open()
    await type(container.querySelector('.limit-input-daily')!, '0')
    await click(container.querySelector('.limits-save')!)
    expect(modal).toHaveBeenCalledWith(expect.objectContaining({ content: expect.stringContaining('Daily limit: ¥0.00, at once. No boxes, prop cards or shipping fees can be paid meanwhile.') }))
    expect(modal).toHaveBeenCalledWith(expect.objectContaining({ content: expect.stringContaining('only after 24 hours') }))
    expect(set).not.toHaveBeenCalled()
  })

  it('confirmed, the lowered limit is sent; a raise needs no confirmation', async () => {
    const set = jest.spyOn(securityApi, 'setLimits').mockResolvedValue(overview().limits)
    const modal = answerModal(true)
    const { container } = await open()
    await type(container.querySelector('.limit-input-daily')!, '0')
    await click(container.querySelector('.limits-save')!)
    expect(set).toHaveBeenCalledWith({ daily: 0, monthly: 100000 })
    modal.mockClear()
    await type(container.querySelector('.limit-input-daily')!, '800')
    await click(container.querySelector('.limits-save')!)
    expect(modal).not.toHaveBeenCalled()
    expect(set).toHaveBeenLastCalledWith({ daily: 80000, monthly: 100000 })
  })

  it('a daily limit above the monthly one is said beside it and not sent', async () => {
    const set = jest.spyOn(securityApi, 'setLimits')
    const { container } = await open()
    await type(container.querySelector('.limit-input-daily')!, '2000')
    expect(text(container.querySelector('.limit-daily'))).toContain('The daily limit cannot be above the monthly one (¥1,000.00)')
    await click(container.querySelector('.limits-save')!)
    expect(set).not.toHaveBeenCalled()
  })

  it('a new password equal to the current one is refused beside it, nothing sent', async () => {
    const change = jest.spyOn(securityApi, 'changePassword')
    const { container } = await open()
    await click(container.querySelector('.security-password-open')!)
    await type(container.querySelector('.pw-current')!, 'same-pass')
    await type(container.querySelector('.pw-next')!, 'same-pass')
    await type(container.querySelector('.pw-again')!, 'same-pass')
    await click(container.querySelector('.password-save')!)
    expect(text(container.querySelector('.security-error-pw-next'))).toBe('The new password must differ from the current one')
    expect(change).not.toHaveBeenCalled()
  })

  it('deleting: a wrong password is said beside it before any confirmation; a right one is confirmed, then deleted', async () => {
    const del = jest.spyOn(securityApi, 'deleteAccount').mockRejectedValueOnce(new ApiError(422, 'The current password is wrong', { field: 'password' }))
    const modal = answerModal(true)
    jest.spyOn(Taro, 'reLaunch').mockImplementation(ok)
    const { container } = await open()
    await type(container.querySelector('.delete-password')!, 'wrong')
    await click(container.querySelector('.delete-account')!)
    expect(del).toHaveBeenCalledWith({ password: 'wrong', check: true })
    expect(modal).not.toHaveBeenCalled()
    expect(text(container.querySelector('.security-error-delete-proof'))).toBe('The current password is wrong')

    del.mockResolvedValue({ ended: 0 })
    await type(container.querySelector('.delete-password')!, 'right')
    await click(container.querySelector('.delete-account')!)
    expect(del.mock.calls.slice(1).map(c => c[0])).toEqual([{ password: 'right', check: true }, { password: 'right' }])
    expect(modal).toHaveBeenCalledTimes(1)
  })

  it('deleting, cancelled at the confirmation: only the check was sent', async () => {
    const del = jest.spyOn(securityApi, 'deleteAccount').mockResolvedValue({ ended: 0 })
    answerModal(false)
    const { container } = await open()
    await type(container.querySelector('.delete-password')!, 'right')
    await click(container.querySelector('.delete-account')!)
    expect(del.mock.calls.map(c => c[0])).toEqual([{ password: 'right', check: true }])
  })
})

describe('the series editor', () => {
  const openNew = async () => {
    jest.spyOn(editorApi, 'list').mockResolvedValue({ list: [], total: 0, counts: { draft: 0, on_sale: 0, retired: 0 } } as never)
    const view = render(<SeriesTab />)
    await flush()
    await click(view.container.querySelector('.series-new')!)
    return view
  }

  it('Back on an unsaved new series asks first; kept editing, the form stays', async () => {
    const modal = answerModal(false)
    const { container } = await openNew()
    await type(container.querySelector('.series-title-zh')!, '新系列')
    await click(container.querySelector('.series-back')!)
    expect(modal).toHaveBeenCalledWith(expect.objectContaining({ content: expect.stringContaining('the design images uploaded') }))
    expect(container.querySelector('.series-editor')).not.toBeNull()
    modal.mockResolvedValue({ confirm: true, cancel: false, errMsg: 'ok' } as never)
    await click(container.querySelector('.series-back')!)
    expect(container.querySelector('.series-editor')).toBeNull()
  })

  it('Back with nothing typed leaves without asking', async () => {
    const modal = answerModal(false)
    const { container } = await openNew()
    await click(container.querySelector('.series-back')!)
    expect(modal).not.toHaveBeenCalled()
    expect(container.querySelector('.series-editor')).toBeNull()
  })
})
