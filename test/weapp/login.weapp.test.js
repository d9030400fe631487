/**
 * The compiled login page of dist/weapp: renders, validates, logs in over real HTTP, stores the token
 * under h5_token, and follows the navigation into the subpackage pagesA (home), which renders too.
 */
const fs = require('node:fs')
const http = require('node:http')
const path = require('node:path')
const { createHarness, waitFor } = require('./harness')

const h = createHarness()
let server
const seen = []

beforeAll(async () => {
  if (!fs.existsSync(path.join(h.DIST, 'app.js'))) throw new Error('dist/weapp is missing: run npm run build:weapp first')
  // The shop's login call as the server answers it (the envelope of the wire contract).
  server = http.createServer((req, res) => {
    let body = ''
    req.on('data', c => { body += c })
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body: body ? JSON.parse(body) : null })
      res.writeHead(200, { 'Content-Type': 'application/json' })
      if (req.url === '/dev-api/login/passwd' && JSON.parse(body).password === 'secret1') {
        res.end(JSON.stringify({ code: 200, message: 'ok', data: { token: 'weapp-token', user: { id: 1, userName: 'amy', nickname: 'Amy', phone: null, email: null, avatar: null, role: 'shopper' } } }))
      } else {
        res.end(JSON.stringify({ code: 400, message: '账号或密码错误', data: null }))
      }
    })
  })
  await new Promise(r => server.listen(0, '127.0.0.1', r))
  h.state.apiOrigin = `http://127.0.0.1:${server.address().port}`
  h.boot()
})
afterAll(() => new Promise(r => server.close(r)))

const textOf = (page) => page.dom.textContent

test('app.json has the main pages and the subpackage pagesA with all 14 pages', () => {
  const app = JSON.parse(fs.readFileSync(path.join(h.DIST, 'app.json'), 'utf8'))
  expect(app.pages).toEqual(['pages/login/index', 'pages/web_view/index'])
  expect(app.subPackages).toHaveLength(1)
  expect(app.subPackages[0].root).toBe('pagesA')
  expect(app.subPackages[0].pages).toHaveLength(14)
  for (const p of app.subPackages[0].pages) expect(fs.existsSync(path.join(h.DIST, 'pagesA', `${p}.js`))).toBe(true)
})

test('login page renders, validates, logs in and navigates into pagesA', async () => {
  const page = h.loadPage('pages/login/index')
  await waitFor(() => expect(textOf(page)).toContain('密码登录'))
  await waitFor(() => expect(h.state.titles).toContain('登录页'))
  // sharing is wired (page config enableShareAppMessage / enableShareTimeline)
  expect(h.state.pageMethods['pages/login/index']).toEqual(expect.arrayContaining(['onShareAppMessage', 'onShareTimeline']))

  // empty submit: the spec's messages, no request
  page.querySelector('.login-submit').dispatchEvent('tap')
  await waitFor(() => expect(textOf(page)).toContain('必须提供 user_name、phone 或 email 之一'))
  expect(h.state.toasts).toContain('必须提供 user_name、phone 或 email 之一')
  expect(seen).toHaveLength(0)

  page.querySelector('.input-account').dispatchEvent('input', { detail: { value: 'amy' } })
  page.querySelector('.input-password').dispatchEvent('input', { detail: { value: 'secret1' } })
  page.querySelector('.login-check').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.login-check--on')).toBeTruthy())
  page.querySelector('.login-submit').dispatchEvent('tap')

  await waitFor(() => expect(h.state.navigations).toContainEqual({ type: 'reLaunch', url: '/pagesA/home/index' }))
  expect(seen[0]).toMatchObject({ method: 'POST', url: '/dev-api/login/passwd', body: { user_name: 'amy', password: 'secret1' } })
  expect(seen[0].headers).toMatchObject({ app_type: 'weapp', 'content-type': 'application/json' })
  expect(h.state.storage.h5_token).toBe('weapp-token')

  // follow the navigation: the subpackage home page renders with the user's name
  const home = h.loadPage('pagesA/home/index', {})
  await waitFor(() => expect(textOf(home)).toContain('你好，Amy'))
  await waitFor(() => expect(h.state.titles).toContain('首页'))
  expect(textOf(home)).toContain('在售系列')
  expect(textOf(home)).toContain('没有更多数据了')
})
