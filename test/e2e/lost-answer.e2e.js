/**
 * Issue 48's two major money defects, as a shopper meets them in Chromium:
 * 1. Pay with a shortfall (topped up through the sandbox), the purchase's answer is slow, the shopper
 *    reloads and pays again. The app must tell the truth: the first attempt bought the box (a notice at
 *    the start, which replayed the kept key; then "you already bought this box" with its opening, never
 *    "nothing charged"), and the money matches to the cent: one purchase, one top-up of the shortfall.
 * 2. Pay, then Back while the answer is pending: the purchase that completes afterwards is told on the
 *    page that shows, with a link to its opening; one purchase, charged once.
 * Also looks at the shortfall pay button (total, balance part, channel part), zh and en.
 */
const assert = require('node:assert/strict')
const path = require('node:path')
const { openPhonePage, passwordLogin, SHOTS } = require('./browser')
const { api } = require('./api')

const money = cents => `¥${(cents / 100).toFixed(2)}`

/** A new shopper with a verified age and `cents` of cash (a sandbox top-up). */
async function shopper (base, prefix, cents) {
  const userName = `${prefix}_${Date.now().toString(36)}`
  const { token, user } = await api(base, '/login/register?table=user', { user_name: userName, password: `${prefix}-pass` })
  await api(base, '/api/ageVerify', { birthDate: '1991-06-01' }, token)
  if (cents > 0) {
    const opId = await api(base, '/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId: user.id }, token)
    await api(base, '/generalOrder/create', { productId: 'wallet_topup', userId: user.id, opId, amountCents: cents, channel: 'sandbox' }, token)
    await api(base, '/api/sandboxPay', { opId }, token)
  }
  return { userName, password: `${prefix}-pass`, token, id: user.id }
}

/** A series and a free box of the case the shopper is shown (the purchase page's address). */
async function freeBox (base, token) {
  for (const s of (await api(base, '/api/seriesList', { page: 1, size: 10 })).list) {
    const view = await api(base, '/api/caseCurrent', { seriesId: s.id }, token)
    const free = view.slots.filter(x => !x.sold).map(x => x.slot)
    if (free.length) return { seriesId: s.id, caseId: view.caseId, slot: free[free.length - 1], priceCents: s.priceCents }
  }
  throw new Error('no free box')
}

async function run (context) {
  await reloadAndPayAgain(context)
  await backWhilePending(context)
}

/** The shopper's money as the server keeps it: wallet, purchases, paid top-ups. */
async function books (dataDir, userId) {
  const Database = require('better-sqlite3')
  const db = new Database(path.join(dataDir, 'shop.sqlite'), { readonly: true, fileMustExist: true })
  try {
    const one = sql => db.prepare(sql).get(userId)
    return {
      purchases: one('SELECT count(*) AS n, coalesce(sum(total_cents), 0) AS cents FROM purchases WHERE user_id = ?'),
      topUps: one("SELECT count(*) AS n, coalesce(sum(amount_cents), 0) AS cents FROM orders WHERE user_id = ? AND status = 'paid'"),
      wallet: one('SELECT cash_cents AS cash, credit_cents AS credit FROM wallets WHERE user_id = ?')
    }
  } finally {
    db.close()
  }
}

async function reloadAndPayAgain ({ base, dataDir }) {
  const p = await openPhonePage({ locale: 'zh-CN' })
  const { page, errors, close, shot } = p
  try {
    const start = 1000
    const s = await shopper(base, 'lostanswer', start)
    await passwordLogin(p, base, s.userName, s.password)
    const box = await freeBox(base, s.token)
    assert.ok(box.priceCents > start, `a shortfall: the box costs ${box.priceCents}`)
    await page.goto(`${base}/pagesA/purchase/index?seriesId=${box.seriesId}&caseId=${box.caseId}&slots=${box.slot}`, { waitUntil: 'networkidle' })
    await page.locator('.disclosure').waitFor()
    await page.locator('.disclosure .purchase-ack').click()

    // the shortfall's pay button: the total, and what the balance and the channel each give
    const shortfall = box.priceCents - start
    const button = await page.locator('.purchase-pay').innerText()
    assert.ok(button.includes(`支付 ${money(box.priceCents)}`), button)
    assert.match(button, new RegExp(`余额 ${money(start).replace('.', '\\.')} \\+ .+ ${money(shortfall).replace('.', '\\.')}`))
    await page.locator('.purchase-pay').scrollIntoViewIfNeeded()
    await shot('lost-shortfall-zh.png')

    // the purchase reaches the server (and is made), but its answer never comes back
    let reached = null
    const arrived = new Promise(resolve => { reached = resolve })
    let first = true
    await page.route('**/dev-api/api/casePurchase', async route => {
      if (!first) { await route.continue(); return }
      first = false
      await route.fetch()
      reached()
      // held for good: the answer is lost with the page (the route stays, so nothing lets it through)
    })
    await page.locator('.purchase-pay').click()
    await arrived
    // the in-flight purchase, key and all, is kept on the device
    const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('purchases_in_flight')))
    assert.equal(kept.data.length, 1)
    assert.deepEqual(kept.data[0].request.slots, [box.slot])

    // reload: the start replays the kept purchase with its key and says what happened
    const replays = []
    page.on('request', r => { if (r.url().endsWith('/api/casePurchase')) replays.push(JSON.parse(r.postData()).idempotencyKey) })
    // 'load', not 'networkidle': the held purchase is never answered, and Playwright may go on counting
    // it as in flight after the reload, so the network is never idle (it hung a CI run for 30 s); the
    // notice below is what the reload is waited for
    await page.reload({ waitUntil: 'load' })
    const told = page.locator('.late-notice--bought:visible')
    await told.waitFor()
    const said = await told.innerText()
    assert.match(said, /购买已完成/)
    assert.ok(said.includes(`#${box.caseId} 箱的 ${box.slot} 号盒已经买下，付款 ${money(box.priceCents)}`), said)
    assert.deepEqual(replays, [kept.data[0].request.idempotencyKey], 'the replay used the first attempt\'s key')
    await shot('lost-late-notice-zh.png')
    await page.locator('.late-notice__close:visible').click()

    // pay again: told it is the shopper's own box, with its opening; never "nothing charged"
    await page.locator('.disclosure').waitFor()
    await page.locator('.disclosure .purchase-ack').click()
    await page.locator('.purchase-pay').click()
    const notice = page.locator('.purchase-notice')
    await notice.waitFor()
    const again = await notice.innerText()
    assert.match(again, /这个盒子你已经买下了/)
    assert.ok(again.includes(`#${box.caseId} 箱的 ${box.slot} 号盒是你之前买下的，没有再次扣款`), again)
    assert.doesNotMatch(again, /没有扣款，也没有充值|已被买走/)
    await shot('lost-own-box-zh.png')

    // the money, to the cent: one purchase, one top-up of the shortfall, nothing left over
    const b = await books(dataDir, s.id)
    assert.deepEqual(b.purchases, { n: 1, cents: box.priceCents })
    assert.deepEqual(b.topUps, { n: 2, cents: start + shortfall })
    assert.deepEqual(b.wallet, { cash: 0, credit: 0 })
    assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem('purchases_in_flight')).data.length), 0)

    // and the link opens that purchase
    await page.unroute('**/dev-api/api/casePurchase')
    await page.locator('.purchase-notice__open').click()
    await page.waitForURL(/open_chest_animation\/index\?purchaseId=\d+/)
    const mine = (await api(base, '/api/prizeList', { page: 1, size: 10 }, s.token)).list
    assert.equal(mine.length, 1)
    assert.deepEqual([mine[0].caseId, mine[0].slot], [box.caseId, box.slot])
    assert.deepEqual(errors, [])
  } catch (e) {
    await page.screenshot({ path: path.join(SHOTS, 'FAILED-lost-answer.png') }).catch(() => undefined)
    console.error('page errors:', errors)
    throw e
  } finally {
    await close()
  }
}

