/**
 * H5 login through WeChat web OAuth (src/pages/login/wechatOAuth.ts and the login page): the button shows
 * only when the shop has it configured; a tap (after agreeing) asks the server for the authorize URL
 * and goes there with the state kept; back on the page, a matching state logs in (POST /login/wechat,
 * or GET /login/openid for the silent scope), a foreign or stale state is refused without a call, no
 * code means the user refused; and inside WeChat's browser a returning WeChat user logs in silently.
 */
import { render, fireEvent, act, cleanup } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { Current } from '@tarojs/runtime'
import type { LoginSettings } from '~types/accounts'
import { localeStore } from '@/stores/locale'
import { sessionStore } from '@/stores/session'
import { tokenStorage } from '@/services/token'
import { browser } from '@/utils/browser'
import LoginPage from '@/pages/login/index'
import { registerKinds } from '@/pages/login/modes'
import { WECHAT_OAUTH_KEY, WECHAT_OAUTH_TTL_MS, readOAuthReturn } from '@/pages/login/wechatOAuth'
import { WECHAT_RETURNING_KEY, forgetSilentLogin, inWeChatBrowser } from '@/utils/wechatBrowser'

const ok = () => Promise.resolve({ errMsg: 'ok' }) as never
const text = (c: HTMLElement) => c.textContent || ''
const SETTINGS: LoginSettings = { password: true, sms: true, email: true, wechat: true, weapp: false, register: true, capabilities: { maps: false, tracking: false, priceCompare: false, speech: false, ai: false } }
const USER = { id: 7, userName: null, nickname: '微信小明', phone: null, email: null, avatar: null, role: 'shopper' as const }

function setRoute (params: Record<string, string> = {}) {
  Current.router = { path: '/pages/login/index', params, onReady: '', onHide: '', onShow: '', shareTimeline: '', shareAppMessage: '' } as never
}

interface Call { method: string; url: string; data: unknown }
/**
 * The server, as the page's requests see it: login settings, the authorize URL, the logins. (Taro.request
 * is replaced, so the client's interceptors do not run: it gets the client's own options, paths without
 * the API base and a GET's query in `data`; the recorded url has it as a query string.)
 */
function fakeServer (settings: LoginSettings = SETTINGS) {
  const calls: Call[] = []
  jest.spyOn(Taro, 'request').mockImplementation(((params: { url: string; __opts?: { method?: string; data?: Record<string, string> } }) => {
    const opts = { ...params, ...params.__opts }
    const method = opts.method ?? 'GET'
    const url = new URL(opts.url, 'http://localhost')
    if (method === 'GET') for (const [k, v] of Object.entries(opts.data ?? {})) url.searchParams.set(k, v)
    calls.push({ method, url: url.pathname + url.search, data: method === 'GET' ? undefined : opts.data })
    const answer = (data: unknown, code = 200, message = 'ok') => Promise.resolve({ statusCode: 200, header: {}, data: { code, message, data } })
    if (url.pathname.endsWith('/system/setting/login')) return answer(settings)
    if (url.pathname.endsWith('/login/wechat') && method === 'GET') return answer({ url: 'https://wx.example/connect/oauth2/authorize?state=s1#wechat_redirect', state: 's1' })
    if (url.pathname.endsWith('/login/wechat')) return answer({ token: 'tok-web', user: USER })
    if (url.pathname.endsWith('/login/openid')) return answer({ token: 'tok-silent', user: USER })
    return answer(null, 404, 'no such API')
  }) as never)
  return calls
}
const settle = () => act(async () => { for (let i = 0; i < 5; i++) await new Promise(r => setTimeout(r, 0)) })
const keep = (attempt: unknown) => Taro.setStorageSync(WECHAT_OAUTH_KEY, JSON.stringify(attempt))

beforeEach(() => {
  setRoute()
  localeStore.setLocale('en')
  jest.spyOn(Taro, 'showToast').mockImplementation(ok)
  jest.spyOn(Taro, 'setNavigationBarTitle').mockImplementation(ok)
  jest.spyOn(Taro, 'reLaunch').mockImplementation(ok)
})
afterEach(() => {
  cleanup()
  jest.restoreAllMocks()
  sessionStore.clear()
  Taro.removeStorageSync(WECHAT_OAUTH_KEY)
  forgetSilentLogin()
})

