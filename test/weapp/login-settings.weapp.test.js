/**
 * The compiled login page of dist/weapp follows the server's login settings (GET /system/setting/login),
 * against a real API server in production with no SMS or mail provider and the mini-program's WeChat
 * credentials: only the password tab, sign-up by user name only, and the WeChat button (the H5-only
 * WeChat web button never shows in the mini-program). login.weapp.test.js has the development server's
 * case: every tab, no WeChat button.
 */
const { createHarness, waitFor } = require('./harness')
const { startShop } = require('./shop')

const h = createHarness()
const servers = []

/** A server of its own with `env`; its origin. */
async function startServer (env) {
  const shop = await startShop(h, { SMS_PROVIDER_URL: '', STATIC_DIR: '/nonexistent-h5', ...env }, { prefix: 'shop-weapp-login-', setOrigin: false })
  servers.push(shop)
  return shop.origin
}

beforeAll(async () => {
  // WeChat web OAuth configured too: its button is for H5 only
  h.state.apiOrigin = await startServer({ NODE_ENV: 'production', WECHAT_APPID: 'wx0123456789abcdef', WECHAT_SECRET: 'mini-secret', WECHAT_OAUTH_APPID: 'wxoauth0123456789', WECHAT_OAUTH_SECRET: 'oauth-secret' })
  h.boot()
}, 90000)

afterAll(async () => {
  for (const s of servers) await s.stop()
})

const textOf = (page) => page.dom.textContent
const settingsAsked = () => h.state.requests.filter(r => r.url === '/dev-api/system/setting/login').length

test('production without SMS and mail: the password tab alone, sign-up, and the mini-program\'s WeChat button', async () => {
  const before = settingsAsked()
  const page = h.loadPage('pages/login/index')
  await waitFor(() => expect(settingsAsked()).toBe(before + 1))
  // the tabs as the settings say (no SMS tab is also what a page not drawn yet shows: wait for the password tab too)
  await waitFor(() => {
    expect(page.querySelector('.tab-sms')).toBeFalsy()
    expect(page.querySelector('.tab-password')).toBeTruthy()
  })
  expect(page.querySelector('.tab-email')).toBeFalsy()
  expect(textOf(page)).toContain('密码登录')
  expect(textOf(page)).not.toContain('短信登录')
  expect(textOf(page)).not.toContain('邮箱登录')
  expect(page.querySelector('.login-wechat')).toBeTruthy()
  expect(page.querySelector('.login-wechat--web')).toBeFalsy()
  expect(textOf(page)).toContain('还没有账号？去注册')
  // sign-up offers only what can be verified: a user name (no phone or e-mail code can be sent)
  page.querySelector('.login-switch').dispatchEvent('tap')
  await waitFor(() => expect(textOf(page)).toContain('注册新账号'))
  await waitFor(() => expect(h.state.titles[h.state.titles.length - 1]).toBe('注册'))
  expect(page.querySelector('.register-by-phone')).toBeFalsy()
  expect(page.querySelector('.register-by-email')).toBeFalsy()
  expect(page.querySelector('.input-account')).toBeTruthy()
  expect(page.querySelector('.input-code')).toBeFalsy()
})
