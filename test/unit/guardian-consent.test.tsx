/**
 * The guardian's consent as the minor sees it (src/components/GuardianConsent, on the purchase and
 * security pages), in Chinese and English, with the typed calls spied on: not asked yet (the number,
 * checked before anything is sent), pending (the code, "send again" after the wait, "change number"),
 * given (who and when), and "cannot be asked now" without configuration words.
 */
import { render, fireEvent, act, cleanup } from '@testing-library/react'
import Taro from '@tarojs/taro'
import type { AgeStatus, GuardianView } from '~types/shop'
import { localeStore } from '@/stores/locale'
import { shopApi } from '@/services/shop'
import { ApiError } from '@/services/errors'
import { formatTime } from '@/utils/format'
import GuardianConsent from '@/components/GuardianConsent'

const text = (c: HTMLElement) => c.textContent || ''
const ok = () => Promise.resolve({ errMsg: 'ok' }) as never
const type = (el: Element, value: string) => fireEvent(el, new CustomEvent('input', { detail: { value } }))
const flush = () => act(async () => { await new Promise(r => setTimeout(r, 0)) })

const view = (over: Partial<GuardianView> = {}): GuardianView => ({
  state: 'none', phone: null, requestedAt: null, consentedAt: null, resendInSeconds: 0, canRequest: true, ...over
})
const status = (guardian: GuardianView): AgeStatus => ({
  verified: true, birthDate: '2012-06-01', age: 14, minor: true, guardianConsent: guardian.state === 'given', dailyCapCents: 10000, guardian
})
const SENT_AT = '2026-11-23T08:00:00.000Z'
const GIVEN_AT = '2026-11-23T08:03:00.000Z'

beforeEach(() => {
  jest.spyOn(Taro, 'showToast').mockImplementation(ok)
  jest.spyOn(Taro, 'showLoading').mockImplementation(ok)
  jest.spyOn(Taro, 'hideLoading').mockImplementation(ok)
})
afterEach(() => { cleanup(); jest.restoreAllMocks(); jest.useRealTimers() })

const toasts = () => (Taro.showToast as jest.Mock).mock.calls.map(c => c[0].title)

