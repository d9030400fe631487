/**
 * Shipping a prize from the collection (pagesA/my_blind_box, its ship sheet and address form with "use my
 * location") in the compiled mini-program, against the shop's real API server, with WeChat's privacy and
 * location rules of test/weapp/wx-privacy.js (issue 22 item 4): the demo shopper ships one prize with
 * privacy declined (the app's prompt, then the IP location), one with privacy agreed through the prompt's
 * agree button and the location allowed (the device's position), and one with the location scope refused
 * (the IP location, "您已拒绝授权" and the settings, which turn it back on).
 *
 * Maps: the local Tencent fake (geocoder around Beijing and Shenzhen) and the AMap fake for the IP
 * location. The phone's public address reaches the server as a proxy in front of it reports it
 * (X-Forwarded-For from 127.0.0.1, TRUST_PROXY=127.0.0.1): a Beijing address, while the device is in
 * Shenzhen, so the form shows which of the two filled it.
 */
const { createHarness, waitFor } = require('./harness')
const { tapAgree } = require('./wx-privacy')
const { startShop, callApi } = require('./shop')
const tencent = require('../support/providers/tencent')
const amap = require('../support/providers/amap')

const h = createHarness()
/** A Beijing address the AMap fake knows (its rectangle's centre geocodes to 北京市 海淀区). */
const PHONE_IP = '101.6.6.6'
/** The device: Shenzhen's civic centre (the Tencent fake's 广东省 深圳市 福田区). */
const DEVICE = { latitude: 22.5431, longitude: 114.0579 }
let shop
let token
let prizes
let tx
let am
let page

const api = (route, body, as = token) => callApi(h.state.apiOrigin, route, body, as)

beforeAll(async () => {
  tx = await tencent.start()
  am = await amap.start()
  shop = await startShop(h, { TENCENT_MAP_KEY: tencent.KEY, TENCENT_MAP_API_BASE: tx.url, AMAP_KEY: amap.KEY, AMAP_API_BASE: am.url, TRUST_PROXY: '127.0.0.1' }, { prefix: 'shop-weapp-' })
  // the demo shopper, with three prizes in the warehouse and money for the shipping fees
  token = (await api('/login/passwd', { user_name: 'shopper', password: 'shopper123' })).token
  const me = await api('/getUserInfo')
  await api('/api/ageVerify', { birthDate: '1990-01-01' }).catch(() => undefined)
  const opId = await api('/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId: me.id })
  await api('/generalOrder/create', { productId: 'wallet_topup', userId: me.id, opId, amountCents: 50000, channel: 'sandbox' })
  await api('/api/sandboxPay', { opId })
  const series = (await api('/api/seriesList', { page: 1, size: 10 })).list[0]
  const view = await api('/api/caseCurrent', { seriesId: series.id })
  const slots = view.slots.filter(s => !s.sold).slice(0, 3).map(s => s.slot)
  prizes = (await api('/api/casePurchase', { caseId: view.caseId, slots, acknowledged: true, idempotencyKey: `weapp-ship-${Date.now()}` })).prizes
  // the phone's public address, as the proxy in front of the server reports it
  const send = wx.request
  wx.request = (opts) => send({ ...opts, header: { ...(opts.header || {}), 'x-forwarded-for': PHONE_IP } })
  h.state.location = { ...h.state.location, ...DEVICE }
  h.state.storage.h5_token = token
  h.boot()
  page = h.loadPage('pagesA/my_blind_box/index')
  await waitFor(() => expect(page.querySelectorAll('.prize-row').length).toBeGreaterThanOrEqual(3), 15000)
}, 90000)

afterAll(async () => {
  await shop?.stop()
  await tx?.close()
  await am?.close()
})

const textOf = (el) => el.dom.textContent
const notice = () => page.querySelector('.address-locator__notice')

/** Select one prize of the collection and open the ship sheet on a new address's form. */
async function openForm (prizeId) {
  page.querySelector('.collection-view-prizes').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector(`.prize-${prizeId}`)).toBeTruthy(), 10000)
  await waitFor(() => expect(page.querySelector('.collection-select')).toBeTruthy(), 10000)
  page.querySelector('.collection-select').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.select-bar')).toBeTruthy())
  // the list may render again as selection starts (on a busy machine the prize tapped at once was a
  // node already replaced, and nothing was selected): tap the prize as it is now, again after a second
  // if the count still says none (never sooner, so a slow first tap is not undone by a second)
  let tapped = 0
  await waitFor(() => {
    const prize = page.querySelector(`.prize-${prizeId}`)
    if (prize && textOf(page).includes('已选 0 件') && Date.now() - tapped > 1000) {
      tapped = Date.now()
      prize.dispatchEvent('tap')
    }
    expect(textOf(page)).toContain('已选 1 件')
  }, 10000)
  page.querySelector('.select-ship').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.ship-form') || page.querySelector('.ship-add')).toBeTruthy(), 10000)
  if (!page.querySelector('.ship-form')) page.querySelector('.ship-add').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.address-locator__locate')).toBeTruthy(), 10000)
}

