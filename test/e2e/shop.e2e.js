/**
 * Buy and open, end to end: a new shopper tops up 100 yuan through the sandbox, buys two boxes,
 * confirms their age and the disclosure, skips the animation, sees two prizes, opens the proof, and
 * finds balance and ledger right. Then buys the rest of the case, so it sells out and its
 * arrangement is revealed, and checks the commitment on the device.
 */
const assert = require('node:assert/strict')
const path = require('node:path')
const { openPhonePage, SHOTS } = require('./browser')

const yuan = text => Math.round(Number(String(text).replace(/[^\d.-]/g, '')) * 100)

async function run ({ base }) {
  const { page, errors, close, input, shot } = await openPhonePage({ locale: 'zh-CN' })
  try {
    const topUp = async (presetYuan) => {
      await page.goto(`${base}/pagesA/recharge/index`, { waitUntil: 'networkidle' })
      await page.locator('.pay-sandbox').waitFor()
      const before = yuan(await page.locator('.wallet-cash').innerText())
      await page.locator(`.preset-${presetYuan}`).click()
      await page.locator('.pay-sandbox').click()
      await page.locator('.recharge-pay').click()
      await page.waitForFunction(([b, add]) => {
        const el = document.querySelector('.wallet-cash')
        return el && Math.round(Number(el.textContent.replace(/[^\d.-]/g, '')) * 100) === b + add
      }, [before, presetYuan * 100])
    }

    // a new shopper
    await page.goto(`${base}/`, { waitUntil: 'networkidle' })
    await page.locator('.login-switch').click()
    await input('input-account').fill(`buyer_${Date.now().toString(36)}`)
    await input('input-password').fill('buyer-pass')
    await page.locator('.login-check').click()
    await page.locator('.login-submit').click()
    await page.waitForURL(/\/pagesA\/home\/index/)

    // 1. top up 100 yuan through the sandbox
    await topUp(100)
    assert.equal(yuan(await page.locator('.wallet-cash').innerText()), 10000)
    assert.ok(await page.locator('.pay-sandbox .pay-method__tag').isVisible(), 'the sandbox channel is labelled')
    await shot('shop-recharge-zh.png')

    // 2. choose a series on the home page
    await page.goto(`${base}/pagesA/home/index`, { waitUntil: 'networkidle' })
    await page.locator('.series-card').first().waitFor()
    await shot('shop-home-zh.png')
    await page.locator('.series-card').first().click()
    await page.waitForURL(/blind_box_detail/)
    await page.locator('.slot').first().waitFor()
    const price = yuan(await page.locator('.detail-hero__price').innerText())
    assert.ok(price > 0 && price <= 5000, `price ${price}`)
    // odds are shown before paying
    assert.ok(await page.locator('.design__odds').count() >= 10)
    await shot('shop-detail-zh.png')

    // 3. pick two unsold boxes and buy them
    const free = page.locator('.slot:not(.slot--sold)')
    await free.nth(0).click()
    await free.nth(1).click()
    await page.waitForFunction(() => document.querySelectorAll('.slot--picked').length === 2)
    await page.locator('.buy-picked').click()
    await page.waitForURL(/purchase/)
    await page.locator('.disclosure').waitFor()

    // the age gate: a birth date (the picker's default, 2000-01-01), then the disclosure
    await page.locator('.age-gate__date').click()
    await page.locator('.taro-picker__hd .taro-picker__action').last().click()
    await page.locator('.age-gate__submit').click()
    await page.locator('.age-gate').waitFor({ state: 'detached' })
    assert.equal(yuan(await page.locator('.purchase-row__value.total').innerText()), 2 * price)
    await page.locator('.disclosure .purchase-ack').click()
    await shot('shop-purchase-zh.png')
    await page.locator('.purchase-pay').click()

    // 4. the opening: skip it
    await page.waitForURL(/open_chest_animation/)
    await page.locator('.chest').waitFor()
    await shot('shop-chest-zh.png')
    await page.locator('.chest-skip').click()

    // 5. two prizes
    await page.waitForURL(/prize_show/)
    await page.locator('.result').first().waitFor()
    assert.equal(await page.locator('.result').count(), 2, 'two prizes shown')
    await shot('shop-prizes-zh.png')

    // 6. the proof of the first prize: the commitment; not revealed while the case is on sale
    await page.locator('.result').first().click()
    await page.waitForURL(/prize_detail/)
    const commit = await page.locator('.proof-commit').innerText()
    assert.match(commit.trim(), /^[0-9a-f]{64}$/)
    await page.locator('.proof__pending').waitFor()
    await shot('shop-proof-zh.png')

    // 7. balance and ledger
    await page.goto(`${base}/pagesA/recharge/index`, { waitUntil: 'networkidle' })
    await page.locator('.ledger-row').nth(1).waitFor()
    assert.equal(yuan(await page.locator('.wallet-cash').innerText()), 10000 - 2 * price)
    assert.equal(yuan(await page.locator('.wallet-credit').innerText()), 0)
    const amounts = await page.locator('.ledger-row__amount').allInnerTexts()
    assert.deepEqual(amounts.map(yuan).sort((a, b) => a - b), [-2 * price, 10000])

    // 8. buy the rest of the case: it sells out, its arrangement is revealed, the device checks it
    await page.goto(`${base}/pagesA/my_blind_box/index`, { waitUntil: 'networkidle' })
    await page.locator('.prize-row').first().click()
    await page.waitForURL(/prize_detail/)
    await page.locator('.proof-commit').waitFor()
    const detailUrl = page.url()
    await topUp(500)
    await page.goto(`${base}/pagesA/home/index`, { waitUntil: 'networkidle' })
    await page.locator('.series-card').first().click()
    await page.locator('.buy-whole').waitFor()
    await page.locator('.buy-whole').click()
    await page.waitForURL(/purchase/)
    await page.locator('.disclosure .purchase-ack').click()
    await page.locator('.purchase-pay').click()
    await page.waitForURL(/open_chest_animation/)
    // wait for the page to finish sliding in; the chest bobs, so it is never "stable": force the tap
    await page.locator('.taro_page_stationed .chest').waitFor()
    await page.locator('.chest').click({ force: true })
    await page.locator('.reveal').waitFor()
    await shot('shop-reveal-zh.png')
    await page.locator('.chest-skip').click()
    await page.waitForURL(/prize_show/)
    await page.goto(detailUrl, { waitUntil: 'networkidle' })
    await page.locator('.proof-verify').click()
    await page.locator('.proof-result--ok').waitFor()
    assert.equal((await page.locator('.proof-commit').innerText()).trim(), commit.trim())
    await shot('shop-verify-zh.png')

    assert.deepEqual(errors, [])
  } catch (e) {
    await page.screenshot({ path: path.join(SHOTS, 'FAILED-shop.png') }).catch(() => undefined)
    console.error('page errors:', errors)
    throw e
  } finally {
    await close()
  }
}

module.exports = { name: 'shop: top up, buy two boxes, open, prizes, proof, balance and ledger', run }
