import Taro from '@tarojs/taro'
import {
  buildQuery, jump, pageTitle, reloadPage, rewriteLink, shareMessage, shareTimeline, titleKeyOf, goBack
} from '@/utils/navigation'
import { browser } from '@/utils/browser'
import { localeStore } from '@/stores/locale'
import { SUBPACKAGE_PAGES } from '@/constants'

const ok = () => Promise.resolve({ errMsg: 'ok' }) as never

describe('titles (spec 2)', () => {
  afterEach(() => localeStore.setLocale('zh'))

  it('take the second path segment', () => {
    expect(titleKeyOf('/pagesA/home/index?x=1')).toBe('home')
    expect(titleKeyOf('pages/login/index')).toBe('login')
    expect(titleKeyOf('/')).toBe('')
  })

  it('are looked up by the second path segment in shopper words (issue 48), with an English title for every page', () => {
    localeStore.setLocale('zh')
    expect(pageTitle('/pagesA/editor/index')).toBe('店铺管理')
    expect(pageTitle('/pagesA/open_chest_animation/index')).toBe('开箱中')
    expect(pageTitle('/pages/login/index')).toBe('登录')
    expect(pageTitle('/pagesA/recharge/index')).toBe('充值与提现')
    expect(pageTitle('/pagesA/combine/index')).toBe('合成奖品')
    // no title reads like a description of a route ("登录页", "开箱动画", "合成界面")
    for (const p of [...SUBPACKAGE_PAGES, 'login', 'web_view']) expect([p, pageTitle(`/pagesA/${p}/index`)]).not.toEqual([p, expect.stringMatching(/(?<![首网])页$|界面|动画|编辑器/)])
    localeStore.setLocale('en')
    for (const p of SUBPACKAGE_PAGES) expect([p, pageTitle(`/pagesA/${p}/index`)]).not.toEqual([p, expect.stringMatching(/page$|screen|animation|editor/i)])
    for (const p of SUBPACKAGE_PAGES) expect(pageTitle(`/pagesA/${p}/index`)).toMatch(/^[A-Z]/)
    expect(pageTitle('/pagesA/nothing/index')).toBe('')
  })
})

describe('rewriteLink (spec 2)', () => {
  it.each([
    ['/pages/home/index', '/pagesA/home/index'],
    ['pages/home/index', 'pagesA/home/index'],
    ['/pages/prize_show/index?id=3', '/pagesA/prize_show/index?id=3'],
    ['/pages/home/index/index', '/pagesA/home/index'],
    ['/pagesA/home/index/index/index?x=1', '/pagesA/home/index?x=1'],
    ['/pages/login/index', '/pages/login/index'],
    ['/pages/login/index/index?from=share', '/pages/login/index?from=share'],
    ['/pages/web_view/index?url=https%3A%2F%2Fa.b', '/pages/web_view/index?url=https%3A%2F%2Fa.b'],
    ['/pagesA/home/index', '/pagesA/home/index']
  ])('%s -> %s', (from, to) => {
    expect(rewriteLink(from)).toBe(to)
  })
})

