/**
 * Sold out (issue 50, stock) in the compiled mini-program against the shop's real API server: the demo
 * operator puts a series on sale with one case's worth of figures in the warehouse, a shopper buys that
 * case, and the home card and the series page say 已售罄 (the designs still shown, nothing to buy); a
 * restock offers a case again when the page shows next.
 */
const { createHarness, waitFor } = require('./harness')
const { startShop, callApi } = require('./shop')

const h = createHarness()
let shop
let token

const api = (route, body, as = token) => callApi(h.state.apiOrigin, route, body, as)
const textOf = (page) => page.dom.textContent

beforeAll(async () => {
  shop = await startShop(h, {}, { prefix: 'shop-weapp-sold-out-' })
  token = (await api('/login/passwd', { user_name: 'shopper', password: 'shopper123' }, null)).token
  h.state.storage.h5_token = token
  h.boot()
}, 90000)

afterAll(async () => { await shop?.stop() })

test('a sold-out series (issue 50): the home card and the series page say 已售罄, show the designs, offer nothing to buy; a restock offers a case again', async () => {
  // the demo operator: one case's worth of figures in the warehouse, on sale; the demo shopper buys it
  const op = (await api('/login/passwd', { user_name: 'operator', password: 'operator123' }, null)).token
  const draft = await api('/api/operator/seriesSave', {
    title: { zh: '售罄小组', en: 'Sold-out set' }, description: { zh: '一箱 4 盒。', en: '4 boxes a case.' }, rules: { zh: '', en: '' },
    cover: '/media/art/1f431.webp', priceCents: 1000, hiddenCasePpm: 0,
    designs: ['1f431', '1f436', '1f430', '1f98a'].map((art, i) => ({
      name: { zh: `售罄款${i + 1}`, en: `Sold-out ${i + 1}` }, rarity: i === 3 ? 'rare' : 'regular', image: `/media/art/${art}.webp`,
      referenceValueCents: i === 3 ? 3000 : 1200, recycleValueCents: 200
    }))
  }, op)
  const counted = await api('/api/operator/stock', { seriesId: draft.id }, op)
  await api('/api/operator/stockSave', { seriesId: draft.id, designs: counted.designs.map(d => ({ designId: d.designId, stock: 1, was: d.stock })) }, op)
  await api('/api/operator/seriesPublish', { seriesId: draft.id }, op)
  // a shopper of its own buys it (the demo shopper has a daily limit from the security test)
  const buyer = await api('/login/register?table=user', { user_name: `soldout_${Date.now().toString(36)}`, password: 'sold-out-pw' }, null)
  await api('/api/ageVerify', { birthDate: '1990-01-01' }, buyer.token)
  const opId = await api('/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId: buyer.user.id }, buyer.token)
  await api('/generalOrder/create', { productId: 'wallet_topup', userId: buyer.user.id, opId, amountCents: 5000, channel: 'sandbox' }, buyer.token)
  await api('/api/sandboxPay', { opId }, buyer.token)
  const view = await api('/api/caseCurrent', { seriesId: draft.id }, buyer.token)
  await api('/api/casePurchase', { caseId: view.caseId, wholeCase: true, acknowledged: true, idempotencyKey: `weapp-sold-out-${Date.now()}` }, buyer.token)

  const home = h.loadPage('pagesA/home/index')
  await waitFor(() => expect(home.querySelector(`.series-card-${draft.id}`)).toBeTruthy(), 10000)
  const card = home.querySelector(`.series-card-${draft.id}`)
  expect(card.dom.className).toContain('series-card--off')
  expect(textOf(card)).toContain('已售罄，补货后再开售')

  const detail = h.loadPage('pagesA/blind_box_detail/index', { seriesId: String(draft.id) })
  await waitFor(() => expect(detail.querySelector('.detail-sold-out')).toBeTruthy(), 10000)
  expect(detail.querySelectorAll('.slot').length).toBe(0)
  expect(detail.querySelectorAll('.design').length).toBe(4)
  expect(detail.querySelector('.buy-sold-out').dom.textContent).toBe('已售罄')
  expect(detail.querySelector('.buy-picked')).toBeFalsy()
  expect(textOf(detail)).toContain('仓库里这一系列的盲盒已全部售出')

  // one more of each counted in: the page offers a case again when it shows next
  const now = await api('/api/operator/stock', { seriesId: draft.id }, op)
  await api('/api/operator/stockSave', { seriesId: draft.id, designs: now.designs.map(d => ({ designId: d.designId, stock: d.stock + 1, was: d.stock })) }, op)
  detail.instance.onShow()
  await waitFor(() => expect(detail.querySelectorAll('.slot').length).toBe(4), 10000)
  expect(detail.querySelector('.detail-sold-out')).toBeFalsy()
}, 30000)
