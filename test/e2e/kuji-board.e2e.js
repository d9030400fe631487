/**
 * 一番赏 (kuji) on the phone, in Chromium at 375 px, in zh and en, on the demo shop's kuji series:
 *  - a shopper (zh) opens the series: the board (the Last One, the tiers with tickets left and their
 *    chance, what a whole set holds, the tickets, the commitment), joins the line and, the line being
 *    empty, draws at once: the turn's time left by the server's clock, the draws at random;
 *  - a second shopper (en) joins meanwhile and waits: their place, who is ahead, the wait;
 *  - the first draws 3 at random: the purchase (the set, the tickets, the turn's time, each tier's
 *    tickets left), the opening, the results named by ticket and tier; back on the board their 3
 *    tickets are marked theirs; they end their turn, and the second's turn comes by itself;
 *  - the second draws 3 at random, then every ticket left (全收): the Last One's moment on the opening
 *    and the results; the board moves on to the next set, and the previous one is checked on the phone.
 * Screenshots: test-results/screenshots/kuji-*.png.
 */
const assert = require('node:assert/strict')
const { openPhonePage, passwordLogin } = require('./browser')
const { api } = require('./api')

const STAMP = Date.now().toString(36)

async function shopperWithMoney (base, name) {
  const { token } = await api(base, '/login/register?table=user', { user_name: name, password: 'kuji-pw-123' })
  const userId = (await api(base, '/getUserInfo', undefined, token)).id
  await api(base, '/api/ageVerify', { birthDate: '1994-03-01' }, token)
  const opId = await api(base, '/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId }, token)
  await api(base, '/generalOrder/create', { productId: 'wallet_topup', userId, opId, amountCents: 150000, channel: 'sandbox' }, token)
  await api(base, '/api/sandboxPay', { opId }, token)
  return token
}

/** What runs off a 375 px phone, on the page shown. */
const noOverflow = page => page.evaluate(() => [...document.querySelectorAll('.taro_page_show *')]
  .filter(e => e.getBoundingClientRect().right > innerWidth + 1).map(e => e.className).slice(0, 3))

/** A screenshot once no toast covers the page (Taro's H5 toast fades out and is hidden). */
async function shot (phone, name) {
  await phone.page.waitForFunction(() => ![...document.querySelectorAll('.taro__toast')]
    .some(e => e.style.display !== 'none' && e.style.opacity !== '0' && getComputedStyle(e).display !== 'none'), null, { timeout: 6000 }).catch(() => undefined)
  await phone.shot(name)
}

/** The element on the page shown (pages under it stay in the document, hidden). */
const on = (phone, sel) => phone.page.locator(`${sel}:visible`)

/** A random draw of n from the board on the caller's turn, paid, opened (skipped) and shown. */
async function drawAtRandom (phone, n, lang, shots) {
  await on(phone, `.kuji-random-${n}`).click()
  await phone.page.waitForURL(/\/purchase\/index\?/)
  const url = new URL(phone.page.url())
  const tickets = url.searchParams.get('slots').split(',').map(Number)
  assert.equal(tickets.length, n)
  assert.equal(url.searchParams.get('kuji'), '1')
  await on(phone, '.disclosure').waitFor()
  assert.match(await on(phone, '.purchase-item__sub').innerText(), lang === 'zh' ? new RegExp(`^第 \\d+ 套 · ${tickets.join(', ')} 号签（${n} 张）$`) : new RegExp(`^Set \\d+ · tickets ${tickets.join(', ')}$`))
  assert.match(await on(phone, '.purchase-kuji-turn').innerText(), lang === 'zh' ? /^你的回合还剩 \d:\d\d：请在结束前付款$/ : /^Your turn: \d:\d\d left to pay$/)
  assert.equal(await on(phone, '.odds-row--kuji .tier-badge').count(), 6, 'five tiers and the Last One')
  if (shots) {
    assert.deepEqual(await noOverflow(phone.page), [])
    await shot(phone, `kuji-purchase-${lang}.png`)
  }
  await on(phone, '.disclosure .purchase-ack').click()
  await on(phone, '.purchase-pay').click()
  await phone.page.waitForURL(/open_chest_animation/)
  await on(phone, '.chest').waitFor()
  await on(phone, '.chest').click()
  await on(phone, '.reveal .tier-badge').waitFor()
  assert.match(await on(phone, '.chest-hint').innerText(), lang === 'zh' ? /^\d+ 号签$/ : /^Ticket \d+$/)
  if (shots) await shot(phone, `kuji-open-${lang}.png`)
  await on(phone, '.chest-skip').click()
  await phone.page.waitForURL(/prize_show/)
  await on(phone, '.result').first().waitFor()
  assert.equal(await on(phone, '.result').count(), n)
  for (const meta of await on(phone, '.result__meta').allInnerTexts()) assert.match(meta, lang === 'zh' ? /^\d+ 号签 · / : /^Ticket \d+ · /)
  if (shots) {
    assert.deepEqual(await noOverflow(phone.page), [])
    await shot(phone, `kuji-results-${lang}.png`)
  }
  return tickets
}

/** Back on the board from the results, in line again if the turn lapsed meanwhile. */
async function backToBoard (phone) {
  await on(phone, '.prize-again').click()
  await phone.page.waitForURL(/blind_box_detail/)
  await on(phone, '.kuji-turn').waitFor()
  if (await on(phone, '.kuji-join').count()) await on(phone, '.kuji-join').click()
  await on(phone, '.kuji-turn--drawing').waitFor({ timeout: 15_000 })
}

async function run ({ base }) {
  const zh = await openPhonePage({ locale: 'zh-CN' })
  const en = await openPhonePage({ locale: 'en-US' })
  // less motion asked for: the opening's box opens on the tap (it bobs while it waits, which a click waits out)
  for (const phone of [zh, en]) await phone.page.emulateMedia({ reducedMotion: 'reduce' })
  try {
    const kuji = (await api(base, '/api/seriesList', { page: 1, size: 50 })).list.find(s => s.kind === 'kuji')
    assert.ok(kuji, 'the demo shop has a kuji series')
    const zhName = `kuji_zh_${STAMP}`
    const enName = `kuji_en_${STAMP}`
    await shopperWithMoney(base, zhName)
    const enToken = await shopperWithMoney(base, enName)
    await passwordLogin(zh, base, zhName, 'kuji-pw-123')
    await passwordLogin(en, base, enName, 'kuji-pw-123')

    // ---- the board, in Chinese: the Last One, the tiers, what a whole set holds, the tickets
    await zh.page.goto(`${base}/pagesA/blind_box_detail/index?seriesId=${kuji.id}`, { waitUntil: 'networkidle' })
    await on(zh, '.kuji-turn').waitFor()
    assert.equal(await on(zh, '.slot, .buy-picked').count(), 0, 'no case, no boxes')
    assert.equal((await on(zh, '.kuji-last .tier-badge').innerText()).trim(), '最终赏')
    assert.equal((await on(zh, '.kuji-last__name').innerText()).trim(), '龙王')
    assert.deepEqual((await on(zh, '.kuji-tier .tier-badge').allInnerTexts()).map(s => s.trim()), ['A赏', 'B赏', 'C赏', 'D赏', 'E赏'])
    const board = await api(base, '/api/kujiBoard', { seriesId: kuji.id })
    const left = board.tiers.find(r => r.tier === 'A').left
    assert.equal((await on(zh, '.kuji-tier-A .kuji-tier__left').innerText()).trim(), `剩 ${left}/1 张`)
    assert.equal((await on(zh, '.kuji-guarantee').innerText()).trim(),
      '整套保证：一套 24 张签，A赏 1 张、B赏 2 张、C赏 3 张、D赏 6 张、E赏 12 张；抽完一整套必得以上全部赏品，买下最后一张签的人另得最终赏。')
    assert.equal(await on(zh, '.kuji-ticket').count(), 24)
    assert.equal((await on(zh, '.detail-hero__unit').innerText()).trim(), '/ 张')
    assert.equal((await on(zh, '.kuji-fair__commit').innerText()).trim(), board.commit)
    assert.deepEqual(await noOverflow(zh.page), [])
    await shot(zh, 'kuji-board-zh.png')

    // ---- zh joins: the line is empty, so the turn is theirs at once
    await on(zh, '.kuji-join').click()
    await on(zh, '.kuji-turn--drawing').waitFor()
    assert.match(await on(zh, '.kuji-turn__left').innerText(), /^还剩 (0:[0-5]\d|1:00)$/)
    assert.equal((await on(zh, '.kuji-random-3').innerText()).trim(), '抽 3 张')
    await on(zh, '.kuji-turn').scrollIntoViewIfNeeded()
    await shot(zh, 'kuji-turn-zh.png')

    // ---- en joins meanwhile and waits its turn
    await en.page.goto(`${base}/pagesA/blind_box_detail/index?seriesId=${kuji.id}`, { waitUntil: 'networkidle' })
    await on(en, '.kuji-join').click()
    await on(en, '.kuji-turn--waiting').waitFor()
    assert.equal((await on(en, '.kuji-turn__position').innerText()).trim(), 'You are number 2 in line')
    assert.match(await on(en, '.kuji-turn__ahead').innerText(), /^You are next; your turn in at most about (0:[0-5]\d|1:00)$/)
    assert.equal((await on(en, '.kuji-waiting').innerText()).trim(), 'In line · number 2')
    assert.deepEqual(await noOverflow(en.page), [])
    await shot(en, 'kuji-waiting-en.png')

    // ---- zh draws 3 at random: paid, opened, shown; back on the board the 3 are theirs
    const zhTickets = await drawAtRandom(zh, 3, 'zh', true)
    await backToBoard(zh)
    for (const n of zhTickets) assert.match(await on(zh, `.kuji-ticket-${n}`).getAttribute('class'), /kuji-ticket--mine/)
    assert.equal(await on(zh, '.kuji-draw').count() >= 3, true, 'the recent draws show theirs')
    await on(zh, '.kuji-tickets').scrollIntoViewIfNeeded()
    assert.deepEqual(await noOverflow(zh.page), [])
    await shot(zh, 'kuji-tickets-zh.png')
    // zh ends the turn (asked first): en's turn comes by itself
    await on(zh, '.kuji-end').click()
    await zh.page.locator('.taro__modal .taro-model__confirm').click()
    await on(zh, '.kuji-join').waitFor()
    await on(en, '.kuji-turn--drawing').waitFor({ timeout: 15_000 })
    assert.match(await on(en, '.kuji-turn__left').innerText(), /^(0:[0-5]\d|1:00) left$/)
    await on(en, '.kuji-turn').scrollIntoViewIfNeeded()
    await shot(en, 'kuji-turn-en.png')

    // ---- en draws 3 at random, then every ticket left: the Last One
    await drawAtRandom(en, 3, 'en', true)
    await backToBoard(en)
    const before = await api(base, '/api/kujiBoard', { seriesId: kuji.id }, enToken)
    const all = on(en, '.kuji-all')
    assert.match(await all.innerText(), new RegExp(`^All ${before.ticketsLeft} left · ¥`))
    await all.click()
    await en.page.waitForURL(/\/purchase\/index\?.*whole=1/)
    await on(en, '.disclosure').waitFor()
    assert.match(await on(en, '.purchase-item__sub').innerText(), new RegExp(`^Set ${before.setNumber} · All ${before.ticketsLeft} tickets left$`))
    await on(en, '.disclosure .purchase-ack').click()
    await on(en, '.purchase-pay').click()
    await en.page.waitForURL(/open_chest_animation/)
    await on(en, '.chest-count').waitFor()
    const count = Number((await on(en, '.chest-count').innerText()).split('/')[1].trim())
    assert.equal(count, before.ticketsLeft + 1, 'every ticket left and the Last One')
    // straight to the last: the Last One, on its own stage
    for (let i = 1; i < count; i++) {
      await on(en, '.chest').click()
      await on(en, '.chest-next').click()
    }
    await on(en, '.last-one-banner').waitFor()
    assert.equal((await on(en, '.last-one-banner__title').innerText()).trim(), 'Last One!')
    await on(en, '.chest').click()
    await on(en, '.reveal--last-one').waitFor()
    assert.equal((await on(en, '.reveal--last-one .tier-badge').innerText()).trim(), 'Last One')
    assert.equal((await on(en, '.reveal__name').innerText()).trim(), 'Dragon King')
    await shot(en, 'kuji-last-one-en.png')
    await on(en, '.chest-next').click()
    await en.page.waitForURL(/prize_show/)
    await on(en, '.last-one').waitFor()
    assert.equal((await on(en, '.last-one__name').innerText()).trim(), 'Dragon King')
    assert.equal((await on(en, '.result').first().locator('.tier-badge').innerText()).trim(), 'Last One')
    assert.deepEqual(await noOverflow(en.page), [])
    await shot(en, 'kuji-last-one-results-en.png')

    // ---- the next set on the board, and the previous one checked on the phone
    await on(en, '.prize-again').click()
    await en.page.waitForURL(/blind_box_detail/)
    await on(en, '.kuji-set').waitFor()
    assert.equal((await on(en, '.kuji-set').innerText()).trim(), `Set ${before.setNumber + 1} · 24 of 24 tickets left`)
    await on(en, '.kuji-verify').click()
    await on(en, '.kuji-check__result--ok').waitFor()
    assert.deepEqual((await on(en, '.kuji-check__line').allInnerTexts()).map(s => s.trim()), [
      '✓ The hash recomputed here matches the commitment published before the sale',
      '✓ The place after the last ticket holds the Last One',
      '✓ Tickets per prize as published: 1 × Prize A, 2 × Prize B, 3 × Prize C, 6 × Prize D, 12 × Prize E'
    ])
    assert.match(await on(en, '.kuji-check__winner').innerText(), /^Last One won by /)
    assert.equal(await on(en, '.kuji-check__ticket').count(), 24)
    await on(en, '.kuji-check__result').scrollIntoViewIfNeeded()
    assert.deepEqual(await noOverflow(en.page), [])
    await shot(en, 'kuji-verify-en.png')

    // the same check in Chinese
    await zh.page.reload({ waitUntil: 'networkidle' })
    await on(zh, '.kuji-verify').click()
    await on(zh, '.kuji-check__result--ok').waitFor()
    assert.equal((await on(zh, '.kuji-check__line').first().innerText()).trim(), '✓ 本机重算的哈希与开售前公布的承诺值一致')
    await on(zh, '.kuji-check__result').scrollIntoViewIfNeeded()
    assert.deepEqual(await noOverflow(zh.page), [])
    await shot(zh, 'kuji-verify-zh.png')

    assert.deepEqual(zh.errors, [])
    assert.deepEqual(en.errors, [])
  } catch (e) {
    await zh.shot('kuji-failure-zh.png').catch(() => undefined)
    await en.shot('kuji-failure-en.png').catch(() => undefined)
    throw e
  } finally {
    await zh.close()
    await en.close()
  }
}

module.exports = { name: 'kuji board: the line, draws at random and 全收, the Last One, the previous set checked, in zh and en', run }
