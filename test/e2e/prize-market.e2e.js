/**
 * The market price on a prize's page (issue 11, bijia) in Chromium against the local JD Union router
 * (test/support/providers/jdunion.js, which checks the signature): the demo shopper, with a prize just bought, opens
 * its page; next to the design's reference value it shows the lowest and median offer, how many offers,
 * the source and the time, equal to what the market answered; in Chinese and in English, 375 px wide.
 * A shop without the comparison (its public capabilities) shows no section, only the reference value;
 * so does a page whose call finds the provider gone.
 */
const assert = require('node:assert/strict')
const { openPhonePage, passwordLogin } = require('./browser')
const { api } = require('./api')

const yuan = text => Math.round(Number(String(text).replace(/[^\d.]/g, '')) * 100)

async function run ({ base, fakes }) {
  const { page, errors, close, input, shot } = await openPhonePage({ locale: 'zh-CN' })
  try {
    // the demo shopper: registrations from one address are limited to 10 an hour, and the suites before
    // this one use them up
    await passwordLogin({ page, input }, base, 'shopper', 'shopper123')
    const token = await page.evaluate(() => {
      const raw = localStorage.getItem('h5_token')
      try { return JSON.parse(raw).data ?? raw } catch { return raw }
    })
    const userId = (await api(base, '/getUserInfo', undefined, token)).id
    if (!(await api(base, '/api/ageStatus', {}, token)).verified) await api(base, '/api/ageVerify', { birthDate: '1995-06-01' }, token)
    const opId = await api(base, '/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId }, token)
    await api(base, '/generalOrder/create', { productId: 'wallet_topup', userId, opId, amountCents: 10000, channel: 'sandbox' }, token)
    await api(base, '/api/sandboxPay', { opId }, token)
    const seriesId = (await api(base, '/api/seriesList', { page: 1, size: 10 })).list[0].id
    const view = await api(base, '/api/caseCurrent', { seriesId }, token)
    const slot = view.slots.find(s => !s.sold).slot
    const prize = (await api(base, '/api/casePurchase', { caseId: view.caseId, slots: [slot], acknowledged: true, idempotencyKey: `market-${Date.now().toString(36)}` }, token)).prizes[0]
    const detail = await api(base, '/api/prizeDetail', { prizeId: prize.prizeId }, token)

    // Chinese: the page asks the market for the design's Chinese name
    // (the server keeps answers for a while, so an earlier suite that opened the same design's page may
    // have asked already: the market must have been asked for it at some point in this run)
    await page.goto(`${base}/pagesA/prize_detail/index?prizeId=${prize.prizeId}`, { waitUntil: 'networkidle' })
    await page.locator('.market-lowest').waitFor()
    const askedAt = fakes.jd.calls.findIndex(c => c.keyword === detail.design.name.zh)
    assert.ok(askedAt >= 0, `the market was asked for ${detail.design.name.zh}`)
    assert.ok(fakes.jd.calls.slice(askedAt + 1).some(c => c.spuId > 0), 'then for the offers of the first product')
    // the figures are the market's: the same calls from the test answer the same (kept on the server)
    const spu = (await api(base, '/api/bijia_spu_search', { keyword: detail.design.name.zh }, token)).list[0]
    const goods = await api(base, '/api/bijia_spu_goods_search', { spuId: spu.spuId }, token)
    assert.equal(yuan(await page.locator('.market-lowest').innerText()), goods.lowestCents)
    assert.equal(yuan(await page.locator('.market-median').innerText()), goods.medianCents)
    assert.match(await page.locator('.market-count').innerText(), new RegExp(`^${goods.offers.length} 个$`))
    assert.equal(yuan(await page.locator('.market-reference').innerText()), detail.design.referenceValueCents)
    assert.match(await page.locator('.market-source').innerText(), /京东联盟 · 查询时间 \d{4}-\d{2}-\d{2} \d{2}:\d{2}/)
    assert.match(await page.locator('.market__verdict').innerText(), /参考价值(比市场中位数[高低] \d+%|与市场中位数相同)/)
    assert.equal(await page.locator('.market__offer').count(), Math.min(3, goods.offers.length))
    assert.equal(await page.locator('.market__shop').first().innerText(), goods.offers[0].shop)
    const width = await page.evaluate(() => document.documentElement.scrollWidth)
    assert.ok(width <= 375, `no sideways scrolling (${width} px)`)
    await page.evaluate(() => document.querySelector('.market-source')?.scrollIntoView({ block: 'center' }))
    await shot('prize-market-zh.png')

    // English
    await page.evaluate(() => localStorage.setItem('app_locale', JSON.stringify({ data: 'en' })))
    await page.goto(`${base}/pagesA/prize_detail/index?prizeId=${prize.prizeId}`, { waitUntil: 'networkidle' })
    await page.locator('.market-lowest').waitFor()
    assert.match(await page.locator('.market-source').innerText(), /JD Union · As of \d{4}-\d{2}-\d{2} \d{2}:\d{2}/)
    // the market's Chinese shop names stay in Chinese mode; in English an offer is named by its rank
    assert.deepEqual(await page.locator('.market__shop').allInnerTexts(), ['Offer 1', 'Offer 2', 'Offer 3'].slice(0, goods.offers.length))
    assert.equal(await page.locator('.market-product').count(), 0)
    assert.match(await page.locator('.market__verdict').innerText(), /Reference value (is \d+% (above|below) the market median|equals the market median)/)
    await page.evaluate(() => document.querySelector('.market-source')?.scrollIntoView({ block: 'center' }))
    await shot('prize-market-en.png')

    // a shop without the comparison (its public capabilities say so): the market is not asked, the
    // section is not there, and the reference value is a plain row of the page; no configuration words
    await page.route('**/dev-api/system/setting/login', async route => {
      const res = await route.fetch()
      const body = await res.json()
      body.data.capabilities.priceCompare = false
      await route.fulfill({ response: res, body: JSON.stringify(body) })
    })
    const before = fakes.jd.calls.length
    await page.goto(`${base}/pagesA/prize_detail/index?prizeId=${prize.prizeId}`, { waitUntil: 'networkidle' })
    await page.locator('.prize-reference').waitFor()
    assert.equal(await page.locator('.market').count(), 0)
    assert.equal(fakes.jd.calls.length, before, 'the market is not asked')
    assert.equal(yuan(await page.locator('.prize-reference').innerText()), detail.design.referenceValueCents)
    assert.doesNotMatch(await page.locator('body').innerText(), /configured|not set up|JD_UNION/i)
    await shot('prize-market-none-en.png')
    await page.unroute('**/dev-api/system/setting/login')

    // the provider gone since the shop said it had it (the call answers 422 {provider: 'jdUnion'},
    // server/test/bijia.test.ts): the section goes and the reference value stays, as a plain row
    await page.route('**/dev-api/api/bijia_spu_search', route => route.fulfill({
      status: 200, contentType: 'application/json', body: JSON.stringify({ code: 422, message: 'JD Union price comparison is not available in this shop', data: { provider: 'jdUnion' } })
    }))
    await page.goto(`${base}/pagesA/prize_detail/index?prizeId=${prize.prizeId}`, { waitUntil: 'networkidle' })
    await page.locator('.prize-reference').waitFor()
    assert.equal(await page.locator('.market').count(), 0)
    assert.equal(yuan(await page.locator('.prize-reference').innerText()), detail.design.referenceValueCents)
    assert.doesNotMatch(await page.locator('body').innerText(), /configured|not set up/i)
    assert.deepEqual(errors, [])
  } catch (e) {
    await shot('prize-market-failure.png').catch(() => undefined)
    throw e
  } finally {
    await close()
  }
}

module.exports = { name: 'Market price on a prize page (local JD Union fake)', run }
