/** WeChat: mini-program code2session, web OAuth (access_token + userinfo), openid login, URL links. */
import { testDialects } from './support/db'
import { createTestApp, get, nextIp, post, type TestApp } from './support/app'
import { startWeChat, WX, type FakeWeChat } from './support/fakes'

describe.each(testDialects())('WeChat on %s', (dialect) => {
  let t: TestApp
  let wx: FakeWeChat
  beforeAll(async () => {
    wx = await startWeChat()
    t = await createTestApp(dialect, { fakes: { wechat: wx } })
  })
  afterAll(async () => {
    await t.close()
    await wx.close()
  })

  test('login settings offer weapp and wechat when configured', async () => {
    expect((await get(t.app, '/system/setting/login')).body.data).toMatchObject({ wechat: true, weapp: true, password: true })
  })

  test('mini-program: the first login creates the account, the next finds it by (provider, openid)', async () => {
    wx.miniCodes.set('mini-code-1', { openid: 'openid-A' })
    wx.miniCodes.set('mini-code-2', { openid: 'openid-A' })
    const a = await post(t.app, '/login/weapp', { code: 'mini-code-1' }, { ip: nextIp(), lang: 'zh' })
    expect(a.body.code).toBe(200)
    expect(a.body.data.user).toMatchObject({ nickname: '微信用户', phone: null, userName: null })
    const b = await post(t.app, '/login/weapp', { code: 'mini-code-2' }, { ip: nextIp() })
    expect(b.body.data.user.id).toBe(a.body.data.user.id)
    const ids = await t.db.selectFrom('identities').select(['provider', 'subject']).where('user_id', '=', a.body.data.user.id).execute()
    expect(ids).toEqual([{ provider: 'weapp', subject: 'openid-A' }])
    expect((await get(t.app, '/getUserInfo', { token: b.body.data.token })).body.data.id).toBe(a.body.data.user.id)
  })

  test('errcode answers (invalid code 40029, used code 40163) are a failed login (401)', async () => {
    const bad = await post(t.app, '/login/weapp', { code: 'no-such-code' }, { ip: nextIp() })
    expect(bad.body).toEqual({ code: 401, message: 'WeChat login failed: invalid code (40029)', data: { errcode: 40029 } })
    wx.miniCodes.set('once', { openid: 'openid-once' })
    expect((await post(t.app, '/login/weapp', { code: 'once' }, { ip: nextIp() })).body.code).toBe(200)
    const used = await post(t.app, '/login/weapp', { code: 'once' }, { ip: nextIp(), lang: 'zh' })
    expect(used.body).toEqual({ code: 401, message: '微信登录失败：code been used (40163)', data: { errcode: 40163 } })
  })

  test('web OAuth: authorize URL, then code -> access_token -> userinfo (nickname, avatar)', async () => {
    const url = await get(t.app, '/login/wechat', { query: { redirect_uri: 'https://shop.example.com/pages/login/index' } })
    expect(url.body.code).toBe(200)
    const u = new URL(url.body.data.url)
    expect(u.origin + u.pathname).toBe('https://open.weixin.qq.com/connect/oauth2/authorize')
    expect(u.hash).toBe('#wechat_redirect')
    expect(Object.fromEntries(u.searchParams)).toEqual({
      appid: WX.oauthAppId, redirect_uri: 'https://shop.example.com/pages/login/index',
      response_type: 'code', scope: 'snsapi_userinfo', state: url.body.data.state
    })
    expect(url.body.data.state).toMatch(/^[0-9a-f]{32}$/)
    const relative = await get(t.app, '/login/wechat', { query: { scope: 'snsapi_base' }, headers: { host: 'm.example.com' } })
    expect(new URL(relative.body.data.url).searchParams.get('redirect_uri')).toBe('http://m.example.com/')
    expect((await get(t.app, '/login/wechat', { query: { redirect_uri: 'javascript:alert(1)' } })).body).toMatchObject({ code: 400, data: { field: 'redirect_uri' } })

    wx.oauthCodes.set('web-1', { openid: 'web-openid-1', scope: 'snsapi_userinfo', nickname: '小明', headimgurl: 'https://wx.qlogo.cn/a.png' })
    const r = await post(t.app, '/login/wechat', { code: 'web-1' }, { ip: nextIp() })
    expect(r.body.data.user).toMatchObject({ nickname: '小明', avatar: 'https://wx.qlogo.cn/a.png' })
    expect(wx.calls).toEqual(expect.arrayContaining(['/sns/oauth2/access_token', '/sns/userinfo']))
  })

  test('GET /login/openid: silent OAuth (snsapi_base) logs in by openid alone', async () => {
    wx.oauthCodes.set('base-1', { openid: 'web-openid-2', scope: 'snsapi_base' })
    const r = await get(t.app, '/login/openid', { query: { code: 'base-1' }, ip: nextIp() })
    expect(r.body.code).toBe(200)
    wx.oauthCodes.set('full-2', { openid: 'web-openid-2', scope: 'snsapi_userinfo', nickname: 'Later' })
    const again = await post(t.app, '/login/wechat', { code: 'full-2' }, { ip: nextIp() })
    expect(again.body.data.user.id).toBe(r.body.data.user.id)
    expect((await get(t.app, '/login/openid', { query: { code: 'base-1' }, ip: nextIp() })).body).toMatchObject({ code: 401, data: { errcode: 40163 } })
  })

  test('a unionid ties the mini-program and web identities to one account', async () => {
    wx.miniCodes.set('u-mini', { openid: 'mini-openid-U', unionid: 'union-U' })
    wx.oauthCodes.set('u-web', { openid: 'web-openid-U', unionid: 'union-U', scope: 'snsapi_userinfo', nickname: 'U' })
    const a = await post(t.app, '/login/weapp', { code: 'u-mini' }, { ip: nextIp() })
    const b = await post(t.app, '/login/wechat', { code: 'u-web' }, { ip: nextIp() })
    expect(b.body.data.user.id).toBe(a.body.data.user.id)
    const ids = await t.db.selectFrom('identities').select(['provider', 'subject']).where('user_id', '=', a.body.data.user.id).orderBy('provider').execute()
    expect(ids).toEqual([
      { provider: 'weapp', subject: 'mini-openid-U' },
      { provider: 'wechat_union', subject: 'union-U' },
      { provider: 'wechat_web', subject: 'web-openid-U' }
    ])
  })

  test('two first logins of one openid at once make one account', async () => {
    for (let i = 0; i < 6; i++) wx.miniCodes.set(`race-${i}`, { openid: 'openid-race' })
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => post(t.app, '/login/weapp', { code: `race-${i}` }, { ip: nextIp() })))
    const ids = new Set(results.map(r => r.body.data?.user?.id))
    expect(results.map(r => r.body.code)).toEqual(Array(6).fill(200))
    expect(ids.size).toBe(1)
  })

  test('POST /get_mp_url: a URL link; a stale access_token is refreshed once', async () => {
    const r = await post(t.app, '/get_mp_url', { path: '/pagesA/home/index', query: 'id=1', expire_interval: 7 }, { ip: nextIp() })
    expect(r.body.code).toBe(200)
    expect(r.body.data.url).toBe('https://wxaurl.cn/fake?path=pagesA%2Fhome%2Findex&query=id%3D1&days=7')
    const tokens = wx.tokenRequests
    expect((await post(t.app, '/get_mp_url', {}, { ip: nextIp() })).body.code).toBe(200)
    expect(wx.tokenRequests).toBe(tokens) // cached
    wx.staleTokenOnce = true
    expect((await post(t.app, '/get_mp_url', undefined, { ip: nextIp() })).body.code).toBe(200)
    expect(wx.tokenRequests).toBe(tokens + 1)
    const refused = await post(t.app, '/get_mp_url', { path: 'pages/missing' }, { ip: nextIp() })
    expect(refused.status).toBe(502)
    expect(refused.body).toMatchObject({ code: 502, data: { errcode: 40165 } })
  })

  test('validation of WeChat calls', async () => {
    expect((await post(t.app, '/login/weapp', {})).body).toMatchObject({ code: 400, data: { field: 'code', rule: 'required' } })
    expect((await post(t.app, '/login/weapp', { code: 'a b' })).body).toMatchObject({ code: 400, data: { field: 'code' } })
    expect((await post(t.app, '/get_mp_url', { path: 'pages/x?y=1' })).body).toMatchObject({ code: 400, data: { field: 'path' } })
    expect((await post(t.app, '/get_mp_url', { expire_interval: 31 })).body).toMatchObject({ code: 400, data: { field: 'expire_interval', rule: 'maximum' } })
  })
})

