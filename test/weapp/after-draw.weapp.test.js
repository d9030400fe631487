/**
 * The compiled collection (my_blind_box) and prize page (prize_detail) of dist/weapp against the
 * shop's real API server, logged in as the demo shopper with real prizes: sets and counts render,
 * multi-select recycles one prize for the credit the dialog names (checked in the server), and the
 * prize page offers recycle and ship and opens the address sheet; the combine page shows the pool and
 * the seed hash and combines three items, and the result page reveals the seed and checks the draw.
 */
const { createHarness, waitFor } = require('./harness')
const { startShop, callApi } = require('./shop')
const jdunion = require('../support/providers/jdunion')

const h = createHarness()
let shop
let token
let prizes
/** The purchase made through the API before the app starts: the app has never seen its answer. */
let firstPurchase
let jd

const api = (route, body, as = token) => callApi(h.state.apiOrigin, route, body, as)

beforeAll(async () => {
  // the price comparison on the prize page: a local JD Union router
  jd = await jdunion.start()
  shop = await startShop(h, { ...jdunion.envFor(jd) }, { prefix: 'shop-weapp-' })
  // the demo shopper, with three prizes of the first series
  token = (await api('/login/passwd', { user_name: 'shopper', password: 'shopper123' })).token
  const me = await api('/getUserInfo')
  await api('/api/ageVerify', { birthDate: '1990-01-01' }).catch(() => undefined)
  const opId = await api('/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId: me.id })
  await api('/generalOrder/create', { productId: 'wallet_topup', userId: me.id, opId, amountCents: 150000, channel: 'sandbox' })
  await api('/api/sandboxPay', { opId })
  const series = (await api('/api/seriesList', { page: 1, size: 10 })).list[0]
  const view = await api('/api/caseCurrent', { seriesId: series.id })
  const slots = view.slots.filter(s => !s.sold).slice(0, 3).map(s => s.slot)
  firstPurchase = await api('/api/casePurchase', { caseId: view.caseId, slots, acknowledged: true, idempotencyKey: `weapp-${Date.now()}` })
  prizes = firstPurchase.prizes
  // a whole case of the second series: materials for combining
  const sweets = (await api('/api/seriesList', { page: 1, size: 10 })).list[1]
  const sweetCase = await api('/api/caseCurrent', { seriesId: sweets.id })
  await api('/api/casePurchase', { caseId: sweetCase.caseId, wholeCase: true, acknowledged: true, idempotencyKey: `weapp-case-${Date.now()}` })
  h.state.storage.h5_token = token
  h.boot()
}, 90000)

afterAll(async () => {
  await shop?.stop()
  await jd?.close()
})

const textOf = (page) => page.dom.textContent

test('my_blind_box: sets, counts and prizes from the server; multi-select recycles one for the credit it names', async () => {
  const page = h.loadPage('pagesA/my_blind_box/index')
  await waitFor(() => expect(textOf(page)).toContain('集齐进度'), 10000)
  await waitFor(() => expect(page.querySelectorAll('.prize-row').length).toBeGreaterThan(3))
  expect(textOf(page)).toMatch(/仓库中 1[45]/)
  const designName = prizes[0].design.name.zh
  expect(textOf(page)).toContain(designName)

  const before = await api('/api/walletBalance', {})
  page.querySelector('.collection-select').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.select-bar')).toBeTruthy())
  page.querySelector(`.prize-${prizes[0].prizeId}`).dispatchEvent('tap')
  await waitFor(() => expect(textOf(page)).toContain('已选 1 件'))
  page.querySelector('.select-recycle').dispatchEvent('tap')
  const credit = (prizes[0].design.recycleValueCents / 100).toFixed(2)
  await waitFor(() => expect(h.state.modals.some(m => m.includes(credit))).toBe(true))
  await waitFor(() => expect(textOf(page)).toContain('已回收 1'), 10000)
  const after = await api('/api/walletBalance', {})
  expect(after.creditCents).toBe(before.creditCents + prizes[0].design.recycleValueCents)
  expect((await api('/api/prizeDetail', { prizeId: prizes[0].prizeId })).status).toBe('recycled')
}, 30000)

test('prize_detail: the design, its values and proof; recycle and ship; the address sheet opens', async () => {
  const p = prizes[1]
  const page = h.loadPage('pagesA/prize_detail/index', { prizeId: String(p.prizeId) })
  await waitFor(() => expect(textOf(page)).toContain(p.design.name.zh), 10000)
  expect(textOf(page)).toContain('公平性证明')
  // the market price next to the reference value, as the market (the JD fake) answered it
  await waitFor(() => expect(page.querySelector('.market-lowest')).toBeTruthy(), 10000)
  const spu = (await api('/api/bijia_spu_search', { keyword: p.design.name.zh })).list[0]
  const goods = await api('/api/bijia_spu_goods_search', { spuId: spu.spuId })
  const yuan = cents => `¥${(cents / 100).toFixed(2)}`
  expect(page.querySelector('.market-lowest').dom.textContent).toBe(yuan(goods.lowestCents))
  expect(page.querySelector('.market-median').dom.textContent).toBe(yuan(goods.medianCents))
  expect(textOf(page)).toContain('市场比价')
  expect(textOf(page)).toContain('京东联盟')
  expect(page.querySelector('.prize-recycle')).toBeTruthy()
  page.querySelector('.prize-ship').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.ship-sheet')).toBeTruthy())
  // the demo shopper has no address yet: the form is open, and saving an empty one names the field
  await waitFor(() => expect(page.querySelector('.ship-form')).toBeTruthy())
  page.querySelector('.ship-form__save').dispatchEvent('tap')
  await waitFor(() => expect(textOf(page)).toContain('请填写收货人'))
  await waitFor(() => expect(textOf(page)).toContain('满 3 件包邮'))
}, 30000)

test('combine and combine_result: pool and seed hash first, three items combined, the seed revealed and the draw checked', async () => {
  const seed = await api('/api/fairSeed', {})
  const page = h.loadPage('pagesA/combine/index')
  await waitFor(() => expect(page.querySelectorAll('.pool-row').length).toBeGreaterThan(9), 10000)
  await waitFor(() => expect(textOf(page)).toContain(seed.serverSeedHash), 10000)
  expect(textOf(page)).toContain('保底')
  // the Sweet Treats recipe: its materials
  const recipes = await api('/api/combineRecipes', {})
  const sweets = recipes.find(r => r.seriesTitle.en === 'Sweet Treats' && r.input.kind === 'rarity')
  page.querySelector(`.recipe-${sweets.id}`).dispatchEvent('tap')
  await waitFor(() => expect(page.querySelectorAll('.material').length).toBeGreaterThanOrEqual(3))
  // each tap re-renders the grid: find the item afresh each time
  for (let i = 0; i < 3; i++) {
    page.querySelectorAll('.material')[i].dispatchEvent('tap')
    await waitFor(() => expect(textOf(page)).toContain(`已选 ${i + 1}/3`))
  }
  const before = h.state.navigations.length
  page.querySelector('.combine-start').dispatchEvent('tap')
  await waitFor(() => expect(h.state.navigations.length).toBeGreaterThan(before), 10000)
  const to = h.state.navigations[h.state.navigations.length - 1].url
  expect(to).toMatch(/combine_result\/index\?combineId=\d+/)
  const combineId = to.split('=')[1]

  const result = h.loadPage('pagesA/combine_result/index', { combineId })
  await waitFor(() => expect(result.querySelector('.combine-reveal')).toBeTruthy(), 10000)
  expect(textOf(result)).toContain(seed.serverSeedHash)
  result.querySelector('.combine-reveal').dispatchEvent('tap')
  await waitFor(() => expect(result.querySelector('.combine-check-result--ok')).toBeTruthy(), 10000)
  expect(textOf(result)).toContain('用公开的种子在本机重算')
}, 30000)

test('props: real counts from the server; buying a hint card with cash through the ledger', async () => {
  const before = await api('/api/props', {})
  const page = h.loadPage('pagesA/props/index')
  await waitFor(() => expect(textOf(page)).toContain(`今天还剩 ${before.shakesLeft} 次`), 10000)
  // the whole case bought in beforeAll earned an X-ray card
  expect(before.cards.xray).toBeGreaterThanOrEqual(1)
  expect(textOf(page)).toContain(`持有 ${before.cards.xray}`)
  page.querySelector('.prop-buy-hint-cash').dispatchEvent('tap')
  await waitFor(() => expect(h.state.modals.some(m => m.includes('提示卡') && m.includes('现金'))).toBe(true))
  await waitFor(() => expect(page.querySelector('.prop-count-hint').dom.textContent).toContain(`持有 ${before.cards.hint + 1}`), 10000)
  const after = await api('/api/props', {})
  expect(after.cards.hint).toBe(before.cards.hint + 1)
}, 30000)

test('prize_show opened by a purchase\'s id (a shared page, another phone) loads it from the server, with its prizes', async () => {
  const requestsBefore = h.state.requests.length
  const show = h.loadPage('pagesA/prize_show/index', { purchaseId: String(firstPurchase.purchaseId) })
  await waitFor(() => expect(show.querySelectorAll('.result').length).toBe(3), 10000)
  for (const p of firstPurchase.prizes) expect(show.dom.textContent).toContain(p.design.name.zh)
  expect(h.state.requests.slice(requestsBefore).map(r => r.url)).toContain('/dev-api/api/purchaseDetail')
}, 30000)
