/**
 * The complaint channel end to end in Chromium (issue 10, item 5): the demo shopper (zh) opens
 * "Contact the shop" on the profile page, is told a too short message is too short, then sends one with
 * a parcel number and an address; the local Feishu and WeCom robots get the alert (no personal data)
 * and the local SMTP server the mail to the complaint mailbox; the operator (en) answers it in the
 * editor's Complaints tab; the shopper sees the answer on the profile page, and it is mailed to them.
 */
const assert = require('node:assert/strict')
const { openPhonePage } = require('./browser')

const MAILBOX = 'care@pickbox.example'

async function logIn (phone, base, userName, password) {
  await phone.page.goto(`${base}/pages/login/index`, { waitUntil: 'networkidle' })
  await phone.input('input-account').fill(userName)
  await phone.input('input-password').fill(password)
  await phone.page.locator('.login-check').click()
  await phone.page.locator('.login-submit').click()
  await phone.page.waitForURL(/\/pagesA\/home\/index/)
}

async function until (check, what, ms = 10000) {
  const end = Date.now() + ms
  for (;;) {
    const v = check()
    if (v) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise(r => setTimeout(r, 100))
  }
}

async function run ({ base, smtp, fakes }) {
  const s = await openPhonePage({ locale: 'zh-CN' })
  const o = await openPhonePage({ locale: 'en-US' })
  const text = `第二个盒子没有发货 ${Date.now().toString(36)}`
  try {
    await logIn(s, base, 'shopper', 'shopper123')
    await s.page.goto(`${base}/pagesA/profile/index`, { waitUntil: 'networkidle' })
    await s.page.locator('.menu-contact').click()
    await s.page.locator('.contact-form').waitFor()
    await s.page.locator('.contact-topic-shipping').click()
    await s.page.locator('.contact-text textarea').fill('太短了')
    await s.page.locator('.contact-send').click()
    await s.page.getByText('请至少写 10 个字').first().waitFor()
    await s.page.locator('.contact-text textarea').fill(text)
    await s.input('contact-reference').fill('SF1234567890')
    await s.input('contact-email').fill('shopper.answer@example.com')
    await s.shot('contact-form-zh.png')
    const feishuBefore = fakes.feishu.calls.length
    const mailsBefore = smtp.mails.length
    await s.page.locator('.contact-send').click()
    const item = s.page.locator('.contact-item', { hasText: text }).first()
    await item.waitFor()
    assert.match(await item.innerText(), /待处理/)

    // the operators hear of it: both robots (ids and topic only), and the mailbox gets the whole text
    const alert = await until(() => fakes.feishu.calls.slice(feishuBefore).find(c => c.text.includes('新投诉')), 'the Feishu alert')
    assert.match(alert.text, /^\[拾盒 Pickbox\] 新投诉 #\d+（发货，用户 #\d+）/)
    assert.ok(!alert.text.includes(text) && !alert.text.includes('shopper.answer'), 'no complaint text or address in a robot')
    await until(() => fakes.wecom.calls.find(c => c.text === alert.text), 'the WeCom alert')
    const mail = await until(() => smtp.mails.slice(mailsBefore).find(m => m.to.includes(MAILBOX)), 'the mail to the complaint mailbox')
    const body = smtp.bodyText(mail.raw)
    assert.ok(body.includes('SF1234567890') && body.includes(text), body)
    const id = Number(/#(\d+)/.exec(alert.text)[1])

    // the operator answers in the editor
    await logIn(o, base, 'operator', 'operator123')
    await o.page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
    await o.page.locator('.editor-tab-complaints').click()
    const card = o.page.locator(`.op-complaint-${id}`)
    await card.waitFor()
    assert.match(await card.innerText(), /Shipping/)
    await card.locator('.op-complaint__input textarea').fill('Sorry! It left today, tracking SF1234567890.')
    await o.shot('editor-complaints-en.png')
    const answerMails = smtp.mails.length
    await card.locator('.op-complaint__send').click()
    await o.page.locator('.op-complaint', { hasText: text }).waitFor({ state: 'detached' })
    await o.page.locator('.op-complaints-filter-answered').click()
    await o.page.locator(`.op-complaint-${id}`).waitFor()

    // the shopper reads the answer, and it is mailed to the address given
    await s.page.reload({ waitUntil: 'networkidle' })
    await s.page.locator('.menu-contact').click()
    const answered = s.page.locator(`.contact-item-${id}`)
    await answered.locator('.contact-reply').waitFor()
    assert.match(await answered.innerText(), /已答复[\s\S]*It left today/)
    await s.shot('contact-answered-zh.png')
    await until(() => smtp.mails.slice(answerMails).find(m => m.to.includes('shopper.answer@example.com')), 'the answer by mail')
    assert.deepEqual(s.errors, [])
    assert.deepEqual(o.errors, [])
  } catch (e) {
    await s.shot('contact-failure-shopper.png').catch(() => undefined)
    await o.shot('contact-failure-operator.png').catch(() => undefined)
    throw e
  } finally {
    await s.close()
    await o.close()
  }
}

module.exports = { name: 'complaints: a shopper writes from the profile, robots and mail tell the operators, the answer comes back', run, MAILBOX }
