/**
 * The web view shows only the shop's pages (issue 48 item 4): the host rules of types/webHosts.ts
 * (exact hosts: no suffix, prefix, userinfo, port, trailing-dot or look-alike tricks), the page (a
 * listed page framed under its host, the link's title only beside it; any other page refused with a
 * warning and its title never shown), and jump in the mini-program (refused before the page opens).
 */
import { render, act, cleanup } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { Current } from '@tarojs/runtime'
import { localeStore } from '@/stores/locale'
import { capabilitiesStore } from '@/stores/capabilities'
import { setWebDomains } from '@/stores/webDomains'
import { jump } from '@/utils/navigation'
import WebViewPage from '@/pages/web_view/index'
import { webDomainOf, webPageAllowed, webTarget } from '~types/webHosts'

const ok = () => Promise.resolve({ errMsg: 'ok' }) as never
const DOMAINS = ['shop.example.com', 'pay.example.com:8443']

describe('types/webHosts: exact hosts', () => {
  it('allows https pages of a listed host, in any case, with the default port written or not', () => {
    for (const url of ['https://shop.example.com', 'https://shop.example.com/', 'https://SHOP.Example.com/a?b=1#c', 'https://shop.example.com:443/x', 'https://shop.example.com:0443/x', 'https://pay.example.com:8443/pay']) {
      expect([url, webPageAllowed(url, DOMAINS)]).toEqual([url, true])
    }
    expect(webTarget('https://Pay.example.com:8443/')).toEqual({ scheme: 'https', host: 'pay.example.com:8443' })
  })

  it('refuses every near miss', () => {
    for (const url of [
      'https://evil-shop.example.com/', 'https://shop.example.com.evil.example/', 'https://example.com/', 'https://www.shop.example.com/',
      'https://shop.example.com@evil.example/', 'https://evil.example@shop.example.com/', 'https://user:pw@shop.example.com/',
      'http://shop.example.com/', 'https://shop.example.com:8443/', 'https://pay.example.com/', 'https://shop.example.com./',
      'https://shop.example.com\\@evil.example/', 'https://shop.example.com%2eevil.example/', 'https://ѕhop.example.com/',
      'https://xn--shop-example-com.evil.example/', 'https:/shop.example.com/', 'https:shop.example.com', '//shop.example.com/',
      ' https://shop.example.com/', 'https://shop.example.com /', 'javascript:alert(1)//https://shop.example.com/', 'data:text/html,x',
      'https://shop.example.com:99999/', 'https://[::1]/'
    ]) {
      expect([url, webPageAllowed(url, DOMAINS)]).toEqual([url, false])
    }
  })

  it('the shop\'s own origin is allowed with its scheme and port, nothing more', () => {
    expect(webPageAllowed('http://127.0.0.1:10086/pagesA/home/index', [], 'http://127.0.0.1:10086')).toBe(true)
    expect(webPageAllowed('http://127.0.0.1:10087/', [], 'http://127.0.0.1:10086')).toBe(false)
    expect(webPageAllowed('https://127.0.0.1:10086/', [], 'http://127.0.0.1:10086')).toBe(false)
  })

  it('operator entries are normalised the same way (Unicode names are converted by the server)', () => {
    expect(webDomainOf(' https://Shop.example.com/ ')).toBe('shop.example.com')
    expect(webDomainOf('shop.example.com:443')).toBe('shop.example.com')
    for (const bad of ['http://shop.example.com', 'shop.example.com/path', '*.example.com', 'a@b.com', 'shop.example.com.', '商店.中国', '']) {
      expect([bad, webDomainOf(bad)]).toEqual([bad, null])
    }
  })
})

function setRoute (path: string, params: Record<string, string> = {}) {
  Current.router = { path, params, onReady: '', onHide: '', onShow: '', shareTimeline: '', shareAppMessage: '' } as never
}

/** The public settings as the server answers them, with the business domains. */
function settingsAnswer (webDomains: string[]) {
  return jest.spyOn(Taro, 'request').mockImplementation((opts: { url?: string }) => {
    expect(String(opts.url)).toMatch(/\/system\/setting\/login$/)
    return Promise.resolve({
      statusCode: 200, header: {},
      data: { code: 200, message: 'ok', data: { password: true, sms: false, email: false, wechat: false, weapp: false, register: true, capabilities: { maps: false, tracking: false, priceCompare: false, speech: false, ai: false }, webDomains } }
    }) as never
  })
}