describe('the state check (readOAuthReturn)', () => {
  const now = 1_800_000_000_000
  it('no code and no state: nothing to do', () => {
    expect(readOAuthReturn({}, now)).toEqual({ kind: 'none' })
  })
  it('the kept state and a code: the login may go on, with the scope that was asked for; the attempt is used up', () => {
    keep({ state: 'abc', scope: 'snsapi_base', at: now - 1000 })
    expect(readOAuthReturn({ code: 'C1', state: 'abc' }, now)).toEqual({ kind: 'code', code: 'C1', scope: 'snsapi_base' })
    expect(readOAuthReturn({ code: 'C1', state: 'abc' }, now)).toEqual({ kind: 'mismatch' })
  })
  it('a state that is not the kept one, nothing kept, a stale attempt or a malformed one: refused', () => {
    keep({ state: 'abc', scope: 'snsapi_userinfo', at: now })
    expect(readOAuthReturn({ code: 'C1', state: 'abd' }, now)).toEqual({ kind: 'mismatch' })
    expect(readOAuthReturn({ code: 'C1', state: 'abc' }, now)).toEqual({ kind: 'mismatch' })
    keep({ state: 'abc', scope: 'snsapi_userinfo', at: now - WECHAT_OAUTH_TTL_MS - 1 })
    expect(readOAuthReturn({ code: 'C1', state: 'abc' }, now)).toEqual({ kind: 'mismatch' })
    Taro.setStorageSync(WECHAT_OAUTH_KEY, '{not json')
    expect(readOAuthReturn({ code: 'C1', state: 'abc' }, now)).toEqual({ kind: 'mismatch' })
    keep({ state: 'abc', scope: 'snsapi_userinfo', at: now })
    expect(readOAuthReturn({ code: 'C1' }, now)).toEqual({ kind: 'mismatch' })
  })
  it('the kept state without a code: the user refused', () => {
    keep({ state: 'abc', scope: 'snsapi_userinfo', at: now })
    expect(readOAuthReturn({ state: 'abc' }, now)).toEqual({ kind: 'denied' })
  })
  it('WeChat\'s browser is told by its user agent', () => {
    expect(inWeChatBrowser('Mozilla/5.0 (iPhone) AppleWebKit MicroMessenger/8.0.47 NetType/WIFI')).toBe(true)
    expect(inWeChatBrowser('Mozilla/5.0 (iPhone) Safari/604.1')).toBe(false)
  })
})

