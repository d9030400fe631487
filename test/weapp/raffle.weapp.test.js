/**
 * Raffle drops (issue 51 item 4) in the compiled mini-program against the shop's real API server: the
 * demo operator makes a raffle drop (2 places) whose entries open in a few seconds and close about ten
 * seconds later; the series page shows the places and the seed's fingerprint, counts down to the
 * opening, offers "参加抽签", then shows the entry's code; at the close the draw is made, the page shows
 * "won" with the time left to buy and opens the case, and the draw recomputed in the mini-program holds.
 */
const { createHarness, waitFor } = require('./harness')
const { startShop, callApi } = require('./shop')

const h = createHarness()
let shop
let token

const api = (route, body, as = token) => callApi(h.state.apiOrigin, route, body, as)
const textOf = (node) => node.dom.textContent

beforeAll(async () => {
  shop = await startShop(h, {}, { prefix: 'shop-weapp-raffle-' })
  token = (await api('/login/passwd', { user_name: 'shopper', password: 'shopper123' }, null)).token
  h.state.storage.h5_token = token
  h.boot()
}, 90000)

afterAll(async () => { await shop?.stop() })

test('a raffle drop: entered (the code shown), won at the close (the case opens), the draw checked here', async () => {
  const op = (await api('/login/passwd', { user_name: 'operator', password: 'operator123' }, null)).token
  const draft = await api('/api/operator/seriesSave', {
    title: { zh: '抽签小组', en: 'Raffle set' }, description: { zh: '一箱 4 盒。', en: '4 boxes a case.' }, rules: { zh: '', en: '' },
    cover: '/media/art/1f431.webp', priceCents: 1000, hiddenCasePpm: 100000,
    designs: ['1f431', '1f436', '1f430', '1f98a', '1f984'].map((art, i) => ({
      name: { zh: `抽签款${i + 1}`, en: `Raffle ${i + 1}` }, rarity: i === 4 ? 'hidden' : i === 3 ? 'rare' : 'regular', image: `/media/art/${art}.webp`,
      referenceValueCents: i === 4 ? 9000 : 1200, recycleValueCents: 200
    }))
  }, op)
  const counted = await api('/api/operator/stock', { seriesId: draft.id }, op)
  await api('/api/operator/stockSave', { seriesId: draft.id, designs: counted.designs.map(d => ({ designId: d.designId, stock: 4, was: d.stock })) }, op)
  await api('/api/operator/seriesPublish', { seriesId: draft.id }, op)
  const opens = Date.now() + 4000
  const drop = await api('/api/operator/dropCreate', {
    seriesId: draft.id, cases: 1, hiddenCases: 0, startsAt: new Date(opens).toISOString(), limits: { boxesPerAccount: 2 },
    raffle: { closesAt: new Date(opens + 12_000).toISOString(), claimMinutes: 30 }
  }, op)
  expect(drop.raffle.places).toBe(2)

  const detail = h.loadPage('pagesA/blind_box_detail/index', { seriesId: String(draft.id) })
  await waitFor(() => expect(detail.querySelector('.raffle-panel__places')).toBeTruthy(), 10000)
  expect(textOf(detail.querySelector('.raffle-panel__places'))).toBe('名额 2 个，每个中签账号最多买 2 盒')
  expect(textOf(detail.querySelector('.raffle-seed__hash'))).toBe(`${drop.raffle.seedHash.slice(0, 12)}…${drop.raffle.seedHash.slice(-12)}`)
  expect(detail.querySelectorAll('.slot').length).toBe(0)
  // entries open: enter, then the entry's code
  await waitFor(() => expect(detail.querySelector('.raffle-enter')).toBeTruthy(), 15000)
  expect(textOf(detail.querySelector('.raffle-enter'))).toBe('参加抽签')
  detail.querySelector('.raffle-enter').dispatchEvent('tap')
  await waitFor(() => expect(detail.querySelector('.raffle-entered__code')).toBeTruthy(), 10000)
  const code = textOf(detail.querySelector('.raffle-entered__code')).replace(/^你的签号：/, '')
  expect(code).toMatch(/^[0-9a-f]{16}$/)
  expect(textOf(detail.querySelector('.raffle-entered__title'))).toBe('✓ 已报名，等待抽签')
  expect(textOf(detail.querySelector('.raffle-panel__entries'))).toBe('已有 1 人报名')
  expect(detail.querySelectorAll('.slot').length).toBe(0)
  // the close: the page looks again by itself; one entry, two places: won, and the case opens
  await waitFor(() => expect(detail.querySelector('.raffle-result--won')).toBeTruthy(), 30000)
  expect(textOf(detail.querySelector('.raffle-result__title'))).toBe('🎉 恭喜中签！')
  expect(textOf(detail.querySelector('.raffle-result__left'))).toMatch(/^还有 (30:00|29:\d\d) 可以购买$/)
  await waitFor(() => expect(detail.querySelectorAll('.slot').length).toBe(4), 15000)
  // the draw recomputed here
  detail.querySelector('.raffle-verify').dispatchEvent('tap')
  await waitFor(() => expect(detail.querySelector('.raffle-check')).toBeTruthy(), 10000)
  expect(detail.querySelector('.raffle-check').dom.className).toContain('raffle-check--ok')
  expect(textOf(detail.querySelector('.raffle-check__seed'))).toBe('✓ 抽签种子与报名前公布的指纹一致')
  expect(textOf(detail.querySelector('.raffle-check__round-1'))).toBe('✓ 第 1 轮：本机重算出 1 个中签号，与公布的一致')
  expect(textOf(detail.querySelector('.raffle-check__mine'))).toBe(`✓ 你的签号 ${code} 在名单上`)
}, 80000)