describe.each([
  ['zh', {
    intro: '填写监护人的手机号', send: '发送验证码给监护人', badPhone: '请输入正确的手机号',
    pending: `等待监护人同意：验证码已于 ${formatTime(SENT_AT)} 发送到 138****0000`, wait: '60 秒后可重新发送', resend: '重新发送', change: '换一个号码',
    given: `监护人 138****0000 已于 ${formatTime(GIVEN_AT)} 同意`, unavailable: '现在无法向监护人发送验证码。请联系客服，或稍后再试。', codeRequired: '请填写监护人收到的 6 位验证码'
  }],
  ['en', {
    intro: 'enter your guardian\'s phone number', send: 'Send the code to my guardian', badPhone: 'valid phone',
    pending: `Waiting for your guardian: a code went to 138****0000 at ${formatTime(SENT_AT)}`, wait: 'Send again in 60 s', resend: 'Send again', change: 'Change number',
    given: `Consent given by 138****0000 on ${formatTime(GIVEN_AT)}`, unavailable: 'A code cannot be sent to your guardian right now. Please contact customer service, or try again later.', codeRequired: 'Enter the 6-digit code your guardian received'
  }]
] as const)('guardian consent in %s', (locale, words) => {
  beforeEach(() => { localeStore.setLocale(locale) })

  it('not asked yet: the number is checked before anything is sent, then the code goes out', async () => {
    const pending = status(view({ state: 'pending', phone: '138****0000', requestedAt: SENT_AT, resendInSeconds: 60 }))
    const send = jest.spyOn(shopApi, 'guardianCode').mockResolvedValue(pending)
    const onChange = jest.fn()
    const { container } = render(<GuardianConsent guardian={view()} onChange={onChange} />)
    expect(text(container)).toContain(words.intro)
    expect(text(container)).toContain(words.send)
    type(container.querySelector('.guardian-phone')!, '1380000')
    await act(async () => { fireEvent.click(container.querySelector('.guardian-send')!) })
    expect(text(container).toLowerCase()).toContain(words.badPhone.toLowerCase())
    expect(send).not.toHaveBeenCalled()
    type(container.querySelector('.guardian-phone')!, '13800000000')
    await act(async () => { fireEvent.click(container.querySelector('.guardian-send')!) })
    await flush()
    expect(send).toHaveBeenCalledWith({ phone: '13800000000' })
    expect(onChange).toHaveBeenCalledWith(pending)
  })

  it('the server\'s refusal (e.g. the minor\'s own number) is shown as it says it', async () => {
    jest.spyOn(shopApi, 'guardianCode').mockRejectedValue(new ApiError(422, 'Enter your guardian\'s phone number, not the one bound to your own account', { field: 'phone' }))
    const onChange = jest.fn()
    const { container } = render(<GuardianConsent guardian={view()} onChange={onChange} />)
    type(container.querySelector('.guardian-phone')!, '13800000001')
    await act(async () => { fireEvent.click(container.querySelector('.guardian-send')!) })
    await flush()
    expect(toasts()).toContain('Enter your guardian\'s phone number, not the one bound to your own account')
    expect(onChange).not.toHaveBeenCalled()
  })

  it('pending: the code, send again only after the wait, change number', async () => {
    jest.useFakeTimers()
    const g = view({ state: 'pending', phone: '138****0000', requestedAt: SENT_AT, resendInSeconds: 60 })
    const send = jest.spyOn(shopApi, 'guardianCode').mockResolvedValue(status(g))
    const confirm = jest.spyOn(shopApi, 'guardianConfirm').mockResolvedValue(status(view({ state: 'given', phone: '138****0000', requestedAt: SENT_AT, consentedAt: GIVEN_AT })))
    const onChange = jest.fn()
    const { container } = render(<GuardianConsent guardian={g} onChange={onChange} />)
    expect(text(container)).toContain(words.pending)
    expect(text(container)).toContain(words.wait)
    // not yet: nothing is sent
    await act(async () => { fireEvent.click(container.querySelector('.guardian-resend')!) })
    expect(send).not.toHaveBeenCalled()
    act(() => { jest.advanceTimersByTime(60_000) })
    expect(container.querySelector('.guardian-resend')!.textContent).toBe(words.resend)
    await act(async () => { fireEvent.click(container.querySelector('.guardian-resend')!) })
    expect(send).toHaveBeenCalledWith({})

    // a code of the wrong shape is not sent
    type(container.querySelector('.guardian-code')!, '12')
    await act(async () => { fireEvent.click(container.querySelector('.guardian-confirm')!) })
    expect(confirm).not.toHaveBeenCalled()
    expect(toasts()).toContain(words.codeRequired)
    type(container.querySelector('.guardian-code')!, '123456')
    await act(async () => { fireEvent.click(container.querySelector('.guardian-confirm')!) })
    expect(confirm).toHaveBeenCalledWith({ code: '123456' })

    // change number: the number form again, with a way back
    await act(async () => { fireEvent.click(container.querySelector('.guardian-change')!) })
    expect(text(container)).toContain(words.change === 'Change number' ? 'Send the code to my guardian' : '发送验证码给监护人')
    expect(container.querySelector('.guardian-phone')).not.toBeNull()
    await act(async () => { fireEvent.click(container.querySelector('.guardian-cancel')!) })
    expect(container.querySelector('.guardian-code')).not.toBeNull()
  })

  it('given: who consented and when, and nothing to enter', () => {
    const { container } = render(<GuardianConsent guardian={view({ state: 'given', phone: '138****0000', requestedAt: SENT_AT, consentedAt: GIVEN_AT })} onChange={jest.fn()} />)
    expect(text(container)).toBe(words.given)
    expect(container.querySelector('input, .guardian-phone, .guardian-code')).toBeNull()
  })

  it('the shop cannot send SMS now: said plainly, with no configuration words and no form', () => {
    const { container } = render(<GuardianConsent guardian={view({ canRequest: false })} onChange={jest.fn()} />)
    expect(text(container)).toBe(words.unavailable)
    expect(text(container)).not.toMatch(/configur|配置|SMS_|provider|未配置/i)
    expect(container.querySelector('.guardian-phone, .guardian-send')).toBeNull()
  })
})
