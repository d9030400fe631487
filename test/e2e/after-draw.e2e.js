/**
 * After the draw, end to end in Chromium (issue 8): a new shopper with four prizes sees sets and
 * counts in the collection, recycles one from the collection (the confirmation shows the credit),
 * selects two and ships them to a new address, the operator enters the tracking number, the parcel
 * shows carrier, number and tracking, and the shopper confirms receipt. Balance and statuses are
 * checked against the server after each step.
 */
const assert = require('node:assert/strict')
const { openPhonePage } = require('./browser')

/** A JSON call of the API from the test (not from the page). */
async function api (base, path, body, token, lang = 'en') {
  const res = await fetch(`${base}/dev-api${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'accept-language': lang, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const json = await res.json()
  if (json.code !== 200) throw new Error(`${path}: ${JSON.stringify(json)}`)
  return json.data
}

// where the phone says it is (WGS-84): Zhongguancun, Beijing, which the local Tencent service knows
const HERE = { latitude: 39.98283, longitude: 116.30136 }

async function run ({ base, fakes }) {
  const { page, errors, close, input, shot } = await openPhonePage({ locale: 'zh-CN', geolocation: HERE })
  try {
    const user = `after_${Date.now().toString(36)}`
    await page.goto(`${base}/`, { waitUntil: 'networkidle' })
    await page.locator('.login-switch').click()
    await input('input-account').fill(user)
    await input('input-password').fill('after-pass')
    await page.locator('.login-check').click()
    await page.locator('.login-submit').click()
    await page.waitForURL(/\/pagesA\/home\/index/)
    const token = await page.evaluate(() => {
      const raw = localStorage.getItem('h5_token')
      try { return JSON.parse(raw).data ?? raw } catch { return raw }
    })
    assert.ok(token, 'logged in')

    // four prizes, bought through the API (buying through the pages is the shop suite's job)
    const userId = (await api(base, '/getUserInfo', undefined, token)).id
    assert.ok(userId, 'the user id')
    await api(base, '/api/ageVerify', { birthDate: '1995-06-01' }, token)
    const opId = await api(base, '/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId }, token)
    await api(base, '/generalOrder/create', { productId: 'wallet_topup', userId, opId, amountCents: 50000, channel: 'sandbox' }, token)
    await api(base, '/api/sandboxPay', { opId }, token)
    const series = await api(base, '/api/seriesList', { page: 1, size: 10 })
    const seriesId = series.list[0].id
    const view = await api(base, '/api/caseCurrent', { seriesId }, token)
    const slots = view.slots.filter(s => !s.sold).slice(0, 4).map(s => s.slot)
    assert.equal(slots.length, 4, 'four free slots')
    const bought = await api(base, '/api/casePurchase', { caseId: view.caseId, slots, acknowledged: true, idempotencyKey: `e2e-${Date.now().toString(36)}` }, token)
    const prizes = bought.prizes
    const balance = () => api(base, '/api/walletBalance', {}, token)
    const before = await balance()

    // the collection: sets, counts, the four prizes
    await page.goto(`${base}/pagesA/my_blind_box/index`, { waitUntil: 'networkidle' })
    await page.locator('.set').first().waitFor()
    assert.match(await page.locator('.set').first().innerText(), /集齐进度 \d+\/\d+/)
    assert.match(await page.locator('.filter-warehouse').innerText(), /4/)
    assert.equal(await page.locator('.prize-row').count(), 4)
    assert.ok(await page.locator('.set__design--missing').count() > 0, 'missing designs are greyed')
    await shot('after-collection-zh.png')

    // recycle one: the confirmation names the credit
    await page.locator('.collection-select').click()
    const first = prizes[0]
    await page.locator(`.prize-${first.prizeId}`).click()
    await page.locator('.select-recycle').click()
    const modal = page.locator('.taro-modal__content')
    await modal.waitFor()
    const credit = first.design.recycleValueCents
    assert.ok((await modal.innerText()).includes((credit / 100).toFixed(2)), 'the dialog shows the credit')
    await shot('after-recycle-confirm-zh.png')
    await page.locator('.taro-model__confirm').click()
    await page.waitForFunction(id => !document.querySelector(`.prize-${id} .check--on`) && document.querySelector('.filter-recycled')?.textContent.includes('1'), first.prizeId)
    const afterRecycle = await balance()
    assert.equal(afterRecycle.creditCents, before.creditCents + credit)
    assert.equal(afterRecycle.cashCents, before.cashCents)

    // ship two to a new address
    await page.locator('.collection-select').click()
    const two = prizes.slice(1, 3)
    for (const p of two) await page.locator(`.prize-${p.prizeId}`).click()
    await page.locator('.select-ship').click()
    await page.locator('.ship-sheet__panel').waitFor()
    await page.locator('.ship-form').waitFor()
    await input('ship-name').fill('李四')
    await input('ship-phone').fill('12345')
    // "use my location": the browser's position, reverse geocoded by the (local) Tencent location service
    await page.locator('.address-locator__locate').click()
    // the region shows in the 省市区 picker (issue 48), filled from the place found
    await page.waitForFunction(() => (document.querySelector('.ship-row-region .region-picker__value')?.textContent ?? '').includes('北京'))
      .catch(async e => { await shot('after-locate-failed.png'); throw e })
    assert.match(await input('ship-detail').inputValue(), /\S/, 'the detail is filled in')
    assert.ok(fakes.tencent.calls.some(c => c.path.startsWith('/ws/geocoder/v1') && c.query.location), 'the geocoder was asked')
    await input('ship-detail').fill(`${await input('ship-detail').inputValue()} 2 楼`)
    await page.locator('.ship-form__save').click()
    assert.match(await page.locator('.ship-form__problem').innerText(), /11 位/)
    await input('ship-phone').fill('13800138000')
    await page.locator('.ship-form__save').click()
    await page.locator('.address-card--on').waitFor()
    assert.match(await page.locator('.ship-fee__value').innerText(), /12\.00/)
    await shot('after-ship-sheet-zh.png')
    await page.locator('.ship-confirm').click()
    await page.locator('.parcel').first().waitFor()
    const [parcel] = (await api(base, '/api/shipmentList', { page: 1, size: 10 }, token)).list
    assert.deepEqual(parcel.items.map(i => i.prizeId).sort(), two.map(p => p.prizeId).sort())
    assert.equal(parcel.status, 'requested')
    const afterShip = await balance()
    assert.equal(afterShip.creditCents + afterShip.cashCents, afterRecycle.creditCents + afterRecycle.cashCents - 1200)

    // the operator enters carrier and number
    const op = await api(base, '/login/passwd', { user_name: 'operator', password: 'operator123' })
    await api(base, '/generalOrder/deliver', { shipmentId: parcel.id, carrier: 'shunfeng', trackingNo: 'SF1234567890123' }, op.token)

    // the shopper sees it on its way, and confirms receipt
    await page.reload({ waitUntil: 'networkidle' })
    await page.locator('.collection-view-parcels').click()
    await page.locator(`.parcel-${parcel.id}.parcel--shipping`).waitFor()
    assert.match(await page.locator(`.parcel-${parcel.id}`).innerText(), /SF1234567890123/)
    // the tracking timeline from the (local) Kuaidi100, newest first
    await page.locator(`.parcel-${parcel.id} .tracking__body`).waitFor()
    assert.match(await page.locator(`.parcel-${parcel.id} .tracking__body`).innerText(), /派送途中[\s\S]*已收取快件/)
    // its route on the map (Kuaidi100's map track): from the shop's city, now in Shanghai, to the address
    await page.locator(`.parcel-${parcel.id} .parcel-route__stops`).waitFor()
    assert.equal(await page.locator(`.parcel-${parcel.id} .parcel-route__stops`).innerText(), '发出 广东省深圳市 → 当前 上海 上海市 → 送往 ' + parcel.address.region + ' ' + parcel.address.detail)
    await page.waitForFunction(id => document.querySelectorAll(`.parcel-${id} .tmap-fake-pin`).length === 3 && document.querySelector(`.parcel-${id} .tmap-fake-route`), parcel.id)
    assert.ok(fakes.kuaidi100.calls.some(c => c.path === '/poll/maptrack.do'), 'the map track was asked')
    await page.locator(`.parcel-${parcel.id} .parcel-route`).scrollIntoViewIfNeeded()
    await shot('after-parcel-zh.png')
    await page.locator(`.parcel-${parcel.id} .parcel__confirm`).click()
    await page.locator('.taro-model__confirm').click()
    await page.locator(`.parcel-${parcel.id}.parcel--received`).waitFor()
    const done = await api(base, '/api/shipmentDetail', { shipmentId: parcel.id }, token)
    assert.equal(done.status, 'received')
    assert.equal(done.receivedBy, 'shopper')
    for (const p of two) assert.equal((await api(base, '/api/prizeDetail', { prizeId: p.prizeId }, token)).status, 'received')

    // the prize page of the last warehouse prize offers recycle and ship; in English too
    await page.evaluate(() => localStorage.setItem('app_locale', JSON.stringify({ data: 'en' })))
    await page.goto(`${base}/pagesA/prize_detail/index?prizeId=${prizes[3].prizeId}`, { waitUntil: 'networkidle' })
    await page.locator('.prize-ship').waitFor()
    await shot('after-prize-detail.png')
    await page.goto(`${base}/pagesA/my_blind_box/index`, { waitUntil: 'networkidle' })
    await page.locator('.prize-row').first().waitFor()
    await shot('after-collection.png')

    // the editor: a shopper has no access; the operator changes the shipping rule (and sets it back)
    await page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
    await page.getByText('No access').waitFor()
    await page.evaluate(t => localStorage.setItem('h5_token', JSON.stringify({ data: t })), op.token)
    await page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
    await page.locator('.editor-tab-settings').click()
    await page.locator('.op-setting-shipFeeCents input').fill('8.5')
    await page.locator('.op-setting-shipFreeFromItems input').fill('0')
    assert.match(await page.locator('.op-setting-shipFreeFromItems').innerText(), /From 1 to 50/)
    await page.locator('.op-setting-shipFreeFromItems input').fill('4')
    await shot('after-editor-settings.png')
    await page.locator('.op-settings__save').click()
    await page.getByText('Settings saved').waitFor()
    assert.deepEqual(await api(base, '/api/shippingRule', {}), { freeFromItems: 4, feeCents: 850 })
    // the daily AI budgets, with today's use beside them (issue 48)
    await page.locator('.op-setting-aiDailyPerShop').scrollIntoViewIfNeeded()
    assert.match(await page.locator('.op-setting-aiDailyPerShop').innerText(), /AI requests for the whole shop per day[\s\S]*Used today by the whole shop: \d+ of 2000/)
    assert.match(await page.locator('.op-setting-aiDailyPerAccount').innerText(), /Most used today by one account: \d+; accounts at their limit: \d+/)
    await shot('after-editor-ai-budget.png')
    await api(base, '/api/operator/settingsSave', { shipFeeCents: 1200, shipFreeFromItems: 3 }, op.token)

    // the operator withdraws a combine recipe and publishes it again
    await page.locator('.editor-tab-recipes').click()
    const [recipe] = await api(base, '/api/combineRecipes', {})
    await page.locator(`.op-recipe-${recipe.id} .op-recipe__flip`).click()
    await page.locator(`.op-recipe-${recipe.id} .op-recipe__status--off`).waitFor()
    await shot('after-editor-recipes.png')
    assert.ok(!(await api(base, '/api/combineRecipes', {})).some(r => r.id === recipe.id), 'a withdrawn recipe is not offered')
    await page.locator(`.op-recipe-${recipe.id} .op-recipe__flip`).click()
    await page.locator(`.op-recipe-${recipe.id} .op-recipe__status--on`).waitFor()
    assert.deepEqual(errors, [], 'no page errors')
  } finally {
    await close()
  }
}

module.exports = { name: 'after the draw: recycle, ship, deliver, confirm', run }