describe('the web view page', () => {
  let titles: string[]
  beforeEach(() => {
    capabilitiesStore.clear()
    titles = []
    jest.spyOn(Taro, 'setNavigationBarTitle').mockImplementation(((o: { title: string }) => { titles.push(o.title); return ok() }) as never)
  })
  afterEach(() => { cleanup(); jest.restoreAllMocks(); capabilitiesStore.clear() })

  const open = async (params: Record<string, string>) => {
    setRoute('/pages/web_view/index', params)
    const view = render(<WebViewPage />)
    await act(async () => { await new Promise(r => setTimeout(r, 0)) })
    return view.container
  }

  it('frames a page of a business domain under its host, the link\'s title beside it', async () => {
    localeStore.setLocale('zh')
    const request = settingsAnswer(['shop.example.com'])
    const c = await open({ url: encodeURIComponent('https://shop.example.com/guide'), title: encodeURIComponent('活动说明') })
    expect(request).toHaveBeenCalledTimes(1)
    const frame = c.querySelector('iframe, taro-web-view-core')
    expect(frame?.getAttribute('src')).toBe('https://shop.example.com/guide')
    expect(c.querySelector('.web-view-host')?.textContent).toContain('shop.example.com')
    expect(titles[titles.length - 1]).toBe('活动说明 · shop.example.com')
  })

  it('refuses any other page, in the shopper\'s language, and never shows the link\'s title', async () => {
    settingsAnswer(['shop.example.com'])
    for (const [locale, words] of [['zh', '这个网页不属于本店'], ['en', 'not one of the shop\'s']] as const) {
      localeStore.setLocale(locale)
      for (const url of ['https://evil-shop.example.com/login', 'https://shop.example.com@evil.example/', 'http://shop.example.com/']) {
        titles = []
        const c = await open({ url: encodeURIComponent(url), title: encodeURIComponent('Your bank: sign in') })
        expect(c.querySelector('iframe, taro-web-view-core')).toBeNull()
        expect(c.textContent).toContain(words)
        expect(c.textContent).not.toContain('bank')
        expect(titles.join('|')).not.toMatch(/bank|evil/)
        cleanup()
      }
    }
  })

  it('the shop\'s own origin opens without being listed; a failed settings call leaves only that', async () => {
    localeStore.setLocale('en')
    jest.spyOn(Taro, 'request').mockImplementation(() => Promise.reject(new Error('offline')) as never)
    const own = await open({ url: encodeURIComponent(`${location.origin}/help.html`) })
    expect(own.querySelector('iframe, taro-web-view-core')?.getAttribute('src')).toBe(`${location.origin}/help.html`)
    cleanup()
    const other = await open({ url: encodeURIComponent('https://shop.example.com/') })
    expect(other.querySelector('iframe, taro-web-view-core')).toBeNull()
  })
})

describe('jump in the mini-program', () => {
  const env = process.env.TARO_ENV
  afterEach(() => { process.env.TARO_ENV = env; setWebDomains(null); jest.restoreAllMocks() })

  it('opens a listed page through the web view and refuses any other with a message', async () => {
    process.env.TARO_ENV = 'weapp'
    localeStore.setLocale('en')
    const nav = jest.spyOn(Taro, 'navigateTo').mockImplementation(ok)
    const toast = jest.spyOn(Taro, 'showToast').mockImplementation(ok)
    setWebDomains(['shop.example.com'])
    expect(await jump('https://shop.example.com/a')).toBe('navigated')
    expect(nav).toHaveBeenCalledWith({ url: '/pages/web_view/index?url=https%3A%2F%2Fshop.example.com%2Fa' })
    nav.mockClear()
    expect(await jump('https://evil-shop.example.com/a')).toBe('not-shop-page')
    expect(nav).not.toHaveBeenCalled()
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'This page is not one of the shop\'s and cannot be opened here' }))
  })
})
