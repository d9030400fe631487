/**
 * The operator's notify tool (issue 24 item 4): from the editor's Settings tab a test alert to each
 * robot (the local Feishu and WeCom fakes receive it), and from the Shipments tab a mail to the shopper
 * about their parcel (the demo shopper has an e-mail address; the local SMTP server receives the mail
 * with the carrier and tracking number the operator entered, as edited).
 */
const assert = require('node:assert/strict')
const { openPhonePage, passwordLogin } = require('./browser')

async function api (base, path, body, token) {
  const res = await fetch(`${base}/dev-api${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'accept-language': 'zh', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) })
  const json = await res.json()
  if (json.code !== 200) throw new Error(`${path}: ${JSON.stringify(json)}`)
  return json.data
}

async function run ({ base, smtp, fakes }) {
  // the demo shopper ships one prize by parcel; the operator enters its number
  const { token, user } = await api(base, '/login/passwd', { user_name: 'shopper', password: 'shopper123' })
  const op = (await api(base, '/login/passwd', { user_name: 'operator', password: 'operator123' })).token
  await api(base, '/api/ageVerify', { birthDate: '1990-01-01' }, token).catch(() => undefined)
  const opId = await api(base, '/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId: user.id }, token)
  await api(base, '/generalOrder/create', { productId: 'wallet_topup', userId: user.id, opId, amountCents: 10000, channel: 'sandbox' }, token)
  await api(base, '/api/sandboxPay', { opId }, token)
  let prize = null
  for (const s of (await api(base, '/api/seriesList', { page: 1, size: 10 })).list) {
    const view = await api(base, '/api/caseCurrent', { seriesId: s.id }, token)
    const free = view.slots.find(x => !x.sold)
    if (!free) continue
    prize = (await api(base, '/api/casePurchase', { caseId: view.caseId, slots: [free.slot], acknowledged: true, idempotencyKey: `notify-${Date.now().toString(36)}` }, token)).prizes[0]
    break
  }
  assert.ok(prize, 'a prize')
  const address = await api(base, '/api/addressSave', { name: '陈七', phone: '13500135000', region: '上海市 徐汇区', detail: '漕溪北路 1 号' }, token)
  const { shipment } = await api(base, '/api/shipmentCreate', { prizeIds: [prize.prizeId], addressId: address.id, idempotencyKey: `notify-ship-${Date.now().toString(36)}` }, token)
  await api(base, '/generalOrder/deliver', { shipmentId: shipment.id, carrier: 'zhongtong', trackingNo: 'ZT7788990011' }, op)

  const { page, errors, close, input, shot } = await openPhonePage({ locale: 'zh-CN' })
  try {
    await passwordLogin({ page, input }, base, 'operator', 'operator123')
    await page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })

    // the robots: a test message each
    await page.locator('.editor-tab-settings').click()
    const feishu = fakes.feishu.messages.length
    const wecom = fakes.wecom.messages.length
    await page.locator('.op-robot-feishu').click()
    for (let i = 0; i < 100 && fakes.feishu.messages.length === feishu; i++) await page.waitForTimeout(50)
    assert.match(fakes.feishu.messages.at(-1), /^拾盒测试消息：机器人工作正常（\d{4}-\d{2}-\d{2} \d{2}:\d{2}）$/)
    await page.locator('.op-robot-wecom').click()
    for (let i = 0; i < 100 && fakes.wecom.messages.length === wecom; i++) await page.waitForTimeout(50)
    assert.match(fakes.wecom.messages.at(-1), /拾盒测试消息/)
    await page.locator('.op-robot-test').first().scrollIntoViewIfNeeded()
    await shot('notify-robots-zh.png')

    // a mail to the shopper about the parcel: the text proposed, edited, sent
    await page.locator('.editor-tab-shipments').click()
    const card = page.locator(`.shipment-${shipment.id}`)
    await card.waitFor()
    await card.locator('.shipment-mail').click()
    assert.equal(await card.locator('.shipment-mail-form .shipment__label').innerText(), '发给 shopper@example.com')
    const title = card.locator('input.shipment-mail-title, .shipment-mail-title input').first()
    assert.equal(await title.inputValue(), `你的包裹 #${shipment.id} 已发出`)
    const body = card.locator('.shipment-mail-content textarea, textarea.shipment-mail-content').first()
    assert.match(await body.inputValue(), /陈七，你好：\n你的 1 件奖品已交给中通快递，运单号 ZT7788990011/)
    await body.fill(`${await body.inputValue()}\n祝开心！`)
    await shot('notify-mail-zh.png')
    const before = smtp.mails.length
    await card.locator('.shipment-mail-send').click()
    for (let i = 0; i < 100 && smtp.mails.length === before; i++) await page.waitForTimeout(50)
    const mail = smtp.mails.at(-1)
    assert.deepEqual(mail.to, ['shopper@example.com'])
    const text = smtp.bodyText(mail.raw)
    assert.match(text, /ZT7788990011/)
    assert.match(text, /祝开心！/)
    await card.locator('.shipment-mail').waitFor()
    assert.deepEqual(errors, [])
  } finally {
    await close()
  }
}

module.exports = { name: 'notify: robot tests and a mail to the shopper about the parcel', run }
