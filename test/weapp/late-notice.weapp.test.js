/**
 * Issue 48 in the compiled mini-program: Pay, then Back while the purchase's answer is on its way. The
 * purchase completes after its page is gone; the page that shows then tells it (components/LateNotice),
 * with a link to its opening, and the purchase is kept in storage until its answer came.
 */
const { createHarness, waitFor } = require('./harness')
const { startShop, callApi } = require('./shop')

const h = createHarness()
let shop
let token

const api = (route, body, as = token) => callApi(h.state.apiOrigin, route, body, as)
const textOf = (page) => page.dom.textContent
const lastNavigation = () => h.state.navigations[h.state.navigations.length - 1]

beforeAll(async () => {
  shop = await startShop(h, {}, { prefix: 'shop-weapp-late-' })
  const userName = `late_${Date.now().toString(36)}`
  const registered = await api('/login/register?table=user', { user_name: userName, password: 'late-pass' }, null)
  token = registered.token
  await api('/api/ageVerify', { birthDate: '1990-01-01' })
  const opId = await api('/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId: registered.user.id })
  await api('/generalOrder/create', { productId: 'wallet_topup', userId: registered.user.id, opId, amountCents: 50000, channel: 'sandbox' })
  await api('/api/sandboxPay', { opId })
  h.state.storage.h5_token = token
  h.boot()
}, 90000)

afterAll(async () => { await shop?.stop() })

test('Back while paying: the purchase that completes afterwards is told on the page that shows, with its opening', async () => {
  const s = (await api('/api/seriesList', { page: 1, size: 10 })).list[0]
  const view = await api('/api/caseCurrent', { seriesId: s.id })
  const slot = view.slots.find(x => !x.sold).slot
  const before = await api('/api/walletBalance', {})

  // the purchase's answer is held until the shopper has gone Back (the request itself goes through)
  const realRequest = wx.request
  let release = null
  const held = new Promise(resolve => { release = resolve })
  wx.request = (opts) => {
    if (!String(opts.url).endsWith('/api/casePurchase')) return realRequest(opts)
    return realRequest({
      ...opts,
      success: (res) => { held.then(() => opts.success && opts.success(res)) },
      complete: (res) => { held.then(() => opts.complete && opts.complete(res)) }
    })
  }
  try {
    h.state.stack = [{ route: 'pagesA/blind_box_detail/index', options: { seriesId: String(s.id) } }, { route: 'pagesA/purchase/index', options: {} }]
    const purchase = h.loadPage('pagesA/purchase/index', { seriesId: String(s.id), caseId: String(view.caseId), slots: String(slot) })
    await waitFor(() => expect(purchase.querySelector('.purchase-pay')).toBeTruthy(), 10000)
    purchase.querySelector('.disclosure .purchase-ack').dispatchEvent('tap')
    await waitFor(() => expect(purchase.querySelector('.purchase-pay').dom.className).not.toContain('btn--disabled'))
    purchase.querySelector('.purchase-pay').dispatchEvent('tap')
    // on its way, and kept in storage with its key
    await waitFor(() => expect((h.state.storage.purchases_in_flight || []).length).toBe(1), 10000)
    const kept = h.state.storage.purchases_in_flight[0]
    expect(kept.request).toMatchObject({ caseId: view.caseId, slots: [slot] })

    // Back: the purchase page goes, the series page shows
    wx.navigateBack()
    purchase.instance.onUnload()
    h.state.route = { route: 'pagesA/blind_box_detail/index', query: { seriesId: String(s.id) } }
    const detail = h.loadPage('pagesA/blind_box_detail/index', { seriesId: String(s.id) })
    await waitFor(() => expect(detail.querySelector('.slot')).toBeTruthy(), 10000)
    expect(detail.querySelector('.late-notice')).toBeFalsy()

    release()
    await waitFor(() => expect(detail.querySelector('.late-notice--bought')).toBeTruthy(), 10000)
    expect(textOf(detail.querySelector('.late-notice--bought'))).toContain(`#${view.caseId} 箱的 ${slot} 号盒已经买下，付款 ¥${(s.priceCents / 100).toFixed(2)}`)
    expect(h.state.navigations.some(n => /open_chest_animation/.test(n.url || ''))).toBe(false)
    expect(h.state.storage.purchases_in_flight).toEqual([])
    const after = await api('/api/walletBalance', {})
    expect(before.cashCents + before.creditCents - after.cashCents - after.creditCents).toBe(s.priceCents)

    // its link opens the purchase's opening
    detail.querySelector('.late-notice__view').dispatchEvent('tap')
    await waitFor(() => expect(lastNavigation().url).toMatch(/^\/pagesA\/open_chest_animation\/index\?purchaseId=\d+$/))
    await waitFor(() => expect(detail.querySelector('.late-notice')).toBeFalsy())
  } finally {
    wx.request = realRequest
    release()
  }
}, 60000)
