/**
 * What a new visitor and a shopper meet (issue 21), in Chromium at 375 px, zh and en: the entry page at
 * "/" is the login page with a way to look around first (browse, the series and their odds opened on
 * demand, how a draw is checked), and leads to home without an account; the prize page and the address
 * form of the demo shopper; and, for a shop without maps (its public capabilities), an address form with
 * no locate button and no search, only fields to type. No page shows configuration words, none scrolls
 * sideways. Screenshots: test-results/screenshots/first-visit-*.png.
 */
const assert = require('node:assert/strict')
const { openPhonePage, passwordLogin } = require('./browser')
const { api } = require('./api')

const CONFIG_WORDS = /未配置|没有配置|未开通|not configured|not set up|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/
const bodyText = page => page.locator('body').innerText()
/**
 * No sideways scrolling once the page has settled (Taro's H5 slides a new page in from the side): the
 * window cannot be scrolled sideways, and no element of the page shown reaches past the screen's edges
 * (unless a box of its own scrolls or clips it, like a row of chips; a FIRST_VISIT_WIDE=1 run puts a
 * 600 px box on each page and must fail). The root's scrollWidth is not the
 * measure: after the slide-in, Chromium keeps the overflow of the page's last laid-out position (the
 * transform runs on the compositor) until something else is laid out, 667-750 px here on home with
 * nothing past the edge and no way to scroll to it.
 */
async function noSideways (page, what) {
  await page.waitForTimeout(400)
  const found = await page.evaluate((wide) => {
    const y = window.scrollY
    window.scrollTo(10000, y)
    const scrolled = window.scrollX
    window.scrollTo(0, y)
    // a box of the page's own that scrolls or clips (the page shell and Taro's page clip at the screen's
    // edge, and are the edge here)
    const clipped = e => {
      for (let p = e.parentElement; p && !p.classList.contains('page-shell') && !p.classList.contains('taro_page') && p !== document.body; p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== 'visible') return true
      }
      return false
    }
    const shown = [...document.querySelectorAll('.taro_page.taro_page_show')].find(p => getComputedStyle(p).display !== 'none') ?? document.body
    if (wide) { const box = document.createElement('div'); box.style.cssText = 'width:600px;height:4px'; (shown.querySelector('.page-shell') ?? shown).appendChild(box) }
    const past = [...shown.querySelectorAll('*')].filter(e => {
      const r = e.getBoundingClientRect()
      return r.width > 0 && (r.right > window.innerWidth + 1 || r.left < -1) && !clipped(e)
    }).slice(0, 3).map(e => `${e.tagName.toLowerCase()}.${String(e.className).split(' ')[0]} (${Math.round(e.getBoundingClientRect().left)}-${Math.round(e.getBoundingClientRect().right)} px)`)
    return { scrolled, past }
  }, process.env.FIRST_VISIT_WIDE === '1')
  assert.ok(found.scrolled === 0 && found.past.length === 0, `${what}: no sideways scrolling (scrolled ${found.scrolled} px; past the edge: ${found.past.join(', ') || 'nothing'})`)
}
const setLocale = (page, lang) => page.evaluate(l => localStorage.setItem('app_locale', JSON.stringify({ data: l })), lang)

