/**
 * Issue 48 in the compiled mini-program, against the shop's real API server with no map provider (so
 * neither the device's position nor the IP location can place the phone) and the location scope
 * refused: "到店自提" lists every counter by city, a search narrows them, one is chosen and booked. The
 * address form imports an address from WeChat (wx.chooseAddress, with WeChat's declaration and privacy
 * rules of test/weapp/wx-privacy.js), keeps the imported region as its parts, and takes a region from
 * WeChat's own region picker; closing WeChat's address page changes nothing.
 */
const { createHarness, waitFor } = require('./harness')
const { tapAgree } = require('./wx-privacy')
const { startShop, callApi } = require('./shop')

const h = createHarness()
let shop
let token
let prizes
let counters
let page

const api = (route, body, as = token) => callApi(h.state.apiOrigin, route, body, as)
const textOf = (el) => el.dom.textContent

beforeAll(async () => {
  shop = await startShop(h, {}, { prefix: 'shop-weapp-address-' })
  token = (await api('/login/passwd', { user_name: 'shopper', password: 'shopper123' })).token
  const me = await api('/getUserInfo')
  await api('/api/ageVerify', { birthDate: '1990-01-01' }).catch(() => undefined)
  const opId = await api('/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId: me.id })
  await api('/generalOrder/create', { productId: 'wallet_topup', userId: me.id, opId, amountCents: 50000, channel: 'sandbox' })
  await api('/api/sandboxPay', { opId })
  const series = (await api('/api/seriesList', { page: 1, size: 10 })).list[0]
  const view = await api('/api/caseCurrent', { seriesId: series.id })
  const slots = view.slots.filter(s => !s.sold).slice(0, 2).map(s => s.slot)
  prizes = (await api('/api/casePurchase', { caseId: view.caseId, slots, acknowledged: true, idempotencyKey: `weapp-address-${Date.now()}` })).prizes
  const op = await api('/login/passwd', { user_name: 'operator', password: 'operator123' }, null)
  counters = await api('/api/operator/pickupPoints', {}, op.token)
  // the location refused in WeChat's popup; privacy not agreed yet
  h.state.scopeAnswers['scope.userLocation'] = false
  h.state.storage.h5_token = token
  h.boot()
  page = h.loadPage('pagesA/my_blind_box/index')
  await waitFor(() => expect(page.querySelectorAll('.prize-row').length).toBeGreaterThanOrEqual(2), 15000)
}, 90000)

afterAll(async () => { await shop?.stop() })

async function openSheet (prizeId) {
  page.querySelector('.collection-view-prizes').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector(`.prize-${prizeId}`)).toBeTruthy(), 10000)
  page.querySelector('.collection-select').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.select-bar')).toBeTruthy())
  page.querySelector(`.prize-${prizeId}`).dispatchEvent('tap')
  await waitFor(() => expect(textOf(page)).toContain('已选 1 件'))
  page.querySelector('.select-ship').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.ship-form') || page.querySelector('.ship-add')).toBeTruthy(), 10000)
}

test('an address imported from WeChat (privacy asked first), its region kept as parts; a closed address page changes nothing; WeChat\'s region picker', async () => {
  await openSheet(prizes[0].prizeId)
  if (!page.querySelector('.ship-form')) page.querySelector('.ship-add').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.ship-import')).toBeTruthy(), 10000)
  expect(textOf(page.querySelector('.ship-import'))).toBe('导入微信收货地址')

  // privacy not agreed: WeChat holds chooseAddress and the app's prompt asks; agreed, the form is filled
  page.querySelector('.ship-import').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.privacy-prompt')).toBeTruthy(), 10000)
  expect(h.state.privacy.asked).toContain('chooseAddress')
  tapAgree(h.state, page)
  await waitFor(() => expect(page.querySelector('.region-picker__value')).toBeTruthy(), 10000)
  expect(textOf(page.querySelector('.region-picker__value'))).toBe('广东省 深圳市 南山区')

  // WeChat's address page closed: nothing changes, and nothing is said to be wrong
  h.state.wechatAddress = null
  h.state.toasts.length = 0
  page.querySelector('.ship-import').dispatchEvent('tap')
  await new Promise(r => setTimeout(r, 300))
  expect(h.state.toasts).toEqual([])
  expect(textOf(page.querySelector('.region-picker__value'))).toBe('广东省 深圳市 南山区')

  // WeChat's own region picker: another district
  page.querySelector('.region-picker').dispatchEvent('change', { detail: { value: ['广东省', '深圳市', '福田区'], code: ['440000', '440300', '440304'] } })
  await waitFor(() => expect(textOf(page.querySelector('.region-picker__value'))).toBe('广东省 深圳市 福田区'))

  page.querySelector('.ship-form__save').dispatchEvent('tap')
  // the form closes once the address is saved
  await waitFor(() => expect(page.querySelector('.ship-form')).toBeFalsy(), 10000)
  const saved = (await api('/api/addressList', {})).find(a => a.name === '韩梅梅')
  expect(saved).toMatchObject({ phone: '13900139000', region: '广东省 深圳市 福田区', area: { province: '广东省', city: '深圳市', district: '福田区' }, detail: '科技园科苑路 15 号 2 栋 301' })
  // shown masked on its card
  await waitFor(() => expect(page.querySelector(`.address-${saved.id}`)).toBeTruthy())
  expect(textOf(page.querySelector(`.address-${saved.id} .address-card__who`))).toContain('139****9000')
}, 60000)

test('no position at all: every counter by city, a search, one chosen and booked', async () => {
  page.querySelector('.ship-mode-pickup').dispatchEvent('tap')
  await waitFor(() => expect(textOf(page)).toContain('无法获取当前位置：下面列出全部自提点，可按名称、地址或城市搜索'), 15000)
  const open = counters.filter(c => c.active)
  await waitFor(() => expect(page.querySelectorAll('.pickup-point')).toHaveLength(open.length), 10000)
  expect(textOf(page.querySelector('.pickup-dir__city-name'))).toBe(`北京市 · ${open.length} 个自提点`)
  expect(page.querySelector('.ship-confirm').dom.className).toContain('btn--disabled')

  page.querySelector('.pickup-dir__search').dispatchEvent('input', { detail: { value: '国贸' } })
  await waitFor(() => expect(page.querySelectorAll('.pickup-point')).toHaveLength(1))
  const gm = counters.find(c => c.name === '拾盒 国贸店')
  page.querySelector(`.pickup-point-${gm.id}`).dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector(`.pickup-point-${gm.id}`).dom.className).toContain('pickup-point--on'))
  await waitFor(() => expect(page.querySelector('.ship-confirm').dom.className).not.toContain('btn--disabled'))
  page.querySelector('.ship-confirm').dispatchEvent('tap')
  await waitFor(() => expect(h.state.toasts).toContain('已预约到店自提，到店报取件人姓名和手机号即可领取'), 10000)
  const [shipment] = (await api('/api/shipmentList', { page: 1, size: 10 })).list
  expect(shipment).toMatchObject({ status: 'requested', feeCents: 0, pickup: { id: gm.id } })
}, 60000)
