/**
 * After the draw, end to end: a new shopper buys two boxes and asks for them to be shipped (through
 * the API); a shopper opening the editor sees "no access" and the server refuses the queue with 403;
 * the operator logs in, opens the editor's Shipments tab (zh and en), is stopped by the client-side
 * checks, enters carrier and tracking number, and the shipment turns "shipping"; the packing slip
 * shows one QR per prize, and each QR, read from a screenshot of the page with jsQR, is a link that
 * /api/prizeVerify accepts for that prize.
 */
const assert = require('node:assert/strict')
const path = require('node:path')
const { PNG } = require('pngjs')
const jsQR = require('jsqr')
const { openPhonePage, SHOTS, passwordLogin } = require('./browser')

const API = '/dev-api'

function api (base) {
  return async (url, body, { token, lang = 'en' } = {}) => {
    const res = await fetch(`${base}${API}${url}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Accept-Language': lang, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body)
    })
    assert.equal(res.status, 200, `${url}: HTTP ${res.status}`)
    return res.json()
  }
}

const ok = (r, what) => { assert.equal(r.code, 200, `${what}: ${JSON.stringify(r)}`); return r.data }
const key = (p) => `${p}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`

/** A new adult shopper with two prizes in the warehouse, shipped to a new address: the shipment. */
async function shopperShips (post) {
  const userName = `shipper_${Date.now().toString(36)}`
  const { token, user } = ok(await post('/login/register?table=user', { user_name: userName, password: 'ship-pass' }), 'register')
  const as = { token }
  ok(await post('/api/ageVerify', { birthDate: '1990-05-01' }, as), 'ageVerify')
  const opId = ok(await post('/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId: user.id }, as), 'order no')
  ok(await post('/generalOrder/create', { productId: 'wallet_topup', userId: user.id, opId, amountCents: 50000, channel: 'sandbox' }, as), 'order')
  ok(await post('/api/sandboxPay', { opId }, as), 'sandbox pay')
  const series = ok(await post('/api/seriesList', { page: 1, size: 10 }), 'series').list
  let prizes = null
  for (const s of series) {
    const view = ok(await post('/api/caseCurrent', { seriesId: s.id }, as), 'case')
    const free = view.slots.filter(x => !x.sold).map(x => x.slot)
    if (free.length < 2) continue
    prizes = ok(await post('/api/casePurchase', { caseId: view.caseId, slots: free.slice(0, 2), acknowledged: true, idempotencyKey: key('buy') }, as), 'purchase').prizes
    break
  }
  assert.ok(prizes && prizes.length === 2, 'two prizes bought')
  const address = ok(await post('/api/addressSave', { name: '李四', phone: '13912345678', region: '浙江省 杭州市 西湖区', detail: '文三路 90 号 东部软件园 3 号楼 501 室' }, as), 'address')
  const { shipment } = ok(await post('/api/shipmentCreate', { prizeIds: prizes.map(p => p.prizeId), addressId: address.id, idempotencyKey: key('ship') }, as), 'shipment')
  assert.equal(shipment.status, 'requested')
  return { shipment, token, userName }
}

/** Every QR code in a PNG screenshot, read with jsQR (one element screenshot per code). */
function decodePng (buffer) {
  const png = PNG.sync.read(buffer)
  const found = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height)
  return found ? found.data : null
}

async function run ({ base }) {
  const post = api(base)
  const { shipment, userName } = await shopperShips(post)
  const shopperToken = ok(await post('/login/passwd', { user_name: userName, password: 'ship-pass' }), 'login').token
  // the server refuses the operator's calls to a shopper whatever the app shows
  assert.equal((await post('/api/operator/shipments', { page: 1, size: 10 }, { token: shopperToken })).code, 403)
  assert.equal((await post('/generalOrder/deliver', { shipmentId: shipment.id, carrier: 'shunfeng', trackingNo: 'SF0000' }, { token: shopperToken })).code, 403)

  // a shopper opening the editor: "no access", and still logged in (no operator call was made)
  {
    const { page, errors, close, input, shot } = await openPhonePage({ locale: 'zh-CN' })
    try {
      await passwordLogin({ page, input }, base, userName, 'ship-pass')
      await page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
      await page.locator('.empty-state__text', { hasText: '没有权限' }).waitFor()
      assert.equal(await page.locator('.editor-tab-shipments').count(), 0)
      assert.ok(await page.evaluate(() => !!localStorage.getItem('h5_token')), 'the shopper is still logged in')
      await shot('shipments-no-access-zh.png')
      assert.deepEqual(errors, [])
    } finally {
      await close()
    }
  }

  for (const locale of ['zh-CN', 'en-US']) {
    const zh = locale === 'zh-CN'
    const tag = zh ? 'zh' : 'en'
    const { page, errors, close, input, shot } = await openPhonePage({ locale })
    try {
      await passwordLogin({ page, input }, base, 'operator', 'operator123')
      await page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
      await page.locator('.editor-tab-shipments').click()
      const card = page.locator(`.shipment-${shipment.id}`)
      await card.waitFor()
      await shot(`shipments-tab-${tag}.png`)

      if (zh) {
        // the client's checks: nothing chosen, then a tracking number with a space
        const deliveries = []
        page.on('request', r => { if (r.url().includes('/generalOrder/deliver')) deliveries.push(r.url()) })
        await card.locator('.deliver-submit').click()
        await card.locator('.deliver-carrier-error').waitFor()
        assert.equal(await card.locator('.deliver-carrier-error').innerText(), '请选择快递公司')
        assert.equal(await card.locator('.deliver-tracking-error').innerText(), '请填写运单号')
        await card.locator('.deliver-carrier-yuantong').click()
        await card.locator('.deliver-tracking input, input.deliver-tracking').first().fill('YT 123')
        await card.locator('.deliver-submit').click()
        assert.equal(await card.locator('.deliver-tracking-error').innerText(), '运单号应为 4-40 位字母、数字或 -')
        await shot('shipments-form-errors-zh.png')
        assert.deepEqual(deliveries, [], 'nothing was sent while the form was wrong')

        await card.locator('.deliver-tracking input, input.deliver-tracking').first().fill('YT9876543210')
        await card.locator('.deliver-submit').click()
        await page.locator(`.shipment-${shipment.id}.shipment--shipping`).waitFor()
        assert.match(await card.locator('.shipment-delivered').innerText(), /圆通速递 YT9876543210/)
        await shot('shipments-shipped-zh.png')
      } else {
        // already shipped by the zh round: the queue shows it as such after a reload
        await page.locator(`.shipment-${shipment.id}.shipment--shipping`).waitFor()
        assert.match(await card.locator('.shipment-delivered').innerText(), /YTO Express YT9876543210/)
      }

      // the packing slip: one QR per prize, each decoding to a link the server accepts
      await card.locator('.shipment-print').click()
      await page.locator('.packing-slip').waitFor()
      const qrs = page.locator('.packing-slip img.slip-item__qr, .packing-slip .slip-item__qr img')
      await page.waitForFunction(() => document.querySelectorAll('.packing-slip .slip-item').length > 0)
      assert.equal(await qrs.count(), shipment.items.length, 'one QR per prize')
      assert.match(await page.locator('.packing-slip__number').innerText(), new RegExp(`#${shipment.id}\\b`))
      await shot(`shipments-slip-${tag}.png`)
      const seen = new Set()
      for (let i = 0; i < shipment.items.length; i++) {
        const qr = qrs.nth(i)
        await qr.scrollIntoViewIfNeeded()
        const url = decodePng(await qr.screenshot())
        assert.ok(url, `QR ${i + 1} decodes`)
        const m = /\/pagesA\/prize_detail\/index\?prizeId=(\d+)&verify=([A-Za-z0-9_-]+)$/.exec(url)
        assert.ok(m, `a prize check link: ${url}`)
        assert.ok(url.startsWith(base), `the shop's own address: ${url}`)
        const prizeId = Number(m[1])
        seen.add(prizeId)
        const verified = ok(await post('/api/prizeVerify', { prizeId, code: m[2] }), 'prizeVerify')
        assert.equal(verified.authentic, true)
        assert.equal(verified.prizeId, prizeId)
        assert.ok(verified.shippedAt, 'shipped')
        // the code of one prize does not check another
        const other = shipment.items.find(x => x.prizeId !== prizeId).prizeId
        assert.equal((await post('/api/prizeVerify', { prizeId: other, code: m[2] })).code, 404)
      }
      assert.deepEqual([...seen].sort(), shipment.items.map(x => x.prizeId).sort(), 'each prize has its own code')
      // the rest of the page is hidden when printing
      await page.emulateMedia({ media: 'print' })
      assert.equal(await page.locator('.editor-tabs').isVisible(), false)
      assert.equal(await page.locator('.slip-print').isVisible(), false)
      assert.equal(await page.locator('.packing-slip').isVisible(), true)
      await shot(`shipments-slip-print-${tag}.png`)
      await page.emulateMedia({ media: 'screen' })
      await page.locator('.slip-close').click()
      await page.locator('.packing-slip-overlay').waitFor({ state: 'detached' })
      assert.deepEqual(errors, [])
    } catch (e) {
      await page.screenshot({ path: path.join(SHOTS, `FAILED-shipments-${tag}.png`) }).catch(() => undefined)
      console.error('page errors:', errors)
      throw e
    } finally {
      await close()
    }
  }
}

module.exports = { name: 'shipments: a shopper ships, the operator enters carrier and number, the packing slip QR checks', run, shopperShips, api }
