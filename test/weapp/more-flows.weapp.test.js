/**
 * Three more main actions of the compiled mini-program against the shop's real server (SMS through the
 * local relay, the AI through the local Dify fake): logging in with an SMS code, withdrawing cash, and
 * filing a complaint with a screenshot the AI reads. Each is checked through the API, not only on screen.
 */
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { createHarness, waitFor, mediaSources } = require('./harness')
const { WEAPP_TEST_API_ORIGIN } = require('./origin')
const { startShop, callApi } = require('./shop')
const smsRelay = require('../support/providers/sms')
const dify = require('../support/providers/dify')
const { makePng } = require('../support/png')

const h = createHarness()
const PHONE = '13800000001' // the demo shopper's
let shop
let relay
let ai
let token

const api = (route, body, as = token) => callApi(h.state.apiOrigin, route, body, as)
const textOf = (page) => page.dom.textContent
const settle = () => new Promise(r => setTimeout(r, 100))

beforeAll(async () => {
  relay = await smsRelay.start()
  ai = await dify.start()
  shop = await startShop(h, { STATIC_DIR: '/nonexistent-h5', ...relay.env, ...dify.envFor(ai) }, { prefix: 'shop-weapp-more-' })
  h.boot()
}, 90000)

afterAll(async () => {
  await shop?.stop()
  if (relay) await relay.close()
  if (ai) await ai.close()
})

test('SMS code login: the code sent to the phone logs the shopper in and into pagesA', async () => {
  const page = h.loadPage('pages/login/index')
  await waitFor(() => expect(page.querySelector('.tab-sms')).toBeTruthy(), 10000)
  page.querySelector('.tab-sms').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.input-phone')).toBeTruthy())
  page.querySelector('.input-phone').dispatchEvent('input', { detail: { value: PHONE } })
  await settle()
  page.querySelector('.login-code-btn').dispatchEvent('tap')
  await waitFor(() => expect(relay.messages.some(m => m.phone === PHONE)).toBe(true), 10000)
  // the button counts down instead of sending again
  await waitFor(() => expect(page.querySelector('.login-code-btn--wait')).toBeTruthy())
  page.querySelector('.input-code').dispatchEvent('input', { detail: { value: relay.lastCode(PHONE) } })
  page.querySelector('.login-check').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.login-check--on')).toBeTruthy())
  await settle()
  page.querySelector('.login-submit').dispatchEvent('tap')
  await waitFor(() => expect(h.state.storage.h5_token).toBeTruthy(), 10000)
  token = h.state.storage.h5_token
  await waitFor(() => expect(h.state.navigations.some(n => /pagesA\/home\/index/.test(n.url || ''))).toBe(true))
  const me = await api('/getUserInfo')
  expect(me.phone || me.userName || me.user_name).toBeTruthy()
  expect(JSON.stringify(me)).toContain('shopper')
}, 30000)

test('withdraw: an amount of the cash, sent; the request is listed and the cash is held', async () => {
  const me = await api('/getUserInfo')
  await api('/api/ageVerify', { birthDate: '1990-01-01' }).catch(() => undefined)
  const opId = await api('/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId: me.id })
  await api('/generalOrder/create', { productId: 'wallet_topup', userId: me.id, opId, amountCents: 5000, channel: 'sandbox' })
  await api('/api/sandboxPay', { opId })
  const before = await api('/api/withdrawInfo', {})
  expect(before.cashCents).toBeGreaterThanOrEqual(5000)

  const page = h.loadPage('pagesA/recharge/index', { withdraw: '1' })
  await waitFor(() => expect(page.querySelector('.withdraw-amount')).toBeTruthy(), 10000)
  await waitFor(() => expect(textOf(page)).toContain('¥'), 10000)
  page.querySelector('.withdraw-amount').dispatchEvent('input', { detail: { value: '12.34' } })
  await settle()
  await waitFor(() => expect(page.querySelector('.withdraw-submit.btn--disabled')).toBeFalsy())
  page.querySelector('.withdraw-submit').dispatchEvent('tap')
  // a dialog the app shows on the way is confirmed (h.state.modalConfirms)
  await waitFor(() => expect(page.querySelector('.withdraw-row')).toBeTruthy(), 10000)
  expect(textOf(page)).toContain('12.34')

  const after = await api('/api/withdrawInfo', {})
  expect(before.cashCents - after.cashCents).toBe(1234)
  const list = await api('/api/withdrawList', { page: 1, size: 10 })
  expect(list.list).toHaveLength(1)
  expect(list.list[0]).toMatchObject({ amountCents: 1234 })
}, 30000)

test('a complaint with a screenshot: picked and uploaded through WeChat, read by the AI, filed with what it read', async () => {
  const shot = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wx-shot-')), 'screenshot.png')
  fs.writeFileSync(shot, makePng(64, 48, [200, 40, 40]))
  h.state.chooseImage = { path: shot, fail: '' }
  // the shopper agreed to the privacy guide before (wx-privacy.weapp.test.js has the prompt itself)
  h.state.privacy.agreed = true
  const uploads = h.state.uploads.length

  const page = h.loadPage('pagesA/profile/index', { contact: '1' })
  await waitFor(() => expect(page.querySelector('.contact-attach')).toBeTruthy(), 10000)
  page.querySelector('.contact-attach').dispatchEvent('tap')
  await waitFor(() => expect(h.state.uploads.length).toBe(uploads + 1), 10000)
  expect(h.state.uploads[uploads].url).toMatch(/^\/dev-api\//)
  // what the AI read goes under the message, and the picture is shown from the API's domain
  await waitFor(() => expect(page.querySelector('.contact-shot__img')).toBeTruthy(), 10000)
  await waitFor(() => expect(ai.calls.length).toBe(1), 10000)
  // the AI was handed the uploaded picture (an image file by URL, as Dify takes it)
  expect(JSON.stringify(ai.calls[0].files)).toMatch(/"type":"image"/)
  await waitFor(() => expect(h.state.toasts.length).toBeGreaterThan(0))
  const shown = mediaSources(page).filter(src => src.includes('/media/'))
  expect(shown.length).toBe(1)
  expect(shown[0].startsWith(`${WEAPP_TEST_API_ORIGIN}/media/`)).toBe(true)

  page.querySelector('.contact-topic-prize').dispatchEvent('tap')
  const typed = '开出的奖品和页面上的图片不一样，截图在这里。'
  page.querySelector('.contact-text').dispatchEvent('input', { detail: { value: typed } })
  await settle()
  page.querySelector('.contact-submit').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.contact-item--open')).toBeTruthy(), 10000)
  const mine = await api('/api/complaintList', { page: 1, size: 10 })
  expect(mine.list[0]).toMatchObject({ topic: 'prize', status: 'open' })
  expect(mine.list[0].text).toContain('截图在这里')
}, 30000)
