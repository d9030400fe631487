/**
 * Raffle drops (issue 51 item 4) in Chromium, at 375 px:
 *  - the operator makes a raffle drop through the API: entries open a few seconds after it is made and
 *    close about half a minute later (the server's clock cannot be moved here, so the suite waits)
 *  - a shopper (zh) sees it before entries open: the countdown, the places, the seed's fingerprint
 *    (short, shown whole on a tap); nothing to buy
 *  - entries open while they watch: "参加抽签", then "entered" with their code and the number of entries;
 *    a second shopper (en) enters too
 *  - at the close the draw is made (two places, two entries: both win); each page shows "won" with the
 *    time left to buy, and the case opens for them; the draw recomputed on the phone is all green,
 *    their own code on the list
 */
const assert = require('node:assert/strict')
const { openPhonePage, passwordLogin } = require('./browser')
const { api } = require('./api')

const STAMP = Date.now().toString(36)

/** A series of four designs (one rare) and a hidden one, counted into the warehouse and on sale. */
async function makeSeries (base, op, title) {
  const draft = await api(base, '/api/operator/seriesSave', {
    title,
    description: { zh: '抽签发售的四位小伙伴。', en: 'Four friends, sold by raffle.' },
    rules: { zh: '', en: '' },
    cover: '/media/art/1f98a.webp',
    priceCents: 4900,
    hiddenCasePpm: 100000,
    designs: ['1f431', '1f436', '1f430', '1f98a', '1f984'].map((art, i) => ({
      name: { zh: `伙伴${i + 1}`, en: `Buddy ${i + 1}` },
      rarity: i === 4 ? 'hidden' : i === 3 ? 'rare' : 'regular',
      image: `/media/art/${art}.webp`,
      referenceValueCents: i === 4 ? 9000 : 1500,
      recycleValueCents: 200
    }))
  }, op)
  const counted = await api(base, '/api/operator/stock', { seriesId: draft.id }, op)
  await api(base, '/api/operator/stockSave', { seriesId: draft.id, designs: counted.designs.map(d => ({ designId: d.designId, stock: 6, was: d.stock })) }, op)
  await api(base, '/api/operator/seriesPublish', { seriesId: draft.id, lowValueAcknowledged: draft.designs.map(d => d.id) }, op)
  return draft.id
}

