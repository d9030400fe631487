/**
 * Pickup points (自提) in the compiled mini-program (issue 24), against the shop's real API server and
 * the local Tencent location service: the demo shopper ships two prizes to a counter. The ship sheet's
 * "到店自提" lists the demo counters within 5 km of the phone (Zhongguancun), nearest first, each with
 * its driving distance and time; WeChat's own map (<map>) gets pins whose icons load from the package,
 * the route's line, and zoom 16 within 5-18, all checked against WeChat's documented map rules
 * (harness.maps); choosing another counter redraws the route; "在地图应用中打开" is wx.openLocation on
 * the counter; the booking is free and waits at the counter on the server. A parcel on its way shows
 * its route on WeChat's map too (Kuaidi100's map track, its local fake): from the shop's city, where it
 * is now, to the address.
 */
const { createHarness, waitFor, maps } = require('./harness')
const { startShop, callApi } = require('./shop')
const tencent = require('../support/providers/tencent')
const kuaidi100 = require('../support/providers/kuaidi100')

const h = createHarness()
/** The phone (GCJ-02, as wx.getLocation({type: 'gcj02'}) answers): Zhongguancun, Beijing. */
const DEVICE = { latitude: 39.98413, longitude: 116.30746 }
let shop
let token
let prizes
let tx
let k100
let parcelId
let page
let counters

const api = (route, body, as = token) => callApi(h.state.apiOrigin, route, body, as)
const textOf = (el) => el.dom.textContent