async function run ({ base }) {
  // a visitor: no session
  for (const [lang, locale] of [['zh', 'zh-CN'], ['en', 'en-US']]) {
    const { page, errors, close, shot } = await openPhonePage({ locale })
    try {
      await page.goto(`${base}/`, { waitUntil: 'networkidle' })
      await page.locator('.login-page .login-guest').waitFor()
      assert.ok(await page.locator('.login-submit').isVisible(), 'still the login page')
      // the guest's way in is on the first screen
      const box = await page.locator('.login-guest__browse').boundingBox()
      assert.ok(box && box.y + box.height <= 812, 'the way in for guests is above the fold')
      assert.doesNotMatch(await bodyText(page), CONFIG_WORDS)
      await noSideways(page, 'entry')
      await shot(`first-visit-entry-${lang}.png`)

      await page.locator('.guest-odds').click()
      await page.locator('.guest-series').first().waitFor()
      assert.match(await page.locator('.guest-series').first().innerText(), lang === 'zh' ? /隐藏款 \d/ : /Hidden \d/)
      await noSideways(page, 'entry, series open')
      await page.locator('.guest-preview').scrollIntoViewIfNeeded()
      await shot(`first-visit-entry-odds-${lang}.png`)

      await page.locator('.login-guest__browse').click()
      await page.waitForURL(/\/pagesA\/home\/index/)
      await page.locator('.series-card').first().waitFor()
      assert.doesNotMatch(await bodyText(page), CONFIG_WORDS)
      await noSideways(page, 'home')
      await shot(`first-visit-home-${lang}.png`)
      assert.deepEqual(errors, [])
    } catch (e) {
      await shot(`first-visit-failure-${lang}.png`).catch(() => undefined)
      throw e
    } finally {
      await close()
    }
  }

  // the demo shopper with a prize: its page and the address form
  const { page, errors, close, shot, input } = await openPhonePage({ locale: 'zh-CN' })
  try {
    await passwordLogin({ page, input }, base, 'shopper', 'shopper123')
    const token = await page.evaluate(() => {
      const raw = localStorage.getItem('h5_token')
      try { return JSON.parse(raw).data ?? raw } catch { return raw }
    })
    const userId = (await api(base, '/getUserInfo', undefined, token)).id
    if (!(await api(base, '/api/ageStatus', {}, token)).verified) await api(base, '/api/ageVerify', { birthDate: '1995-06-01' }, token)
    const opId = await api(base, '/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId }, token)
    await api(base, '/generalOrder/create', { productId: 'wallet_topup', userId, opId, amountCents: 10000, channel: 'sandbox' }, token)
    await api(base, '/api/sandboxPay', { opId }, token)
    const seriesId = (await api(base, '/api/seriesList', { page: 1, size: 10 })).list[0].id
    const view = await api(base, '/api/caseCurrent', { seriesId }, token)
    const slot = view.slots.find(s => !s.sold).slot
    const prize = (await api(base, '/api/casePurchase', { caseId: view.caseId, slots: [slot], acknowledged: true, idempotencyKey: `first-visit-${Date.now().toString(36)}` }, token)).prizes[0]

    for (const lang of ['zh', 'en']) {
      await setLocale(page, lang)
      await page.goto(`${base}/pagesA/prize_detail/index?prizeId=${prize.prizeId}`, { waitUntil: 'networkidle' })
      await page.locator('.prize-card__name').waitFor()
      await page.locator('.market-lowest, .market-none, .market-failed').first().waitFor()
      assert.doesNotMatch(await bodyText(page), CONFIG_WORDS)
      await noSideways(page, 'prize page')
      await shot(`first-visit-prize-${lang}.png`)

      // the address form: the collection, select the prize, ship
      await page.goto(`${base}/pagesA/my_blind_box/index`, { waitUntil: 'networkidle' })
      await page.locator(`.prize-${prize.prizeId}`).waitFor()
      await page.locator('.collection-select').click()
      await page.locator(`.prize-${prize.prizeId}`).click()
      await page.locator('.select-ship').click()
      await page.locator('.ship-sheet__panel').waitFor()
      if (await page.locator('.ship-form').count() === 0) await page.locator('.ship-add, .address-add').first().click().catch(() => undefined)
      await page.locator('.ship-form').waitFor()
      await page.locator('.address-locator__locate').waitFor()
      assert.doesNotMatch(await bodyText(page), CONFIG_WORDS)
      await noSideways(page, 'address form')
      await shot(`first-visit-address-${lang}.png`)
    }

    // a shop without maps: the form has only its fields, and says nothing about configuration
    let answered = () => {}
    await page.route('**/dev-api/system/setting/login', async route => {
      const res = await route.fetch()
      const body = await res.json()
      body.data.capabilities.maps = false
      await route.fulfill({ response: res, body: JSON.stringify(body) })
      answered()
    })
    for (const lang of ['zh', 'en']) {
      // each page load asks for the shop's capabilities: told when this one's answer has gone to the page
      const told = new Promise(resolve => { answered = () => resolve(true) })
      await setLocale(page, lang)
      await page.goto(`${base}/pagesA/my_blind_box/index`, { waitUntil: 'networkidle' })
      await page.locator(`.prize-${prize.prizeId}`).waitFor()
      await page.locator('.collection-select').click()
      await page.locator(`.prize-${prize.prizeId}`).click()
      await page.locator('.select-ship').click()
      await page.locator('.ship-sheet__panel').waitFor()
      if (await page.locator('.ship-form').count() === 0) await page.locator('.ship-add, .address-add').first().click().catch(() => undefined)
      await page.locator('.ship-form').waitFor()
      // the page has been told the shop has no maps (the map's buttons wait for the shop's capabilities)
      assert.ok(await Promise.race([told, new Promise(resolve => setTimeout(() => resolve(false), 10_000))]), 'the shop\'s capabilities were asked for')
      await page.waitForTimeout(300)
      assert.equal(await page.locator('.address-locator__locate').count(), 0, 'no locate button without maps')
      assert.equal(await page.locator('.address-locator__search-input').count(), 0, 'no search without maps')
      assert.doesNotMatch(await bodyText(page), CONFIG_WORDS)
      await noSideways(page, 'address form without maps')
      await shot(`first-visit-address-nomaps-${lang}.png`)
    }
    assert.deepEqual(errors, [])
  } catch (e) {
    await shot('first-visit-failure.png').catch(() => undefined)
    throw e
  } finally {
    await close()
  }
}

module.exports = { name: 'First visit: entry page, guest browsing, prize page, address form', run }
