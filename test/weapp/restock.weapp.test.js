/**
 * "Notify me when restocked" (issue 50 item 6) in the compiled mini-program, against the shop's real API
 * server and the local WeChat: a shopper logged in through WeChat opens a sold-out series and taps
 * "补货时通知我"; the page asks WeChat's consent for one subscription message from the tap
 * (wx.requestSubscribeMessage) before it asks the server, then shows the request and its channel. When the
 * operator creates a drop of the series, the server's sweep sends the message through WeChat to that
 * user, once, with the series' page.
 */
const { createHarness, waitFor } = require('./harness')
const { startShop, callApi } = require('./shop')
const wechat = require('../support/providers/wechat')

const h = createHarness()
const OPENID = 'o_restock_weapp_user_01'
let shop
let mini
let op
let seriesId

const api = (route, body, as) => callApi(h.state.apiOrigin, route, body, as)
const textOf = (node) => node.dom.textContent
/** The operator counts the series' figures into the warehouse: `n` of each design. */
async function countIn (n) {
  const counted = await api('/api/operator/stock', { seriesId }, op)
  await api('/api/operator/stockSave', { seriesId, designs: counted.designs.map(d => ({ designId: d.designId, stock: n, was: d.stock })) }, op)
}

beforeAll(async () => {
  mini = await wechat.startMiniProgram()
  shop = await startShop(h, {
    WECHAT_APPID: mini.appid, WECHAT_SECRET: mini.secret, WECHAT_API_BASE: mini.url,
    WECHAT_RESTOCK_TEMPLATE_ID: wechat.RESTOCK_TEMPLATE_ID, WECHAT_MINIPROGRAM_STATE: 'developer', EVENT_REMINDER_SWEEP_MS: '1000'
  }, { prefix: 'shop-weapp-restock-' })
  op = (await api('/login/passwd', { user_name: 'operator', password: 'operator123' }, null)).token
  // a series of one figure of each design: one drop of its one case, bought whole, so it is sold out
  const draft = await api('/api/operator/seriesSave', {
    title: { zh: '补货小组', en: 'Restock set' }, description: { zh: '一箱 3 盒。', en: '3 boxes a case.' }, rules: { zh: '', en: '' },
    cover: '/media/art/1f431.webp', priceCents: 3900, hiddenCasePpm: 0,
    designs: ['1f431', '1f436', '1f430'].map((art, i) => ({
      name: { zh: `补货款${i + 1}`, en: `Restock ${i + 1}` }, rarity: 'regular', image: `/media/art/${art}.webp`, referenceValueCents: 1200, recycleValueCents: 200
    }))
  }, op)
  seriesId = draft.id
  await countIn(1)
  // worth less than a box: published with the operator's acknowledgement
  await api('/api/operator/seriesPublish', { seriesId, lowValueAcknowledged: draft.designs.map(d => d.id) }, op)
  await api('/api/operator/dropCreate', { seriesId, cases: 1, hiddenCases: 0, startsAt: new Date().toISOString() }, op)
  const { token } = await api('/login/register?table=user', { user_name: `restock_buyer_${Date.now().toString(36)}`, password: 'restock-pw-123' }, null)
  const userId = (await api('/getUserInfo', undefined, token)).id
  await api('/api/ageVerify', { birthDate: '1995-06-01' }, token)
  const opId = await api('/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId }, token)
  await api('/generalOrder/create', { productId: 'wallet_topup', userId, opId, amountCents: 20000, channel: 'sandbox' }, token)
  await api('/api/sandboxPay', { opId }, token)
  const view = await api('/api/caseCurrent', { seriesId }, token)
  await api('/api/casePurchase', { caseId: view.caseId, wholeCase: true, acknowledged: true, idempotencyKey: `restock-${Date.now()}` }, token)
  mini.user = { openid: OPENID }
  const login = await api('/login/weapp', { code: mini.mint() }, null)
  h.state.wechat = mini
  h.state.privacy.agreed = true
  h.state.storage.h5_token = login.token
  h.boot()
}, 90000)

afterAll(async () => {
  await shop?.stop()
  await mini?.close()
})

test('the tap asks WeChat\'s consent before the server; a new drop is told through WeChat to this user, once', async () => {
  const page = h.loadPage('pagesA/blind_box_detail/index', { seriesId: String(seriesId) })
  await waitFor(() => expect(page.querySelector('.detail-sold-out .restock-notify')).toBeTruthy(), 15000)
  expect(textOf(page.querySelector('.restock__hint'))).toBe('补货时通知你一次：新一批限量发售在开售前告诉你，直接补货在上架时告诉你')
  expect(textOf(page.querySelector('.restock-notify'))).toContain('补货时通知我')

  page.querySelector('.restock-notify').dispatchEvent('tap')
  await waitFor(() => expect(h.state.toasts).toContain('已设置补货通知'), 10000)
  const consent = h.state.subscribeRequests.at(-1)
  expect(consent).toMatchObject({ tmplIds: [wechat.RESTOCK_TEMPLATE_ID], inTap: true, answer: { [wechat.RESTOCK_TEMPLATE_ID]: 'accept' } })
  // the consent first, then the server
  const asked = h.state.requests.findIndex(r => r.url.endsWith('/api/restockRemind'))
  expect(asked).toBeGreaterThanOrEqual(consent.requestsBefore)
  expect(h.state.requests.slice(0, consent.requestsBefore).some(r => r.url.endsWith('/api/restockRemind'))).toBe(false)
  await waitFor(() => expect(textOf(page.querySelector('.restock__state'))).toBe('已设置：补货时会通过微信通知你'), 10000)
  expect(page.querySelector('.restock-cancel')).toBeTruthy()
  expect(mini.consentsLeft(OPENID, wechat.RESTOCK_TEMPLATE_ID)).toBe(1)

  // the operator counts figures in and makes a drop: the sweep tells this user through WeChat
  await countIn(3)
  const made = await api('/api/operator/dropCreate', { seriesId, cases: 2, hiddenCases: 0, startsAt: new Date(Date.now() + 3_600_000).toISOString() }, op)
  await waitFor(() => expect(mini.messages.filter(m => m.touser === OPENID)).toHaveLength(1), 15000)
  const [message] = mini.messages.filter(m => m.touser === OPENID)
  expect(message).toMatchObject({ templateId: wechat.RESTOCK_TEMPLATE_ID, page: `pagesA/blind_box_detail/index?seriesId=${seriesId}`, lang: 'zh_CN', state: 'developer' })
  expect(message.data.thing1).toBe('补货小组')
  const china = new Date(Date.parse(made.startsAt) + 8 * 3_600_000).toISOString()
  expect(message.data.time2).toBe(`${Number(china.slice(0, 4))}年${Number(china.slice(5, 7))}月${Number(china.slice(8, 10))}日 ${china.slice(11, 16)}`)
  expect(mini.consentsLeft(OPENID, wechat.RESTOCK_TEMPLATE_ID)).toBe(0)
  // sent once: nothing more goes
  await new Promise(resolve => setTimeout(resolve, 2500))
  expect(mini.messages.filter(m => m.touser === OPENID)).toHaveLength(1)
}, 60000)
