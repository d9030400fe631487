/**
 * Pictures in the shop, end to end (issue 11), in Chromium at 375 px in Chinese and English:
 * - the Shipments tab: the operator photographs a parcel label (a picture rendered here with Chinese
 *   and English text, a phone number and the waybill number), the real OCR engine (tesseract) reads
 *   it, the tracking number and the carrier are filled in to check, and the parcel ships with them;
 * - the series editor: a cover drawn from words by the fake OpenAI-compatible Images API, stored and
 *   shown like an upload;
 * - the complaint form: the shopper attaches a screenshot, the AI (the Dify fake) reads it, and what
 *   it says is added to the message for the shopper to check.
 */
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { openPhonePage, passwordLogin } = require('./browser')
const { renderText } = require('../support/textImage')
const { makePng } = require('../support/png')
const { shopperShips, api } = require('./shipments.e2e')

const overflow = page => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

async function run ({ base, fakes }) {
  const post = api(base)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vision-e2e-'))
  try {
    // ---- the Shipments tab: a tracking number read from a photo of the label ----
    const labels = {
      zh: { no: 'SF1402339827156', carrier: 'shunfeng', lines: ['顺丰速运', '寄件人：星际小店 13800138000', '运单号：SF 1402 3398 2715 6', 'Blind Box Shop'], shown: /顺丰速运 SF1402339827156/ },
      en: { no: 'YT7512345678901', carrier: 'yuantong', lines: ['YTO Express 圆通速递', 'Tel 13912345678', 'Tracking No. YT7512345678901'], shown: /YTO Express YT7512345678901/ }
    }
    for (const tag of ['zh', 'en']) {
      const label = labels[tag]
      const { shipment } = await shopperShips(post)
      const file = path.join(dir, `label-${tag}.jpg`)
      fs.writeFileSync(file, renderText(label.lines, { px: 40, angle: 1, noise: 0.01, type: 'jpeg' }))
      const o = await openPhonePage({ locale: tag === 'zh' ? 'zh-CN' : 'en-US' })
      try {
        await passwordLogin(o, base, 'operator', 'operator123')
        await o.page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
        await o.page.locator('.editor-tab-shipments').click()
        const card = o.page.locator(`.shipment-${shipment.id}`)
        await card.waitFor()
        const button = card.locator('.deliver-ocr')
        await button.waitFor()
        assert.equal(await button.innerText(), tag === 'zh' ? '📷 拍面单识别单号' : '📷 Read from a photo of the label')
        await button.scrollIntoViewIfNeeded()
        await card.locator('.deliver-ocr input[type=file]').setInputFiles(file)
        const tracking = card.locator('.deliver-tracking input, input.deliver-tracking').first()
        await o.page.waitForFunction(([id, no]) => {
          const el = document.querySelector(`.shipment-${id} input.deliver-tracking, .shipment-${id} .deliver-tracking input`)
          return el && el.value === no
        }, [shipment.id, label.no], { timeout: 30000 })
        assert.equal(await tracking.inputValue(), label.no)
        assert.equal(await card.locator(`.deliver-carrier-${label.carrier}.chip--on`).count(), 1, 'the carrier on the label is chosen')
        assert.equal(await card.locator('.deliver-ocr-check').innerText(), tag === 'zh' ? '已从照片读取，请对照面单核对' : 'Read from the photo: check it against the label')
        // the phone numbers on the label are not offered
        const offered = await card.locator('.deliver-ocr-pick').allInnerTexts()
        assert.ok(offered.every(n => !/^1[3-9]\d{9}$/.test(n)), `no phone number offered: ${offered}`)
        assert.ok(await overflow(o.page) <= 0, 'nothing sticks out at 375 px')
        await card.locator('.deliver-ocr').scrollIntoViewIfNeeded()
        await o.shot(`vision-shipments-ocr-${tag}.png`)
        await card.locator('.deliver-submit').click()
        await o.page.locator(`.shipment-${shipment.id}.shipment--shipping`).waitFor()
        assert.match(await card.locator('.shipment-delivered').innerText(), label.shown)
        assert.deepEqual(o.errors, [])
      } catch (e) {
        await o.shot(`vision-shipments-failure-${tag}.png`).catch(() => undefined)
        throw e
      } finally { await o.close() }
    }

    // ---- the series editor: a cover drawn from words ----
    for (const tag of ['zh', 'en']) {
      const o = await openPhonePage({ locale: tag === 'zh' ? 'zh-CN' : 'en-US' })
      try {
        await passwordLogin(o, base, 'operator', 'operator123')
        await o.page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
        await o.page.locator('.series-new').click()
        await o.input('series-title-zh').fill('星际旅人')
        const before = fakes.images.calls.length
        await o.input('series-cover-prompt').fill(tag === 'zh' ? '星空下的六个小旅人，马卡龙色' : 'six little travellers under a starry sky')
        await o.page.locator('.series-cover-draw').click()
        await o.page.waitForFunction(() => /\/media\/u\/[0-9a-f]{64}\.png\?w=\d+$/.test(document.querySelector('.series-cover img')?.getAttribute('src') ?? ''))
        assert.equal(fakes.images.calls.length, before + 1)
        assert.equal(fakes.images.calls.at(-1).prompt, tag === 'zh' ? '星空下的六个小旅人，马卡龙色' : 'six little travellers under a starry sky')
        assert.ok(await overflow(o.page) <= 0, 'nothing sticks out at 375 px')
        await o.page.locator('.series-cover-draw').scrollIntoViewIfNeeded()
        await o.shot(`vision-cover-${tag}.png`)
        assert.deepEqual(o.errors, [])
      } catch (e) {
        await o.shot(`vision-cover-failure-${tag}.png`).catch(() => undefined)
        throw e
      } finally { await o.close() }
    }

    // ---- the complaint form: a screenshot's text added to the message ----
    for (const tag of ['zh', 'en']) {
      const shot = path.join(dir, `screenshot-${tag}.png`)
      fs.writeFileSync(shot, makePng(90, 160, tag === 'zh' ? [240, 120, 60] : [60, 120, 240]))
      const o = await openPhonePage({ locale: tag === 'zh' ? 'zh-CN' : 'en-US' })
      try {
        // the demo shopper (registrations from one address are limited to 10 an hour, and the other suites register)
        await passwordLogin(o, base, 'shopper', 'shopper123')
        await o.page.goto(`${base}/pagesA/profile/index`, { waitUntil: 'networkidle' })
        await o.page.locator('.menu-contact').click()
        await o.page.locator('.contact-attach').waitFor()
        await o.page.locator('.contact-text textarea').fill(tag === 'zh' ? '快递显示已签收，但我没有收到。' : 'The parcel says delivered but I never got it.')
        const before = fakes.dify.calls.length
        await o.page.locator('.contact-attach input[type=file]').setInputFiles(shot)
        await o.page.waitForFunction(() => (document.querySelector('.contact-text textarea')?.value ?? '').includes('AI answer to:'), undefined, { timeout: 20000 })
        const text = await o.page.locator('.contact-text textarea').inputValue()
        assert.match(text, tag === 'zh' ? /^快递显示已签收，但我没有收到。\n\n截图内容：\nAI answer to: 这是顾客/ : /^The parcel says delivered but I never got it\.\n\nFrom the screenshot:\nAI answer to: This is a screenshot/)
        const call = fakes.dify.calls.at(-1)
        assert.equal(fakes.dify.calls.length, before + 1)
        assert.match(call.files[0].url, /^http:\/\/127\.0\.0\.1:\d+\/media\/u\/[0-9a-f]{64}\.png$/)
        // the screenshot is served where the AI was told to fetch it
        const served = await fetch(call.files[0].url)
        assert.equal(served.status, 200)
        assert.equal(await o.page.locator('.contact-shot__img').count(), 1)
        assert.ok(await overflow(o.page) <= 0, 'nothing sticks out at 375 px')
        await o.page.locator('.contact-attach').scrollIntoViewIfNeeded()
        await o.shot(`vision-complaint-${tag}.png`)
        assert.deepEqual(o.errors, [])
      } catch (e) {
        await o.shot(`vision-complaint-failure-${tag}.png`).catch(() => undefined)
        throw e
      } finally { await o.close() }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

module.exports = { name: 'pictures: OCR of a label photo on the Shipments tab (real engine), a cover from words, a screenshot read into a complaint', run }