describe('jump', () => {
  let toast: jest.SpyInstance, modal: jest.SpyInstance, nav: jest.SpyInstance, redirect: jest.SpyInstance, assign: jest.SpyInstance
  beforeEach(() => {
    localeStore.setLocale('zh')
    toast = jest.spyOn(Taro, 'showToast').mockImplementation(ok)
    modal = jest.spyOn(Taro, 'showModal').mockImplementation(() => Promise.resolve({ confirm: true, cancel: false, errMsg: 'ok' }) as never)
    nav = jest.spyOn(Taro, 'navigateTo').mockImplementation(ok)
    redirect = jest.spyOn(Taro, 'redirectTo').mockImplementation(ok)
    assign = jest.spyOn(browser, 'assign').mockImplementation(() => undefined)
  })
  afterEach(() => jest.restoreAllMocks())

  it('an empty link shows 请提供链接地址 and goes nowhere', async () => {
    expect(await jump('')).toBe('empty')
    expect(await jump('   ')).toBe('empty')
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: '请提供链接地址' }))
    expect(nav).not.toHaveBeenCalled()
  })

  it('an invalid external link shows 无效的链接', async () => {
    for (const bad of ['javascript:alert(1)', 'http://', 'ftp://x.y/z', 'https://exa mple.com']) {
      toast.mockClear()
      expect(await jump(bad)).toBe('invalid-link')
      expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: '无效的链接' }))
    }
    expect(assign).not.toHaveBeenCalled()
  })

  it('an unknown jump type shows the dialog 无效的跳转类型', async () => {
    expect(await jump('/pages/home/index', 'switchTab')).toBe('invalid-mode')
    expect(modal).toHaveBeenCalledWith(expect.objectContaining({ content: '无效的跳转类型', showCancel: false }))
    expect(nav).not.toHaveBeenCalled()
  })

  it('navigate and redirect use the rewritten path', async () => {
    expect(await jump('/pages/home/index?x=1')).toBe('navigated')
    expect(nav).toHaveBeenCalledWith({ url: '/pagesA/home/index?x=1' })
    expect(await jump('pages/profile/index/index', 'redirect')).toBe('navigated')
    expect(redirect).toHaveBeenCalledWith({ url: '/pagesA/profile/index' })
  })

  it('an external link on H5 sets the location', async () => {
    expect(await jump('https://example.com/a?b=1')).toBe('external')
    expect(assign).toHaveBeenCalledWith('https://example.com/a?b=1')
  })

  it('messages follow the language', async () => {
    localeStore.setLocale('en')
    await jump('')
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Please provide a link address' }))
  })

  it('a failed navigation reports failed', async () => {
    nav.mockImplementation(() => Promise.reject(new Error('page is not found')) as never)
    expect(await jump('/pages/nowhere/index')).toBe('failed')
  })
})

describe('back, reload and share', () => {
  afterEach(() => jest.restoreAllMocks())

  it('back on the first page returns to the entry page', () => {
    const relaunch = jest.spyOn(Taro, 'reLaunch').mockImplementation(ok)
    const back = jest.spyOn(Taro, 'navigateBack').mockImplementation(ok)
    jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([{ route: 'pagesA/home/index' }] as never)
    goBack()
    expect(relaunch).toHaveBeenCalledWith({ url: '/pages/login/index' })
    expect(back).not.toHaveBeenCalled()
    jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([{ route: 'pages/login/index' }, { route: 'pagesA/home/index' }] as never)
    goBack()
    expect(back).toHaveBeenCalled()
  })

  it('reload reopens the current page with its current query', async () => {
    const redirect = jest.spyOn(Taro, 'redirectTo').mockImplementation(ok)
    jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([
      { route: 'pagesA/blind_box_detail/index', options: { seriesId: '7', tab: 'odds x' } }
    ] as never)
    expect(await reloadPage()).toBe(true)
    expect(redirect).toHaveBeenCalledWith({ url: '/pagesA/blind_box_detail/index?seriesId=7&tab=odds%20x' })
  })

  it('reload on H5 keeps the query of the address bar when the page object has none (a page that failed while rendering)', async () => {
    const redirect = jest.spyOn(Taro, 'redirectTo').mockImplementation(ok)
    jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([{ route: 'pagesA/blind_box_detail/index', options: {} }] as never)
    window.history.pushState({}, '', '/pagesA/blind_box_detail/index?seriesId=3&stamp=9')
    try {
      expect(await reloadPage()).toBe(true)
      expect(redirect).toHaveBeenCalledWith({ url: '/pagesA/blind_box_detail/index?seriesId=3' })
    } finally { window.history.pushState({}, '', '/') }
  })

  it('reload failure says page refresh failed', async () => {
    localeStore.setLocale('zh')
    const toast = jest.spyOn(Taro, 'showToast').mockImplementation(ok)
    jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([] as never)
    expect(await reloadPage()).toBe(false)
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: '页面刷新失败' }))
  })

  it('share options rewrite the path, keep the query and default to the index (entry) page', () => {
    expect(shareMessage({ title: 'T', path: '/pages/blind_box_detail/index/index', query: { seriesId: 3 } }))
      .toEqual({ title: 'T', path: '/pagesA/blind_box_detail/index?seriesId=3' })
    expect(shareMessage({ title: 'T' }).path).toBe('/pages/login/index')
    expect(shareMessage({ title: 'T', imageUrl: 'https://x/y.png' }).imageUrl).toBe('https://x/y.png')
    expect(shareTimeline({ title: 'T', query: { a: 1, b: 'x y' } })).toEqual({ title: 'T', query: 'a=1&b=x%20y' })
    expect(buildQuery({ a: undefined, b: '' })).toBe('')
  })
})
