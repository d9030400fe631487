/**
 * Issue 48 in the compiled mini-program. The web view refuses a page outside the shop's business
 * domains (the list from the public settings): no web-view is rendered, a warning instead, and the
 * link's title is not shown. Reaching the shop: the profile's contact panel offers WeChat's
 * customer service first (a <button open-type="contact">, the way mini-program shoppers expect; the form
 * stays below it), telling the shop's message server who came and offering a card of the panel that leads
 * back to it; and the player show has its way in from home and from the profile.
 * WeChat's session is ./wx-contact.js (its rules cite WeChat's documentation).
 */
const { createHarness, waitFor, mediaSources } = require('./harness')
const { startShop, callApi } = require('./shop')
const { tapContact } = require('./wx-contact')

const h = createHarness()
let shop
let me
/** The profile page, loaded once (the simulator runs a compiled page's code once per file). */
let page

const api = (route, body, as) => callApi(h.state.apiOrigin, route, body, as)

beforeAll(async () => {
  shop = await startShop(h, {}, { prefix: 'shop-weapp-contact-' })
  const login = await api('/login/passwd', { user_name: 'shopper', password: 'shopper123' }, null)
  me = await api('/getUserInfo', undefined, login.token)
  const op = await api('/login/passwd', { user_name: 'operator', password: 'operator123' }, null)
  await api('/api/operator/webDomainsSave', { domains: ['shop.example.com'] }, op.token)
  h.state.storage.h5_token = login.token
  h.boot()
}, 90000)

afterAll(async () => { await shop?.stop() })

test('the contact panel: WeChat customer service first, the session knows the account, its card leads back here; the form is still there', async () => {
  page = h.loadPage('pagesA/profile/index', { contact: '1' })
  await waitFor(() => expect(page.querySelector('.wechat-contact__button')).toBeTruthy(), 15000)
  // the button names the account once the profile has loaded it (before that it says guest); on a busy
  // machine the panel shows first
  await waitFor(() => expect(page.querySelector('.profile-sub')).toBeTruthy(), 15000)
  expect(page.querySelector('.contact-submit')).toBeTruthy()
  expect(page.dom.textContent).toContain('微信客服')

  // nothing but the open-type button opens a session
  expect(() => tapContact(h.state, page, '.wechat-contact__hint', h.DIST)).toThrow(/not a <button>|not an open-type/)
  expect(() => tapContact(h.state, page, '.contact-submit', h.DIST)).toThrow(/not a <button>|not an open-type/)
  expect(h.state.contactSessions ?? []).toHaveLength(0)

  const session = tapContact(h.state, page, '.wechat-contact__button', h.DIST, { pageTitle: '个人中心', sharePath: 'pagesA/profile/index' })
  expect(session.sessionFrom).toBe(`user:${me.id}`)
  expect(session.card).toEqual({ title: '我在拾盒需要帮助', path: '/pagesA/profile/index?contact=1' })

  // the shopper taps the card in the session: back in the mini-program, on the contact panel
  const before = h.state.navigations.length
  expect(session.tapCard()).toEqual({ path: 'pagesA/profile/index', query: { contact: '1' } })
  await waitFor(() => expect(h.state.navigations.length).toBeGreaterThan(before), 10000)
  expect(h.state.navigations.at(-1)).toEqual({ type: 'navigateTo', url: '/pagesA/profile/index?contact=1' })
}, 60000)

test('the player show: from the profile menu and from a home shortcut', async () => {
  // the contact menu item closes the panel, and WeChat's button with it
  page.querySelector('.menu-contact').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.wechat-contact__button')).toBeFalsy(), 10000)
  let before = h.state.navigations.length
  page.querySelector('.menu-show').dispatchEvent('tap')
  await waitFor(() => expect(h.state.navigations.length).toBeGreaterThan(before), 10000)
  expect(h.state.navigations.at(-1)).toEqual({ type: 'navigateTo', url: '/pagesA/show/index' })

  const home = h.loadPage('pagesA/home/index')
  await waitFor(() => expect(home.querySelector('.shortcut-show')).toBeTruthy(), 15000)
  expect(home.querySelector('.shortcut-show').dom.textContent).toContain('玩家秀')
  before = h.state.navigations.length
  home.querySelector('.shortcut-show').dispatchEvent('tap')
  await waitFor(() => expect(h.state.navigations.length).toBeGreaterThan(before), 10000)
  expect(h.state.navigations.at(-1)).toEqual({ type: 'navigateTo', url: '/pagesA/show/index' })
}, 60000)

test('the web view: a page outside the business domains is refused, its title never shown', async () => {
  const url = 'https://evil-shop.example.com/login'
  const page = h.loadPage('pages/web_view/index', { url: encodeURIComponent(url), title: encodeURIComponent('Bank sign-in') })
  await waitFor(() => expect(page.dom.textContent).toContain('这个网页不属于本店'), 15000)
  expect(mediaSources(page)).not.toContain(url)
  expect(mediaSources(page).filter(s => /evil/.test(s))).toEqual([])
  expect(h.state.titles.map(t => JSON.stringify(t)).join(' ')).not.toMatch(/Bank/)
}, 60000)
