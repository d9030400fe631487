/**
 * Finding a series in the compiled mini-program (issue 27 item 2), against the shop's real API server
 * (the demo shop): home opened with a search and a filter in its page query (as a shared card opens it)
 * shows what they find; typing in full-width capitals brings a suggestion after the debounce, a tap on
 * it searches; a sort orders the cards; the share card carries the state in its path.
 */
const { createHarness, waitFor } = require('./harness')
const { startShop, callApi } = require('./shop')

const h = createHarness()
let shop
let series

const api = (route, body, as) => callApi(h.state.apiOrigin, route, body, as)
const titles = (page) => [...page.querySelectorAll('.series-card__title')].map(e => e.dom.textContent)
const byTitle = (en) => series.find(s => s.title.en === en)

beforeAll(async () => {
  shop = await startShop(h, {}, { prefix: 'shop-weapp-finder-' })
  series = (await api('/api/seriesList', { page: 1, size: 10 }, null)).list
  h.boot()
}, 90000)

afterAll(async () => { await shop?.stop() })

test('home opened with a search in its query; suggestions as you type; a sort', async () => {
  const pet = byTitle('Pet Party')
  const sweet = byTitle('Sweet Treats')
  const space = byTitle('Space Trip')
  const page = h.loadPage('pagesA/home/index', { q: encodeURIComponent('萌宠'), price: '30to60' })
  await waitFor(() => expect(titles(page)).toEqual([pet.title.zh]), 10000)
  expect(page.querySelector('.price-30to60.finder-chip--on')).toBeTruthy()
  expect(page.dom.textContent).toContain('找到 1 个系列')

  // typing: a suggestion once typing stops, a tap searches for it
  page.querySelector('.finder-search__input').dispatchEvent('input', { detail: { value: 'ＳＷＥＥＴ' } })
  await waitFor(() => expect(page.querySelector('.finder-suggestion')).toBeTruthy(), 5000)
  expect(page.querySelector('.finder-suggestion').dom.textContent).toBe(sweet.title.zh)
  page.querySelector('.finder-suggestion').dispatchEvent('tap')
  await waitFor(() => expect(titles(page)).toEqual([sweet.title.zh]), 10000)
  expect(page.querySelector('.finder-suggestion')).toBeFalsy()

  // the filter off, dearest first
  page.querySelector('.price-30to60').dispatchEvent('tap')
  page.querySelector('.finder-search__clear').dispatchEvent('tap')
  await waitFor(() => expect(titles(page)).toEqual([pet.title.zh, sweet.title.zh, space.title.zh]), 10000)
  page.querySelector('.sort-price_desc').dispatchEvent('tap')
  await waitFor(() => expect(titles(page)).toEqual([space.title.zh, sweet.title.zh, pet.title.zh]), 10000)

  // the share card opens home with the same sort
  const share = page.instance.onShareAppMessage({ from: 'menu' })
  expect(share.path).toMatch(/^\/?pagesA\/home\/index\?.*sort=price_desc/)
}, 60000)