beforeAll(async () => {
  tx = await tencent.start()
  k100 = await kuaidi100.start()
  shop = await startShop(h, {
    TENCENT_MAP_KEY: tencent.KEY, TENCENT_MAP_API_BASE: tx.url,
    KUAIDI100_CUSTOMER: kuaidi100.CUSTOMER, KUAIDI100_KEY: kuaidi100.KEY, KUAIDI100_API_BASE: k100.url
  }, { prefix: 'shop-weapp-pickup-' })
  token = (await api('/login/passwd', { user_name: 'shopper', password: 'shopper123' })).token
  const me = await api('/getUserInfo')
  await api('/api/ageVerify', { birthDate: '1990-01-01' }).catch(() => undefined)
  const opId = await api('/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId: me.id })
  await api('/generalOrder/create', { productId: 'wallet_topup', userId: me.id, opId, amountCents: 50000, channel: 'sandbox' })
  await api('/api/sandboxPay', { opId })
  const series = (await api('/api/seriesList', { page: 1, size: 10 })).list[0]
  const view = await api('/api/caseCurrent', { seriesId: series.id })
  const slots = view.slots.filter(s => !s.sold).slice(0, 3).map(s => s.slot)
  const bought = (await api('/api/casePurchase', { caseId: view.caseId, slots, acknowledged: true, idempotencyKey: `weapp-pickup-${Date.now()}` })).prizes
  prizes = bought.slice(0, 2)
  const address = await api('/api/addressSave', { name: '赵六', phone: '13800138000', region: '北京市 海淀区', detail: '中关村大街 1 号' })
  const op = await api('/login/passwd', { user_name: 'operator', password: 'operator123' }, null)
  counters = await api('/api/operator/pickupPoints', {}, op.token)
  // the third prize goes by parcel, already on its way
  parcelId = (await api('/api/shipmentCreate', { prizeIds: [bought[2].prizeId], addressId: address.id, idempotencyKey: `weapp-parcel-${Date.now()}` })).shipment.id
  await api('/generalOrder/deliver', { shipmentId: parcelId, carrier: 'shunfeng', trackingNo: 'SF1234567890123' }, op.token)
  // a user who agreed to the privacy guide and allows the location
  h.state.privacy.agreed = true
  h.state.scopeAnswers['scope.userLocation'] = true
  h.state.location = { ...h.state.location, ...DEVICE }
  h.state.storage.h5_token = token
  h.boot()
  page = h.loadPage('pagesA/my_blind_box/index')
  await waitFor(() => expect(page.querySelectorAll('.prize-row').length).toBeGreaterThanOrEqual(3), 15000)
}, 90000)

afterAll(async () => {
  await shop?.stop()
  await tx?.close()
  await k100?.close()
})

test('to a counter: the nearest first on WeChat\'s map with the route, another chosen, opened in WeChat\'s map, booked free', async () => {
  const zgc = counters.find(c => c.name === '拾盒 中关村店')
  const wdk = counters.find(c => c.name === '拾盒 五道口店')
  const gm = counters.find(c => c.name === '拾盒 国贸店')
  page.querySelector('.collection-select').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.select-bar')).toBeTruthy())
  for (const [i, p] of prizes.entries()) {
    page.querySelector(`.prize-${p.prizeId}`).dispatchEvent('tap')
    await waitFor(() => expect(textOf(page)).toContain(`已选 ${i + 1} 件`))
  }
  page.querySelector('.select-ship').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.ship-mode-pickup')).toBeTruthy(), 10000)
  page.querySelector('.ship-mode-pickup').dispatchEvent('tap')

  await waitFor(() => expect(page.querySelectorAll('.pickup-point')).toHaveLength(2), 15000)
  expect(page.querySelector(`.pickup-point-${gm.id}`)).toBeFalsy()
  expect(page.querySelectorAll('.pickup-point')[0].dom.className).toContain(`pickup-point-${zgc.id}`)
  await waitFor(() => expect(page.querySelectorAll('.pickup-point__distance').map(textOf).every(x => /驾车 [\d.]+ (米|公里) · 约 \d+ 分钟/.test(x))).toBe(true), 15000)
  await waitFor(() => expect(page.querySelector(`.pickup-point-${zgc.id} .pickup-steps__step`)).toBeTruthy(), 10000)

  // WeChat's map: what it is given passes its rules; pins with icons from the package, the origin, the route
  let [map] = maps(page)
  await waitFor(() => { [map] = maps(page); expect(map.props.polyline?.length).toBe(1) }, 10000)
  expect(map.problems).toEqual([])
  expect(map.props.scale).toBe(16)
  expect([map.props['min-scale'], map.props['max-scale']]).toEqual([5, 18])
  expect(map.props.markers.map(m => [m.id, m.iconPath])).toEqual([[zgc.id, '/static/map/pin-on.png'], [wdk.id, '/static/map/pin.png'], [0, '/static/map/origin.png']])
  expect(map.props.polyline[0].points.length).toBeGreaterThanOrEqual(2)
  const firstRoute = JSON.stringify(map.props.polyline[0].points)

  // another counter: its route replaces the other
  page.querySelector(`.pickup-point-${wdk.id}`).dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector(`.pickup-point-${wdk.id}`).dom.className).toContain('pickup-point--on'))
  await waitFor(() => { [map] = maps(page); expect(JSON.stringify(map.props.polyline[0].points)).not.toBe(firstRoute) }, 10000)
  expect(map.problems).toEqual([])
  expect(map.props.markers.find(m => m.id === wdk.id).iconPath).toBe('/static/map/pin-on.png')

  // "open in map app": WeChat's map on the counter
  page.querySelector(`.pickup-point-${wdk.id} .pickup-point__open`).dispatchEvent('tap')
  await waitFor(() => expect(h.state.openedLocations).toHaveLength(1))
  expect(h.state.openedLocations[0]).toEqual({ latitude: wdk.latitude, longitude: wdk.longitude, scale: 16, name: '拾盒 五道口店', address: wdk.address })

  // no fee; booked
  expect(textOf(page.querySelector('.ship-fee__value'))).toBe('自提免运费')
  await waitFor(() => expect(page.querySelector('.address-card--on')).toBeTruthy())
  page.querySelector('.ship-confirm').dispatchEvent('tap')
  await waitFor(() => expect(h.state.toasts).toContain('已预约到店自提，到店报取件人姓名和手机号即可领取'), 10000)
  const [shipment] = (await api('/api/shipmentList', { page: 1, size: 10 })).list
  expect(shipment).toMatchObject({ status: 'requested', feeCents: 0, pickup: { id: wdk.id }, address: { name: '赵六', phone: '13800138000' } })
  expect(shipment.items.map(i => i.prizeId).sort()).toEqual(prizes.map(p => p.prizeId).sort())
  expect(tx.calls.filter(c => c.path.startsWith('/ws/direction/v1/driving')).length).toBeGreaterThanOrEqual(2)
}, 90000)

test('a parcel on its way: its route on WeChat\'s map, from the shop\'s city through where it is now to the address', async () => {
  page.querySelector('.collection-view-parcels').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector(`.parcel-${parcelId}`)).toBeTruthy(), 15000)
  await waitFor(() => expect(page.querySelector(`.parcel-${parcelId} .parcel-route__stops`)).toBeTruthy(), 15000)
  expect(textOf(page.querySelector(`.parcel-${parcelId} .parcel-route__stops`))).toBe('发出 广东省深圳市 → 当前 上海 上海市 → 送往 北京市 海淀区 中关村大街 1 号')
  const sent = k100.calls.find(c => c.path === '/poll/maptrack.do')
  expect(sent.param).toMatchObject({ com: 'shunfeng', num: 'SF1234567890123', from: '广东省深圳市', to: '北京市 海淀区 中关村大街 1 号', phone: '13800138000' })
  const found = maps(page)
  expect(found).toHaveLength(1)
  const [map] = found
  expect(map.problems).toEqual([])
  expect(map.props.markers.map(m => [m.id, m.iconPath])).toEqual([[1, '/static/map/pin.png'], [2, '/static/map/pin-on.png'], [3, '/static/map/pin.png']])
  expect(map.props.polyline[0].points).toEqual([{ latitude: 22.543, longitude: 114.058 }, { latitude: 31.23, longitude: 121.474 }, { latitude: 39.904, longitude: 116.407 }])
}, 60000)
