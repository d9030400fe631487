/**
 * The web view's business domains (issue 48 item 4): only an operator reads or replaces the list
 * (audited, entries normalised, anything but a plain host refused by field and nothing saved); the list
 * is public in the login settings; POST /get_mp_url makes a mini-program link to the web view only for a
 * page on a listed domain (422 otherwise, and WeChat is not asked). Also (item 7, services): development's
 * log mailer is no reminder channel of a launch event, so the event page promises no mail.
 */
import { testDialects } from './support/db'
import { createTestApp, get, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import { startWeChat, type FakeWeChat } from './support/fakes'
import { makeSeries } from './support/shop'

const DAY = 24 * 3600 * 1000

describe.each(testDialects())('business domains on %s', (dialect) => {
  let t: TestApp
  let wx: FakeWeChat
  let op: string
  let shopper: string
  const as = (token: string | undefined, url: string, body: unknown, lang = 'en') => post(t.app, url, body, { token, lang, ip: nextIp() })
  const mpUrl = (body: unknown, lang = 'en') => post(t.app, '/get_mp_url', body, { lang, ip: nextIp() })
  const webViewLink = (url: string, extra = '') => ({ path: 'pages/web_view/index', query: `url=${encodeURIComponent(url)}${extra}` })

  beforeAll(async () => {
    wx = await startWeChat()
    // development without SMTP: mail goes to the log only
    t = await createTestApp(dialect, { fakes: { wechat: wx } })
    const o = await makeUser(t.db, t.clock, { role: 'operator' })
    op = await loginToken(t.app, o.user_name!, o.password)
    const s = await makeUser(t.db, t.clock)
    shopper = await loginToken(t.app, s.user_name!, s.password)
  })
  afterAll(async () => {
    await t?.close()
    await wx?.close()
  })

  test('authorization: anonymous 401, a shopper 403, before the body is looked at; nothing saved', async () => {
    for (const url of ['/api/operator/webDomains', '/api/operator/webDomainsSave']) {
      expect((await as(undefined, url, { domains: ['evil.example'] })).body.code).toBe(401)
      expect((await as(shopper, url, { domains: ['evil.example'] })).body.code).toBe(403)
      expect((await as(shopper, url, { domains: 'not a list' })).body.code).toBe(403)
    }
    expect((await as(op, '/api/operator/webDomains', {})).body.data).toEqual({ domains: [] })
    expect((await get(t.app, '/system/setting/login')).body.data.webDomains).toEqual([])
  })

  test('entries: normalised (case, https://, default port, Unicode to xn--, duplicates); anything but a plain host refused by field, nothing saved', async () => {
    for (const bad of ['https://shop.example.com/path', 'http://shop.example.com', 'user@shop.example.com', '*.shop.example.com',
      'shop.example.com.', 'shop example.com', 'shop.example.com:99999', 'javascript:alert(1)', '-shop.example.com', 'shop.example.com\\@evil.example']) {
      const r = await as(op, '/api/operator/webDomainsSave', { domains: ['ok.example.com', bad] }, 'zh')
      expect([bad, r.body.code, r.body.data]).toEqual([bad, 400, { field: 'domains.1' }])
      expect(r.body.message).toContain('业务域名')
    }
    expect((await as(op, '/api/operator/webDomains', {})).body.data).toEqual({ domains: [] })
    expect(await t.db.selectFrom('audit_log').select('id').where('action', '=', 'settings.update').execute()).toEqual([])

    const saved = await as(op, '/api/operator/webDomainsSave', { domains: [' Shop.Example.COM ', 'https://shop.example.com/', 'shop.example.com:443', 'pay.example.com:8443', '商店.中国', 'ＨＥＬＰ.example.com'] })
    expect(saved.body).toMatchObject({ code: 200, data: { domains: ['shop.example.com', 'pay.example.com:8443', 'xn--czrs0t.xn--fiqs8s', 'help.example.com'] } })
    const audit = await t.db.selectFrom('audit_log').select(['actor_id', 'detail']).where('action', '=', 'settings.update').execute()
    expect(audit).toHaveLength(1)
    expect(JSON.parse(String(audit[0].detail))).toMatchObject({ before: { webDomains: [] }, after: { webDomains: saved.body.data.domains } })
    // saved again unchanged: no second audit row
    await as(op, '/api/operator/webDomainsSave', { domains: saved.body.data.domains })
    expect(await t.db.selectFrom('audit_log').select('id').where('action', '=', 'settings.update').execute()).toHaveLength(1)
    // public, for the app
    expect((await get(t.app, '/system/setting/login')).body.data.webDomains).toEqual(saved.body.data.domains)
    // too many
    expect((await as(op, '/api/operator/webDomainsSave', { domains: Array.from({ length: 31 }, (_, i) => `d${i}.example.com`) })).body).toMatchObject({ code: 400, data: { field: 'domains' } })
  })

  test('POST /get_mp_url to the web view: a listed https page gets a link; any other page 422 and WeChat is not asked', async () => {
    await as(op, '/api/operator/webDomainsSave', { domains: ['shop.example.com', 'pay.example.com:8443'] })
    const ok = await mpUrl(webViewLink('https://shop.example.com/guide?a=1', '&title=Guide'))
    expect(ok.body.code).toBe(200)
    expect((await mpUrl(webViewLink('https://SHOP.example.com:443/x'))).body.code).toBe(200)
    expect((await mpUrl(webViewLink('https://pay.example.com:8443/x'))).body.code).toBe(200)
    // the query written unencoded is read the same way
    expect((await mpUrl({ path: '/pages/web_view/index', query: 'url=https://shop.example.com/a' })).body.code).toBe(200)
    // pages that are not the web view are not concerned
    expect((await mpUrl({ path: 'pagesA/home/index', query: 'url=https%3A%2F%2Fevil.example' })).body.code).toBe(200)

    const calls = wx.calls.length
    for (const target of [
      'https://evil.example/login', // not listed
      'https://evil-shop.example.com/', // a suffix of another name
      'https://shop.example.com.evil.example/', // a prefix
      'https://shop.example.com@evil.example/', // userinfo: the host is evil.example
      'https://evil.example@shop.example.com/', // userinfo at all
      'http://shop.example.com/', // not https
      'https://shop.example.com:8443/', // another port
      'https://pay.example.com/', // listed with its port only
      'https://shop.example.com./', // trailing dot
      'https://shop.example.com\\@evil.example/', // a backslash
      'https://xn--shp-example-com.evil.example/', // punycode look-alike
      'https://ѕhop.example.com/', // a Cyrillic look-alike (Unicode host)
      'javascript:alert(1)//https://shop.example.com/',
      'data:text/html,hi'
    ]) {
      const r = await mpUrl(webViewLink(target), 'zh')
      expect([target, r.body]).toEqual([target, { code: 422, message: '这个网页不在本店的业务域名里，不能在店内打开', data: { field: 'query', reason: 'web_domain' } }])
    }
    // a second url, a doubly encoded one, a broken escape
    expect((await mpUrl({ path: 'pages/web_view/index', query: `url=${encodeURIComponent('https://shop.example.com/')}&url=${encodeURIComponent('https://evil.example/')}` })).body.code).toBe(422)
    expect((await mpUrl({ path: 'pages/web_view/index', query: `url=${encodeURIComponent(encodeURIComponent('https://evil.example/'))}` })).body.code).toBe(422)
    expect((await mpUrl({ path: 'pages/web_view/index', query: 'url=https%3A%2F%2Fshop.example.com%2F%E5' })).body.code).toBe(422)
    expect((await mpUrl({ path: 'pages//web_view/index', query: 'url=https%3A%2F%2Fevil.example' })).body.code).toBe(422)
    expect(wx.calls.length).toBe(calls)
    // the shop's agreements (?doc=) need no domain
    expect((await mpUrl({ path: 'pages/web_view/index', query: 'doc=service' })).body.code).toBe(200)
  })

  test('launch events: development\'s log mailer is no reminder channel (no mail is promised that would go nowhere)', async () => {
    const seriesId = await makeSeries(t.db, t.clock)
    const saved = await as(op, '/api/operator/eventSave', {
      seriesId,
      title: { zh: '上海首发', en: 'Launch in Shanghai' },
      city: '上海',
      venue: '静安嘉里中心 B1 中庭',
      address: '上海市静安区南京西路 1515 号',
      latitude: 31.224361,
      longitude: 121.446235,
      startsAt: new Date(t.clock.now() + 10 * DAY).toISOString(),
      endsAt: new Date(t.clock.now() + 10 * DAY + 6 * 3600 * 1000).toISOString()
    })
    expect(saved.body.code).toBe(200)
    const detail = (await as(shopper, '/api/eventDetail', { eventId: saved.body.data.id })).body.data
    expect(detail.reminder.channels).toEqual([])
    expect((await as(shopper, '/api/eventRemind', { eventId: saved.body.data.id, channel: 'mail', email: 'a@example.test' })).body).toMatchObject({ code: 422, data: { field: 'channel' } })
    expect((await get(t.app, '/system/setting/login')).body.data.devLogOnly).toEqual(['sms', 'email'])
  })
})
