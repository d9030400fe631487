import { render, fireEvent, act, cleanup } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { localeStore } from '@/stores/locale'
import LoginPage from '@/pages/login/index'
import WebViewPage from '@/pages/web_view/index'
import { SUBPACKAGE_PAGES } from '@/constants'

import { Current } from '@tarojs/runtime'

/** What the router would hold for this page (a bare render has no router). */
function setRoute (path: string, params: Record<string, string> = {}) {
  Current.router = { path, params, onReady: '', onHide: '', onShow: '', shareTimeline: '', shareAppMessage: '' } as never
}

const ok = () => Promise.resolve({ errMsg: 'ok' }) as never
/** What a Taro Input hands its onInput: an event whose detail carries the value. */
const typeInto = (c: HTMLElement, selector: string, value: string) => act(() => {
  c.querySelector(selector)!.dispatchEvent(new CustomEvent('input', { detail: { value }, bubbles: true }))
})
const text = (c: HTMLElement) => c.textContent || ''

beforeEach(() => {
  setRoute('/pages/login/index')
  jest.spyOn(Taro, 'showToast').mockImplementation(ok)
  jest.spyOn(Taro, 'setNavigationBarTitle').mockImplementation(ok)
})
afterEach(() => { cleanup(); jest.restoreAllMocks() })

describe('login page', () => {
  it('renders the password form with its tabs and agreement in Chinese', () => {
    localeStore.setLocale('zh')
    const { container } = render(<LoginPage />)
    expect(text(container)).toContain('密码登录')
    expect(text(container)).toContain('短信登录')
    expect(text(container)).toContain('邮箱登录')
    expect(text(container)).toContain('《服务协议》')
    expect(container.querySelector('.input-account')).not.toBeNull()
    expect(container.querySelector('.input-password')).not.toBeNull()
  })

  it('submitting an empty form names what is missing in the user\'s words and sends nothing', async () => {
    localeStore.setLocale('zh')
    const { container } = render(<LoginPage />)
    await act(async () => { await Promise.resolve() })
    const request = jest.spyOn(Taro, 'request')
    await act(async () => { fireEvent.click(container.querySelector('.login-submit')!) })
    // the server's own texts ("必须提供 user_name、phone 或 email 之一") stay as the spec says; a person sees these first
    expect(text(container)).toContain('请输入用户名、手机号或邮箱')
    expect(text(container)).toContain('请输入密码')
    expect(text(container)).not.toMatch(/user_name|必须提供/)
    expect(text(container)).toContain('请先阅读并同意服务协议和隐私政策')
    // said under the fields only: a toast repeating it would cover them
    expect(Taro.showToast).not.toHaveBeenCalled()
    expect(request).not.toHaveBeenCalled()
    act(() => { localeStore.setLocale('en') })
    expect(text(container)).toContain('Enter your user name, phone number or e-mail')
  })

  it('follows the server\'s login settings: tabs of methods that are off are hidden, and sign-up too', async () => {
    localeStore.setLocale('en')
    jest.spyOn(Taro, 'request').mockImplementation((opts: { url?: string }) => {
      expect(opts.url).toMatch(/\/system\/setting\/login$/)
      return Promise.resolve({ statusCode: 200, header: {}, data: { code: 200, message: 'ok', data: { password: true, sms: false, email: true, wechat: false, weapp: false, register: false } } }) as never
    })
    const { container } = render(<LoginPage />)
    await act(async () => { await new Promise(r => setTimeout(r, 0)) })
    expect(container.querySelector('.tab-password')).not.toBeNull()
    expect(container.querySelector('.tab-sms')).toBeNull()
    expect(container.querySelector('.tab-email')).not.toBeNull()
    expect(container.querySelector('.login-switch')).toBeNull()
  })

  it('the SMS and e-mail code waits are separate, and sign-up has its own title and failure message', async () => {
    localeStore.setLocale('en')
    jest.useFakeTimers()
    try {
      jest.spyOn(Taro, 'request').mockImplementation((opts: { url?: string }) => {
        const url = String(opts.url)
        if (/setting\/login/.test(url)) return Promise.resolve({ statusCode: 200, header: {}, data: { code: 200, message: 'ok', data: { password: true, sms: true, email: true, wechat: false, weapp: false, register: true } } }) as never
        if (/sms\/code|mail\/sendCode/.test(url)) return Promise.resolve({ statusCode: 200, header: {}, data: { code: 200, message: 'ok', data: null } }) as never
        return Promise.resolve({ statusCode: 200, header: {}, data: { code: 409, message: 'That user name is taken', data: null } }) as never
      })
      const { container } = render(<LoginPage />)
      await act(async () => { fireEvent.click(container.querySelector('.tab-sms')!) })
      typeInto(container, '.input-phone', '13912345678')
      await act(async () => { fireEvent.click(container.querySelector('.login-code-btn')!) })
      expect(container.querySelector('.login-code-btn')!.textContent).toMatch(/Resend in \d+ s/)
      await act(async () => { fireEvent.click(container.querySelector('.tab-email')!) })
      expect(container.querySelector('.login-code-btn')!.textContent).toBe('Get code')
      await act(async () => { fireEvent.click(container.querySelector('.tab-sms')!) })
      expect(container.querySelector('.login-code-btn')!.textContent).toMatch(/Resend in \d+ s/)

      await act(async () => { fireEvent.click(container.querySelector('.login-switch')!) })
      expect(Taro.setNavigationBarTitle).toHaveBeenLastCalledWith({ title: 'Sign up' })
      typeInto(container, '.input-account', 'taken_name')
      typeInto(container, '.input-password', 'secret1')
      fireEvent.click(container.querySelector('.login-check')!)
      await act(async () => { fireEvent.click(container.querySelector('.login-submit')!) })
      await act(async () => { await Promise.resolve() })
      expect(Taro.showToast).toHaveBeenLastCalledWith(expect.objectContaining({ title: expect.stringMatching(/^Sign-up failed: /) }))
      await act(async () => { fireEvent.click(container.querySelector('.login-switch')!) })
      expect(Taro.setNavigationBarTitle).toHaveBeenLastCalledWith({ title: 'Log in' })
    } finally {
      jest.useRealTimers()
    }
  })

  it('the SMS tab asks for phone and code; the language switch re-renders in English', async () => {
    localeStore.setLocale('zh')
    const { container } = render(<LoginPage />)
    await act(async () => { fireEvent.click(container.querySelector('.tab-sms')!) })
    expect(container.querySelector('.input-phone')).not.toBeNull()
    expect(container.querySelector('.input-code')).not.toBeNull()
    expect(container.querySelector('.input-password')).toBeNull()
    await act(async () => { fireEvent.click(container.querySelector('.lang-switch')!) })
    expect(text(container)).toContain('SMS code')
    expect(text(container)).toContain('Get code')
    await act(async () => { fireEvent.click(container.querySelector('.login-code-btn')!) })
    expect(text(container)).toContain('Please enter a valid phone number')
  })

  it('register mode offers user name, phone or e-mail', async () => {
    localeStore.setLocale('en')
    const { container } = render(<LoginPage />)
    await act(async () => { fireEvent.click(container.querySelector('.login-switch')!) })
    expect(text(container)).toContain('Create an account')
    await act(async () => { fireEvent.click(container.querySelector('.register-by-email')!) })
    expect(container.querySelector('.input-email')).not.toBeNull()
    expect(container.querySelector('.input-code')).not.toBeNull()
  })
})

