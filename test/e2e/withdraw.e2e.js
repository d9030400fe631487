/**
 * Withdraw, end to end: the demo shopper (shopper/shopper123) tops up 100 yuan through the sandbox,
 * asks to withdraw 30 and 20 yuan from the form (?withdraw=1 opens it directly); the demo operator
 * (operator/operator123) approves the first and rejects the second with a reason in the editor's
 * Withdrawals tab; the shopper sees "paid" and "rejected" with the reason, the right balance and the
 * ledger lines. A shopper opening the editor sees "no access". Screenshots of the form and the
 * operator's tab in zh and en at 375 px.
 */
const assert = require('node:assert/strict')
const path = require('node:path')
const { openPhonePage, SHOTS, passwordLogin } = require('./browser')

const yuan = text => Math.round(Number(String(text).replace(/[^\d.-]/g, '')) * 100)

async function openWithdrawForm (p, base) {
  await p.page.goto(`${base}/pagesA/recharge/index?withdraw=1`, { waitUntil: 'networkidle' })
  await p.page.locator('.withdraw-figures__cash').filter({ hasText: '¥' }).waitFor()
}

async function run ({ base }) {
  const pages = []
  const open = async (locale) => { const p = await openPhonePage({ locale }); pages.push(p); return p }
  try {
    // the shopper, in Chinese
    const shopper = await open('zh-CN')
    const { page } = shopper
    await passwordLogin(shopper, base, 'shopper', 'shopper123')
    await page.goto(`${base}/pagesA/recharge/index`, { waitUntil: 'networkidle' })
    await page.locator('.pay-sandbox').waitFor()
    // the form is closed until the Withdraw button opens it
    assert.equal(await page.locator('.withdraw-panel').count(), 0)
    const before = yuan(await page.locator('.wallet-cash').innerText())
    await page.locator('.preset-100').click()
    await page.locator('.pay-sandbox').click()
    await page.locator('.recharge-pay').click()
    await page.waitForFunction(b => {
      const el = document.querySelector('.wallet-cash')
      return el && Math.round(Number(el.textContent.replace(/[^\d.-]/g, '')) * 100) === b + 10000
    }, before)
    await page.locator('.recharge-withdraw').click()
    await page.locator('.withdraw-figures__cash').filter({ hasText: '¥' }).waitFor()
    assert.equal(yuan(await page.locator('.withdraw-figures__cash').innerText()), before + 10000)

    // the form checks the amount before asking
    await openWithdrawForm(shopper, base)
    const amount = shopper.input('withdraw-amount')
    await amount.fill('0.5')
    await page.locator('.withdraw-error', { hasText: '单笔最低提现' }).waitFor()
    await amount.fill(String((before + 10000) / 100 + 1))
    await page.locator('.withdraw-error', { hasText: '超过可提现现金' }).waitFor()
    await amount.fill('30')
    assert.equal(await page.locator('.withdraw-error').count(), 0)
    await shopper.shot('withdraw-form-zh.png')
    await page.locator('.withdraw-submit').click()
    await page.locator('.withdraw-row').first().waitFor()
    await page.locator('.withdraw-row--requested').first().waitFor()
    await amount.fill('20')
    await page.locator('.withdraw-submit').click()
    await page.waitForFunction(() => document.querySelectorAll('.withdraw-row--requested').length >= 2)
    await page.waitForFunction(c => {
      const el = document.querySelector('.wallet-cash')
      return el && Math.round(Number(el.textContent.replace(/[^\d.-]/g, '')) * 100) === c
    }, before + 10000 - 5000)
    await shopper.shot('withdraw-requested-zh.png')

    // a shopper opening the editor: no access
    await page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
    await page.locator('.empty-state__text', { hasText: '没有权限' }).waitFor()
    assert.equal(await page.locator('.editor-tab-withdrawals').count(), 0)

    // the operator, in English: the queue, approve the 30, reject the 20 with a reason
    const operator = await open('en-US')
    const op = operator.page
    await passwordLogin(operator, base, 'operator', 'operator123')
    await op.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
    await op.locator('.editor-tab-withdrawals').click()
    const row = cents => op.locator('.wq-row--requested', { hasText: 'shopper' }).filter({ has: op.locator('.wq-row__amount', { hasText: `¥${(cents / 100).toFixed(2)}` }) }).first()
    await row(3000).waitFor()
    await row(2000).waitFor()
    await operator.shot('withdraw-operator-en.png')
    await row(3000).locator('.wq-approve').click()
    await op.locator('.taro-model__confirm').click()
    await row(3000).waitFor({ state: 'detached' })
    await row(2000).locator('.wq-reject').click()
    await operator.input('wq-reason').fill('Please use the account you paid with').catch(async () => {
      await op.locator('.wq-reason textarea, textarea.wq-reason').first().fill('Please use the account you paid with')
    })
    await operator.shot('withdraw-operator-reject-en.png')
    await op.locator('.wq-confirm-reject').click()
    await row(2000).waitFor({ state: 'detached' })
    await op.locator('.wq-filter__item', { hasText: 'All' }).click()
    await op.locator('.wq-row--paid', { hasText: 'shopper' }).first().waitFor()
    await op.locator('.wq-row--rejected', { hasText: 'Please use the account you paid with' }).first().waitFor()

    // the shopper sees paid and rejected (with the reason), the balance and the ledger
    await page.goto(`${base}/pagesA/recharge/index?withdraw=1`, { waitUntil: 'networkidle' })
    await page.locator('.withdraw-row--paid').first().waitFor()
    await page.locator('.withdraw-row--rejected', { hasText: 'Please use the account you paid with' }).first().waitFor()
    assert.equal(await page.locator('.withdraw-row--paid .withdraw-status').first().innerText(), '已到账')
    assert.equal(yuan(await page.locator('.wallet-cash').innerText()), before + 10000 - 3000)
    assert.equal(yuan(await page.locator('.withdraw-figures__cash').innerText()), before + 10000 - 3000)
    await page.locator('.ledger-row').nth(3).waitFor()
    const lines = (await page.locator('.ledger-row').allInnerTexts()).slice(0, 4)
    const kinds = lines.map(l => l.split('\n')[0])
    assert.deepEqual(lines.map(l => yuan(l.split('\n').pop())), [2000, -2000, -3000, 10000])
    assert.match(kinds[0], /提现退回/)
    assert.match(kinds[1], /^提现/)
    assert.match(kinds[3], /充值/)
    await shopper.shot('withdraw-done-zh.png')

    // the same screens in the other language
    const shopperEn = await open('en-US')
    await passwordLogin(shopperEn, base, 'shopper', 'shopper123')
    await openWithdrawForm(shopperEn, base)
    await shopperEn.page.locator('.withdraw-row--rejected').first().waitFor()
    await shopperEn.input('withdraw-amount').fill('12.5')
    await shopperEn.shot('withdraw-form-en.png')
    const operatorZh = await open('zh-CN')
    await passwordLogin(operatorZh, base, 'operator', 'operator123')
    await operatorZh.page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
    await operatorZh.page.locator('.editor-tab-withdrawals').click()
    await operatorZh.page.locator('.wq-filter__item', { hasText: '全部' }).click()
    await operatorZh.page.locator('.wq-row--rejected').first().waitFor()
    await operatorZh.shot('withdraw-operator-zh.png')

    for (const p of pages) assert.deepEqual(p.errors, [])
  } catch (e) {
    for (const [i, p] of pages.entries()) await p.page.screenshot({ path: path.join(SHOTS, `FAILED-withdraw-${i}.png`) }).catch(() => undefined)
    console.error('page errors:', pages.map(p => p.errors))
    throw e
  } finally {
    for (const p of pages) await p.close()
  }
}

module.exports = { name: 'withdraw: the demo shopper tops up and withdraws, the demo operator approves and rejects, statuses, balance and ledger', run }
