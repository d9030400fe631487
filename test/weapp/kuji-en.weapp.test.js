/**
 * 一番赏 (kuji) in the compiled mini-program in English (the language kept on the phone before the start):
 * the board names tiers as "Prize A" and the Last One as "Last One", never the wire's names; the line and
 * the turn; the guarantee of a whole set. (test/weapp/kuji.weapp.test.js: the same in Chinese, the draws.)
 */
const { createHarness, waitFor } = require('./harness')
const { startShop, callApi } = require('./shop')

const h = createHarness()
let shop
let token

const api = (route, body, as = token) => callApi(h.state.apiOrigin, route, body, as)
const textOf = (node) => node.dom.textContent
const texts = (page, sel) => page.querySelectorAll(sel).map(n => textOf(n))

beforeAll(async () => {
  shop = await startShop(h, {}, { prefix: 'shop-weapp-kuji-en-' })
  token = (await api('/login/register?table=user', { user_name: `kuji_en_${Date.now().toString(36)}`, password: 'kuji-pw-123' }, null)).token
  h.state.storage.h5_token = token
  h.state.storage.app_locale = 'en'
  h.boot()
}, 90000)

afterAll(async () => { await shop?.stop() })

test('the kuji board in English: tiers, the Last One, the guarantee, the line and the turn', async () => {
  const kuji = (await api('/api/seriesList', { page: 1, size: 50 })).list.find(s => s.kind === 'kuji')
  const detail = h.loadPage('pagesA/blind_box_detail/index', { seriesId: String(kuji.id) })
  await waitFor(() => expect(detail.querySelector('.kuji-turn--none')).toBeTruthy(), 10000)
  expect(textOf(detail.querySelector('.kuji-last .tier-badge'))).toBe('Last One')
  expect(textOf(detail.querySelector('.kuji-last__name'))).toBe('Dragon King')
  expect(texts(detail, '.kuji-tier .tier-badge')).toEqual(['Prize A', 'Prize B', 'Prize C', 'Prize D', 'Prize E'])
  expect(textOf(detail.querySelector('.kuji-tier-A .kuji-tier__odds'))).toBe('4.17% a ticket')
  expect(textOf(detail.querySelector('.kuji-guarantee'))).toBe('A whole set, guaranteed: 24 tickets, 1 × Prize A, 2 × Prize B, 3 × Prize C, 6 × Prize D, 12 × Prize E; drawing a whole set wins every prize above, and the buyer of the final ticket also wins the Last One.')
  expect(textOf(detail.querySelector('.kuji-join'))).toBe('Join the line')
  expect(textOf(detail)).not.toMatch(/last_one|double_chance/)
  detail.querySelector('.kuji-join').dispatchEvent('tap')
  await waitFor(() => expect(detail.querySelector('.kuji-turn--drawing')).toBeTruthy(), 10000)
  expect(textOf(detail.querySelector('.kuji-turn__left'))).toMatch(/^(0:[0-5]\d|1:00) left$/)
  expect(texts(detail, '.kuji-random__btn')).toEqual(['Draw 1', 'Draw 3', 'Draw 5', 'Draw 10'])
  expect(textOf(detail.querySelector('.kuji-all'))).toBe('All 24 left · ¥936.00')
}, 30000)
