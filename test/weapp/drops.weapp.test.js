/**
 * Drops (issue 50, items 2 and 3) in the compiled mini-program against the shop's real API server: the
 * demo operator makes a drop of 2 cases (1 with the hidden design) starting in a few seconds; the series
 * page shows the exact counts, the countdown by the server's clock and the root, offers nothing to buy,
 * and the root recomputed in the mini-program matches; at the start the page opens the case by itself.
 */
const { createHarness, waitFor } = require('./harness')
const { startShop, callApi } = require('./shop')

const h = createHarness()
let shop
let token

const api = (route, body, as = token) => callApi(h.state.apiOrigin, route, body, as)
const textOf = (node) => node.dom.textContent

beforeAll(async () => {
  shop = await startShop(h, {}, { prefix: 'shop-weapp-drops-' })
  token = (await api('/login/passwd', { user_name: 'shopper', password: 'shopper123' }, null)).token
  h.state.storage.h5_token = token
  h.boot()
}, 90000)

afterAll(async () => { await shop?.stop() })

test('a drop (issue 50): counts, countdown and root before the start, the root checked here, the case opened at the start', async () => {
  const op = (await api('/login/passwd', { user_name: 'operator', password: 'operator123' }, null)).token
  const draft = await api('/api/operator/seriesSave', {
    title: { zh: '限量小组', en: 'Drop set' }, description: { zh: '一箱 4 盒。', en: '4 boxes a case.' }, rules: { zh: '', en: '' },
    cover: '/media/art/1f431.webp', priceCents: 1000, hiddenCasePpm: 100000,
    designs: ['1f431', '1f436', '1f430', '1f98a', '1f984'].map((art, i) => ({
      name: { zh: `限量款${i + 1}`, en: `Drop ${i + 1}` }, rarity: i === 4 ? 'hidden' : i === 3 ? 'rare' : 'regular', image: `/media/art/${art}.webp`,
      referenceValueCents: i === 4 ? 9000 : 1200, recycleValueCents: 200
    }))
  }, op)
  const counted = await api('/api/operator/stock', { seriesId: draft.id }, op)
  await api('/api/operator/stockSave', { seriesId: draft.id, designs: counted.designs.map(d => ({ designId: d.designId, stock: 4, was: d.stock })) }, op)
  await api('/api/operator/seriesPublish', { seriesId: draft.id }, op)
  const drop = await api('/api/operator/dropCreate', { seriesId: draft.id, cases: 2, hiddenCases: 1, startsAt: new Date(Date.now() + 7000).toISOString() }, op)

  const detail = h.loadPage('pagesA/blind_box_detail/index', { seriesId: String(draft.id) })
  await waitFor(() => expect(detail.querySelector('.drop-panel--scheduled')).toBeTruthy(), 10000)
  expect(textOf(detail.querySelector('.drop-countdown__left'))).toMatch(/^距开售 0:0\d$/)
  expect(textOf(detail.querySelector('.drop-panel__counts'))).toBe('共 2 箱 8 盒，其中恰好 1 箱含隐藏款')
  expect(textOf(detail.querySelector('.drop-root__hash'))).toBe(drop.root)
  expect(textOf(detail.querySelector('.buy-soon'))).toBe('即将开售')
  // what a whole case holds (four designs and the hidden one, which has a chance)
  expect(textOf(detail.querySelector('.case-guarantee'))).toBe('整箱保证：一箱 4 盒，除隐藏款外每个款式各一盒；含隐藏款的箱子里，隐藏款替换其中一个普通款。')
  expect(detail.querySelectorAll('.slot').length).toBe(0)
  expect(detail.querySelector('.detail-sold-out')).toBeFalsy()
  // the root recomputed here, from the cases' commitments
  detail.querySelector('.drop-verify').dispatchEvent('tap')
  await waitFor(() => expect(detail.querySelector('.drop-check__root')).toBeTruthy(), 10000)
  expect(detail.querySelector('.drop-check__root').dom.className).toContain('drop-check__line--ok')
  expect(textOf(detail.querySelector('.drop-check__root'))).toBe('✓ 已在本机用 2 箱的承诺值重算总指纹：一致')
  // the start: the page looks again by itself and shows a case of the drop
  await waitFor(() => expect(detail.querySelectorAll('.slot').length).toBe(4), 20000)
  expect(detail.querySelector('.buy-soon')).toBeFalsy()
  expect(textOf(detail.querySelector('.drop-panel__left'))).toBe('剩余 2 箱 8 盒')
}, 45000)