async function shopperWithMoney (base, name) {
  const { token } = await api(base, '/login/register?table=user', { user_name: name, password: 'raffle-pw-123' })
  const userId = (await api(base, '/getUserInfo', undefined, token)).id
  await api(base, '/api/ageVerify', { birthDate: '1995-06-01' }, token)
  const opId = await api(base, '/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId }, token)
  await api(base, '/generalOrder/create', { productId: 'wallet_topup', userId, opId, amountCents: 100000, channel: 'sandbox' }, token)
  await api(base, '/api/sandboxPay', { opId }, token)
  return token
}

/** What runs off a 375 px phone. */
const noOverflow = page => page.evaluate(() => [...document.querySelectorAll('.taro_page_show *')]
  .filter(e => e.getBoundingClientRect().right > innerWidth + 1).map(e => e.className).slice(0, 3))

const toTop = (page, sel) => page.locator(sel).evaluate(e => e.scrollIntoView({ block: 'start' }))

async function run ({ base }) {
  const zh = await openPhonePage({ locale: 'zh-CN' })
  const en = await openPhonePage({ locale: 'en-US' })
  try {
    const op = (await api(base, '/login/passwd', { user_name: 'operator', password: 'operator123' })).token
    const seriesId = await makeSeries(base, op, { zh: `抽签测试 ${STAMP}`, en: `Raffle test ${STAMP}` })
    const zhName = `rafz_${STAMP}`
    const enName = `rafe_${STAMP}`
    await shopperWithMoney(base, zhName)
    await shopperWithMoney(base, enName)
    await passwordLogin(zh, base, zhName, 'raffle-pw-123')
    await passwordLogin(en, base, enName, 'raffle-pw-123')

    // ---- a raffle drop: 1 case of 4 boxes, 2 an account: 2 places; entries open in 8 s, close 30 s later
    const opens = Date.now() + 8000
    const closes = opens + 30_000
    const made = await api(base, '/api/operator/dropCreate', {
      seriesId, cases: 1, hiddenCases: 0, startsAt: new Date(opens).toISOString(), limits: { boxesPerAccount: 2 },
      raffle: { closesAt: new Date(closes).toISOString(), claimMinutes: 30 }
    }, op)
    assert.equal(made.raffle.places, 2)
    assert.match(made.raffle.seedHash, /^[0-9a-f]{64}$/)

    // ---- before entries open (zh): the countdown, the places, the seed's fingerprint; nothing to buy
    const detail = `${base}/pagesA/blind_box_detail/index?seriesId=${seriesId}`
    await zh.page.goto(detail, { waitUntil: 'networkidle' })
    await zh.page.locator('.raffle-panel--before').waitFor()
    assert.match((await zh.page.locator('.raffle-panel__opens-in').innerText()).trim(), /^距开始报名 0:0\d$/)
    assert.match(await zh.page.locator('.raffle-panel__places').innerText(), /名额 2 个，每个中签账号最多买 2 盒/)
    const short = (await zh.page.locator('.raffle-seed__hash').innerText()).trim()
    assert.equal(short, `${made.raffle.seedHash.slice(0, 12)}…${made.raffle.seedHash.slice(-12)}`)
    assert.equal(await zh.page.locator('.slot, .buy-picked, .buy-whole, .detail-sold-out').count(), 0)
    await toTop(zh.page, '.raffle-panel')
    assert.deepEqual(await noOverflow(zh.page), [])
    await zh.shot('raffle-before-zh.png')
    await zh.page.locator('.raffle-seed__toggle').click()
    assert.equal((await zh.page.locator('.raffle-seed__hash').innerText()).trim(), made.raffle.seedHash)

    // ---- entries open while they watch: enter (zh), then "entered" with the code
    await zh.page.locator('.raffle-panel--open').waitFor({ timeout: 20_000 })
    assert.equal((await zh.page.locator('.raffle-enter').innerText()).trim(), '参加抽签')
    await zh.page.locator('.raffle-enter').click()
    await zh.page.locator('.raffle-panel--entered').waitFor()
    const zhCode = (await zh.page.locator('.raffle-entered__code').innerText()).trim().replace(/^你的签号：/, '')
    assert.match(zhCode, /^[0-9a-f]{16}$/)
    assert.match(await zh.page.locator('.raffle-panel__entries').innerText(), /已有 1 人报名/)
    assert.match((await zh.page.locator('.raffle-panel__closes-in').innerText()).trim(), /^距截止报名 0:\d\d$/)
    // non-winners (not drawn yet) see no case, and the bar says it is a raffle
    assert.equal(await zh.page.locator('.slot').count(), 0)
    assert.equal((await zh.page.locator('.buy-queue').innerText()).trim(), '抽签购买')
    await toTop(zh.page, '.raffle-panel')
    assert.deepEqual(await noOverflow(zh.page), [])
    await zh.shot('raffle-entered-zh.png')

    // the en shopper enters too
    await en.page.goto(detail, { waitUntil: 'networkidle' })
    await en.page.locator('.raffle-panel--open').waitFor()
    assert.equal((await en.page.locator('.raffle-enter').innerText()).trim(), 'Enter the raffle')
    await en.page.locator('.raffle-enter').click()
    await en.page.locator('.raffle-panel--entered').waitFor()
    assert.match(await en.page.locator('.raffle-panel__entries').innerText(), /2 entered so far/)
    await toTop(en.page, '.raffle-panel')
    await en.shot('raffle-entered-en.png')

    // ---- the close: both pages look again by themselves; two places, two entries: both win, the case opens
    const left = closes - Date.now()
    for (const [phone, lang] of [[zh, 'zh'], [en, 'en']]) {
      await phone.page.locator('.raffle-panel--won').waitFor({ timeout: Math.max(0, left) + 30_000 })
      await phone.page.locator('.slot').first().waitFor({ timeout: 15_000 })
      assert.match((await phone.page.locator('.raffle-result__left').innerText()).trim(), lang === 'zh' ? /^还有 (30:00|29:\d\d) 可以购买$/ : /^(30:00|29:\d\d) left to buy$/)
      await phone.page.locator('.raffle-verify').click()
      await phone.page.locator('.raffle-check').waitFor()
      assert.equal(await phone.page.locator('.raffle-check--ok').count(), 1)
      assert.equal(await phone.page.locator('.raffle-check__line--bad').count(), 0)
      for (const name of ['seed', 'list', 'order', 'round-1', 'mine']) {
        assert.equal(await phone.page.locator(`.raffle-check__${name}.raffle-check__line--ok`).count(), 1, name)
      }
      if (lang === 'zh') assert.match(await phone.page.locator('.raffle-check__mine').innerText(), new RegExp(`你的签号 ${zhCode} 在名单上`))
      else assert.match(await phone.page.locator('.raffle-check__list').innerText(), /The list of entries \(2 codes\) matches/)
      await toTop(phone.page, '.raffle-panel')
      assert.deepEqual(await noOverflow(phone.page), [])
      await phone.shot(`raffle-won-${lang}.png`)
      await toTop(phone.page, '.raffle-verify')
      await phone.shot(`raffle-verified-${lang}.png`)
    }
    assert.deepEqual(zh.errors, [])
    assert.deepEqual(en.errors, [])

    // ---- the operator's drop list (zh) names the raffle: its close and its places
    const o = await openPhonePage({ locale: 'zh-CN' })
    try {
      await passwordLogin(o, base, 'operator', 'operator123')
      await o.page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
      await o.page.locator(`.series-row-${seriesId}`).click()
      await o.page.locator('.drop-row__raffle').waitFor()
      const closeText = new Date(closes + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ')
      assert.equal((await o.page.locator('.drop-row__raffle').innerText()).trim(), `抽签：${closeText} 截止报名，2 个名额，中签后 30 分钟内购买`)
      await o.page.locator('.drop-row').first().scrollIntoViewIfNeeded()
      await o.shot('raffle-editor-list-zh.png')
      assert.deepEqual(o.errors, [])
    } finally {
      await o.close()
    }
  } catch (e) {
    await zh.shot('raffle-failure-zh.png').catch(() => undefined)
    await en.shot('raffle-failure-en.png').catch(() => undefined)
    throw e
  } finally {
    await zh.close()
    await en.close()
  }
}

module.exports = { name: 'raffle: entered on the series page, drawn at the close, won and checked on the phone', run }