async function backWhilePending ({ base, dataDir }) {
  const p = await openPhonePage({ locale: 'en-US' })
  const { page, errors, close, shot } = p
  try {
    const start = 1000
    const s = await shopper(base, 'backpay', start)
    await page.goto(`${base}/pagesA/home/index`, { waitUntil: 'networkidle' })
    await page.evaluate(() => localStorage.setItem('app_locale', JSON.stringify({ data: 'en' })))
    await passwordLogin(p, base, s.userName, s.password)
    const box = await freeBox(base, s.token)
    // from the series page, as a shopper comes: Back returns there
    await page.goto(`${base}/pagesA/blind_box_detail/index?seriesId=${box.seriesId}`, { waitUntil: 'networkidle' })
    await page.locator(`.slot-${box.slot}`).click()
    await page.locator('.buy-picked').click()
    await page.waitForURL(/purchase/)
    await page.locator('.disclosure').waitFor()
    await page.locator('.disclosure .purchase-ack').click()
    const shortfall = box.priceCents - start
    const button = await page.locator('.purchase-pay').innerText()
    assert.ok(button.includes(`Pay ${money(box.priceCents)}`), button)
    assert.ok(new RegExp(`balance ${money(start).replace('.', '\\.')} \\+ .+ ${money(shortfall).replace('.', '\\.')}`).test(button), button)
    await page.locator('.purchase-pay').scrollIntoViewIfNeeded()
    await shot('lost-shortfall-en.png')

    // the answer takes 3 seconds; the shopper goes Back meanwhile
    let release = null
    const held = new Promise(resolve => { release = resolve })
    await page.route('**/dev-api/api/casePurchase', async route => {
      const response = await route.fetch()
      await held
      await route.fulfill({ response })
    })
    await page.locator('.purchase-pay').click()
    await page.waitForFunction(() => (JSON.parse(localStorage.getItem('purchases_in_flight') || 'null')?.data ?? []).length === 1)
    await page.goBack()
    await page.waitForURL(/blind_box_detail/)
    release()

    const told = page.locator('.late-notice--bought:visible')
    await told.waitFor()
    const said = await told.innerText()
    assert.match(said, /Purchase completed/)
    assert.ok(said.includes(`Case #${box.caseId}, box ${box.slot}: bought for ${money(box.priceCents)}.`), said)
    assert.match(page.url(), /blind_box_detail/)
    await shot('lost-back-notice-en.png')

    const b = await books(dataDir, s.id)
    assert.deepEqual(b.purchases, { n: 1, cents: box.priceCents })
    assert.deepEqual(b.topUps, { n: 2, cents: start + shortfall })
    assert.deepEqual(b.wallet, { cash: 0, credit: 0 })

    await page.locator('.late-notice__view:visible').click()
    await page.waitForURL(/open_chest_animation\/index\?purchaseId=\d+/)
    await page.locator('.chest').waitFor()
    assert.equal(await page.locator('.late-notice').count(), 0, 'the notice goes once followed')
    await page.unroute('**/dev-api/api/casePurchase')
    assert.deepEqual(errors, [])
  } catch (e) {
    await page.screenshot({ path: path.join(SHOTS, 'FAILED-back-pending.png') }).catch(() => undefined)
    console.error('page errors:', errors)
    throw e
  } finally {
    await close()
  }
}

module.exports = { name: 'lost-answer: a purchase whose answer is lost replays its key after a reload; Back while paying is told on the next page; the shortfall button', run }