describe('every page renders real text in both languages', () => {
  const pages: [string, () => Promise<{ default: React.ComponentType }>][] = [
    ['pages/login', () => import('@/pages/login/index')],
    ['pages/web_view', () => import('@/pages/web_view/index')],
    ...SUBPACKAGE_PAGES.map(p => [`pagesA/${p}`, () => import(`@/pagesA/${p}/index`)] as [string, () => Promise<{ default: React.ComponentType }>])
  ]
  it.each(['zh', 'en'] as const)('%s', async (locale) => {
    localeStore.setLocale(locale)
    expect(pages).toHaveLength(16)
    for (const [name, load] of pages) {
      setRoute(`/${name}/index`)
      const { default: Page } = await load()
      const { container, unmount } = render(<Page />)
      const shown = text(container)
      expect(shown.length).toBeGreaterThan(0)
      // no raw dictionary keys such as "login.submit" on screen
      expect({ name, raw: shown.match(/\b[a-z]+\.[a-z][A-Za-z]+\b/g) }).toEqual({ name, raw: null })
      // in English only the language switch names Chinese in its own script
      if (locale === 'en') expect({ name, cjk: /[\u4e00-\u9fff]/.test(shown.replace(/中文/g, '')) }).toEqual({ name, cjk: false })
      unmount()
    }
  })
})

it('the web view renders an agreement from the dictionary', () => {
  localeStore.setLocale('en')
  setRoute('/pages/web_view/index', { doc: 'privacy' })
  const { container } = render(<WebViewPage />)
  expect(text(container)).toContain('Privacy Policy')
})
