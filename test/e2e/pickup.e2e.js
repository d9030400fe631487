/**
 * Pickup points (自提), end to end in Chromium (issue 24): a shopper in Zhongguancun chooses "pick up
 * instead" when shipping two prizes, sees the demo counters within 5 km nearest first on Tencent's web
 * map (a local server that speaks its JavaScript API GL) and in a list, each with its driving distance
 * and time (the local Tencent location service), picks one by the list and by its pin (the route
 * redrawn, its steps shown), and books the pickup (no fee); the parcel card opens the counter in a map
 * app (AMap's URI API on a desktop browser). The operator adds, changes and closes a point in the
 * editor's Pickup tab, then hands the prizes over by scanning each one's packing-slip QR; the last scan
 * completes the pickup. The fake's refusal of a wrong key is checked too: no TMap, no callback.
 */
const assert = require('node:assert/strict')
const { PNG } = require('pngjs')
const jsQR = require('jsqr')
const { openPhonePage, passwordLogin } = require('./browser')

async function api (base, path, body, token, lang = 'zh') {
  const res = await fetch(`${base}/dev-api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': lang, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body)
  })
  const json = await res.json()
  if (json.code !== 200) throw new Error(`${path}: ${JSON.stringify(json)}`)
  return json.data
}

// where the phone says it is (WGS-84): Zhongguancun, Beijing
const HERE = { latitude: 39.98283, longitude: 116.30136 }

/** A new shopper with two prizes in the warehouse and an address (the pickup's contact). */
async function shopperWithPrizes (base) {
  const userName = `pickup_${Date.now().toString(36)}`
  const { token, user } = await api(base, '/login/register?table=user', { user_name: userName, password: 'pickup-pass' })
  await api(base, '/api/ageVerify', { birthDate: '1992-03-01' }, token)
  const opId = await api(base, '/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId: user.id }, token)
  await api(base, '/generalOrder/create', { productId: 'wallet_topup', userId: user.id, opId, amountCents: 50000, channel: 'sandbox' }, token)
  await api(base, '/api/sandboxPay', { opId }, token)
  let prizes = null
  for (const s of (await api(base, '/api/seriesList', { page: 1, size: 10 })).list) {
    const view = await api(base, '/api/caseCurrent', { seriesId: s.id }, token)
    const free = view.slots.filter(x => !x.sold).map(x => x.slot)
    if (free.length < 2) continue
    prizes = (await api(base, '/api/casePurchase', { caseId: view.caseId, slots: free.slice(0, 2), acknowledged: true, idempotencyKey: `pk-${Date.now().toString(36)}` }, token)).prizes
    break
  }
  assert.ok(prizes && prizes.length === 2, 'two prizes bought')
  await api(base, '/api/addressSave', { name: '王五', phone: '13700137000', region: '北京市 海淀区', detail: '中关村大街 1 号' }, token)
  return { userName, token, prizes }
}

function decodePng (buffer) {
  const png = PNG.sync.read(buffer)
  const found = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height)
  return found ? found.data : null
}

async function run ({ base, fakes }) {
  const points = await (async () => {
    const op = await api(base, '/login/passwd', { user_name: 'operator', password: 'operator123' })
    return { token: op.token, list: await api(base, '/api/operator/pickupPoints', {}, op.token) }
  })()
  const zgc = points.list.find(p => p.name === '拾盒 中关村店')
  const wdk = points.list.find(p => p.name === '拾盒 五道口店')
  const gm = points.list.find(p => p.name === '拾盒 国贸店')
  assert.ok(zgc && wdk && gm, 'the demo counters are there')

  const { userName, token, prizes } = await shopperWithPrizes(base)
  const before = await api(base, '/api/walletBalance', {}, token)
  let shipmentId

  // ---- the shopper: pick up instead --------------------------------------------------------------------
  {
    const { page, errors, close, input, shot } = await openPhonePage({ locale: 'zh-CN', geolocation: HERE })
    try {
      await passwordLogin({ page, input }, base, userName, 'pickup-pass')
      await page.goto(`${base}/pagesA/my_blind_box/index`, { waitUntil: 'networkidle' })
      await page.locator('.collection-select').click()
      for (const p of prizes) await page.locator(`.prize-${p.prizeId}`).click()
      await page.locator('.select-ship').click()
      await page.locator('.ship-sheet__panel').waitFor()
      const drivesBefore = fakes.tencent.calls.filter(c => c.path.startsWith('/ws/direction/v1/driving')).length
      await page.locator('.ship-mode-pickup').click()

      // the list: the two Haidian counters, nearest first; Guomao (about 14 km) is beyond 5 km
      await page.locator(`.pickup-point-${zgc.id}`).waitFor()
      await page.locator(`.pickup-point-${wdk.id}`).waitFor()
      assert.equal(await page.locator(`.pickup-point-${gm.id}`).count(), 0)
      const order = await page.locator('.pickup-point').evaluateAll(els => els.map(e => e.className.match(/pickup-point-(\d+)/)[1]))
      assert.deepEqual(order.map(Number), [zgc.id, wdk.id])
      // each with its driving distance and time, from the local Tencent service
      await page.waitForFunction(() => [...document.querySelectorAll('.pickup-point__distance')].every(e => e.textContent.includes('驾车')))
      assert.match(await page.locator(`.pickup-point-${zgc.id} .pickup-point__distance`).innerText(), /驾车 [\d.]+ (米|公里) · 约 \d+ 分钟/)
      assert.ok(fakes.tencent.calls.filter(c => c.path.startsWith('/ws/direction/v1/driving')).length >= drivesBefore + 2, 'a route per point')
      // the nearest is chosen: its route's steps, and its pin the larger one
      await page.locator(`.pickup-point-${zgc.id}.pickup-point--on .pickup-steps__step`).first().waitFor()
      assert.match(await page.locator(`.pickup-point-${zgc.id} .pickup-point__hours`).innerText(), /营业时间：每天 10:00-22:00/)

      // the web map: loaded with the shop's key, zoom within 5-18, two pins and the shopper's dot, the route
      await page.locator('.tmap-fake').waitFor()
      const load = fakes.tmap.loads.at(-1)
      assert.equal(load.key, require('../support/providers/tencentMapJs').KEY)
      assert.match(load.callback, /^__shiheTMapReady\d+$/)
      await page.waitForFunction(() => document.querySelectorAll('.tmap-fake-pin').length === 3)
      assert.equal(await page.locator('.tmap-fake-pin--origin').count(), 1)
      assert.equal(await page.locator('.tmap-fake-pin--on').getAttribute('data-id'), String(zgc.id))
      await page.locator('.tmap-fake-route').waitFor()
      assert.ok(Number(await page.locator('.tmap-fake-route').getAttribute('data-points')) >= 2)
      const zoom = Number(await page.locator('.tmap-fake').getAttribute('data-zoom'))
      assert.ok(zoom >= 5 && zoom <= 18, `zoom ${zoom} within 5-18`)
      await shot('pickup-sheet-zh.png')

      // choose by the list: Wudaokou; its route replaces the other
      const routeBefore = await page.locator('.tmap-fake-route').getAttribute('points')
      await page.locator(`.pickup-point-${wdk.id} .pickup-point__name`).click()
      await page.locator(`.pickup-point-${wdk.id}.pickup-point--on .pickup-steps__step`).first().waitFor()
      await page.waitForFunction(id => document.querySelector('.tmap-fake-pin--on')?.getAttribute('data-id') === String(id), wdk.id)
      assert.notEqual(await page.locator('.tmap-fake-route').getAttribute('points'), routeBefore)
      // and back by its pin on the map
      await page.locator(`.tmap-fake-pin[data-id="${zgc.id}"]`).click()
      await page.locator(`.pickup-point-${zgc.id}.pickup-point--on`).waitFor()

      // no fee at the counter; the address is the contact
      assert.match(await page.locator('.ship-fee__value').innerText(), /自提免运费/)
      await page.locator('.address-card--on').waitFor()
      await page.locator('.ship-confirm').click()
      await page.locator('.parcel--pickup').first().waitFor()
      const card = page.locator('.parcel--pickup').first()
      assert.match(await card.innerText(), /待自提[\s\S]*自提点：拾盒 中关村店/)
      assert.match(await card.innerText(), /已领取 0\/2 件/)
      await shot('pickup-parcel-zh.png')

      const [shipment] = (await api(base, '/api/shipmentList', { page: 1, size: 10 }, token)).list
      shipmentId = shipment.id
      assert.equal(shipment.pickup.id, zgc.id)
      assert.equal(shipment.feeCents, 0)
      assert.deepEqual(shipment.items.map(i => i.prizeId).sort(), prizes.map(p => p.prizeId).sort())
      const after = await api(base, '/api/walletBalance', {}, token)
      assert.deepEqual(after, before, 'no fee was taken')

      // "open in map app": a desktop browser gets AMap's URI API page
      await page.route('https://uri.amap.com/**', r => r.fulfill({ contentType: 'text/html', body: '<html><body>amap</body></html>' }))
      await card.locator('.parcel__map').click()
      await page.waitForURL(/^https:\/\/uri\.amap\.com\/navigation/)
      const to = new URL(page.url()).searchParams.get('to')
      assert.equal(to, `${zgc.longitude.toFixed(6)},${zgc.latitude.toFixed(6)},拾盒 中关村店`)
      assert.deepEqual(errors, [])
    } finally {
      await close()
    }
  }

  // ---- the pickup in English ---------------------------------------------------------------------------
  {
    const { page, errors, close, input, shot } = await openPhonePage({ locale: 'en-US', geolocation: HERE })
    try {
      await passwordLogin({ page, input }, base, userName, 'pickup-pass')
      // the parcel list in English
      await page.goto(`${base}/pagesA/my_blind_box/index`, { waitUntil: 'networkidle' })
      await page.locator('.collection-view-parcels').click()
      await page.locator(`.parcel-${shipmentId}`).waitFor()
      assert.match(await page.locator(`.parcel-${shipmentId}`).innerText(), /Ready to collect[\s\S]*Pickup at 拾盒 中关村店[\s\S]*0 of 2 collected/)
      await shot('pickup-parcel-en.png')
      assert.deepEqual(errors, [])
    } finally {
      await close()
    }
  }

  // ---- no position (issue 48): the location refused, the IP unknown: every counter by city, searchable --
  {
    const second = await shopperWithPrizes(base)
    // English first: the Chinese run books the pickup, which takes the prizes out of the warehouse
    for (const locale of ['en-US', 'zh-CN']) {
      // no geolocation permission: the browser refuses the position, and a local address places nobody
      const { page, errors, close, input, shot } = await openPhonePage({ locale })
      const zh = locale === 'zh-CN'
      try {
        await passwordLogin({ page, input }, base, second.userName, 'pickup-pass')
        await page.goto(`${base}/pagesA/my_blind_box/index`, { waitUntil: 'networkidle' })
        await page.locator('.collection-select').click()
        for (const p of second.prizes) await page.locator(`.prize-${p.prizeId}`).click()
        await page.locator('.select-ship').click()
        await page.locator('.ship-mode-pickup').click()
        await page.locator('.pickup-dir').waitFor({ timeout: 20000 })
        assert.match(await page.locator('.pickup__from-label').innerText(), zh ? /无法获取当前位置：下面列出全部自提点/ : /every pickup point is listed below/)
        const open = (await api(base, '/api/operator/pickupPoints', {}, points.token)).filter(p => p.active)
        await page.waitForFunction(n => document.querySelectorAll('.pickup-dir .pickup-point').length === n, open.length)
        assert.equal(await page.locator('.pickup-dir__city-name').first().innerText(), zh ? `北京市 · ${open.length} 个自提点` : `北京市 · ${open.length} counters`)
        assert.ok((await page.locator('.ship-confirm').getAttribute('class')).includes('btn--disabled'), 'nothing chosen yet')
        await shot(`pickup-nolocation-${zh ? 'zh' : 'en'}.png`)
        // the search: by address, then a word no counter has
        await input('pickup-dir__search').fill('建国门')
        await page.waitForFunction(() => document.querySelectorAll('.pickup-dir .pickup-point').length === 1)
        assert.match(await page.locator('.pickup-dir .pickup-point__name').innerText(), /拾盒 国贸店/)
        await input('pickup-dir__search').fill('上海')
        await page.locator('.pickup-dir__nomatch').waitFor()
        await input('pickup-dir__search').fill('国贸')
        await page.locator(`.pickup-point-${gm.id}`).click()
        await page.locator(`.pickup-point-${gm.id}.pickup-point--on`).waitFor()
        assert.ok(!(await page.locator('.ship-confirm').getAttribute('class')).includes('btn--disabled'), 'confirm enabled once a counter is chosen')
        await shot(`pickup-nolocation-chosen-${zh ? 'zh' : 'en'}.png`)
        if (zh) {
          await page.locator('.ship-confirm').click()
          await page.waitForFunction(() => document.body.innerText.includes('已预约到店自提'))
          const [booked] = (await api(base, '/api/shipmentList', { page: 1, size: 5 }, second.token)).list
          assert.equal(booked.pickup.id, gm.id)
        }
        assert.deepEqual(errors, [])
      } finally {
        await close()
      }
    }
  }

  // ---- the operator: the points, and the hand-over at the counter ----------------------------------
  {
    const { page, errors, close, input, shot } = await openPhonePage({ locale: 'zh-CN' })
    try {
      await passwordLogin({ page, input }, base, 'operator', 'operator123')
      await page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
      await page.locator('.editor-tab-pickup').click()
      await page.locator(`.op-pickup-point-${zgc.id}`).waitFor()
      await page.locator('.op-pickup .tmap-fake').waitFor()
      // a new point: the form checks before sending, then it is saved
      await page.locator('.op-pickup-add').click()
      await page.locator('.op-pickup-save').click()
      assert.match(await page.locator('.op-pickup-problem-name').innerText(), /请填写名称/)
      assert.match(await page.locator('.op-pickup-problem-latitude').innerText(), /纬度/)
      await input('op-pickup-name').fill('拾盒 西二旗店')
      await input('op-pickup-address').fill('北京市海淀区西二旗大街 58 号')
      await input('op-pickup-hours').fill('每天 09:00-21:00')
      await input('op-pickup-latitude').fill('40.05310')
      await input('op-pickup-longitude').fill('116.30120')
      await shot('pickup-editor-form-zh.png')
      await page.locator('.op-pickup-save').click()
      await page.locator('.op-pickup-point', { hasText: '拾盒 西二旗店' }).waitFor()
      const added = (await api(base, '/api/operator/pickupPoints', {}, points.token)).find(p => p.name === '拾盒 西二旗店')
      assert.deepEqual([added.latitude, added.longitude, added.active], [40.0531, 116.3012, true])
      // stop pickups there
      await page.locator(`.op-pickup-point-${added.id} .op-pickup-toggle`).click()
      await page.locator(`.op-pickup-point-${added.id}.op-pickup-point--closed`).waitFor()
      assert.equal((await api(base, '/api/operator/pickupPoints', {}, points.token)).find(p => p.id === added.id).active, false)
      await shot('pickup-editor-zh.png')

      // the hand-over: the slip's QR of each prize, photographed, scanned
      await page.locator('.editor-tab-shipments').click()
      const card = page.locator(`.shipment-${shipmentId}`)
      await card.waitFor()
      assert.match(await card.innerText(), /到店自提：拾盒 中关村店/)
      await card.locator('.shipment-print').click()
      await page.locator('.packing-slip').waitFor()
      await page.waitForFunction(() => document.querySelectorAll('.packing-slip .slip-item').length === 2)
      const qrs = page.locator('.packing-slip img.slip-item__qr, .packing-slip .slip-item__qr img')
      const photos = []
      for (let i = 0; i < 2; i++) {
        await qrs.nth(i).scrollIntoViewIfNeeded()
        const shotPng = await qrs.nth(i).screenshot()
        assert.ok(decodePng(shotPng), `QR ${i + 1} decodes`)
        photos.push(shotPng)
      }
      await page.locator('.slip-close').first().click()
      for (let i = 0; i < 2; i++) {
        const chooser = page.waitForEvent('filechooser')
        await card.locator('.shipment-hand').click()
        await (await chooser).setFiles({ name: `qr-${i}.png`, mimeType: 'image/png', buffer: photos[i] })
        if (i === 0) await page.waitForFunction(id => document.querySelector(`.shipment-${id} .shipment-handed`)?.textContent.includes('1/2'), shipmentId)
      }
      await page.locator(`.shipment-${shipmentId}.shipment--received`).waitFor()
      assert.match(await card.locator('.shipment-handed').innerText(), /已交付 2\/2 件/)
      await shot('pickup-handed-zh.png')
      const done = await api(base, '/api/shipmentDetail', { shipmentId }, token)
      assert.equal(done.status, 'received')
      assert.ok(done.items.every(i => i.handedAt))
      for (const p of prizes) assert.equal((await api(base, '/api/prizeDetail', { prizeId: p.prizeId }, token)).status, 'received')
      assert.deepEqual(errors, [])
    } finally {
      await close()
    }
  }

  // ---- the fake refuses what Tencent refuses: a wrong key loads no TMap and calls no callback ----------
  {
    const { page, close } = await openPhonePage({ locale: 'zh-CN' })
    try {
      await page.goto(`${base}/static/map/pin.png`)
      const result = await page.evaluate(src => new Promise(resolve => {
        window.cb = () => resolve('called')
        const s = document.createElement('script')
        s.src = `${src}?v=1.exp&key=WRONG-KEY00-00000-00000-00000-00000&callback=cb`
        s.onload = () => setTimeout(() => resolve(typeof window.TMap), 300)
        document.head.appendChild(s)
      }), fakes.tmap.script)
      assert.equal(result, 'undefined')
    } finally {
      await close()
    }
  }
}

module.exports = { name: 'pickup points', run }
