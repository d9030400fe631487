/**
 * The H5 first paint (src/utils/takeover.ts, scripts/prerender.js): the prerendered copy goes when the
 * first page is in, with what was typed into it; the home page's first state is the skeleton that the
 * build prerenders, and it gives way to the series once they arrive.
 */
import { render, act, cleanup } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { Current } from '@tarojs/runtime'
import { takeOver, firstPaintShown } from '@/utils/takeover'
import { localeStore } from '@/stores/locale'
import HomePage from '@/pagesA/home/index'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { mergeRules, paintFirst } = require('../../scripts/prerender.js') as {
  mergeRules: (lists: string[][]) => string[]
  paintFirst: (html: string, dir: string) => string
}

afterEach(() => {
  cleanup()
  document.body.innerHTML = ''
  jest.restoreAllMocks()
})

function firstPaint (view: string) {
  document.documentElement.setAttribute('data-prerender', view)
  document.head.insertAdjacentHTML('beforeend', '<style data-prerender-css>.pr-x{color:red}</style>')
  document.body.insertAdjacentHTML('afterbegin', `<div id="splash"></div><div id="prerender">
    <div class="pr-view" data-view="login-zh"><input class="pr-a"><input class="pr-b"></div>
    <div class="pr-view" data-view="login-en"><input class="pr-a"><input class="pr-b"></div></div>`)
  // jsdom has no layout: the view on screen is the one with client rects
  for (const el of document.querySelectorAll<HTMLElement>('.pr-view')) {
    const shown = el.getAttribute('data-view') === view
    for (const input of el.querySelectorAll('input')) input.getClientRects = () => (shown ? [{}] : []) as unknown as DOMRectList
  }
}

describe('takeOver', () => {
  it('removes the copy, its CSS and the splash', () => {
    firstPaint('login-en')
    expect(firstPaintShown()).toBe(true)
    takeOver()
    expect(document.getElementById('prerender')).toBeNull()
    expect(document.getElementById('splash')).toBeNull()
    expect(document.querySelector('style[data-prerender-css]')).toBeNull()
    expect(firstPaintShown()).toBe(false)
  })

  it('carries what was typed into the shown view over to the app\'s fields, as input events', () => {
    firstPaint('login-en')
    document.body.insertAdjacentHTML('beforeend', '<div id="app"><input class="a"><input class="b"></div>')
    const [copyA, copyB] = [...document.querySelectorAll<HTMLInputElement>('[data-view="login-en"] input')]
    copyA.value = 'early-bird'
    copyB.value = ''
    document.querySelector<HTMLInputElement>('[data-view="login-zh"] input')!.value = 'not shown'
    const seen: string[] = []
    document.getElementById('app')!.addEventListener('input', e => seen.push((e.target as HTMLInputElement).value))
    takeOver()
    const [a, b] = [...document.querySelectorAll<HTMLInputElement>('#app input')]
    expect(a.value).toBe('early-bird')
    expect(b.value).toBe('')
    expect(seen).toEqual(['early-bird'])
  })

  it('does not ask for the layout (getClientRects) when nothing was typed', () => {
    firstPaint('login-en')
    document.body.insertAdjacentHTML('beforeend', '<div id="app"><input class="a"><input class="b"></div>')
    const asked = jest.fn(() => [] as unknown as DOMRectList)
    for (const input of document.querySelectorAll<HTMLInputElement>('#prerender input')) input.getClientRects = asked
    takeOver()
    expect(asked).not.toHaveBeenCalled()
    expect(document.getElementById('prerender')).toBeNull()
  })

  it('leaves the app\'s fields alone when they do not line up with the copy', () => {
    firstPaint('login-en')
    document.body.insertAdjacentHTML('beforeend', '<div id="app"><input class="a"></div>')
    document.querySelector<HTMLInputElement>('[data-view="login-en"] input')!.value = 'x'
    takeOver()
    expect(document.querySelector<HTMLInputElement>('#app input')!.value).toBe('')
    expect(document.getElementById('prerender')).toBeNull()
  })
})

describe('home page first state (what the build prerenders)', () => {
  it('shows skeleton cards and a feed placeholder until the series arrive, then the cards', async () => {
    Current.router = { path: '/pagesA/home/index', params: {}, onReady: '', onHide: '', onShow: '', shareTimeline: '', shareAppMessage: '' } as never
    jest.spyOn(Taro, 'setNavigationBarTitle').mockImplementation(() => Promise.resolve({ errMsg: 'ok' }) as never)
    localeStore.setLocale('en')
    let answer: (v: unknown) => void = () => undefined
    jest.spyOn(Taro, 'request').mockImplementation(((opts: { url?: string }) => {
      if (String(opts.url).endsWith('/api/seriesList')) return new Promise(resolve => { answer = resolve })
      return new Promise(() => undefined)
    }) as never)
    const { container } = render(<HomePage />)
    expect(container.querySelectorAll('.series-skeleton')).toHaveLength(3)
    expect(container.querySelectorAll('.series-card')).toHaveLength(0) // nothing mistakes an outline for a card
    expect(container.querySelector('.home-feed__placeholder')).not.toBeNull()
    expect(container.textContent).not.toContain('That is all')
    await act(async () => {
      answer({ statusCode: 200, header: {}, data: { code: 200, message: 'ok', data: { total: 1, list: [{ id: 7, title: { zh: '系列', en: 'A series' }, description: { zh: '', en: '' }, cover: null, priceCents: 1000, caseSize: 12, oddsPpm: { regular: 900000, rare: 80000, hidden: 20000 }, status: 'on_sale' }] } } })
      await new Promise(resolve => setTimeout(resolve, 0))
    })
    expect(container.querySelectorAll('.series-skeleton')).toHaveLength(0)
    expect(container.textContent).toContain('A series')
  })
})

describe('prerender helpers', () => {
  it('merges rule lists in cascade order, each rule once', () => {
    expect(mergeRules([['a', 'b', 'd'], ['a', 'c', 'd', 'e'], ['b', 'd']])).toEqual(['a', 'c', 'b', 'd', 'e'])
  })

  it('inlines the entry CSS and loads the entry scripts after the first paint, in order', () => {
    const fs = jest.requireActual('node:fs') as typeof import('node:fs')
    const os = jest.requireActual('node:os') as typeof import('node:os')
    const path = jest.requireActual('node:path') as typeof import('node:path')
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paint-first-'))
    fs.mkdirSync(path.join(dir, 'css'))
    fs.writeFileSync(path.join(dir, 'css', 'app.1234abcd.css'), '.x{background:url(../static/a.png)}')
    const html = paintFirst('<html><head><script defer="defer" src="/js/a.1.js"></script><script defer="defer" src="/js/app.2.js"></script>' +
      '<link href="/css/app.1234abcd.css" rel="stylesheet"></head><body><div id="app"></div></body></html>', dir)
    fs.rmSync(dir, { recursive: true, force: true })
    expect(html).not.toMatch(/<script defer/)
    expect(html).not.toMatch(/<link href/)
    expect(html).toContain('.x{background:url("/static/a.png")}')
    expect(html).toMatch(/js=\["\/js\/a\.1\.js","\/js\/app\.2\.js"\]/)
    expect(html).toContain('s.async=false')
    expect(html.indexOf('data-entry-loader')).toBeGreaterThan(html.indexOf('<div id="app">'))
  })
})
