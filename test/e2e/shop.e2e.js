/**
 * Buy and open, end to end: a new shopper tops up 100 yuan through the sandbox, buys two boxes,
 * confirms their age and the disclosure, skips the animation, sees two prizes, opens the proof, and
 * finds balance and ledger right. Then buys the rest of the case, so it sells out and its
 * arrangement is revealed, and checks the commitment on the device.
 * Then, logged out: two boxes picked, Buy says why a login is needed, and after the login the same
 * series is back with the same two boxes picked. And a minor over the daily cap with an empty wallet
 * is refused before any money is asked for: no order, no ledger line (read from the database).
 */
const assert = require('node:assert/strict')
const path = require('node:path')
const { openPhonePage, passwordLogin, SHOTS } = require('./browser')
const { api } = require('./api')

const yuan = text => Math.round(Number(String(text).replace(/[^\d.-]/g, '')) * 100)

/** The slot numbers picked on the detail page shown (pages under it stay in the document, hidden). */
const pickedSlots = page => page.$$eval('.slot--picked', els => els
  .filter(e => e.closest('.taro_page') && getComputedStyle(e.closest('.taro_page')).display !== 'none')
  .map(e => Number([...e.classList].find(c => /^slot-\d+$/.test(c)).slice(5))))

async function register (page, input, prefix) {
  await page.locator('.login-switch').click()
  await input('input-account').fill(`${prefix}_${Date.now().toString(36)}`)
  await input('input-password').fill(`${prefix}-pass`)
  await page.locator('.login-check').click()
  await page.locator('.login-submit').click()
}

async function run (context) {
  await buyAndOpen(context)
  await loggedOutSelection(context)
  await minorOverCap(context)
}

