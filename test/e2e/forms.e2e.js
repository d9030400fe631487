/**
 * The forms of issue 21 end to end in Chromium at 375 px, in zh and en: the operator's settings refuse
 * a smallest withdrawal above the daily maximum beside the field (in yuan) and a minus sign; the series
 * editor asks before Back drops an unsaved new series; the address form shows every problem beside its
 * field, refuses a recipient of emoji only (issue 48), takes its region from the 省市区 picker and saves
 * "+86 138 0000 0000" as the number it is (shown masked on its card); the security page refuses a daily limit
 * above the monthly one and the same password beside the fields, asks before a limit of 0 applies,
 * and says a wrong password beside it before any delete confirmation. Screenshots of each.
 */
const assert = require('node:assert/strict')
const { openPhonePage } = require('./browser')
const { api } = require('./api')

const TEXT = {
  zh: {
    withdrawConflict: '不能高于每人每天最多提现（¥5,000.00）',
    range: '范围 ¥0.00 到 ¥1,000.00',
    discardNew: '上传的款式图片都会丢失',
    required: '请填写收货人',
    noLetters: '收件人姓名至少要有一个汉字或字母',
    chooseRegion: '选择省、市、区',
    limitConflict: '每日限额不能高于每月限额（¥1,000.00）',
    samePassword: '新密码不能与当前密码相同',
    zeroConfirm: '24 小时',
    wrongPassword: '当前密码不正确'
  },
  en: {
    withdrawConflict: 'Cannot be above the daily withdrawal maximum (¥5,000.00)',
    range: 'From ¥0.00 to ¥1,000.00',
    discardNew: 'the design images uploaded',
    required: 'Enter the receiver\'s name',
    noLetters: 'The recipient\'s name needs at least one letter or Chinese character',
    chooseRegion: 'Choose province, city, district',
    limitConflict: 'The daily limit cannot be above the monthly one (¥1,000.00)',
    samePassword: 'The new password must differ from the current one',
    zeroConfirm: '24 hours',
    wrongPassword: 'The current password is wrong'
  }
}

