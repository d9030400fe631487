/**
 * WeChat login in the compiled mini-program against the shop's real server, which exchanges the code
 * with a local code2session fake (test/support/providers/wechat.js startMiniProgram, written from
 * WeChat's code2Session page): the login page's WeChat button calls wx.login, the server answers a
 * session, and the shopper lands logged in. The code works once: sent again it is refused, and nothing
 * is created for it.
 */
const { createHarness, waitFor } = require('./harness')
const { startShop, request } = require('./shop')
const { startMiniProgram } = require('../support/providers/wechat')

const h = createHarness()
let shop
let wechat

const post = (route, body, token) => request(h.state.apiOrigin, route, body, token)

beforeAll(async () => {
  wechat = await startMiniProgram()
  shop = await startShop(h, { STATIC_DIR: '/nonexistent-h5', WECHAT_APPID: wechat.appid, WECHAT_SECRET: wechat.secret, WECHAT_API_BASE: wechat.url }, { prefix: 'shop-weapp-wx-' })
  // the simulated phone's WeChat hands out the fake's codes
  h.state.wechat = wechat
  h.boot()
}, 90000)

afterAll(async () => {
  await shop?.stop()
  if (wechat) await wechat.close()
})

test('the WeChat button logs in through wx.login and code2session; the code works once', async () => {
  const page = h.loadPage('pages/login/index')
  await waitFor(() => expect(page.querySelector('.login-wechat')).toBeTruthy())
  // the terms first, as for every way in
  page.querySelector('.login-wechat').dispatchEvent('tap')
  await waitFor(() => expect(page.dom.textContent).toContain('请先阅读并同意'))
  expect(h.state.loginCodes).toHaveLength(0)

  page.querySelector('.login-check').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.login-check--on')).toBeTruthy())
  page.querySelector('.login-wechat').dispatchEvent('tap')
  await waitFor(() => expect(h.state.storage.h5_token).toBeTruthy(), 10000)
  expect(h.state.loginCodes).toHaveLength(1)
  const code = h.state.loginCodes[0]
  // the server asked WeChat once, with the app's credentials and that code
  const asked = wechat.calls.filter(c => c.path === '/sns/jscode2session')
  expect(asked).toEqual([expect.objectContaining({ query: expect.objectContaining({ appid: wechat.appid, js_code: code, grant_type: 'authorization_code' }) })])
  // into the shop
  await waitFor(() => expect(h.state.navigations.some(n => /pagesA\/home\/index/.test(n.url))).toBe(true))
  const me = await post('/getUserInfo', undefined, h.state.storage.h5_token)
  expect(me.body.code).toBe(200)

  // the same code again (a replay): WeChat says it was used (40163), the shop refuses, no session
  const again = await post('/login/weapp', { code })
  expect(again.body.code).not.toBe(200)
  expect(again.body.data?.token).toBeUndefined()
  expect(wechat.calls.filter(c => c.path === '/sns/jscode2session')).toHaveLength(2)
})
