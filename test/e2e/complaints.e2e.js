/**
 * The complaint channel, end to end: the demo shopper (shopper/shopper123, in Chinese) opens "联系客服"
 * from the personal centre, is told what the form lacks, files a complaint about a parcel with a
 * contact address and a number; the local Feishu and WeCom webhooks receive the alert (signed, masked)
 * and the local SMTP server the mail to the complaint mailbox; the demo operator (operator/operator123,
 * in English) finds it in the editor's Complaints tab, replies (also mailed to the contact address) and
 * closes it; the shopper sees the reply and the status. Screenshots of the form, the list and the tab in
 * zh and en at 375 px.
 */
const assert = require('node:assert/strict')
const path = require('node:path')
const { openPhonePage, SHOTS, passwordLogin } = require('./browser')
const { bodyText } = require('./smtp')

const MAILBOX = 'support@pickbox.example'
const CONTACT = 'li.lei@example.com'

async function until (check, what, ms = 10000) {
  const end = Date.now() + ms
  for (;;) {
    if (await check()) return
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise(r => setTimeout(r, 100))
  }
}

/** The horizontal overflow of the page (nothing may stick out of a 375 px phone). */
const overflow = page => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

async function run ({ base, smtp, fakes }) {
  const pages = []
  const open = async (locale) => { const p = await openPhonePage({ locale }); pages.push(p); return p }
  try {
    // ---- the shopper, in Chinese ----
    const shopper = await open('zh-CN')
    const { page } = shopper
    await passwordLogin(shopper, base, 'shopper', 'shopper123')
    await page.goto(`${base}/pagesA/profile/index`, { waitUntil: 'networkidle' })
    assert.equal(await page.locator('.contact-panel').count(), 0)
    await page.locator('.menu-contact').click()
    await page.locator('.contact-submit').waitFor()
    // the form names what it lacks before anything is sent
    await page.locator('.contact-submit').click()
    await page.locator('.contact-error-topic', { hasText: '请选择问题类型' }).waitFor()
    await page.locator('.contact-error-text', { hasText: '留言至少 10 个字' }).waitFor()
    await shopper.shot('complaints-form-errors-zh.png')

    const message = '快递显示已签收，但我没有收到包裹。\n麻烦帮忙查一下，谢谢！'
    await page.locator('.contact-topic-shipping').click()
    await page.locator('.contact-text textarea').fill(message)
    await shopper.input('contact-email').fill(CONTACT)
    await shopper.input('contact-order').fill('SF1234567890123')
    assert.equal(await page.locator('.contact-error').count(), 0)
    await shopper.shot('complaints-form-zh.png')
    assert.equal(await overflow(page), 0)
    const mailsBefore = smtp.mails.length
    await page.locator('.contact-submit').click()
    const item = page.locator('.contact-item--open', { hasText: '快递显示已签收' }).first()
    await item.waitFor()
    assert.match(await item.locator('.contact-status').innerText(), /待回复/)
    assert.match(await item.innerText(), /SF1234567890123/)
    // the form is empty again
    assert.equal(await page.locator('.contact-text textarea').inputValue(), '')
    await shopper.shot('complaints-list-open-zh.png')
    const id = Number((await item.locator('.contact-item__meta').innerText()).match(/#(\d+)/)[1])

    // ---- the operators hear of it: both robots and the mailbox, masked ----
    const alert = `#${id}（发货物流）`
    await until(() => fakes.feishu.messages.some(m => m.includes(alert)) && fakes.wecom.messages.some(m => m.includes(alert)), 'the robot alerts')
    const posted = fakes.feishu.messages.find(m => m.includes(alert))
    assert.match(posted, /^【新留言】/)
    assert.match(posted, /单号 SF1234567890123/)
    assert.doesNotMatch(posted, /\n/)
    const feishuCall = fakes.feishu.calls.find(c => c.body && c.body.content && c.body.content.text === posted)
    assert.ok(feishuCall.body.sign && feishuCall.body.timestamp, 'the Feishu alert is signed (the fake checked it)')
    await until(() => smtp.mails.slice(mailsBefore).some(m => m.to.includes(MAILBOX)), 'the mail to the complaint mailbox')
    const boxMail = bodyText(smtp.mails.slice(mailsBefore).find(m => m.to.includes(MAILBOX)).raw)
    assert.match(boxMail, /快递显示已签收，但我没有收到包裹。/)
    assert.match(boxMail, /l\*\*\*i@example\.com/)
    for (const text of [posted, boxMail]) assert.ok(!text.includes(CONTACT), 'the contact address is masked')

    // ---- the operator, in English: the Complaints tab, reply (mailed), close ----
    const operator = await open('en-US')
    const op = operator.page
    await passwordLogin(operator, base, 'operator', 'operator123')
    await op.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
    await op.locator('.editor-tab-complaints').click()
    const row = op.locator('.cq-row--open', { hasText: `#${id} ·` }).first()
    await row.waitFor()
    assert.match(await op.locator('.cq-filter-open').innerText(), /Awaiting reply \d+/)
    await operator.shot('complaints-tab-en.png')
    assert.equal(await overflow(op), 0)
    await row.click()
    await op.locator('.cq-detail__text', { hasText: '快递显示已签收' }).waitFor()
    assert.match(await op.locator('.complaint-detail').innerText(), new RegExp(`Contact: ${CONTACT.replace('.', '\\.')}`))
    const reply = 'Sorry about that! The courier confirmed a mix-up; your parcel will be delivered again tomorrow.'
    await op.locator('.cq-reply-input textarea').fill(reply)
    await op.locator('.cq-mail').click()
    await op.locator('.cq-check--on').waitFor()
    await operator.shot('complaints-reply-en.png')
    const before = smtp.mails.length
    await op.locator('.cq-send').click()
    await op.locator('.complaint-detail .cq-status--answered').waitFor()
    await op.locator('.cq-reply__text', { hasText: 'delivered again tomorrow' }).waitFor()
    await until(() => smtp.mails.slice(before).some(m => m.to.includes(CONTACT)), 'the reply mailed to the contact')
    assert.match(bodyText(smtp.mails.slice(before).find(m => m.to.includes(CONTACT)).raw), /delivered again tomorrow/)

    // ---- the shopper sees the reply ----
    await page.goto(`${base}/pagesA/profile/index?contact=1`, { waitUntil: 'networkidle' })
    const answered = page.locator('.contact-item--answered', { hasText: '快递显示已签收' }).first()
    await answered.waitFor()
    assert.match(await answered.locator('.contact-status').innerText(), /已回复/)
    assert.match(await answered.locator('.contact-reply__text').innerText(), /delivered again tomorrow/)
    await answered.scrollIntoViewIfNeeded()
    await shopper.shot('complaints-list-answered-zh.png')

    // ---- the operator closes it; the shopper sees it closed ----
    await op.locator('.cq-close').click()
    await op.locator('.taro-model__confirm').click()
    await op.locator('.complaint-detail .cq-status--closed').waitFor()
    assert.equal(await op.locator('.cq-send').count(), 0)
    await page.reload({ waitUntil: 'networkidle' })
    await page.locator('.contact-item--closed', { hasText: '快递显示已签收' }).first().waitFor()

    // ---- the same screens in the other language ----
    const shopperEn = await open('en-US')
    await passwordLogin(shopperEn, base, 'shopper', 'shopper123')
    await shopperEn.page.goto(`${base}/pagesA/profile/index?contact=1`, { waitUntil: 'networkidle' })
    await shopperEn.page.locator('.contact-item--closed').first().waitFor()
    await shopperEn.page.locator('.contact-topic-payment').click()
    await shopperEn.page.locator('.contact-text textarea').fill('My top-up of 100 yuan has not arrived yet.')
    await shopperEn.shot('complaints-form-en.png')
    assert.equal(await overflow(shopperEn.page), 0)
    await shopperEn.page.locator('.contact-mine').scrollIntoViewIfNeeded()
    await shopperEn.shot('complaints-list-en.png')
    const operatorZh = await open('zh-CN')
    await passwordLogin(operatorZh, base, 'operator', 'operator123')
    await operatorZh.page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
    await operatorZh.page.locator('.editor-tab-complaints').click()
    await operatorZh.page.locator('.cq-filter-all').click()
    await operatorZh.page.locator('.cq-row--closed').first().waitFor()
    await operatorZh.shot('complaints-tab-zh.png')
    assert.equal(await overflow(operatorZh.page), 0)
    await operatorZh.page.locator('.cq-row--closed').first().click()
    await operatorZh.page.locator('.complaint-detail').waitFor()
    await operatorZh.shot('complaints-detail-zh.png')

    // the anonymous visitor is asked to log in
    const anon = await open('en-US')
    await anon.page.goto(`${base}/pagesA/profile/index?contact=1`, { waitUntil: 'networkidle' })
    await anon.page.locator('.contact-panel .empty-state__text', { hasText: 'Log in to contact us' }).waitFor()
    await anon.shot('complaints-anonymous-en.png')

    for (const p of pages) assert.deepEqual(p.errors, [])
  } catch (e) {
    for (const [i, p] of pages.entries()) await p.page.screenshot({ path: path.join(SHOTS, `FAILED-complaints-${i}.png`) }).catch(() => undefined)
    console.error('page errors:', pages.map(p => p.errors))
    throw e
  } finally {
    for (const p of pages) await p.close()
  }
}

module.exports = { name: 'complaints: the contact form, the robots and the mailbox, the Complaints tab, the reply', run, MAILBOX }
