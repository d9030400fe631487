/**
 * Sold out (issue 50, stock) in Chromium: the operator puts a series on sale with one case's worth of
 * figures in the warehouse; a shopper buys that case; then every shopper sees it sold out, in English
 * and in Chinese (the home card, the series page with its designs and odds still shown, no way to buy);
 * the operator counts more figures in, and the series page offers a case again at once.
 */
const assert = require('node:assert/strict')
const { openPhonePage } = require('./browser')
const { api } = require('./api')

const TITLE = { zh: '售罄测试', en: `Sold-out series ${Date.now().toString(36)}` }

async function run ({ base }) {
  const en = await openPhonePage({ locale: 'en-US' })
  const zh = await openPhonePage({ locale: 'zh-CN' })
  try {
    // ---- the operator: a series of four designs, one figure of each in the warehouse, on sale
    const op = (await api(base, '/login/passwd', { user_name: 'operator', password: 'operator123' })).token
    const draft = await api(base, '/api/operator/seriesSave', {
      title: TITLE,
      description: { zh: '四位小伙伴，一箱 4 盒。', en: 'Four friends, 4 boxes a case.' },
      rules: { zh: '', en: '' },
      cover: '/media/art/1f431.webp',
      // 39 yuan: the finder suite, on the same shop, counts on nothing under 30 yuan
      priceCents: 3900,
      hiddenCasePpm: 0,
      designs: ['1f431', '1f436', '1f430', '1f98a'].map((art, i) => ({
        name: { zh: `小伙伴${i + 1}`, en: `Friend ${i + 1}` },
        rarity: i === 3 ? 'rare' : 'regular',
        image: `/media/art/${art}.webp`,
        referenceValueCents: i === 3 ? 3000 : 1200,
        recycleValueCents: 200
      }))
    }, op)
    const counted = await api(base, '/api/operator/stock', { seriesId: draft.id }, op)
    await api(base, '/api/operator/stockSave', { seriesId: draft.id, designs: counted.designs.map(d => ({ designId: d.designId, stock: 1, was: d.stock })) }, op)
    // worth less than a box: published with the operator's acknowledgement
    await api(base, '/api/operator/seriesPublish', { seriesId: draft.id, lowValueAcknowledged: draft.designs.map(d => d.id) }, op)
    assert.deepEqual(await api(base, '/api/operator/stock', { seriesId: draft.id }, op).then(s => [s.casesFillable, s.openCases, s.soldOut]), [0, 1, false])

    // ---- a shopper buys the one case there is
    const user = `soldout_${Date.now().toString(36)}`
    const { token } = await api(base, '/login/register?table=user', { user_name: user, password: 'sold-out-pw' })
    const userId = (await api(base, '/getUserInfo', undefined, token)).id
    await api(base, '/api/ageVerify', { birthDate: '1995-06-01' }, token)
    const opId = await api(base, '/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId }, token)
    await api(base, '/generalOrder/create', { productId: 'wallet_topup', userId, opId, amountCents: 20000, channel: 'sandbox' }, token)
    await api(base, '/api/sandboxPay', { opId }, token)
    const view = await api(base, '/api/caseCurrent', { seriesId: draft.id }, token)
    const bought = await api(base, '/api/casePurchase', { caseId: view.caseId, wholeCase: true, acknowledged: true, idempotencyKey: `soldout-${Date.now().toString(36)}` }, token)
    assert.equal(bought.prizes.length, 4)

    // ---- every shopper sees it sold out: the home card and the series page, in both languages
    for (const [phone, lang, card, page] of [[en, 'en', 'Sold out until restocked', 'Sold out'], [zh, 'zh', '已售罄，补货后再开售', '已售罄']]) {
      await phone.page.goto(`${base}/pagesA/home/index`, { waitUntil: 'networkidle' })
      const tile = phone.page.locator(`.series-card-${draft.id}`)
      await tile.scrollIntoViewIfNeeded()
      assert.equal((await tile.locator('.series-card__sold-out').innerText()).trim(), card)
      assert.ok(await tile.evaluate(e => e.classList.contains('series-card--off')), 'the card is greyed')
      await phone.shot(`sold-out-home-${lang}.png`)
      await tile.click()
      await phone.page.waitForURL(/blind_box_detail/)
      await phone.page.locator('.detail-sold-out').waitFor()
      assert.equal(await phone.page.locator('.slot').count(), 0, 'no box to pick')
      assert.equal((await phone.page.locator('.buy-sold-out').innerText()).trim(), page)
      assert.equal(await phone.page.locator('.buy-picked, .buy-whole').count(), 0, 'no way to buy')
      // the designs and their odds stay for anyone to read
      assert.equal(await phone.page.locator('.design').count(), 4)
      // nothing runs off a 375 px phone
      const overflow = await phone.page.evaluate(() => [...document.querySelectorAll('.taro_page_show *')].filter(e => e.getBoundingClientRect().right > innerWidth + 1).map(e => e.className).slice(0, 3))
      assert.deepEqual(overflow, [])
      await phone.shot(`sold-out-detail-${lang}.png`)
    }

    // ---- a restock (one more of each) opens a case again, for everyone at once
    const now = await api(base, '/api/operator/stock', { seriesId: draft.id }, op)
    const restocked = await api(base, '/api/operator/stockSave', { seriesId: draft.id, designs: now.designs.map(d => ({ designId: d.designId, stock: d.stock + 1, was: d.stock })) }, op)
    assert.deepEqual([restocked.openCases, restocked.soldOut], [1, false])
    await en.page.reload({ waitUntil: 'networkidle' })
    await en.page.locator('.slot').first().waitFor()
    assert.equal(await en.page.locator('.detail-sold-out').count(), 0)
    assert.deepEqual(en.errors, [])
    assert.deepEqual(zh.errors, [])
  } catch (e) {
    await en.shot('sold-out-failure-en.png').catch(() => undefined)
    await zh.shot('sold-out-failure-zh.png').catch(() => undefined)
    throw e
  } finally {
    await en.close()
    await zh.close()
  }
}

module.exports = { name: 'sold out: one case in the warehouse, bought, then sold out on every page in both languages, restocked', run }
