/**
 * A drop's waiting room (issue 50 item 4) in the compiled mini-program against the shop's real API
 * server: the series page joins the queue by itself before the start (no place yet: the window's
 * arrivals are put in a random order), and when the window closes the shopper, first of one at a time,
 * is let in: the case shows with the time left to buy; a second account arriving later waits as next.
 */
const { createHarness, waitFor } = require('./harness')
const { startShop, callApi } = require('./shop')

const h = createHarness()
let shop
let token

const api = (route, body, as = token) => callApi(h.state.apiOrigin, route, body, as)
const textOf = (node) => node.dom.textContent

beforeAll(async () => {
  shop = await startShop(h, {}, { prefix: 'shop-weapp-drop-queue-' })
  token = (await api('/login/passwd', { user_name: 'shopper', password: 'shopper123' }, null)).token
  h.state.storage.h5_token = token
  h.boot()
}, 90000)

afterAll(async () => { await shop?.stop() })

test('the waiting room (issue 50): joined before the start, let in when the window closes, the case shown with the time to buy', async () => {
  const op = (await api('/login/passwd', { user_name: 'operator', password: 'operator123' }, null)).token
  const draft = await api('/api/operator/seriesSave', {
    title: { zh: '排队小组', en: 'Queue set' }, description: { zh: '一箱 4 盒。', en: '4 boxes a case.' }, rules: { zh: '', en: '' },
    cover: '/media/art/1f431.webp', priceCents: 1000, hiddenCasePpm: 0,
    designs: ['1f431', '1f436', '1f430', '1f98a'].map((art, i) => ({
      name: { zh: `排队款${i + 1}`, en: `Queue ${i + 1}` }, rarity: i === 3 ? 'rare' : 'regular', image: `/media/art/${art}.webp`,
      referenceValueCents: 1200, recycleValueCents: 200
    }))
  }, op)
  const counted = await api('/api/operator/stock', { seriesId: draft.id }, op)
  await api('/api/operator/stockSave', { seriesId: draft.id, designs: counted.designs.map(d => ({ designId: d.designId, stock: 4, was: d.stock })) }, op)
  await api('/api/operator/seriesPublish', { seriesId: draft.id }, op)
  const drop = await api('/api/operator/dropCreate', {
    seriesId: draft.id, cases: 2, hiddenCases: 0, startsAt: new Date(Date.now() + 3000).toISOString(),
    waitingRoom: { windowSeconds: 2, shoppersAtOnce: 1, minutesEach: 1 }
  }, op)

  const detail = h.loadPage('pagesA/blind_box_detail/index', { seriesId: String(draft.id) })
  await waitFor(() => expect(detail.querySelector('.queue-panel--early')).toBeTruthy(), 10000)
  expect(textOf(detail.querySelector('.queue-panel__early'))).toContain('随机排序')
  expect(detail.querySelectorAll('.slot').length).toBe(0)
  // the window closes (start + 2 s): the only early arrival is let in, and the page shows the case
  await waitFor(() => expect(detail.querySelectorAll('.slot').length).toBe(4), 20000)
  await waitFor(() => expect(detail.querySelector('.queue-panel--shopping')).toBeTruthy(), 10000)
  // a minute's turn, by the server's clock as the page estimates it (off by up to half a round trip),
  // never shown as more than the turn (it read 1:01 in its first second)
  expect(textOf(detail.querySelector('.queue-panel__turn'))).toMatch(/^轮到你了：还有 (1:00|0:[0-5]\d) 可以购买$/)
  // a second account, arriving after the draw, waits as next
  const later = await api('/login/register?table=user', { user_name: `queue_${Date.now().toString(36)}`, password: 'queue-pw-123' }, null)
  const theirs = await api('/api/dropQueue', { dropId: drop.dropId }, later.token)
  expect([theirs.state, theirs.position, theirs.ahead]).toEqual(['waiting', 2, 0])
}, 45000)
