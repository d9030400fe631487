/**
 * The Settings tab (issue 48): the business domains (one host per line, checked as typed by the rule the
 * server applies, a refusal shown beside the list, the app's copy refreshed after a save), and the
 * services panel saying "development only: printed in the log" for SMS and mail that only go there.
 */
import { render, fireEvent, act, cleanup } from '@testing-library/react'
import Taro from '@tarojs/taro'
import type { LoginSettings } from '~types/accounts'
import { DEFAULT_SHOP_SETTINGS } from '~types/limits'
import { localeStore } from '@/stores/locale'
import { capabilitiesStore } from '@/stores/capabilities'
import { operatorApi } from '@/services/afterDraw'
import { webDomainsApi } from '@/services/webDomains'
import { visionApi } from '@/services/vision'
import { ApiError } from '@/services/errors'
import SettingsTab from '@/pagesA/editor/SettingsTab'

const ok = () => Promise.resolve({ errMsg: 'ok' }) as never
const flush = () => act(async () => { for (let i = 0; i < 6; i++) await new Promise(r => setTimeout(r, 0)) })
const type = (el: Element, value: string) => act(() => { el.dispatchEvent(new CustomEvent('input', { detail: { value }, bubbles: true })) })
const settings = (over: Partial<LoginSettings> = {}): LoginSettings => ({
  password: true, sms: true, email: true, wechat: false, weapp: false, register: true,
  capabilities: { maps: false, tracking: false, priceCompare: false, speech: false, ai: false }, webDomains: [], ...over
})

beforeEach(() => {
  jest.spyOn(Taro, 'showToast').mockImplementation(ok)
  jest.spyOn(Taro, 'showLoading').mockImplementation(ok)
  jest.spyOn(Taro, 'hideLoading').mockImplementation(ok)
  jest.spyOn(operatorApi, 'settings').mockResolvedValue(DEFAULT_SHOP_SETTINGS)
  jest.spyOn(visionApi, 'helpers').mockResolvedValue({} as never)
})
afterEach(() => { cleanup(); jest.restoreAllMocks() })

async function open (known: LoginSettings, domains: string[] = []) {
  jest.spyOn(capabilitiesStore, 'refresh').mockResolvedValue(known)
  jest.spyOn(webDomainsApi, 'list').mockResolvedValue({ domains })
  const view = render(<SettingsTab />)
  await flush()
  return view.container
}

describe('services panel', () => {
  it('SMS and mail that only go to the development log say so, in zh and en; real ones say on', async () => {
    for (const [locale, words] of [['zh', '仅开发环境'], ['en', 'Development only: printed in the server\'s log']] as const) {
      localeStore.setLocale(locale)
      const c = await open(settings({ devLogOnly: ['sms', 'email'] }))
      for (const key of ['sms', 'mail']) {
        expect(c.querySelector(`.op-service-${key} .op-service__state--dev`)?.textContent).toContain(words)
        expect(c.querySelector(`.op-service-${key} .op-service__state--on`)).toBeNull()
      }
      cleanup()
    }
    localeStore.setLocale('en')
    const real = await open(settings({ devLogOnly: ['sms'] }))
    expect(real.querySelector('.op-service-sms .op-service__state--dev')).not.toBeNull()
    expect(real.querySelector('.op-service-mail .op-service__state--on')?.textContent).toBe('On')
  })
})

describe('business domains', () => {
  it('a bad entry is named by its line before anything is sent; a good list is sent and the app\'s copy refreshed', async () => {
    localeStore.setLocale('en')
    const c = await open(settings(), ['shop.example.com'])
    const input = c.querySelector('.op-web-domains__input')!
    expect((input as HTMLElement & { value?: string }).value ?? input.getAttribute('value')).toBe('shop.example.com')
    const save = jest.spyOn(webDomainsApi, 'save').mockResolvedValue({ domains: ['shop.example.com', 'pay.example.com:8443'] })
    const refresh = capabilitiesStore.refresh as jest.Mock

    await type(input, 'shop.example.com\nevil.example/login')
    expect(c.querySelector('.op-web-domains__problem')?.textContent).toContain('Line 2, "evil.example/login", is not a domain')
    expect(c.querySelector('.op-web-domains__input--error')).not.toBeNull()
    await act(async () => { fireEvent.click(c.querySelector('.op-web-domains__save')!) })
    expect(save).not.toHaveBeenCalled()

    await type(input, 'shop.example.com\n\n  pay.example.com:8443  \n')
    expect(c.querySelector('.op-web-domains__problem')).toBeNull()
    refresh.mockClear()
    await act(async () => { fireEvent.click(c.querySelector('.op-web-domains__save')!) })
    await flush()
    expect(save).toHaveBeenCalledWith({ domains: ['shop.example.com', 'pay.example.com:8443'] })
    expect(refresh).toHaveBeenCalled()
  })

  it('the server\'s refusal (a Unicode name it cannot convert) stays beside the list until it is edited', async () => {
    localeStore.setLocale('zh')
    const c = await open(settings())
    expect(c.querySelector('.op-web-domains__none')?.textContent).toContain('还没有业务域名')
    jest.spyOn(webDomainsApi, 'save').mockRejectedValue(new ApiError(400, '业务域名里的“坏.名字/x”不是域名', { field: 'domains.0' }))
    const input = c.querySelector('.op-web-domains__input')!
    await type(input, '商店.中国')
    await act(async () => { fireEvent.click(c.querySelector('.op-web-domains__save')!) })
    await flush()
    expect(c.querySelector('.op-web-domains__problem')?.textContent).toContain('不是域名')
    await type(input, 'shop.example.com')
    expect(c.querySelector('.op-web-domains__problem')).toBeNull()
  })
})