async function loggedOutSelection ({ base }) {
  const { page, errors, close, input, shot } = await openPhonePage({ locale: 'en-US' })
  try {
    await page.goto(`${base}/pagesA/home/index`, { waitUntil: 'networkidle' })
    await page.evaluate(() => localStorage.setItem('app_locale', JSON.stringify({ data: 'en' })))
    await page.reload({ waitUntil: 'networkidle' })
    assert.equal(await page.evaluate(() => localStorage.getItem('h5_token')), null, 'logged out')
    await page.locator('.series-card').first().click()
    await page.waitForURL(/blind_box_detail/)
    const seriesId = new URL(page.url()).searchParams.get('seriesId')
    await page.locator('.slot').first().waitFor()
    // the second and fourth free boxes, so that "the first two" would not pass for them
    const free = page.locator('.slot:not(.slot--sold)')
    await free.nth(1).click()
    await free.nth(3).click()
    await page.waitForFunction(() => document.querySelectorAll('.slot--picked').length === 2)
    const picked = await pickedSlots(page)
    // mark this page: the one after the login must be a new one, not this one still in the document
    await page.evaluate(() => document.querySelectorAll('.detail-page').forEach(e => e.setAttribute('data-before-login', '1')))
    await page.locator('.buy-picked').click()

    // told why, in English, and still on the page
    const why = page.locator('.taro__modal .taro-modal__text')
    await why.waitFor({ state: 'visible' })
    assert.equal(await why.innerText(), 'Boxes picked: 2. Log in to buy; you will come back here with them kept.')
    assert.equal(await page.locator('.taro__modal .taro-modal__title').innerText(), 'Log in to continue')
    assert.match(page.url(), /blind_box_detail/)
    await shot('shop-login-why-en.png')
    await page.locator('.taro__modal .taro-model__confirm').click()

    // log in (a new account), and back on the same series with the same two boxes picked
    await page.waitForURL(/\/pages\/login\/index/)
    await page.locator('.login-switch').waitFor()
    await register(page, input, 'returner')
    await page.waitForURL(/blind_box_detail/)
    assert.equal(new URL(page.url()).searchParams.get('seriesId'), seriesId)
    // (the page from before the login may still be leaving: wait for the new one's picks)
    await page.waitForFunction(want => {
      if (document.querySelector('[data-before-login]')) return false
      const got = [...document.querySelectorAll('.slot--picked')].map(e => [...e.classList].find(c => /^slot-\d+$/.test(c)))
      return got.join() === want.map(n => `slot-${n}`).join()
    }, picked, { timeout: 15000 })
    assert.deepEqual(await pickedSlots(page), picked)
    assert.equal(await page.locator('.detail-page').count(), 1, 'one detail page: the one after the login')
    assert.match(await page.locator('.buy-picked').innerText(), /^Buy 2/)
    assert.ok(await page.evaluate(() => localStorage.getItem('h5_token')), 'logged in')
    assert.equal(await page.evaluate(() => localStorage.getItem('login_return')), null, 'the return is used once')
    await page.locator('.slot--picked').first().scrollIntoViewIfNeeded()
    await shot('shop-login-restored-en.png')
    // and the purchase page takes them on
    await page.locator('.buy-picked').click()
    await page.waitForURL(/purchase/)
    assert.equal(new URL(page.url()).searchParams.get('slots'), picked.join(','))

    // the empty wallet is topped up after the check passed; then a rival buys one of the two boxes
    // just before the purchase arrives: the page says the money is in the balance, and offers
    // other boxes or a withdrawal
    const token = await page.evaluate(() => { const raw = localStorage.getItem('h5_token'); try { return JSON.parse(raw).data ?? raw } catch { return raw } })
    const rival = (await api(base, '/login/passwd', { user_name: 'shopper', password: 'shopper123' })).token
    await api(base, '/api/ageVerify', { birthDate: '1990-01-01' }, rival).catch(() => undefined) // recorded once
    const rivalId = (await api(base, '/getUserInfo', undefined, rival)).id
    const opId = await api(base, '/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId: rivalId }, rival)
    await api(base, '/generalOrder/create', { productId: 'wallet_topup', userId: rivalId, opId, amountCents: 20000, channel: 'sandbox' }, rival)
    await api(base, '/api/sandboxPay', { opId }, rival)
    const caseId = Number(new URL(page.url()).searchParams.get('caseId'))
    const calls = []
    page.on('request', r => { if (r.url().includes('/dev-api/')) calls.push(new URL(r.url()).pathname.replace('/dev-api', '')) })
    await page.route('**/dev-api/api/casePurchase', async route => {
      await api(base, '/api/casePurchase', { caseId, slots: [picked[1]], acknowledged: true, idempotencyKey: `rival-${Date.now().toString(36)}` }, rival)
      await route.continue()
    })
    await page.locator('.disclosure').waitFor()
    await page.locator('.age-gate__date').click()
    await page.locator('.taro-picker__hd .taro-picker__action').last().click()
    await page.locator('.age-gate__submit').click()
    await page.locator('.age-gate').waitFor({ state: 'detached' })
    const price = yuan(await page.locator('.purchase-row__value.total').innerText()) / 2
    await page.locator('.disclosure .purchase-ack').click()
    await page.locator('.purchase-pay').click()
    const notice = page.locator('.purchase-notice--money')
    await notice.waitFor()
    const said = await notice.innerText()
    assert.match(said, /Top-up received, purchase failed/)
    assert.ok(said.includes(`Your top-up of ¥${(2 * price / 100).toFixed(2)} is in your balance, but the purchase did not go through: Slot ${picked[1]} already sold`), said)
    assert.match(said, /The money stays in your balance/)
    // the order of the calls: the check, then the top-up's order, then the purchase
    const order = calls.filter(c => ['/api/purchaseCheck', '/generalOrder/getUniqueOrderNo', '/api/casePurchase'].includes(c))
    assert.deepEqual(order, ['/api/purchaseCheck', '/generalOrder/getUniqueOrderNo', '/api/casePurchase'])
    assert.deepEqual(await api(base, '/api/walletBalance', {}, token), { cashCents: 2 * price, creditCents: 0 })
    await shot('shop-failed-after-topup-en.png')
    await page.unroute('**/dev-api/api/casePurchase')
    // the withdrawal: the recharge page's withdraw part (built elsewhere), and back
    await page.locator('.purchase-notice__withdraw').click()
    await page.waitForURL(/\/pagesA\/recharge\/index\?withdraw=1/)
    // back once the wallet page shows, as a shopper taps it. (Back tapped while the page is still loading
    // leaves Taro's H5 router showing neither page: seen here 1 run in 3; recorded, not fixed.)
    await page.locator('.recharge-page .wallet-card').waitFor()
    await page.locator('.taro-navigation-bar-back').click()
    await page.waitForURL(/purchase/)
    await page.locator('.purchase-notice__pick').waitFor()
    // other boxes: back on the series with the box still free picked
    await page.locator('.purchase-notice__pick').click()
    await page.waitForURL(/blind_box_detail/)
    for (let i = 0; i < 50 && (await pickedSlots(page)).join() !== String(picked[0]); i++) await page.waitForTimeout(200)
    assert.deepEqual(await pickedSlots(page), [picked[0]])
    assert.deepEqual(errors, [])
  } catch (e) {
    await page.screenshot({ path: path.join(SHOTS, 'FAILED-shop-logged-out.png') }).catch(() => undefined)
    console.error('page errors:', errors)
    throw e
  } finally {
    await close()
  }
}

async function minorOverCap ({ base, dataDir, fakes }) {
  const { page, errors, close, input, shot } = await openPhonePage({ locale: 'zh-CN' })
  try {
    await page.goto(`${base}/`, { waitUntil: 'networkidle' })
    await register(page, input, 'minor')
    await page.waitForURL(/\/pagesA\/home\/index/)
    const token = await page.evaluate(() => { const raw = localStorage.getItem('h5_token'); try { return JSON.parse(raw).data ?? raw } catch { return raw } })
    const userId = (await api(base, '/getUserInfo', undefined, token)).id
    // a 14-year-old (the age gate's own page flow is the first suite's); ticking consent for oneself counts for nothing
    await assert.rejects(api(base, '/api/ageVerify', { birthDate: `${new Date().getFullYear() - 14}-01-01`, guardianConsent: true }, token), /guardian_consent/)
    const status = await api(base, '/api/ageStatus', {}, token)
    assert.equal(status.dailyCapCents, 10000)
    assert.deepEqual([status.guardianConsent, status.guardian.state], [false, 'none'])

    await page.locator('.series-card').first().click()
    await page.waitForURL(/blind_box_detail/)
    await page.locator('.slot').first().waitFor()
    const price = yuan(await page.locator('.detail-hero__price').innerText())
    const n = Math.floor(10000 / price) + 1 // just over the 100 yuan cap
    const free = page.locator('.slot:not(.slot--sold)')
    assert.ok(await free.count() >= n, `${n} free boxes`)
    for (let i = 0; i < n; i++) await free.nth(i).click()
    await page.locator('.buy-picked').click()
    await page.waitForURL(/purchase/)
    await page.locator('.disclosure').waitFor()

    // the guardian consents: a code by SMS to the guardian's phone, which the minor enters
    await page.locator('.age-gate .guardian--ask').waitFor()
    const guardianPhone = `139${String(Date.now()).slice(-8)}`
    await input('guardian-phone').fill(guardianPhone)
    await page.locator('.guardian-send').click()
    await page.locator('.age-gate .guardian--pending').waitFor()
    assert.match(await page.locator('.guardian__pending').innerText(), new RegExp(`${guardianPhone.slice(0, 3)}\\*{4}${guardianPhone.slice(-4)}`))
    assert.match(await page.locator('.guardian-resend').innerText(), /秒后可重新发送/)
    const sms = fakes.sms.messages[fakes.sms.messages.length - 1]
    assert.equal(sms.phone, guardianPhone)
    assert.match(sms.text, /^【拾盒】.*同意.*购买盲盒/)
    await shot('shop-minor-guardian-pending-zh.png')
    await input('guardian-code').fill(fakes.sms.lastCode(guardianPhone))
    await page.locator('.guardian-confirm').click()
    await page.locator('.age-gate').waitFor({ state: 'detached' })
    assert.equal((await api(base, '/api/ageStatus', {}, token)).guardian.state, 'given')
    assert.equal(yuan(await page.locator('.purchase-row.shortfall .purchase-row__value').innerText()), n * price, 'the empty wallet lacks it all')
    await page.locator('.disclosure .purchase-ack').click()
    await page.locator('.purchase-pay').click()

    // refused on the cap, plainly, before any money
    const notice = page.locator('.purchase-notice')
    await notice.waitFor()
    const said = await notice.innerText()
    assert.match(said, /未成年人每日消费上限为 ¥100\.00，今天还可消费 ¥100\.00/)
    assert.match(said, /没有扣款，也没有充值/)
    assert.match(page.url(), /purchase/)
    await shot('shop-minor-cap-refused-zh.png')

    // nothing was asked for: no order (not even an order number), no ledger line, no wallet
    const Database = require('better-sqlite3')
    const db = new Database(path.join(dataDir, 'shop.sqlite'), { readonly: true, fileMustExist: true })
    try {
      const count = (sql) => db.prepare(sql).get(userId).n
      assert.equal(count('SELECT count(*) AS n FROM orders WHERE user_id = ?'), 0, 'no top-up order')
      assert.equal(count('SELECT count(*) AS n FROM ledger_lines WHERE user_id = ?'), 0, 'no ledger line')
      assert.equal(count('SELECT count(*) AS n FROM purchases WHERE user_id = ?'), 0, 'no purchase')
      assert.equal(count('SELECT coalesce(sum(cash_cents + credit_cents), 0) AS n FROM wallets WHERE user_id = ?'), 0, 'no money')
    } finally {
      db.close()
    }
    assert.deepEqual(await api(base, '/api/walletBalance', {}, token), { cashCents: 0, creditCents: 0 })
    assert.deepEqual(errors, [])
  } catch (e) {
    await page.screenshot({ path: path.join(SHOTS, 'FAILED-shop-minor.png') }).catch(() => undefined)
    console.error('page errors:', errors)
    throw e
  } finally {
    await close()
  }
}

async function buyAndOpen ({ base }) {
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

    // 5a. the results are the purchase's, by its id in the address: a reload without the device's copy
    // loads them from the server; another account opening the address is told there is no such purchase
    const resultUrl = page.url()
    assert.match(resultUrl, /\/pagesA\/prize_show\/index\?purchaseId=\d+$/)
    const shown = await page.locator('.result__name').allInnerTexts()
    await page.evaluate(() => localStorage.removeItem('last_draw'))
    await page.reload({ waitUntil: 'networkidle' })
    await page.locator('.result').first().waitFor()
    assert.deepEqual(await page.locator('.result__name').allInnerTexts(), shown)
    const other = await openPhonePage({ locale: 'zh-CN' })
    try {
      await passwordLogin(other, base, 'shopper', 'shopper123')
      await other.page.goto(resultUrl, { waitUntil: 'networkidle' })
      await other.page.getByText('没有这笔购买记录').waitFor()
      assert.equal(await other.page.locator('.result').count(), 0)
      await other.shot('shop-prizes-not-yours-zh.png')
    } finally { await other.close() }

    // 5b. read aloud: the server speaks the result (local espeak-ng) and the page plays the WAV it names
    const spoken = page.waitForResponse(r => r.url().endsWith('/dev-api/api/text/tts'))
    const audio = page.waitForResponse(r => /\/media\/u\/[0-9a-f]{64}\.wav$/.test(r.url()), { timeout: 15000 })
    await page.locator('.prize-read').click()
    const said = await (await spoken).json()
    assert.equal(said.code, 200, JSON.stringify(said))
    assert.equal(said.data.lang, 'zh')
    const wav = await audio
    assert.equal(wav.headers()['content-type'], 'audio/wav')

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
    // the result renders below the button, under the fold: the page scrolls to it (issue 21)
    await page.waitForFunction(() => {
      const r = document.querySelector('.proof-result').getBoundingClientRect()
      const bar = document.querySelector('.action-bar')
      return r.top >= 0 && r.bottom <= (bar ? bar.getBoundingClientRect().top : window.innerHeight) + 1
    }, null, { timeout: 3000 })
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

module.exports = { name: 'shop: top up, buy two boxes, open, prizes, proof, balance and ledger; logged-out selection kept across login; a minor over the cap refused before any top-up', run }
