/**
 * What the walk of issue 48 saw, at 375 px in zh and en:
 *  - the editor in Chinese: every tab, opened one after the other, shows no Latin word (the audit log
 *    showed "Tags", the Data tab price_cents);
 *  - an editor textarea reads as the inputs do (their font, one grey box, no resize grip, a red border on
 *    an error);
 *  - the collection's filter chips all show whole, none under the select button;
 *  - titles in shopper words; a dialog's confirm button in the theme colour, not the platform's green.
 * Screenshots: walk-*.png in test-results/screenshots.
 */
const assert = require('node:assert/strict')
const { openPhonePage, passwordLogin } = require('./browser')
const { api } = require('./api')

/** Words of the Latin alphabet an operator may legitimately see in Chinese: names and formats. */
const ALLOWED = new Set(['Excel', 'PDF', 'SHA', 'ID', 'AI', 'URL', 'HTTPS', 'https', 'SMTP', 'SMS', 'QR', 'WebP', 'PNG', 'JPEG', 'OK', 'MB', 'KB'])

async function editorInChinese (base) {
  const { page, errors, close, input, shot } = await openPhonePage({ locale: 'zh-CN' })
  try {
    await passwordLogin({ page, input }, base, 'operator', 'operator123')
    await page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
    await page.locator('.editor-tab').first().waitFor()
    assert.equal(await page.locator('#taro-navigation-bar .taro-navigation-bar-title').innerText(), '店铺管理')
    // data that people typed (user names, series names, addresses) is theirs: only the app's own words are looked at
    const tabs = await page.locator('.editor-tab').evaluateAll(els => els.map(e => [...e.classList].find(c => /^editor-tab-/.test(c) && c !== 'editor-tab--on')))
    const leaks = {}
    for (const cls of tabs) {
      await page.locator(`.${cls}`).click()
      await page.waitForLoadState('networkidle')
      await page.waitForTimeout(300)
      const words = await page.evaluate(() => {
        const own = []
        const walk = el => {
          if (el.matches?.('input, textarea, .audit-entry__actor, .audit-chip, .audit-diff__values, .audit-entry__context, .data-grid__row:not(.data-grid__row--head), .sales-series__name, .op-service__env, .series-card__title, .op-pickup-point, .shipment, .wq-item, .cq-row__user, .cq-row__text, .cq-detail__user, .cq-detail__text, .cq-reply__text, .moderation-item, .moderation-words, .op-user, .op-recipe__name, .series-list, .op-event, .review-item')) return
          for (const n of el.childNodes) {
            if (n.nodeType === 3) own.push(n.textContent)
            else if (n.nodeType === 1 && getComputedStyle(n).display !== 'none') walk(n)
          }
        }
        walk(document.querySelector('.taro_page_show .page-shell') || document.body)
        // a host name given as an example (shop.example.com) is a format, not a word
        return own.join(' ').replace(/[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+/g, ' ').match(/[A-Za-z][A-Za-z_]+/g) ?? []
      })
      const bad = [...new Set(words)].filter(w => !ALLOWED.has(w))
      if (bad.length) leaks[cls] = bad
      if (cls === 'editor-tab-audit' || cls === 'editor-tab-data') await shot(`walk-${cls}-zh.png`)
    }
    assert.deepEqual(leaks, {}, 'English words in the Chinese editor')

    // a textarea with an error: the series form published empty
    await page.locator('.editor-tab-series').click()
    await page.locator('.series-new').click()
    await page.locator('.series-publish').click()
    await page.locator('.series-description-zh.editor-input--error').waitFor()
    const looks = await page.evaluate(() => {
      const box = document.querySelector('.series-description-zh')
      const inner = box.querySelector('textarea')
      const input = document.querySelector('.editor-input input, input.editor-input')
      const s = getComputedStyle(box)
      const i = getComputedStyle(inner)
      const b = box.getBoundingClientRect()
      const r = inner.getBoundingClientRect()
      return {
        fontSame: i.fontFamily === getComputedStyle(input).fontFamily,
        monospace: /monospace/.test(i.fontFamily),
        innerBackground: i.backgroundColor,
        innerBorder: i.borderTopWidth,
        resize: i.resize,
        inside: r.left >= b.left && r.right <= b.right + 0.5 && r.bottom <= b.bottom + 0.5,
        border: s.borderTopColor
      }
    })
    await page.locator('.series-description-zh').scrollIntoViewIfNeeded()
    await shot('walk-textarea-error-zh.png')
    assert.deepEqual(looks, { fontSame: true, monospace: false, innerBackground: 'rgba(0, 0, 0, 0)', innerBorder: '0px', resize: 'none', inside: true, border: 'rgb(201, 48, 44)' })
    assert.deepEqual(errors, [])
  } finally {
    await close()
  }
}

async function shopperPages (base, locale) {
  const { page, errors, close, input, shot } = await openPhonePage({ locale: locale === 'zh' ? 'zh-CN' : 'en-US' })
  try {
    await passwordLogin({ page, input }, base, 'shopper', 'shopper123')
    const title = () => page.locator('#taro-navigation-bar .taro-navigation-bar-title').innerText()
    // the collection: every chip whole, none under the select button
    await page.goto(`${base}/pagesA/my_blind_box/index`, { waitUntil: 'networkidle' })
    await page.locator('.collection-select').waitFor()
    await page.waitForTimeout(300)
    const overlap = await page.evaluate(() => {
      const select = document.querySelector('.collection-select').getBoundingClientRect()
      return [...document.querySelectorAll('.filter')].map(f => {
        const r = f.getBoundingClientRect()
        const under = r.right > select.left && r.left < select.right && r.bottom > select.top && r.top < select.bottom
        const cut = r.left < 0 || r.right > window.innerWidth
        return under || cut ? f.textContent : null
      }).filter(Boolean)
    })
    assert.deepEqual(overlap, [], `${locale}: chips hidden or cut`)
    await shot(`walk-collection-${locale}.png`)
    assert.equal(await title(), locale === 'zh' ? '我的盲盒' : 'My blind boxes')

    // a dialog's confirm button: the theme colour (recycling asks first)
    await page.locator('.collection-select').click()
    await page.locator('.prize-row').first().click()
    await page.locator('.select-recycle').click()
    const confirm = page.locator('.taro__modal .taro-model__confirm')
    await confirm.waitFor({ state: 'visible' })
    assert.equal(await confirm.evaluate(el => getComputedStyle(el).color), 'rgb(209, 44, 58)')
    await shot(`walk-dialog-${locale}.png`)
    await page.locator('.taro__modal .taro-model__cancel').click()

    for (const [route, zh, en] of [['/pagesA/combine/index', '合成奖品', 'Combine prizes'], ['/pagesA/profile/index', '我的', 'Me'], ['/pagesA/recharge/index', '充值与提现', 'Top up and withdraw']]) {
      await page.goto(`${base}${route}`, { waitUntil: 'networkidle' })
      const want = locale === 'zh' ? zh : en
      await page.waitForFunction(w => document.querySelector('#taro-navigation-bar .taro-navigation-bar-title')?.textContent === w, want, { timeout: 10000 })
      await shot(`walk-title-${route.split('/')[2]}-${locale}.png`)
    }
    assert.deepEqual(errors, [])
  } finally {
    await close()
  }
}

async function run ({ base }) {
  // the demo shopper with a few prizes in the warehouse (so the collection shows its counts and "select")
  const token = (await api(base, '/login/passwd', { user_name: 'shopper', password: 'shopper123' })).token
  const me = await api(base, '/getUserInfo', undefined, token)
  await api(base, '/api/ageVerify', { birthDate: '1994-03-02' }, token).catch(() => undefined)
  const opId = await api(base, '/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId: me.id }, token)
  await api(base, '/generalOrder/create', { productId: 'wallet_topup', userId: me.id, opId, amountCents: 100000, channel: 'sandbox' }, token)
  await api(base, '/api/sandboxPay', { opId }, token)
  const series = (await api(base, '/api/seriesList', { page: 1, size: 10 })).list
  const cheapest = [...series].sort((a, b) => a.priceCents - b.priceCents)[0]
  const view = await api(base, '/api/caseCurrent', { seriesId: cheapest.id }, token)
  await api(base, '/api/casePurchase', { caseId: view.caseId, slots: view.slots.filter(s => !s.sold).slice(0, 3).map(s => s.slot), acknowledged: true, idempotencyKey: `walk-${Date.now()}` }, token)

  await editorInChinese(base)
  await shopperPages(base, 'zh')
  await shopperPages(base, 'en')
}

module.exports = { name: 'walk looks (issue 48): the Chinese editor, textareas, collection chips, titles, dialog colour', run }