async function run ({ base }) {
  const { token: opToken } = await api(base, '/login/passwd', { user_name: 'operator', password: 'operator123' })
  for (const lang of ['zh', 'en']) {
    const T = TEXT[lang]
    const { page, errors, close, input, shot } = await openPhonePage({ locale: lang === 'zh' ? 'zh-CN' : 'en-US' })
    try {
      await page.goto(`${base}/`, { waitUntil: 'networkidle' })
      await page.evaluate(l => localStorage.setItem('app_locale', JSON.stringify({ data: l })), lang)

      // ---- the operator's settings ----
      await page.evaluate(t => localStorage.setItem('h5_token', JSON.stringify({ data: t })), opToken)
      await page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
      await page.locator('.editor-tab-settings').click()
      await input('op-setting-withdrawMinCents').fill('6000')
      await page.locator('.op-setting-withdrawMinCents', { hasText: T.withdrawConflict }).waitFor()
      await input('op-setting-shipFeeCents').fill('-5')
      await page.locator('.op-setting-shipFeeCents', { hasText: T.range }).waitFor()
      assert.equal(await input('op-setting-shipFeeCents').inputValue(), '-5', 'the minus sign stays as typed')
      await page.locator('.op-setting-withdrawMinCents', { hasText: T.withdrawConflict }).waitFor()
      assert.match(await page.locator('.op-settings__save').getAttribute('class'), /btn--disabled/)
      await page.locator('.op-setting-withdrawMinCents').scrollIntoViewIfNeeded()
      await shot(`forms-settings-${lang}.png`)

      // ---- the series editor's Back ----
      await page.locator('.editor-tab-series').click()
      await page.locator('.series-new').click()
      await input('series-title-zh').fill('未保存的系列')
      await page.locator('.series-back').click()
      await page.locator('.taro-modal__content', { hasText: T.discardNew }).waitFor()
      await shot(`forms-series-back-${lang}.png`)
      await page.locator('.taro-model__cancel').click()
      assert.equal(await input('series-title-zh').inputValue(), '未保存的系列', 'kept editing')

      // ---- a shopper: the address form ----
      const user = `forms_${lang}_${Date.now().toString(36)}`
      const { token } = await api(base, '/login/register?table=user', { user_name: user, password: 'forms-pass' })
      const userId = (await api(base, '/getUserInfo', undefined, token)).id
      await api(base, '/api/ageVerify', { birthDate: '1990-07-01' }, token)
      const opId = await api(base, '/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId }, token)
      await api(base, '/generalOrder/create', { productId: 'wallet_topup', userId, opId, amountCents: 50000, channel: 'sandbox' }, token)
      await api(base, '/api/sandboxPay', { opId }, token)
      const seriesId = (await api(base, '/api/seriesList', { page: 1, size: 10 })).list[0].id
      const view = await api(base, '/api/caseCurrent', { seriesId }, token)
      const slot = view.slots.find(s => !s.sold).slot
      const bought = await api(base, '/api/casePurchase', { caseId: view.caseId, slots: [slot], acknowledged: true, idempotencyKey: `forms-${lang}-${Date.now().toString(36)}` }, token)
      await page.evaluate(t => localStorage.setItem('h5_token', JSON.stringify({ data: t })), token)
      await page.goto(`${base}/pagesA/prize_detail/index?prizeId=${bought.prizes[0].prizeId}`, { waitUntil: 'networkidle' })
      await page.locator('.prize-ship').click()
      await page.locator('.ship-form').waitFor()
      await input('ship-phone').fill('12345')
      await page.locator('.ship-form__save').click()
      await page.locator('.ship-row-name .ship-form__problem', { hasText: T.required }).waitFor()
      for (const f of ['phone', 'region', 'detail']) assert.equal(await page.locator(`.ship-row-${f} .ship-form__problem`).count(), 1, `a problem beside ${f}`)
      await page.locator('.ship-row-name').scrollIntoViewIfNeeded()
      await shot(`forms-address-${lang}.png`)
      // a recipient of emoji only names nobody (issue 48): said beside the field, nothing sent
      await input('ship-name').fill('😀😀')
      await page.locator('.ship-form__save').click()
      await page.locator('.ship-row-name .ship-form__problem', { hasText: T.noLetters }).waitFor()
      await input('ship-name').fill('张三')
      await input('ship-phone').fill('+86 138 0000 0000')
      // the region from the picker: a province, its city, its district, each list asked of the server
      assert.equal(await page.locator('.ship-row-region .region-picker__placeholder').innerText(), T.chooseRegion)
      await page.locator('.ship-row-region .region-picker__field').click()
      await page.locator('.region-sheet .region-440000').click()
      await page.locator('.region-sheet .region-440300').click()
      await page.locator('.region-sheet .region-440304').waitFor()
      await shot(`forms-region-picker-${lang}.png`)
      await page.locator('.region-sheet .region-440304').click()
      await page.locator('.ship-row-region .region-picker__value', { hasText: '广东省 深圳市 福田区' }).waitFor()
      await input('ship-detail').fill('深南大道 1 号')
      await page.locator('.ship-row-region').scrollIntoViewIfNeeded()
      await shot(`forms-address-region-${lang}.png`)
      await page.locator('.ship-form__save').click()
      await page.locator('.address-card--on').waitFor()
      const [saved] = await api(base, '/api/addressList', {}, token)
      assert.equal(saved.phone, '13800000000')
      assert.deepEqual(saved.area, { province: '广东省', city: '深圳市', district: '福田区' })
      // its card shows the phone masked
      assert.match(await page.locator('.address-card--on .address-card__who').innerText(), /138\*\*\*\*0000/)

      // ---- the security page ----
      await page.goto(`${base}/pagesA/security/index`, { waitUntil: 'networkidle' })
      await page.locator('.security-password-open').click()
      await input('pw-current').fill('forms-pass')
      await input('pw-next').fill('forms-pass')
      await input('pw-again').fill('forms-pass')
      await page.locator('.password-save').click()
      await page.locator('.security-error-pw-next', { hasText: T.samePassword }).waitFor()
      await input('limit-input-daily').fill('2000')
      await input('limit-input-monthly').fill('1000')
      await page.locator('.limit-daily', { hasText: T.limitConflict }).waitFor()
      await input('delete-password').fill('not-it')
      await page.locator('.delete-account').click()
      await page.locator('.security-error-delete-proof', { hasText: T.wrongPassword }).waitFor()
      assert.equal(await page.locator('.taro-modal__content:visible').count(), 0, 'no confirmation for a wrong password')
      await page.locator('.security-password-open, .password-form').first().scrollIntoViewIfNeeded()
      await shot(`forms-security-password-${lang}.png`)
      await page.locator('.security-limits').scrollIntoViewIfNeeded()
      await shot(`forms-security-limits-${lang}.png`)
      await page.locator('.security-delete').scrollIntoViewIfNeeded()
      await shot(`forms-security-delete-${lang}.png`)
      // a limit of 0 is asked first; cancelled, nothing applies
      await input('limit-input-daily').fill('0')
      await input('limit-input-monthly').fill('')
      await page.locator('.limits-save').click()
      await page.locator('.taro-modal__content', { hasText: T.zeroConfirm }).waitFor()
      await shot(`forms-security-zero-${lang}.png`)
      await page.locator('.taro-model__cancel').click()
      assert.equal((await api(base, '/api/security/overview', {}, token)).limits.daily.cents, null, 'nothing applied')
      assert.deepEqual(errors, [])
    } finally {
      await close()
    }
  }
}

module.exports = { name: 'forms', run }
