import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Taro from '@tarojs/taro'
import zh from '@/locales/zh'
import en from '@/locales/en'
import zhCore from '@/locales/zh/core'
import enCore from '@/locales/en/core'
import zhRest from '@/locales/zh/rest'
import enRest from '@/locales/en/rest'
import type { DictionarySource } from '@/locales/load'
import { dictionarySource as weappSource } from '@/locales/load.weapp'
import zhDocuments from '@/locales/zh/documents'
import enDocuments from '@/locales/en/documents'
import type { Locale, RestDict } from '@/locales/types'
import { LocaleStore, format, matchLocale, resolveInitialLocale } from '@/stores/locale'
import { SessionStore } from '@/stores/session'
import { resetInterceptors } from '@/services/request'
import { LOCALE_KEY, TOKEN_KEY } from '@/constants'

function keys (o: object, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`)))
}

describe('locale store', () => {
  beforeEach(() => {
    Taro.clearStorageSync()
    delete process.env.TARO_APP_LOCALE
  })
  afterEach(() => jest.restoreAllMocks())

  it('zh and en have exactly the same keys and no empty text', () => {
    expect(keys(en).sort()).toEqual(keys(zh).sort())
    for (const k of keys(en)) {
      const v = k.split('.').reduce<any>((o, p) => o[p], en)
      expect(v.trim()).not.toBe('')
    }
  })

  it('matches locale tags', () => {
    expect(matchLocale('zh_CN')).toBe('zh')
    expect(matchLocale('zh-Hant-TW')).toBe('zh')
    expect(matchLocale('en-US')).toBe('en')
    expect(matchLocale('fr-FR')).toBeNull()
    expect(matchLocale(undefined)).toBeNull()
  })

  it('starts from the saved choice, then TARO_APP_LOCALE, then the system language, then en', () => {
    const sys = jest.spyOn(window.navigator, 'language', 'get')
    sys.mockReturnValue('fr-FR')
    expect(resolveInitialLocale()).toBe('en')
    sys.mockReturnValue('zh-CN')
    expect(resolveInitialLocale()).toBe('zh')
    process.env.TARO_APP_LOCALE = 'en'
    expect(resolveInitialLocale()).toBe('en')
    Taro.setStorageSync(LOCALE_KEY, 'zh')
    expect(resolveInitialLocale()).toBe('zh')
  })

  it('translates with parameters, switches, and persists the choice', () => {
    const store = new LocaleStore('zh')
    expect(store.t('login.resendIn', { n: 42 })).toBe('42 秒后重发')
    expect(store.t('titles.home')).toBe('首页')
    store.toggle()
    expect(store.locale).toBe('en')
    expect(store.t('login.resendIn', { n: 42 })).toBe('Resend in 42 s')
    expect(Taro.getStorageSync(LOCALE_KEY)).toBe('en')
    expect(store.languageTag).toBe('en')
    expect(new LocaleStore().locale).toBe('en')
  })

  it('leaves unknown placeholders visible and reports unknown keys', () => {
    expect(format('{a} and {b}', { a: 1 })).toBe('1 and {b}')
    const store = new LocaleStore('en')
    expect(store.has('titles.home')).toBe(true)
    expect(store.has('titles.nothing')).toBe(false)
  })

  it('picks plural forms by number, with exact numbers first, and keeps other placeholders working', () => {
    const boxes = '{n, plural, =0 {no boxes} one {# box} other {# boxes}} for {price}'
    expect(format(boxes, { n: 0, price: '¥1' })).toBe('no boxes for ¥1')
    expect(format(boxes, { n: 1, price: '¥1' })).toBe('1 box for ¥1')
    expect(format(boxes, { n: 12, price: '¥1' })).toBe('12 boxes for ¥1')
    expect(format('{n, plural, one {# item in {where}} other {# items in {where}}}', { n: 2, where: 'A' })).toBe('2 items in A')
    // without the number, or malformed, the text stays as written rather than half filled
    expect(format(boxes, { price: '¥1' })).toBe('{n, plural, =0 {no boxes} one {# box} other {# boxes}} for ¥1')
    expect(format('{n, plural, one {# box}', { n: 1 })).toBe('{n, plural, one {# box}')
    const en = new LocaleStore('en')
    expect(en.t('purchase.wholeCase', { n: 1 })).toBe('whole case, 1 box')
    expect(en.t('purchase.wholeCase', { n: 10 })).toBe('whole case, 10 boxes')
    expect(en.t('prize.summary', { n: 1, value: '¥5.00', paid: '¥3.00' })).toBe('1 prize, reference value ¥5.00, paid ¥3.00')
    const zh = new LocaleStore('zh')
    expect(zh.t('purchase.wholeCase', { n: 1 })).not.toMatch(/plural|#/)
  })
})

describe('locale store in the mini-program (the rest in the subpackage)', () => {
  test('login and home have the first part; the web view adds its texts only; a subpackage page adds the rest at once, answering a wait', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined)
    try {
      const store = new LocaleStore('zh', weappSource)
      expect(store.complete).toBe(false)
      expect(store.t('titles.home')).toBe(zh.titles.home)
      // a key of the rest asked too early shows as itself, and a wait starts (nothing to fetch: it is given)
      expect(store.t('combine.toCombine')).toBe('combine.toCombine')
      expect(errors).toHaveBeenCalledTimes(1)
      let waited = false
      const wait = store.ensureRest('zh').then(() => { waited = true })
      // the web view's texts, in both languages, without completing the dictionary
      store.addGroups('zh', zhDocuments)
      store.addGroups('en', enDocuments)
      expect(store.t('agreements.privacyTitle')).toBe(zh.agreements.privacyTitle)
      expect(store.complete).toBe(false)
      await store.setLocale('en')
      expect(store.t('agreements.privacyTitle')).toBe(en.agreements.privacyTitle)
      await store.setLocale('zh')
      // a subpackage page: the rest is there for its first render, and the early wait ends
      store.addRest('zh', zhRest)
      store.addRest('en', enRest)
      expect(store.complete).toBe(true)
      expect(store.t('combine.toCombine')).toBe(zh.combine.toCombine)
      await wait
      expect(waited).toBe(true)
      await store.setLocale('en')
      expect(store.t('combine.toCombine')).toBe(en.combine.toCombine)
      // a second store of the same build finds the rest given already
      const later = new LocaleStore('en', weappSource)
      await later.ensureRest('en')
      expect(later.t('combine.toCombine')).toBe(en.combine.toCombine)
    } finally {
      errors.mockRestore()
    }
  })
})

describe('locale store with a dictionary in two parts (the H5 build)', () => {
  /** The H5 source's shape, with the rest handed out when the test says so. */
  function splitSource () {
    const asked: Locale[] = []
    const waiting: Array<{ locale: Locale, resolve: (r: RestDict) => void, reject: (e: Error) => void }> = []
    const source: DictionarySource = {
      initial: { zh: zhCore, en: enCore },
      complete: false,
      loadRest: locale => new Promise((resolve, reject) => { asked.push(locale); waiting.push({ locale, resolve, reject }) })
    }
    const answer = () => { const w = waiting.shift()!; w.resolve(w.locale === 'zh' ? zhRest : enRest) }
    const fail = () => waiting.shift()!.reject(new Error('offline'))
    return { source, asked, answer, fail }
  }
  beforeEach(() => Taro.clearStorageSync())
  afterEach(() => jest.restoreAllMocks())

  it('the two parts hold different groups, and together every key', () => {
    const coreGroups = Object.keys(zhCore)
    expect(coreGroups.filter(g => g in zhRest)).toEqual([])
    expect(keys({ ...enCore, ...enRest }).sort()).toEqual(keys(zh).sort())
  })

  it('translates the first part at once, and the rest once fetched, once per language', async () => {
    const { source, asked, answer } = splitSource()
    const store = new LocaleStore('en', source)
    expect(store.complete).toBe(false)
    expect(store.t('login.submit')).toBe(en.login.submit)
    const first = store.ensureRest()
    const second = store.ensureRest()
    expect(asked).toEqual(['en'])
    answer()
    await Promise.all([first, second])
    expect(store.complete).toBe(true)
    expect(store.t('withdraw.title')).toBe(en.withdraw.title)
    await store.ensureRest()
    expect(asked).toEqual(['en'])
  })

  it('a key of the rest asked too early is reported, fetched, and then shown', async () => {
    const { source, asked, answer } = splitSource()
    const store = new LocaleStore('zh', source)
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined)
    expect(store.t('withdraw.title')).toBe('withdraw.title')
    expect(error.mock.calls[0][0]).toMatch(/withdraw\.title.*locales\/full/)
    expect(asked).toEqual(['zh'])
    answer()
    await store.ensureRest()
    expect(store.t('withdraw.title')).toBe(zh.withdraw.title)
  })

  it('a failed fetch rejects, changes nothing, and the next call tries again', async () => {
    const { source, asked, answer, fail } = splitSource()
    const store = new LocaleStore('zh', source)
    const first = store.ensureRest()
    fail()
    await expect(first).rejects.toThrow('offline')
    expect(store.complete).toBe(false)
    const again = store.ensureRest()
    answer()
    await again
    expect(asked).toEqual(['zh', 'zh'])
    expect(store.complete).toBe(true)
  })

  it('on a page with the whole dictionary, switching language waits for the other rest; on login it does not', async () => {
    const { source, asked, answer } = splitSource()
    const login = new LocaleStore('zh', source)
    await login.setLocale('en')
    expect(login.locale).toBe('en')
    expect(asked).toEqual([])

    const store = new LocaleStore('zh', source)
    const loading = store.ensureRest()
    answer()
    await loading
    const switching = store.setLocale('en')
    expect(store.locale).toBe('zh')
    expect(asked).toEqual(['zh', 'en'])
    answer()
    await switching
    expect(store.locale).toBe('en')
    expect(store.complete).toBe(true)
    expect(store.t('withdraw.title')).toBe(en.withdraw.title)
    expect(Taro.getStorageSync(LOCALE_KEY)).toBe('en')
  })
})

describe('session store (against a real HTTP server)', () => {
  let server: http.Server
  const calls: { url: string; auth?: string }[] = []
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const h = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*', 'Content-Type': 'application/json' }
      if (req.method === 'OPTIONS') { res.writeHead(204, h); res.end(); return }
      calls.push({ url: req.url || '', auth: req.headers.authorization })
      const authed = req.headers.authorization === 'Bearer good'
      const body = req.url === '/getUserInfo'
        ? (authed ? { code: 200, message: 'ok', data: { id: 7, userName: 'amy', nickname: 'Amy', phone: null, email: null, avatar: null, role: 'shopper' } } : { code: 401, message: 'login', data: null })
        : { code: 200, message: 'ok', data: null }
      res.writeHead(200, h)
      res.end(JSON.stringify(body))
    })
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
    process.env.TARO_APP_API_BASE = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    delete process.env.TARO_APP_API_BASE
    await new Promise(r => server.close(r))
  })
  beforeEach(() => {
    calls.length = 0
    Taro.clearStorageSync()
    resetInterceptors()
    jest.spyOn(Taro, 'reLaunch').mockImplementation(() => Promise.resolve({ errMsg: 'ok' }) as never)
  })
  afterEach(() => jest.restoreAllMocks())

  const user = { id: 7, userName: 'amy', nickname: 'Amy', phone: null, email: null, avatar: null, role: 'shopper' as const }

  it('login stores the token under h5_token; logout calls /logout and clears it', async () => {
    const s = new SessionStore()
    expect(s.loggedIn).toBe(false)
    s.login({ token: 'good', user })
    expect(Taro.getStorageSync(TOKEN_KEY)).toBe('good')
    expect(s.loggedIn).toBe(true)
    expect(s.displayName).toBe('Amy')
    await s.logout()
    expect(calls.map(c => c.url)).toEqual(['/logout'])
    expect(calls[0].auth).toBe('Bearer good')
    expect(Taro.getStorageSync(TOKEN_KEY)).toBe('')
    expect(s.loggedIn).toBe(false)
    expect(s.user).toBeNull()
  })

  it('a stored token restores the session through getUserInfo', async () => {
    Taro.setStorageSync(TOKEN_KEY, 'good')
    const s = new SessionStore()
    expect(await s.restore()).toBe(true)
    expect(s.user).toMatchObject({ id: 7, nickname: 'Amy' })
  })

  it('a rejected token (body code 401) clears the token and the store', async () => {
    Taro.setStorageSync(TOKEN_KEY, 'stale')
    const s = new SessionStore()
    expect(await s.restore()).toBe(false)
    expect(Taro.getStorageSync(TOKEN_KEY)).toBe('')
    expect(s.token).toBe('')
    expect(s.loggedIn).toBe(false)
  })

  it('without a token restore does not call the server', async () => {
    const s = new SessionStore()
    expect(await s.restore()).toBe(false)
    expect(calls).toHaveLength(0)
  })
})
