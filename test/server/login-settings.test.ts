/**
 * GET /system/setting/login follows the configuration: a method is on exactly when its provider is
 * configured (SMS, mail, WeChat web OAuth, the mini-program), outside production the codes that cannot
 * be sent are logged so SMS and mail stay on; the login page hides the tabs of the others. With WeChat
 * web OAuth configured, GET /login/wechat points the browser at the configured authorize page.
 */
import { loadConfig } from '../../server/src/config'
import { testDialects } from './support/db'
import { createTestApp, get, type TestApp } from './support/app'
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
    const t = await app({ NODE_ENV: 'production' })
    expect((await get(t.app, '/system/setting/login')).body).toEqual({
      code: 200, message: 'OK', data: { password: true, sms: false, email: false, wechat: false, weapp: false, register: true }
    })
  })

  test('production with every provider configured: every method', async () => {
    const t = await app({ NODE_ENV: 'production' }, { sms, smtp, wechat: wx })
    expect((await get(t.app, '/system/setting/login')).body.data).toEqual({ password: true, sms: true, email: true, wechat: true, weapp: true, register: true })
  })

  test('one at a time: each method follows its own provider', async () => {
    const web = await app({ NODE_ENV: 'production', WECHAT_OAUTH_APPID: WX.oauthAppId, WECHAT_OAUTH_SECRET: WX.oauthSecret })
    expect((await get(web.app, '/system/setting/login')).body.data).toEqual({ password: true, sms: false, email: false, wechat: true, weapp: false, register: true })
    const mini = await app({ NODE_ENV: 'production', WECHAT_APPID: WX.appId, WECHAT_SECRET: WX.secret })
    expect((await get(mini.app, '/system/setting/login')).body.data).toMatchObject({ wechat: false, weapp: true })
    const mail = await app({ NODE_ENV: 'production' }, { smtp })
    expect((await get(mail.app, '/system/setting/login')).body.data).toMatchObject({ sms: false, email: true })
  })

  test('development: SMS and mail codes are logged, so those tabs stay; WeChat is off until configured', async () => {
    const t = await app({ NODE_ENV: 'development' })
    expect((await get(t.app, '/system/setting/login')).body.data).toEqual({ password: true, sms: true, email: true, wechat: false, weapp: false, register: true })
    // and a WeChat login without the configuration says so
    expect((await get(t.app, '/login/wechat', { lang: 'zh' })).body).toMatchObject({ code: 422, data: { provider: 'wechat' } })
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
