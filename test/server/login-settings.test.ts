/**
 * GET /system/setting/login follows the configuration: a method is on exactly when its provider is
 * configured (SMS, mail, WeChat web OAuth, the mini-program), outside production the codes that cannot
 * be sent are logged so SMS and mail stay on; the login page hides the tabs of the others. With WeChat
 * web OAuth configured, GET /login/wechat points the browser at the configured authorize page.
 */
import { loadConfig } from '../../server/src/config'
import { testDialects } from './support/db'
import { createTestApp, get, loginToken, makeUser, post, type TestApp } from './support/app'
import { configWordIn } from '../support/configWords'
import { execFileSync } from 'node:child_process'
import * as tencent from '../support/providers/tencent'
import * as amap from '../support/providers/amap'
import * as kuaidi100 from '../support/providers/kuaidi100'
import * as jd from '../support/providers/jdunion'

/** Whether the local text-to-speech engine is here (TTS_ENGINE unset or auto then turns it on). */
function espeakInstalled (): boolean {
  try { execFileSync('espeak-ng', ['--version'], { stdio: 'ignore' }); return true } catch { return false }
}
import { startSms, startSmtp, startWeChat, WX, type FakeSms, type FakeSmtp, type FakeWeChat } from './support/fakes'

describe.each(testDialects())('login settings on %s', (dialect) => {
  let sms: FakeSms
  let smtp: FakeSmtp
  let wx: FakeWeChat
  const apps: TestApp[] = []
  const app = async (env: Record<string, string>, fakes = {}) => {
    const t = await createTestApp(dialect, { env, fakes })
    apps.push(t)
    return t
  }
  beforeAll(async () => { [sms, smtp, wx] = await Promise.all([startSms(), startSmtp(), startWeChat()]) })
  afterAll(async () => {
    for (const t of apps) await t.close()
    await Promise.all([sms.close(), smtp.close(), wx.close()])
  })

  test('production with no provider: password and sign-up only', async () => {
    // (text to speech is a local engine, on wherever espeak-ng is installed: off here to have none)
    const t = await app({ NODE_ENV: 'production', TTS_ENGINE: 'off' })
    expect((await get(t.app, '/system/setting/login')).body).toEqual({
      code: 200, message: 'OK', data: { password: true, sms: false, email: false, wechat: false, weapp: false, register: true, capabilities: { maps: false, tracking: false, priceCompare: false, speech: false, ai: false }, webDomains: [] }
    })
  })

  test('production with every provider configured: every method', async () => {
    const t = await app({ NODE_ENV: 'production' }, { sms, smtp, wechat: wx })
    const data = (await get(t.app, '/system/setting/login')).body.data
    expect(data).toMatchObject({ password: true, sms: true, email: true, wechat: true, weapp: true, register: true })
    // real providers: nothing stands in for them
    expect(data.devLogOnly).toBeUndefined()
  })

  test('one at a time: each method follows its own provider', async () => {
    const web = await app({ NODE_ENV: 'production', WECHAT_OAUTH_APPID: WX.oauthAppId, WECHAT_OAUTH_SECRET: WX.oauthSecret })
    expect((await get(web.app, '/system/setting/login')).body.data).toMatchObject({ password: true, sms: false, email: false, wechat: true, weapp: false, register: true })
    const mini = await app({ NODE_ENV: 'production', WECHAT_APPID: WX.appId, WECHAT_SECRET: WX.secret })
    expect((await get(mini.app, '/system/setting/login')).body.data).toMatchObject({ wechat: false, weapp: true })
    const mail = await app({ NODE_ENV: 'production' }, { smtp })
    expect((await get(mail.app, '/system/setting/login')).body.data).toMatchObject({ sms: false, email: true })
  })

  test('development: SMS and mail codes are logged, so those tabs stay; WeChat is off until configured', async () => {
    const t = await app({ NODE_ENV: 'development' })
    expect((await get(t.app, '/system/setting/login')).body.data).toMatchObject({ password: true, sms: true, email: true, wechat: false, weapp: false, register: true })
    // ... and the settings say they only go to the log (the services panel tells operators; issue 48)
    expect((await get(t.app, '/system/setting/login')).body.data.devLogOnly).toEqual(['sms', 'email'])
    // development with a real SMTP server: only SMS stands in
    const mailing = await app({ NODE_ENV: 'development' }, { smtp })
    expect((await get(mailing.app, '/system/setting/login')).body.data.devLogOnly).toEqual(['sms'])
    // and a WeChat login without the configuration says so
    expect((await get(t.app, '/login/wechat', { lang: 'zh' })).body).toMatchObject({ code: 422, data: { provider: 'wechat' } })
  })

  test('capabilities: each optional shopper feature is on exactly when its provider is there, in every mode', async () => {
    const caps = async (env: Record<string, string>) => (await get((await app(env)).app, '/system/setting/login')).body.data.capabilities
    // no provider at all (and no local engine): every optional feature is off, even outside production
    expect(await caps({ NODE_ENV: 'development', TTS_ENGINE: 'off' })).toEqual({ maps: false, tracking: false, priceCompare: false, speech: false, ai: false })
    // each provider turns on its own feature and nothing else
    const one = [
      [{ TENCENT_MAP_KEY: tencent.KEY }, 'maps'],
      [{ KUAIDI100_CUSTOMER: kuaidi100.CUSTOMER, KUAIDI100_KEY: kuaidi100.KEY }, 'tracking'],
      [{ JD_UNION_APP_KEY: jd.APP_KEY, JD_UNION_APP_SECRET: jd.APP_SECRET }, 'priceCompare'],
      [{ AI_API_KEY: 'app-test-key' }, 'ai'],
      [{ TTS_ENGINE: 'auto' }, ...(espeakInstalled() ? ['speech'] as const : [])]
    ] as const
    for (const [env, ...on] of one) {
      const got = await caps({ NODE_ENV: 'production', TTS_ENGINE: 'off', ...env })
      expect(Object.entries(got).filter(([k, v]) => v === true && k !== 'mapProvider').map(([k]) => k)).toEqual(on)
    }
    // either map provider serves the address form and the routes: MAP_PROVIDER, else Tencent when its key is set
    expect(await caps({ NODE_ENV: 'production', TTS_ENGINE: 'off', AMAP_KEY: amap.KEY })).toMatchObject({ maps: true, mapProvider: 'amap' })
    expect(await caps({ NODE_ENV: 'production', TTS_ENGINE: 'off', AMAP_KEY: amap.KEY, TENCENT_MAP_KEY: tencent.KEY })).toMatchObject({ maps: true, mapProvider: 'tencentMap' })
    expect(await caps({ NODE_ENV: 'production', TTS_ENGINE: 'off', AMAP_KEY: amap.KEY, TENCENT_MAP_KEY: tencent.KEY, MAP_PROVIDER: 'amap' })).toMatchObject({ maps: true, mapProvider: 'amap' })
    // the H5 web map: its script with the browser key, only when that key is set
    expect(await caps({ NODE_ENV: 'production', TTS_ENGINE: 'off', TENCENT_MAP_JS_KEY: 'TESTJ-SKEY1-23ABC-DEFGH-IJKLM-NOPQR' })).toEqual({
      maps: false, tracking: false, priceCompare: false, speech: false, ai: false,
      webMap: { provider: 'tencentMap', script: 'https://map.qq.com/api/gljs?v=1.exp&key=TESTJ-SKEY1-23ABC-DEFGH-IJKLM-NOPQR' }
    })
  }, 120_000) // eight shops, each on a database of its own (slow on PostgreSQL on a busy machine)

  test('a feature called without its provider: 422 naming the provider in data, in words a shopper can read', async () => {
    const t = await app({ NODE_ENV: 'production', TTS_ENGINE: 'off' })
    const caps = (await get(t.app, '/system/setting/login')).body.data.capabilities
    expect(caps).toMatchObject({ priceCompare: false, speech: false, maps: false })
    const u = await makeUser(t.db, t.clock)
    const token = await loginToken(t.app, u.user_name!, u.password)
    const calls: Array<[string, unknown, string]> = [
      ['/api/bijia_spu_search', { keyword: '星星' }, 'jdUnion'],
      ['/api/text/tts', { text: '你好' }, 'tts'],
      ['/api/geocoder', { location: '39.9,116.4' }, 'tencentMap']
    ]
    for (const [path, body, provider] of calls) {
      for (const lang of ['zh', 'en']) {
        const r = await post(t.app, path, body, { token, lang })
        expect(r.body).toMatchObject({ code: 422, data: { provider } })
        expect(configWordIn(r.body.message)).toBeNull()
      }
    }
    expect((await post(t.app, '/api/text/tts', { text: 'hi' }, { token, lang: 'en' })).body.message).toBe('Text to speech is not available in this shop')
    expect((await post(t.app, '/api/text/tts', { text: '你好' }, { token, lang: 'zh' })).body.message).toBe('这个商城暂不提供语音合成')
  })

  test('WECHAT_OAUTH_AUTHORIZE_URL: the authorize page the browser is sent to (WeChat\'s by default)', async () => {
    const own = await app({ WECHAT_OAUTH_AUTHORIZE_URL: 'http://127.0.0.1:9/connect/oauth2/authorize' }, { wechat: wx })
    const url = new URL((await get(own.app, '/login/wechat', { query: { redirect_uri: 'http://127.0.0.1:3000/pages/login/index', scope: 'snsapi_base' } })).body.data.url)
    expect(`${url.origin}${url.pathname}`).toBe('http://127.0.0.1:9/connect/oauth2/authorize')
    expect(url.searchParams.get('scope')).toBe('snsapi_base')
    const standard = await app({}, { wechat: wx })
    expect((await get(standard.app, '/login/wechat')).body.data.url).toMatch(/^https:\/\/open\.weixin\.qq\.com\/connect\/oauth2\/authorize\?/)
    expect(() => loadConfig({ WECHAT_OAUTH_AUTHORIZE_URL: 'ftp://x' })).toThrow(/WECHAT_OAUTH_AUTHORIZE_URL must be an http/)
  })
})
