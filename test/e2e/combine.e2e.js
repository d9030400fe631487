/**
 * Combine, end to end in Chromium (issue 9): a new shopper buys a whole case, opens the combine page
 * from the collection, sees the recipe's pool and odds and the seed hash before combining, picks three
 * regular items, combines, and on the result page reveals the seed and checks the draw on the device.
 */
const assert = require('node:assert/strict')
const { createHash } = require('node:crypto')
const { openPhonePage } = require('./browser')

async function api (base, path, body, token) {
  const res = await fetch(`${base}/dev-api${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'accept-language': 'en', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const json = await res.json()
  if (json.code !== 200) throw new Error(`${path}: ${JSON.stringify(json)}`)
  return json.data
}

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
    assert.deepEqual(errors, [], 'no page errors')
  } finally {
    await close()
  }
}

module.exports = { name: 'combine: pool and seeds first, three items, reveal, check on the device', run }