describe('the login page', () => {
  it('shows the WeChat button only when the shop offers WeChat login', async () => {
    fakeServer({ ...SETTINGS, wechat: false })
    const off = render(<LoginPage />)
    await settle()
    expect(off.container.querySelector('.login-wechat--web')).toBeNull()
    cleanup()
    jest.restoreAllMocks()
    jest.spyOn(Taro, 'showToast').mockImplementation(ok)
    fakeServer()
    const on = render(<LoginPage />)
    await settle()
    expect(on.container.querySelector('.login-wechat--web')!.textContent).toBe('Log in with WeChat')
  })

  it('a tap asks for agreement first, then for the authorize URL (this page as the redirect) and goes there, keeping the state', async () => {
    const calls = fakeServer()
    const assign = jest.spyOn(browser, 'assign').mockImplementation(() => undefined)
    const { container } = render(<LoginPage />)
    await settle()
    await act(async () => { fireEvent.click(container.querySelector('.login-wechat--web')!) })
    expect(text(container)).toContain('Please read and agree to the Terms of Service and the Privacy Policy first')
    expect(assign).not.toHaveBeenCalled()
    fireEvent.click(container.querySelector('.login-check')!)
    await act(async () => { fireEvent.click(container.querySelector('.login-wechat--web')!) })
    await settle()
    const asked = calls.find(c => c.url.startsWith('/login/wechat'))!
    expect(asked.method).toBe('GET')
    expect(Object.fromEntries(new URL(asked.url, 'http://x').searchParams)).toEqual({ redirect_uri: 'http://localhost/', scope: 'snsapi_userinfo' })
    expect(assign).toHaveBeenCalledWith('https://wx.example/connect/oauth2/authorize?state=s1#wechat_redirect')
    expect(JSON.parse(Taro.getStorageSync(WECHAT_OAUTH_KEY))).toMatchObject({ state: 's1', scope: 'snsapi_userinfo' })
  })

  it('back from WeChat with the kept state: POST /login/wechat with the code, logged in, on to home', async () => {
    keep({ state: 's1', scope: 'snsapi_userinfo', at: Date.now() })
    setRoute({ code: 'CODE123', state: 's1' })
    const calls = fakeServer()
    render(<LoginPage />)
    await settle()
    expect(calls.filter(c => c.url.startsWith('/login/'))).toEqual([{ method: 'POST', url: '/login/wechat', data: { code: 'CODE123' } }])
    expect(tokenStorage.get()).toBe('tok-web')
    expect(sessionStore.user).toMatchObject({ nickname: '微信小明' })
    expect(Taro.reLaunch).toHaveBeenCalledWith({ url: '/pagesA/home/index' })
    expect(Taro.getStorageSync(WECHAT_RETURNING_KEY)).toBe('1')
  })

  it('a code with a state this page did not keep: refused, in both languages, and the server is not asked', async () => {
    keep({ state: 's1', scope: 'snsapi_userinfo', at: Date.now() })
    setRoute({ code: 'STOLEN', state: 'forged' })
    const calls = fakeServer()
    render(<LoginPage />)
    await settle()
    expect(calls.filter(c => c.url.startsWith('/login/'))).toEqual([])
    expect(tokenStorage.get()).toBe('')
    expect(Taro.showToast).toHaveBeenCalledWith(expect.objectContaining({ title: expect.stringMatching(/^Login failed: the WeChat authorisation expired or did not start on this page/) }))
    cleanup()
    localeStore.setLocale('zh')
    keep({ state: 's1', scope: 'snsapi_userinfo', at: Date.now() })
    render(<LoginPage />)
    await settle()
    expect(Taro.showToast).toHaveBeenLastCalledWith(expect.objectContaining({ title: expect.stringMatching(/^登录失败：微信授权已过期/) }))
  })

  it('back without a code: the user refused (the spec\'s text)', async () => {
    keep({ state: 's1', scope: 'snsapi_userinfo', at: Date.now() })
    setRoute({ state: 's1' })
    const calls = fakeServer()
    render(<LoginPage />)
    await settle()
    expect(calls.filter(c => c.url.startsWith('/login/'))).toEqual([])
    expect(Taro.showToast).toHaveBeenCalledWith(expect.objectContaining({ title: 'You have denied authorization' }))
  })

  it('inside WeChat, a returning WeChat user is logged in silently (snsapi_base, then GET /login/openid); after a logout not', async () => {
    const ua = jest.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 MicroMessenger/8.0.47')
    Taro.setStorageSync(WECHAT_RETURNING_KEY, '1')
    let calls = fakeServer()
    const assign = jest.spyOn(browser, 'assign').mockImplementation(() => undefined)
    render(<LoginPage />)
    await settle()
    const asked = calls.find(c => c.url.startsWith('/login/wechat'))!
    expect(new URL(asked.url, 'http://x').searchParams.get('scope')).toBe('snsapi_base')
    expect(assign).toHaveBeenCalledTimes(1)
    // WeChat sends the browser back: the silent scope logs in by openid
    cleanup()
    setRoute({ code: 'BASE1', state: 's1' })
    calls = fakeServer()
    render(<LoginPage />)
    await settle()
    expect(calls.filter(c => c.url.startsWith('/login/'))).toEqual([{ method: 'GET', url: '/login/openid?code=BASE1', data: undefined }])
    expect(tokenStorage.get()).toBe('tok-silent')
    // logged out on purpose: the next visit waits for a tap
    await act(async () => { await sessionStore.logout() })
    cleanup()
    setRoute()
    calls = fakeServer()
    assign.mockClear()
    render(<LoginPage />)
    await settle()
    expect(assign).not.toHaveBeenCalled()
    expect(calls.some(c => c.url.startsWith('/login/wechat'))).toBe(false)
    ua.mockRestore()
  })

  it('sign-up by phone needs SMS and by e-mail needs mail: without them only the user name is offered', async () => {
    fakeServer({ ...SETTINGS, sms: false, email: false })
    const { container } = render(<LoginPage />)
    await settle()
    await act(async () => { fireEvent.click(container.querySelector('.login-switch')!) })
    expect(container.querySelector('.register-by-phone')).toBeNull()
    expect(container.querySelector('.register-by-email')).toBeNull()
    expect(container.querySelector('.input-account')).not.toBeNull()
    expect(container.querySelector('.input-code')).toBeNull()
    expect(registerKinds({ ...SETTINGS, sms: true, email: false })).toEqual(['user_name', 'phone'])
    expect(registerKinds(null)).toEqual(['user_name', 'phone', 'email'])
  })

  it('outside WeChat nobody is logged in without a tap', async () => {
    Taro.setStorageSync(WECHAT_RETURNING_KEY, '1')
    const calls = fakeServer()
    const assign = jest.spyOn(browser, 'assign').mockImplementation(() => undefined)
    render(<LoginPage />)
    await settle()
    expect(assign).not.toHaveBeenCalled()
    expect(calls.map(c => c.url)).toEqual(['/system/setting/login'])
  })
})
