/**
 * 一番赏 (kuji) in the compiled mini-program against the shop's real API server, on the demo shop's kuji
 * series: the series page shows the board instead of cases (the Last One, the tiers with tickets left
 * and their chance, what a whole set holds, the 24 tickets, the commitment); a shopper joins the line
 * and, the line being empty, it is their turn at once (the time left, the draws at random); a draw of 3 at
 * random goes to the purchase with 3 unsold tickets of the set. Then every ticket left bought (全收)
 * gives the Last One: the opening says so on a stage of its own and the results put it first.
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
  shop = await startShop(h, {}, { prefix: 'shop-weapp-kuji-' })
  // a shopper of its own, of age, with money
  const reg = await api('/login/register?table=user', { user_name: `kuji_${Date.now().toString(36)}`, password: 'kuji-pw-123' }, null)
  token = reg.token
  await api('/api/ageVerify', { birthDate: '1992-05-01' })
  const opId = await api('/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId: reg.user.id })
  await api('/generalOrder/create', { productId: 'wallet_topup', userId: reg.user.id, opId, amountCents: 150000, channel: 'sandbox' })
  await api('/api/sandboxPay', { opId })
  h.state.storage.h5_token = token
  h.boot()
}, 90000)

afterAll(async () => { await shop?.stop() })

test('the kuji board (issue 51): tiers, the Last One, the tickets; the line and the turn; a draw of 3 at random; the Last One after 全收', async () => {
  const kuji = (await api('/api/seriesList', { page: 1, size: 50 })).list.find(s => s.kind === 'kuji')
  expect(kuji).toBeTruthy()

  const detail = h.loadPage('pagesA/blind_box_detail/index', { seriesId: String(kuji.id) })
  await waitFor(() => expect(detail.querySelector('.kuji-turn')).toBeTruthy(), 10000)
  expect(detail.querySelectorAll('.slot').length).toBe(0)
  expect(textOf(detail.querySelector('.kuji-last .tier-badge'))).toBe('最终赏')
  expect(textOf(detail.querySelector('.kuji-last__name'))).toBe('龙王')
  expect(texts(detail, '.kuji-tier .tier-badge')).toEqual(['A赏', 'B赏', 'C赏', 'D赏', 'E赏'])
  expect(textOf(detail.querySelector('.kuji-tier-E .kuji-tier__left'))).toBe('剩 12/12 张')
  expect(textOf(detail.querySelector('.kuji-tier-E .kuji-tier__odds'))).toBe('单抽 50%')
  expect(textOf(detail.querySelector('.kuji-guarantee'))).toBe('整套保证：一套 24 张签，A赏 1 张、B赏 2 张、C赏 3 张、D赏 6 张、E赏 12 张；抽完一整套必得以上全部赏品，买下最后一张签的人另得最终赏。')
  expect(detail.querySelectorAll('.kuji-ticket').length).toBe(24)
  const board = await api('/api/kujiBoard', { seriesId: kuji.id })
  expect(textOf(detail.querySelector('.kuji-fair__commit'))).toBe(board.commit)
  expect(textOf(detail.querySelector('.kuji-check__none'))).toBe('这是本系列的第一套：它抽完后可以在这里验算。')

  // join: nobody else in line, so the turn is ours at once
  detail.querySelector('.kuji-join').dispatchEvent('tap')
  await waitFor(() => expect(detail.querySelector('.kuji-turn--drawing')).toBeTruthy(), 10000)
  expect(textOf(detail.querySelector('.kuji-turn__left'))).toMatch(/^还剩 (0:[0-5]\d|1:00)$/)
  expect(textOf(detail.querySelector('.kuji-all'))).toMatch(/^全收 24 张 · ¥936\.00$/)

  // a draw of 3 at random: the purchase of 3 unsold tickets of the set
  const before = h.state.navigations.length
  detail.querySelector('.kuji-random-3').dispatchEvent('tap')
  await waitFor(() => expect(h.state.navigations.length).toBeGreaterThan(before), 10000)
  const to = h.state.navigations[h.state.navigations.length - 1].url
  const m = /^\/pagesA\/purchase\/index\?seriesId=(\d+)&caseId=(\d+)&slots=([\d,]+)&kuji=1$/.exec(to)
  expect(m).not.toBeNull()
  expect(Number(m[2])).toBe(board.setId)
  const picked = m[3].split(',').map(Number)
  expect(new Set(picked).size).toBe(3)
  for (const n of picked) expect(n >= 1 && n <= 24).toBe(true)

  // every ticket left, bought on our turn: the Last One with them
  const bought = await api('/api/casePurchase', { caseId: board.setId, wholeCase: true, acknowledged: true, priceCents: board.priceCents, idempotencyKey: `weapp-kuji-${Date.now()}` })
  expect(bought.prizes.length).toBe(25)
  const chest = h.loadPage('pagesA/open_chest_animation/index', { purchaseId: String(bought.purchaseId) })
  await waitFor(() => expect(chest.querySelector('.chest-count')).toBeTruthy(), 10000)
  expect(textOf(chest.querySelector('.chest-count'))).toBe('1 / 25')
  expect(chest.querySelector('.last-one-banner')).toBeFalsy()
  const results = h.loadPage('pagesA/prize_show/index', { purchaseId: String(bought.purchaseId) })
  await waitFor(() => expect(results.querySelector('.last-one')).toBeTruthy(), 10000)
  expect(textOf(results.querySelector('.last-one__title'))).toBe('最终赏！')
  expect(textOf(results.querySelector('.last-one__name'))).toBe('龙王')
  expect(textOf(results.querySelector('.result .tier-badge'))).toBe('最终赏')

  // the board: the next set, and the one before it checked here
  detail.instance.onShow()
  await waitFor(() => expect(textOf(detail.querySelector('.kuji-set'))).toMatch(/^第 2 套 · 剩余 24\/24 张签$/), 10000)
  detail.querySelector('.kuji-verify').dispatchEvent('tap')
  await waitFor(() => expect(detail.querySelector('.kuji-check__result--ok')).toBeTruthy(), 10000)
  expect(texts(detail, '.kuji-check__line').map(s => s.trim())).toEqual([
    '✓ 本机重算的哈希与开售前公布的承诺值一致',
    '✓ 最后一张签之后的位置正是最终赏',
    '✓ 各赏张数与公布的一致：A赏 1 张、B赏 2 张、C赏 3 张、D赏 6 张、E赏 12 张'
  ])
  expect(detail.querySelectorAll('.kuji-check__ticket').length).toBe(24)
}, 60000)
