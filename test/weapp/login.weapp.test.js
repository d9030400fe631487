/**
 * The compiled login page of dist/weapp against the shop's real API server: renders, validates, is
 * refused a wrong password, logs in, stores the token under h5_token, and follows the navigation into
 * the subpackage pagesA (home), which renders the user's name.
 */
const fs = require('node:fs')
const path = require('node:path')
const { createHarness, waitFor } = require('./harness')
const { startShop } = require('./shop')

const h = createHarness()
let shop

// The shop's real API server (npm start's server), on a free port with a fresh SQLite database and
// the demo accounts it seeds in development.
beforeAll(async () => {
  shop = await startShop(h, {}, { prefix: 'shop-weapp-' })
  h.boot()
}, 90000)

afterAll(async () => {
  await shop?.stop()
})

const textOf = (page) => page.dom.textContent

test('app.json has the main pages and the subpackage pagesA with all 17 pages', () => {
  const app = JSON.parse(fs.readFileSync(path.join(h.DIST, 'app.json'), 'utf8'))
  expect(app.pages).toEqual(['pages/login/index', 'pages/web_view/index'])
  expect(app.subPackages).toHaveLength(1)
  expect(app.subPackages[0].root).toBe('pagesA')
  // the 14 pages of the spec's subpackage, the launch event, and the player show's feed and post (issue 27)
  expect(app.subPackages[0].pages).toHaveLength(17)
  for (const p of app.subPackages[0].pages) expect(fs.existsSync(path.join(h.DIST, 'pagesA', `${p}.js`))).toBe(true)
})

test('login page renders, validates, logs in and navigates into pagesA', async () => {
  const page = h.loadPage('pages/login/index')
  await waitFor(() => expect(textOf(page)).toContain('密码登录'))
  await waitFor(() => expect(h.state.titles).toContain('登录'))
  // sharing is wired (page config enableShareAppMessage / enableShareTimeline)
  expect(h.state.pageMethods['pages/login/index']).toEqual(expect.arrayContaining(['onShareAppMessage', 'onShareTimeline']))

  // the page asked which ways in the shop has (GET /system/setting/login), and nothing else
  await waitFor(() => expect(h.state.requests.map(r => `${r.method} ${r.url}`)).toEqual(['GET /dev-api/system/setting/login']))
  // a development server without WeChat: every tab, no WeChat button (login-settings.weapp.test.js has production's case)
  await waitFor(() => expect(page.querySelector('.login-wechat')).toBeFalsy())
  for (const tab of ['.tab-password', '.tab-sms', '.tab-email']) expect(page.querySelector(tab)).toBeTruthy()
  // empty submit: what is missing in the user's words, no request
  page.querySelector('.login-submit').dispatchEvent('tap')
  await waitFor(() => expect(textOf(page)).toContain('请输入用户名、手机号或邮箱'))
  // under the field only (a toast repeating it would cover it)
  expect(h.state.toasts).not.toContain('请输入用户名、手机号或邮箱')
  expect(h.state.requests).toHaveLength(1)

  // a wrong password: the server's message, no token, no navigation
  page.querySelector('.input-account').dispatchEvent('input', { detail: { value: 'shopper' } })
  page.querySelector('.input-password').dispatchEvent('input', { detail: { value: 'not-the-password' } })
  page.querySelector('.login-check').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.login-check--on')).toBeTruthy())
  page.querySelector('.login-submit').dispatchEvent('tap')
  await waitFor(() => expect(h.state.toasts.some(t => t.startsWith('登录失败'))).toBe(true))
  expect(h.state.storage.h5_token).toBeUndefined()
  expect(h.state.navigations).toEqual([])

  // the demo shopper's password: the real server answers with a token
  page.querySelector('.input-password').dispatchEvent('input', { detail: { value: 'shopper123' } })
  // the failure toast shows just before the button leaves its busy state, and a tap while busy does
  // nothing: tap until the second login request is made
  const logins = () => h.state.requests.filter(r => r.url === '/dev-api/login/passwd').length
  await waitFor(() => {
    if (logins() < 2) page.querySelector('.login-submit').dispatchEvent('tap')
    expect(h.state.navigations).toContainEqual({ type: 'reLaunch', url: '/pagesA/home/index' })
  })
  const login = h.state.requests.filter(r => r.url === '/dev-api/login/passwd')
  expect(login).toHaveLength(2)
  expect(login[1]).toMatchObject({ method: 'POST', data: { user_name: 'shopper', password: 'shopper123' } })
  expect(login[1].header).toMatchObject({ APP_TYPE: 'weapp', 'Content-Type': 'application/json', 'Accept-Language': 'zh-CN' })
  expect(h.state.storage.h5_token).toMatch(/^[A-Za-z0-9_-]{43}$/)

  // follow the navigation: the subpackage home page renders with the user's name
  const home = h.loadPage('pagesA/home/index', {})
  await waitFor(() => expect(textOf(home)).toContain('你好，Demo shopper'))
  await waitFor(() => expect(h.state.titles).toContain('首页'))
  expect(textOf(home)).toContain('在售系列')
  // the series on sale come from the server, the whole list fits one page
  await waitFor(() => expect(textOf(home)).toContain('萌宠乐园'))
  await waitFor(() => expect(textOf(home)).toContain('没有更多了'))
  expect(h.state.requests.some(r => r.url === '/dev-api/api/seriesList')).toBe(true)
})
