/**
 * Drops (issue 50, items 2 and 3) in Chromium:
 *  - the operator (zh) makes a drop from the series editor: a bad count is named on its field, then a
 *    drop of 2 cases starting in a few minutes; the drop is listed with its root
 *  - shoppers (en and zh) see the drop on the series page: the exact counts, a countdown by the server's
 *    clock, the root, no way to buy; the root recomputed on the phone matches
 *  - a second drop starts while a shopper watches: the page opens the case by itself at the start; once
 *    every case is bought the page says sold out, and the phone recomputes the root, every case and the
 *    hidden count; shoppers (en and zh) ask to be told when it is restocked (by mail: no address on the
 *    account, so the page asks for one), and a new drop tells each of them once
 */
const assert = require('node:assert/strict')
const { openPhonePage, passwordLogin } = require('./browser')
const { api } = require('./api')

const STAMP = Date.now().toString(36)

/** A series of four designs (one rare) and a hidden one, counted into the warehouse and on sale. */
async function makeSeries (base, op, title) {
  const draft = await api(base, '/api/operator/seriesSave', {
    title,
    description: { zh: '限量发售的四位小伙伴。', en: 'Four friends, sold in limited drops.' },
    rules: { zh: '', en: '' },
    cover: '/media/art/1f98a.webp',
    // 49 yuan: the finder suite, on the same shop, counts on nothing under 30 yuan
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
  // its regular designs are worth less than a box: published with the operator's acknowledgement
  await api(base, '/api/operator/seriesPublish', { seriesId: draft.id, lowValueAcknowledged: draft.designs.map(d => d.id) }, op)
  return draft.id
}

/** A mail's Subject header, its MIME encoded-words (RFC 2047, B or Q) decoded. */
function subjectOf (raw) {
  const head = raw.slice(0, raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' ')
  const line = (/^Subject: (.*)$/mi.exec(head) || [])[1] || ''
  return line.replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=\s*/gi, (_, kind, text) => kind.toUpperCase() === 'B'
    ? Buffer.from(text, 'base64').toString('utf8')
    : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (x, h) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8')).trim()
}

/** China time, minute precision, as the editor's form takes it. */
const chinaMinute = ms => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ')

async function shopperWithMoney (base, name) {
  const { token } = await api(base, '/login/register?table=user', { user_name: name, password: 'drop-pw-123' })
  const userId = (await api(base, '/getUserInfo', undefined, token)).id
  await api(base, '/api/ageVerify', { birthDate: '1995-06-01' }, token)
  const opId = await api(base, '/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId }, token)
  await api(base, '/generalOrder/create', { productId: 'wallet_topup', userId, opId, amountCents: 100000, channel: 'sandbox' }, token)
  await api(base, '/api/sandboxPay', { opId }, token)
  return token
}

/** What runs off a 375 px phone, within `scope` (the editor's tab strip scrolls sideways on purpose). */
const noOverflow = (page, scope = '.taro_page_show') => page.evaluate(sel => [...document.querySelectorAll(`${sel} *`)]
  .filter(e => e.getBoundingClientRect().right > innerWidth + 1).map(e => e.className).slice(0, 3), scope)

async function run ({ base, smtp }) {
  const o = await openPhonePage({ locale: 'zh-CN' })
  const en = await openPhonePage({ locale: 'en-US' })
  const zh = await openPhonePage({ locale: 'zh-CN' })
  try {
    const op = (await api(base, '/login/passwd', { user_name: 'operator', password: 'operator123' })).token
    const title = { zh: `限量测试 ${STAMP}`, en: `Drop test ${STAMP}` }
    const seriesId = await makeSeries(base, op, title)

    // ---- the operator makes a drop from the editor
    await passwordLogin(o, base, 'operator', 'operator123')
    await o.page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
    await o.page.locator(`.series-row-${seriesId}`).click()
    await o.page.locator('.drops-panel .drop-form__go').waitFor()
    assert.match(await o.page.locator('.drop-form__room').innerText(), /最多够装 6 箱；隐藏款空闲 6 件/)
    await o.input('drop-form__cases').fill('7')
    await o.page.locator('.drop-form__go').click()
    await o.page.locator('.drop-form__problem', { hasText: '空闲库存最多够装 6 箱' }).waitFor()
    await o.input('drop-form__cases').fill('2')
    await o.input('drop-form__hiddenCases').fill('1')
    await o.input('drop-form__boxesPerAccount').fill('2')
    const startsAt = Math.ceil((Date.now() + 3 * 60_000) / 60_000) * 60_000
    await o.input('drop-form__startsAt').fill(chinaMinute(startsAt))
    await o.page.locator('.drop-form').scrollIntoViewIfNeeded()
    await o.shot('drops-editor-form-zh.png')
    await o.page.locator('.drop-form__go').click()
    await o.page.locator('.drop-row').first().waitFor()
    assert.match(await o.page.locator('.drop-row__counts').first().innerText(), /共 2 箱 8 盒，其中恰好 1 箱含隐藏款/)
    assert.match(await o.page.locator('.drop-row__head').first().innerText(), /即将开售/)
    await o.page.locator('.drop-form__selling').waitFor()
    await o.page.locator('.drops-panel').scrollIntoViewIfNeeded()
    assert.deepEqual(await noOverflow(o.page, '.drops-panel'), [])
    await o.shot('drops-editor-zh.png')
    const listed = await api(base, '/api/operator/drops', { seriesId }, op)
    assert.equal(listed.drops.length, 1)
    const { root } = listed.drops[0]
    assert.equal(new Date(listed.drops[0].startsAt).getTime(), startsAt)

    // ---- shoppers see it coming, in both languages: counts, countdown, root; nothing to buy
    for (const [phone, lang, soon, counts, countdown] of [
      [en, 'en', 'Not on sale yet', '2 cases, 8 boxes; exactly 1 of them with the hidden design', /^Starts in [23]:\d\d$/],
      [zh, 'zh', '即将开售', '其中恰好 1 箱含隐藏款', /^距开售 [23]:\d\d$/]
    ]) {
      await phone.page.goto(`${base}/pagesA/blind_box_detail/index?seriesId=${seriesId}`, { waitUntil: 'networkidle' })
      await phone.page.locator('.drop-panel--scheduled').waitFor()
      assert.match((await phone.page.locator('.drop-countdown__left').innerText()).trim(), countdown)
      assert.match(await phone.page.locator('.drop-panel__counts').innerText(), new RegExp(counts))
      assert.equal((await phone.page.locator('.drop-panel__limits').innerText()).trim(), lang === 'en' ? 'Per account: at most 2 boxes' : '每个账号：最多 2 盒')
      assert.equal((await phone.page.locator('.drop-root__hash').innerText()).trim(), root)
      assert.equal((await phone.page.locator('.buy-soon').innerText()).trim(), soon)
      // what a whole case holds, said plainly (four designs and the hidden one, which has a chance)
      assert.equal((await phone.page.locator('.case-guarantee').innerText()).trim(), lang === 'en'
        ? 'A whole case, guaranteed: 4 boxes, one of each design but the hidden one; in a case that holds the hidden design, it takes the place of one regular design.'
        : '整箱保证：一箱 4 盒，除隐藏款外每个款式各一盒；含隐藏款的箱子里，隐藏款替换其中一个普通款。')
      await phone.page.locator('.case-guarantee').scrollIntoViewIfNeeded()
      await phone.shot(`detail-guarantee-${lang}.png`)
      assert.equal(await phone.page.locator('.slot, .buy-picked, .buy-whole, .detail-sold-out').count(), 0, 'nothing to buy, and not sold out')
      await phone.page.locator('.drop-verify').click()
      await phone.page.locator('.drop-check__root.drop-check__line--ok').waitFor()
      await phone.page.locator('.drop-check__pending').waitFor()
      assert.deepEqual(await noOverflow(phone.page), [])
      await phone.shot(`drops-soon-${lang}.png`)
    }

    // ---- a drop that starts while a shopper watches: the case opens by itself, then it sells out
    const second = await makeSeries(base, op, { zh: `限量开售 ${STAMP}`, en: `Drop start ${STAMP}` })
    const made = await api(base, '/api/operator/dropCreate', { seriesId: second, cases: 2, hiddenCases: 1, startsAt: new Date(Date.now() + 8000).toISOString() }, op)
    const shopper = `drop_${STAMP}`
    const token = await shopperWithMoney(base, shopper)
    await passwordLogin(en, base, shopper, 'drop-pw-123')
    await en.page.goto(`${base}/pagesA/blind_box_detail/index?seriesId=${second}`, { waitUntil: 'networkidle' })
    await en.page.locator('.drop-countdown__left').waitFor()
    // the start: the page looks again by itself and shows the case
    await en.page.locator('.slot').first().waitFor({ timeout: 20_000 })
    assert.equal(await en.page.locator('.slot').count(), 4)
    assert.equal(await en.page.locator('.buy-soon').count(), 0)
    assert.match(await en.page.locator('.drop-panel__left').innerText(), /Left: 2 cases, 8 boxes/)
    // every case bought: sold out, everything revealed and recomputed on the phone
    for (let i = 0; i < 2; i++) {
      const view = await api(base, '/api/caseCurrent', { seriesId: second }, token)
      await api(base, '/api/casePurchase', { caseId: view.caseId, wholeCase: true, acknowledged: true, idempotencyKey: `drop-${STAMP}-${i}` }, token)
    }
    await en.page.reload({ waitUntil: 'networkidle' })
    await en.page.locator('.drop-panel--sold_out').waitFor()
    assert.equal((await en.page.locator('.buy-sold-out').innerText()).trim(), 'Sold out')
    await en.page.locator('.drop-verify').click()
    await en.page.locator('.drop-check__hidden.drop-check__line--ok').waitFor()
    assert.match(await en.page.locator('.drop-check__root').innerText(), /matches/)
    assert.match(await en.page.locator('.drop-check__cases').innerText(), /All 2 cases revealed: each one matches its commitment/)
    assert.match(await en.page.locator('.drop-check__hidden').innerText(), /Cases with the hidden design: 1, as published/)
    assert.equal((await en.page.locator('.drop-root__hash').innerText()).trim(), made.root)
    assert.deepEqual(await noOverflow(en.page), [])
    await en.page.locator('.drop-panel').scrollIntoViewIfNeeded()
    await en.shot('drops-sold-out-verified-en.png')

    // ---- sold out: "notify me when restocked", by mail (a browser), in both languages; a new drop tells each once
    const zhShopper = `dropz_${STAMP}`
    await shopperWithMoney(base, zhShopper)
    await passwordLogin(zh, base, zhShopper, 'drop-pw-123')
    await zh.page.goto(`${base}/pagesA/blind_box_detail/index?seriesId=${second}`, { waitUntil: 'networkidle' })
    for (const [phone, lang, address, button, set] of [
      [en, 'en', `restock-en-${STAMP}@example.test`, 'Notify me when restocked', /^Set: a mail to \S+@example\.test tells you when it is restocked$/],
      [zh, 'zh', `restock-zh-${STAMP}@example.test`, '补货时通知我', /^已设置：补货时会发邮件到 \S+@example\.test$/]
    ]) {
      const notify = phone.page.locator('.detail-sold-out .restock-notify')
      await notify.waitFor()
      assert.match(await notify.innerText(), new RegExp(button))
      // in the middle of the screen: not under the action bar
      await notify.evaluate(el => el.scrollIntoView({ block: 'center' }))
      await phone.shot(`drops-restock-button-${lang}.png`)
      await notify.click()
      // no address on the account: the page asks for one
      await phone.input('restock-email-input').fill(address)
      await phone.shot(`drops-restock-email-${lang}.png`)
      await phone.page.locator('.restock-email-save').click()
      await phone.page.locator('.restock__state').waitFor()
      assert.match((await phone.page.locator('.restock__state').innerText()).trim(), set)
      await phone.page.locator('.restock-cancel').waitFor()
      // the screenshot once the toast saying so is gone
      const toast = phone.page.locator('.taro__toast', { hasText: lang === 'en' ? 'You will be notified' : '已设置补货通知' })
      await toast.first().waitFor({ state: 'attached' })
      await phone.page.waitForFunction(() => ![...document.querySelectorAll('.taro__toast')].some(e => e.offsetParent !== null && getComputedStyle(e).display !== 'none' && getComputedStyle(e).opacity !== '0'), null, { timeout: 10_000 })
      assert.deepEqual(await noOverflow(phone.page), [])
      await phone.shot(`drops-restock-set-${lang}.png`)
    }
    // the operator restocks with a new drop: each is told once, in their language, with the drop's start
    const mailsBefore = smtp.mails.length
    const restocked = await api(base, '/api/operator/dropCreate', { seriesId: second, cases: 1, hiddenCases: 0, startsAt: new Date(Date.now() + 3_600_000).toISOString() }, op)
    const china = new Date(Date.parse(restocked.startsAt) + 8 * 3_600_000).toISOString()
    for (const [address, subject, when] of [
      [`restock-en-${STAMP}@example.test`, `Back in stock: Drop start ${STAMP}`, `On sale from: ${china.slice(0, 10)} ${china.slice(11, 16)} (China time)`],
      [`restock-zh-${STAMP}@example.test`, `补货通知：限量开售 ${STAMP}`, `开售：${china.slice(0, 10)} ${china.slice(11, 16)}（北京时间）`]
    ]) {
      const until = Date.now() + 15_000
      let mail
      while (!(mail = smtp.mails.slice(mailsBefore).find(m => m.to.includes(address))) && Date.now() < until) await new Promise(resolve => setTimeout(resolve, 200))
      assert.ok(mail, `a restock mail to ${address}`)
      assert.ok(smtp.bodyText(mail.raw).includes(when), when)
      assert.equal(subjectOf(mail.raw), subject)
    }
    assert.equal(smtp.mails.slice(mailsBefore).filter(m => m.to.some(a => a.startsWith('restock-'))).length, 2)

    // ---- a drop with a waiting room: one shops at a time; the other waits, told their place
    const third = await makeSeries(base, op, { zh: `排队发售 ${STAMP}`, en: `Queue drop ${STAMP}` })
    const queued = await api(base, '/api/operator/dropCreate', {
      seriesId: third, cases: 2, hiddenCases: 0, startsAt: new Date(Date.now() + 4000).toISOString(),
      waitingRoom: { windowSeconds: 2, shoppersAtOnce: 1, minutesEach: 1 }
    }, op)
    const other = await shopperWithMoney(base, `dropq_${STAMP}`)
    // both arrive before the start: the page joins by itself, the other shopper through the API (not
    // 'networkidle': told it is early, the page asks again at once, and the server holds that ask until
    // the order is drawn)
    await en.page.goto(`${base}/pagesA/blind_box_detail/index?seriesId=${third}`, { waitUntil: 'load' })
    await en.page.locator('.queue-panel--early').waitFor()
    assert.equal((await api(base, '/api/dropQueue', { dropId: queued.dropId }, other)).state, 'early')
    // the window closes: one of the two is let in, the other waits as number 2 with 1 ahead
    await en.page.locator('.queue-panel--waiting, .queue-panel--shopping').waitFor({ timeout: 20_000 })
    const theirs = await api(base, '/api/dropQueue', { dropId: queued.dropId }, other)
    if (theirs.state === 'shopping') {
      await en.page.locator('.queue-panel__position').waitFor()
      assert.equal((await en.page.locator('.queue-panel__position').innerText()).trim(), 'You are number 2 in line')
      assert.match(await en.page.locator('.queue-panel__ahead').innerText(), /^You are next; your turn in at most about 1:00$/)
      assert.equal((await en.page.locator('.buy-queue').innerText()).trim(), 'In the queue')
      assert.equal(await en.page.locator('.slot').count(), 0)
    } else {
      assert.equal(theirs.state, 'waiting')
      await en.page.locator('.slot').first().waitFor({ timeout: 10_000 })
      assert.match(await en.page.locator('.queue-panel__turn').innerText(), /^Your turn: you can buy for 0:5\d|^Your turn: you can buy for 1:00/)
    }
    assert.deepEqual(await noOverflow(en.page), [])
    await en.page.locator('.queue-panel').scrollIntoViewIfNeeded()
    await en.shot('drops-queue-en.png')
    assert.deepEqual(o.errors, [])
    assert.deepEqual(en.errors, [])
    assert.deepEqual(zh.errors, [])
  } catch (e) {
    await o.shot('drops-failure-operator.png').catch(() => undefined)
    await en.shot('drops-failure-en.png').catch(() => undefined)
    await zh.shot('drops-failure-zh.png').catch(() => undefined)
    throw e
  } finally {
    await o.close()
    await en.close()
    await zh.close()
  }
}

module.exports = { name: 'drops: made in the editor, counted down, opened at the start, sold out and verified on the phone', run }