/** Name and phone typed, the address saved (region and detail as located), the prize shipped to it. */
async function saveAndShip (prizeId, name) {
  const before = page.querySelectorAll('.address-card').length
  page.querySelector('.ship-name').dispatchEvent('input', { detail: { value: name } })
  page.querySelector('.ship-phone').dispatchEvent('input', { detail: { value: '13800138000' } })
  await new Promise(r => setTimeout(r, 50))
  page.querySelector('.ship-form__save').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelectorAll('.address-card').length).toBe(before + 1), 10000)
  page.querySelector('.ship-confirm').dispatchEvent('tap')
  await waitFor(() => expect(h.state.toasts).toContain('已申请发货，发出后会显示快递单号'), 10000)
  h.state.toasts.length = 0
  expect((await api('/api/prizeDetail', { prizeId })).status).toBe('shipping')
  const saved = (await api('/api/addressList', {})).find(a => a.name === name)
  return saved
}

test('privacy declined: the prompt, then the IP location fills the form; the prize still ships', async () => {
  expect(h.state.privacy.agreed).toBe(false)
  h.state.scopeAnswers['scope.userLocation'] = true
  const p = prizes[0]
  await openForm(p.prizeId)
  page.querySelector('.address-locator__locate').dispatchEvent('tap')
  // WeChat holds getLocation and asks the app's listener: the prompt shows on this page
  await waitFor(() => expect(page.querySelector('.privacy-prompt')).toBeTruthy(), 10000)
  expect(textOf(page.querySelector('.privacy-prompt'))).toContain('《拾盒隐私保护指引》')
  expect(h.state.privacy.asked).toEqual(['getLocation'])
  expect(h.state.privacy.exposures).toBe(1)
  // "read the guide" opens WeChat's page of it
  page.querySelector('.privacy-prompt__contract').dispatchEvent('tap')
  await waitFor(() => expect(h.state.privacy.contractOpened).toBe(1))
  page.querySelector('.privacy-prompt__decline').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.privacy-prompt')).toBeFalsy())
  await waitFor(() => expect(textOf(notice())).toBe('按网络位置估算，可能不够准确'), 10000)
  // no authorization popup: privacy comes first, and it was declined
  expect(h.state.scopePopups).toEqual([])
  expect(page.querySelector('.address-locator__settings')).toBeFalsy()
  const saved = await saveAndShip(p.prizeId, '拒绝隐私')
  expect(saved.region).toBe('北京市 海淀区')
}, 60000)

test('privacy agreed with the prompt\'s agree button, location allowed: the device\'s position fills the form', async () => {
  const p = prizes[1]
  await openForm(p.prizeId)
  page.querySelector('.address-locator__locate').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.privacy-prompt')).toBeTruthy(), 10000)
  tapAgree(h.state, page)
  await waitFor(() => expect(page.querySelector('.privacy-prompt')).toBeFalsy())
  expect(h.state.privacy.agreed).toBe(true)
  await waitFor(() => expect(textOf(notice())).toBe('已按当前位置填写，请核对门牌号'), 10000)
  expect(h.state.scopePopups).toEqual(['scope.userLocation'])
  expect(h.state.scopes['scope.userLocation']).toBe(true)
  const saved = await saveAndShip(p.prizeId, '允许定位')
  expect(saved.region).toBe('广东省 深圳市 福田区')
}, 60000)

test('location refused: the IP location, "您已拒绝授权" and the settings; allowed there, the device\'s position', async () => {
  // the user switched location off in the mini-program's settings since
  h.state.scopes['scope.userLocation'] = false
  const popups = h.state.scopePopups.length
  const p = prizes[2]
  await openForm(p.prizeId)
  page.querySelector('.address-locator__locate').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.address-locator__denied')).toBeTruthy(), 10000)
  const denied = textOf(page.querySelector('.address-locator__denied'))
  expect(denied).toContain('您已拒绝授权')
  expect(denied).toContain('按网络位置估算，可能不够准确')
  // refused: WeChat does not ask again, and no privacy prompt (agreed before)
  expect(h.state.scopePopups).toHaveLength(popups)
  expect(page.querySelector('.privacy-prompt')).toBeFalsy()
  // the settings: the user turns location on, and the form is filled from the device
  h.state.settingsAnswers['scope.userLocation'] = true
  page.querySelector('.address-locator__settings').dispatchEvent('tap')
  await waitFor(() => expect(textOf(notice())).toBe('已按当前位置填写，请核对门牌号'), 10000)
  expect(page.querySelector('.address-locator__denied')).toBeFalsy()
  const saved = await saveAndShip(p.prizeId, '拒绝定位')
  expect(saved.region).toBe('广东省 深圳市 福田区')
}, 60000)