describe.each(testDialects())('WeChat not configured or down, on %s', (dialect) => {
  test('not configured: 422 "not configured" and the settings say so', async () => {
    const t = await createTestApp(dialect)
    try {
      expect((await post(t.app, '/login/weapp', { code: 'x' })).body).toMatchObject({ code: 422, message: 'WeChat mini-program is not available in this shop' })
      expect((await get(t.app, '/login/wechat', { lang: 'zh' })).body).toMatchObject({ code: 422, message: '这个商城暂不提供微信网页授权' })
      expect((await post(t.app, '/login/wechat', { code: 'x' })).body.code).toBe(422)
      expect((await get(t.app, '/login/openid', { query: { code: 'x' } })).body.code).toBe(422)
      expect((await post(t.app, '/get_mp_url', {})).body.code).toBe(422)
      expect((await get(t.app, '/system/setting/login')).body.data).toMatchObject({ wechat: false, weapp: false })
    } finally {
      await t.close()
    }
  })

  test('unreachable: HTTP 502 (infrastructure failure)', async () => {
    const wx = await startWeChat()
    await wx.close()
    const t = await createTestApp(dialect, { fakes: { wechat: wx } })
    try {
      const r = await post(t.app, '/login/weapp', { code: 'x' }, { ip: nextIp() })
      expect(r.status).toBe(502)
      expect(r.body).toMatchObject({ code: 502, message: 'WeChat mini-program is unavailable, please try again later' })
    } finally {
      await t.close()
    }
  })
})
