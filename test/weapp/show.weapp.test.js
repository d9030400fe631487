/**
 * The player show (issue 27) in the compiled mini-program, against the shop's real API server: a
 * shopper's post is in the feed (newest and popular), opens on its own page with the proof of each
 * prize, and another shopper likes it (once) and comments on it from the mini-program; the page's
 * share card (useShareAppMessage) names the post and opens it.
 */
const { createHarness, waitFor } = require('./harness')
const { startShop, callApi } = require('./shop')

const h = createHarness()
let shop
let post

const api = (route, body, as) => callApi(h.state.apiOrigin, route, body, as)
const textOf = (el) => el.dom.textContent

beforeAll(async () => {
  shop = await startShop(h, {}, { prefix: 'shop-weapp-show-' })
  // the author: the demo shopper with two prizes of the first series
  const author = (await api('/login/passwd', { user_name: 'shopper', password: 'shopper123' }, null)).token
  const me = await api('/getUserInfo', undefined, author)
  await api('/api/ageVerify', { birthDate: '1990-01-01' }, author).catch(() => undefined)
  const opId = await api('/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId: me.id }, author)
  await api('/generalOrder/create', { productId: 'wallet_topup', userId: me.id, opId, amountCents: 50000, channel: 'sandbox' }, author)
  await api('/api/sandboxPay', { opId }, author)
  const series = (await api('/api/seriesList', { page: 1, size: 10 }, null)).list[0]
  const view = await api('/api/caseCurrent', { seriesId: series.id }, author)
  const slots = view.slots.filter(s => !s.sold).slice(0, 2).map(s => s.slot)
  const bought = await api('/api/casePurchase', { caseId: view.caseId, slots, acknowledged: true, idempotencyKey: `weapp-show-${Date.now()}` }, author)
  post = await api('/api/show/create', { prizeIds: bought.prizes.map(p => p.prizeId), images: [], text: '小程序里晒一下：一次两款！' }, author)
  // the viewer: a new account, logged in on the phone
  const viewer = await api('/login/register?table=user', { user_name: `weappshow${Date.now().toString(36)}`, password: 'weapp-show-1' }, null)
  h.state.storage.h5_token = viewer.token
  h.boot()
}, 90000)

afterAll(async () => { await shop?.stop() })

test('the feed lists the post, newest and popular', async () => {
  const page = h.loadPage('pagesA/show/index')
  await waitFor(() => expect(page.querySelector(`.show-card-${post.id}`)).toBeTruthy(), 15000)
  expect(textOf(page.querySelector(`.show-card-${post.id}`))).toContain('小程序里晒一下')
  expect(textOf(page.querySelector(`.show-card-${post.id}`))).toContain('真实抽出')
  page.querySelector('.show-sort-popular').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.show-sort-popular.show-sort--on')).toBeTruthy())
  await waitFor(() => expect(page.querySelector(`.show-card-${post.id}`)).toBeTruthy(), 10000)
})

test('the post page: the proofs, one like, a comment, and the share card', async () => {
  const page = h.loadPage('pagesA/show_post/index', { id: String(post.id) })
  await waitFor(() => expect(page.querySelectorAll('.show-proof').length).toBe(2), 15000)
  expect(textOf(page.querySelector('.show-proof'))).toMatch(/[0-9a-f]{64}/)
  page.querySelector('.show-like').dispatchEvent('tap')
  await waitFor(() => expect(textOf(page.querySelector('.show-like'))).toContain('1 赞'), 10000)
  const detail = await api('/api/show/detail', { postId: post.id }, h.state.storage.h5_token)
  expect(detail).toMatchObject({ likeCount: 1, liked: true })

  page.querySelector('.show-composer__text').dispatchEvent('input', { detail: { value: '恭喜恭喜' } })
  page.querySelector('.show-composer-send').dispatchEvent('tap')
  await waitFor(() => expect(textOf(page)).toContain('恭喜恭喜'), 10000)
  const comments = await api('/api/show/comments', { postId: post.id, page: 1, size: 10 }, null)
  expect(comments.list.map(c => c.text)).toEqual(['恭喜恭喜'])

  // WeChat's share card of the page: the post's words, and the page with its id
  const card = page.instance.onShareAppMessage({ from: 'menu' })
  expect(card.title).toContain('小程序里晒一下')
  expect(card.path).toMatch(new RegExp(`pagesA/show_post/index\\?id=${post.id}`))
})
