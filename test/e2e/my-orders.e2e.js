/**
 * "My orders" and the contact form's related order (issue 48), end to end in Chromium at 375 px, zh and
 * en: a shopper who topped up, bought a box and asked for a parcel finds all three on the profile page,
 * newest first, each with its number, kind, amount in ¥, status and time; a row opens its detail (the
 * parcel among My boxes' parcels). The contact form picks the parcel from the same list instead of
 * typing its number, and the complaint is filed with it.
 */
const assert = require('node:assert/strict')
const { openPhonePage } = require('./browser')
const { api } = require('./api')

const TEXT = {
  zh: { menu: '我的订单', topup: '余额充值', purchase: '购买盲盒', parcel: '快递发货', waiting: '待发货', credited: '已到账', chosen: '已选：快递发货 S-', sent: '已提交' },
  en: { menu: 'My orders', topup: 'Top-up', purchase: 'Box purchase', parcel: 'Parcel', waiting: 'Waiting to ship', credited: 'Credited', chosen: 'Chosen: Parcel S-', sent: '' }
}

/** A new shopper who topped up ¥200, bought one box and asked for it by parcel. */
async function busyShopper (base, lang) {
  const user = `orders_${lang}_${Date.now().toString(36)}`
  const { token } = await api(base, '/login/register?table=user', { user_name: user, password: 'orders-pass' })
  const userId = (await api(base, '/getUserInfo', undefined, token)).id
  await api(base, '/api/ageVerify', { birthDate: '1990-07-01' }, token)
  const opId = await api(base, '/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId }, token)
  await api(base, '/generalOrder/create', { productId: 'wallet_topup', userId, opId, amountCents: 20000, channel: 'sandbox' }, token)
  await api(base, '/api/sandboxPay', { opId }, token)
  const seriesId = (await api(base, '/api/seriesList', { page: 1, size: 10 })).list[0].id
  const view = await api(base, '/api/caseCurrent', { seriesId }, token)
  const slot = view.slots.find(s => !s.sold).slot
  const bought = await api(base, '/api/casePurchase', { caseId: view.caseId, slots: [slot], acknowledged: true, idempotencyKey: `orders-${lang}-${Date.now().toString(36)}` }, token)
  const address = await api(base, '/api/addressSave', { name: '李雷', phone: '13800138000', area: { province: '北京市', city: '北京市', district: '海淀区' }, region: '北京市 海淀区', detail: '中关村大街 1 号' }, token)
  const { shipment } = await api(base, '/api/shipmentCreate', { prizeIds: [bought.prizes[0].prizeId], addressId: address.id, idempotencyKey: `orders-ship-${lang}-${Date.now().toString(36)}` }, token)
  return { token, opId, shipmentId: shipment.id }
}

async function run ({ base }) {
  for (const lang of ['zh', 'en']) {
    const T = TEXT[lang]
    const { token, opId, shipmentId } = await busyShopper(base, lang)
    const { page, errors, close, shot } = await openPhonePage({ locale: lang === 'zh' ? 'zh-CN' : 'en-US' })
    try {
      await page.goto(`${base}/`, { waitUntil: 'networkidle' })
      await page.evaluate(l => localStorage.setItem('app_locale', JSON.stringify({ data: l })), lang)
      await page.evaluate(t => localStorage.setItem('h5_token', JSON.stringify({ data: t })), token)

      // ---- My orders, from the profile's menu ----
      await page.goto(`${base}/pagesA/profile/index`, { waitUntil: 'networkidle' })
      await page.locator('.menu-orders').click()
      await page.locator('.orders-panel .order-row').first().waitFor()
      const rows = await page.locator('.orders-panel .order-row').allInnerTexts()
      assert.equal(rows.length, 3, rows.join('\n---\n'))
      assert.match(rows[0], new RegExp(`${T.parcel}[\\s\\S]*S-${shipmentId}[\\s\\S]*${T.waiting}`))
      assert.match(rows[1], new RegExp(`${T.purchase}[\\s\\S]*¥[\\d,.]+[\\s\\S]*P-\\d+`))
      assert.match(rows[2], new RegExp(`${T.topup}[\\s\\S]*¥200\\.00[\\s\\S]*${opId}[\\s\\S]*${T.credited}`))
      await page.locator('.orders-panel').scrollIntoViewIfNeeded()
      await shot(`my-orders-${lang}.png`)

      // ---- the contact form: the parcel picked from the list ----
      await page.goto(`${base}/pagesA/profile/index?contact=1`, { waitUntil: 'networkidle' })
      await page.locator('.contact-topic-shipping').click()
      await page.locator('.contact-text textarea, textarea.contact-text').first().fill(lang === 'zh' ? '这个包裹很久没有发货，请帮忙看看。' : 'This parcel has not left for a long time, please check.')
      await page.locator('.contact-pick-order').click()
      await page.locator(`.contact-orders .order-S-${shipmentId}`).click()
      await page.locator('.contact-related', { hasText: `${T.chosen}${shipmentId}` }).waitFor()
      assert.equal(await page.locator('.contact-order').count(), 0, 'no typed number beside a picked one')
      await page.locator('.contact-related').scrollIntoViewIfNeeded()
      await shot(`contact-related-${lang}.png`)
      await page.locator('.contact-submit').click()
      await page.locator('.contact-item', { hasText: `S-${shipmentId}` }).waitFor()
      const [filed] = (await api(base, '/api/complaintList', { page: 1, size: 5 }, token)).list
      assert.equal(filed.orderNo, `S-${shipmentId}`)

      // ---- a row opens its detail: the parcel among My boxes' parcels ----
      await page.goto(`${base}/pagesA/profile/index?orders=1`, { waitUntil: 'networkidle' })
      await page.locator(`.orders-panel .order-S-${shipmentId}`).click()
      await page.waitForURL(/my_blind_box\/index\?view=parcels/)
      await page.locator(`.parcel-${shipmentId}`).waitFor()
      assert.match(await page.locator(`.parcel-${shipmentId}`).innerText(), /138\*\*\*\*8000/)
      assert.deepEqual(errors, [])
    } finally {
      await close()
    }
  }
}

module.exports = { name: 'my orders', run }
