/**
 * Combine, end to end in Chromium (issue 9): a new shopper buys a whole case, opens the combine page
 * from the collection, sees the recipe's pool and odds and the seed hash before combining, picks three
 * regular items, combines, and on the result page reveals the seed and checks the draw on the device.
 * The prize it made has no case: its page, the packing slip and the QR check show the combine's draw.
 * The whole case earned an X-ray card: a long press on a box of the next case opens the props, the
 * X-ray shows its design, and buying that box gives exactly that design.
 */
const assert = require('node:assert/strict')
const { createHash } = require('node:crypto')
const path = require('node:path')
const { openPhonePage, passwordLogin, SHOTS } = require('./browser')
const { api } = require('./api')

async function run ({ base }) {
  const { page, errors, close, input, shot } = await openPhonePage({ locale: 'zh-CN' })
  try {
    await page.goto(`${base}/`, { waitUntil: 'networkidle' })
    await page.locator('.login-switch').click()
    await input('input-account').fill(`mixer_${Date.now().toString(36)}`)
    await input('input-password').fill('mixer-pass')
    await page.locator('.login-check').click()
    await page.locator('.login-submit').click()
    await page.waitForURL(/\/pagesA\/home\/index/)
    const token = await page.evaluate(() => { const raw = localStorage.getItem('h5_token'); try { return JSON.parse(raw).data ?? raw } catch { return raw } })
    const userId = (await api(base, '/getUserInfo', undefined, token)).id
    await api(base, '/api/ageVerify', { birthDate: '1992-02-02' }, token)
    const opId = await api(base, '/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId }, token)
    await api(base, '/generalOrder/create', { productId: 'wallet_topup', userId, opId, amountCents: 200000, channel: 'sandbox' }, token)
    await api(base, '/api/sandboxPay', { opId }, token)
    const seriesId = (await api(base, '/api/seriesList', { page: 1, size: 10 })).list[0].id
    const view = await api(base, '/api/caseCurrent', { seriesId }, token)
    await api(base, '/api/casePurchase', { caseId: view.caseId, wholeCase: true, acknowledged: true, idempotencyKey: `combine-${Date.now().toString(36)}` }, token)

    // from the collection to the combine page: the pool, odds, guarantee and seed hash come first
    await page.goto(`${base}/pagesA/my_blind_box/index`, { waitUntil: 'networkidle' })
    await page.locator('.collection-combine').click()
    await page.waitForURL(/combine\/index/)
    await page.locator('.pool-row').first().waitFor()
    const seed = await api(base, '/api/fairSeed', {}, token)
    assert.equal(await page.locator('.seed-hash').innerText(), seed.serverSeedHash)
    assert.match(await page.locator('.recipe-rule').innerText(), /保底/)
    assert.ok(await page.locator('.pool-row').count() >= 10, 'the whole pool with odds')
    const materials = page.locator('.material')
    assert.ok(await materials.count() >= 3, 'at least three regular items')
    for (let i = 0; i < 3; i++) await materials.nth(i).click()
    await page.locator('.material--on').nth(2).waitFor()
    await shot('combine-zh.png')
    await page.locator('.combine-start').click()
    await page.locator('.taro-model__confirm').click()

    // the result: the design, the seeds and nonce; reveal the seed and check on the device
    await page.waitForURL(/combine_result/)
    await page.locator('.combine-reveal').waitFor()
    const combineId = Number(new URL(page.url()).searchParams.get('combineId'))
    await page.locator('.combine-reveal').click()
    await page.locator('.proof-server-seed').waitFor()
    const revealed = await page.locator('.proof-server-seed').innerText()
    assert.equal(createHash('sha256').update(revealed).digest('hex'), seed.serverSeedHash)
    await page.locator('.combine-check').click()
    await page.locator('.combine-check-result--ok').waitFor()
    await shot('combine-result-zh.png')
    const detail = await api(base, '/api/combineDetail', { combineId }, token)
    assert.equal(detail.inputPrizeIds.length, 3)
    for (const id of detail.inputPrizeIds) assert.equal((await api(base, '/api/prizeDetail', { prizeId: id }, token)).status, 'combined')
    assert.equal((await api(base, '/api/prizeDetail', { prizeId: detail.output.prizeId }, token)).origin, 'combine')

    // the prize it made has no case: its page shows the combine's draw, checked on the device
    const output = detail.output.prizeId
    await page.goto(`${base}/pagesA/prize_detail/index?prizeId=${output}`, { waitUntil: 'networkidle' })
    await page.locator('.combine-proof-view').waitFor()
    assert.equal(await page.locator('.combine-proof-view .combine-proof-hash').innerText(), seed.serverSeedHash)
    assert.equal(await page.locator('.combine-proof-view .combine-proof-server-seed').innerText(), revealed)
    await page.locator('.combine-proof-check').click()
    await page.locator('.combine-proof-view__result--ok').waitFor()
    await page.locator('.combine-proof-view').scrollIntoViewIfNeeded()
    await shot('combine-prize-zh.png')

    // shipped with two more (free): the packing slip prints its combine's draw, and its QR checks it (issue 21: a 500 before)
    const others = (await api(base, '/api/prizeList', { page: 1, size: 50, status: 'warehouse' }, token)).list.filter(p => p.prizeId !== output).slice(0, 2)
    const address = await api(base, '/api/addressSave', { name: '王五', phone: '13712345678', region: '广东省 深圳市 南山区', detail: '科技园 8 号' }, token)
    const { shipment } = await api(base, '/api/shipmentCreate', { prizeIds: [output, ...others.map(p => p.prizeId)], addressId: address.id, idempotencyKey: `ship-${Date.now().toString(36)}` }, token)
    const ops = await openPhonePage({ locale: 'en-US' })
    try {
      await passwordLogin(ops, base, 'operator', 'operator123')
      await ops.page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
      await ops.page.locator('.editor-tab-shipments').click()
      await ops.page.locator(`.shipment-${shipment.id} .shipment-print`).click()
      await ops.page.locator('.packing-slip .slip-item').first().waitFor()
      const slipText = await ops.page.locator('.packing-slip').innerText()
      assert.match(slipText, new RegExp(`Combine #${combineId} · nonce ${detail.proof.nonce}`))
      assert.ok(slipText.includes(detail.proof.serverSeedHash), 'the slip prints the seed hash')
      assert.ok(!/#0 · /.test(slipText), 'no case 0')
      await ops.shot('combine-slip-en.png')
      const opToken = await ops.page.evaluate(() => { const raw = localStorage.getItem('h5_token'); try { return JSON.parse(raw).data ?? raw } catch { return raw } })
      const slip = await api(base, '/api/operator/packingSlip', { shipmentId: shipment.id }, opToken)
      const url = slip.codes.find(c => c.prizeId === output).verifyUrl
      // anyone holding the figure: the check page shows the combine's proof and recomputes it
      await ops.page.goto(url, { waitUntil: 'networkidle' })
      await ops.page.locator('.prize-check--ok').waitFor()
      await ops.page.locator('.prize-check .combine-proof-check').click()
      await ops.page.locator('.prize-check .combine-proof-view__result--ok').waitFor()
      assert.match(await ops.page.locator('.prize-check').innerText(), new RegExp(`Made by combine #${combineId}`))
      await ops.shot('combine-check-en.png')
      assert.deepEqual(ops.errors, [], 'no page errors (operator)')
    } finally {
      await ops.close()
    }

    // the whole case earned an X-ray card: long press a box of the next case, X-ray it, buy what it showed
    assert.equal((await api(base, '/api/props', {}, token)).cards.xray, 1)
    await page.goto(`${base}/pagesA/blind_box_detail/index?seriesId=${seriesId}`, { waitUntil: 'networkidle' })
    await page.locator('.props-bar-xray').waitFor()
    const target = page.locator('.slot:not(.slot--sold)').first()
    const slot = Number((await target.getAttribute('class')).match(/slot-(\d+)/)[1])
    await target.evaluate(async el => {
      const touch = new Touch({ identifier: 1, target: el, clientX: 20, clientY: 20 })
      el.dispatchEvent(new TouchEvent('touchstart', { touches: [touch], changedTouches: [touch], bubbles: true }))
      await new Promise(r => setTimeout(r, 450))
      el.dispatchEvent(new TouchEvent('touchend', { touches: [], changedTouches: [touch], bubbles: true }))
    })
    await page.locator('.prop-sheet-xray').waitFor()
    await shot('props-sheet-zh.png')
    // a tap of its own (a touch that starts on the sheet): the end of the press that opened it is not taken as one
    await page.locator('.prop-sheet-xray').tap()
    const shownText = await page.locator('.taro-modal__content').innerText()
    await page.locator('.taro-model__confirm').click()
    const caseNow = await api(base, '/api/caseCurrent', { seriesId }, token)
    const [shown] = (await api(base, '/api/caseHints', { caseId: caseNow.caseId }, token)).filter(h => h.kind === 'xray')
    assert.equal(shown.slot, slot)
    assert.ok(shownText.includes(shown.design.name.zh), 'the dialog names the design')
    await page.locator(`.slot-${slot}.slot--picked .slot__seen`).waitFor()
    await page.locator('.slot-grid').scrollIntoViewIfNeeded()
    await shot('props-xray-zh.png')
    // the props page (another tab) shows the hold with the time left by the server's clock
    const tab = await page.context().newPage()
    try {
      await tab.goto(`${base}/pagesA/props/index`, { waitUntil: 'networkidle' })
      const hold = tab.locator('.prop-use__hold').first()
      await hold.waitFor()
      assert.match(await hold.innerText(), /为你保留到 .+ · 还剩 \d+:\d\d/)
      await tab.screenshot({ path: path.join(SHOTS, 'props-hold-zh.png') })
    } finally { await tab.close() }
    await page.locator('.buy-picked').click()
    await page.waitForURL(/purchase/)
    await page.locator('.disclosure .purchase-ack').click()
    await page.locator('.purchase-pay').click()
    await page.waitForURL(/open_chest_animation/)
    const prizes = (await api(base, '/api/prizeList', { page: 1, size: 1 }, token)).list
    assert.equal(prizes[0].slot, slot)
    assert.equal(prizes[0].design.id, shown.design.id, 'the box held what the X-ray showed')
    assert.equal((await api(base, '/api/props', {}, token)).cards.xray, 0)
    assert.deepEqual(errors, [], 'no page errors')
  } finally {
    await close()
  }
}

module.exports = { name: 'combine and props: pool and seeds first, three items, reveal, check on the device; an earned X-ray card by long press, then buying what it showed', run }
