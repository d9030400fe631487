/**
 * The H5 build in Debian's Chromium at 375x812: the entry page at /, a deep link into the
 * subpackage that survives a reload, the title table, the language switch, back from a first page,
 * and nothing wider than the phone. Screenshots go to test-results/screenshots.
 */
const assert = require('node:assert/strict')
const path = require('node:path')
const { openPhonePage, SHOTS } = require('./browser')

async function run ({ base }) {
  const { page, errors, close } = await openPhonePage({ locale: 'zh-CN' })
  // the app asks nothing of other origins (Taro's button spinner came from a JD image host)
  const foreign = []
  const origin = new URL(base).origin
  page.on('request', r => { const u = new URL(r.url()); if (/^https?:$/.test(u.protocol) && u.origin !== origin) foreign.push(r.url()) })
  // MobX comes in a chunk of its own, with the first page that uses it: not with login or home (issue 23)
  const mobx = []
  page.on('request', r => { if (/\/js\/mobx\.\w+\.js$/.test(new URL(r.url()).pathname)) mobx.push(r.url()) })
  try {
    const title = () => page.locator('#taro-navigation-bar .taro-navigation-bar-title').innerText()
    const noOverflow = async (what) => {
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      assert.ok(wide <= 0, `${what} is ${wide}px wider than the 375px screen`)
    }

    // 1. the entry page at /
    await page.goto(`${base}/`, { waitUntil: 'networkidle' })
    await page.locator('.login-submit').waitFor()
    assert.equal(await title(), '登录')
    assert.match(await page.locator('.login-tabs').innerText(), /密码登录/)
    await noOverflow('login (zh)')
    await page.screenshot({ path: path.join(SHOTS, 'h5-login-zh.png') })

    // the icons are served, compressed where it helps
    for (const [file, type] of [['favicon.ico', /image\/(x-icon|vnd\.microsoft\.icon)/], ['favicon.svg', /image\/svg\+xml/]]) {
      const icon = await page.request.get(`${base}/${file}`)
      assert.equal(icon.status(), 200, file)
      assert.match(icon.headers()['content-type'], type)
    }
    // the SVG icon is in the document itself (scripts/prerender.js, paintFirst): no request for it
    const inlined = await page.evaluate(() => document.querySelector('link[rel="icon"][type="image/svg+xml"]')?.getAttribute('href') ?? '')
    assert.match(inlined, /^data:image\/svg\+xml,/, 'the SVG icon is a data URI')
    assert.equal(decodeURIComponent(inlined.slice('data:image/svg+xml,'.length)), (await (await page.request.get(`${base}/favicon.svg`)).text()).trim())
    const script = await page.evaluate(() => [...document.scripts].map(s => s.src).find(src => /\/js\/app\./.test(src)))
    const gz = await page.request.get(script, { headers: { 'accept-encoding': 'gzip' } })
    assert.equal(gz.headers()['content-encoding'], 'gzip')
    assert.match(gz.headers().vary || '', /accept-encoding/i)

    // the form validates before anything is sent
    await page.locator('.login-submit').click()
    await page.getByText('请输入用户名、手机号或邮箱').first().waitFor()

    // 2. a deep link into the subpackage, and a reload of it
    const res = await page.goto(`${base}/pagesA/home/index?x=1`, { waitUntil: 'networkidle' })
    assert.equal(res.status(), 200)
    await page.locator('.home-banner').waitFor()
    assert.equal(await title(), '首页')
    await page.reload({ waitUntil: 'networkidle' })
    await page.locator('.home-banner').waitFor()
    assert.ok(page.url().endsWith('/pagesA/home/index?x=1'), page.url())
    assert.equal(await title(), '首页')
    await noOverflow('home (zh)')
    await page.screenshot({ path: path.join(SHOTS, 'h5-home-zh.png') })

    // 3. switch the language: texts and the title follow, and the choice survives a reload
    await page.locator('.home-page .lang-switch').click()
    await page.getByText('Series on sale').waitFor()
    assert.equal(await title(), 'Home')
    await page.reload({ waitUntil: 'networkidle' })
    await page.getByText('Series on sale').waitFor()
    await noOverflow('home (en)')
    await page.screenshot({ path: path.join(SHOTS, 'h5-home-en.png') })

    assert.deepEqual(mobx, [], 'login and home (two visits, a language switch) loaded no MobX')

    // 4. navigate into another subpackage page (pages -> pagesA rewrite) and back
    await page.locator('.shortcut-profile').click()
    await page.waitForURL(/\/pagesA\/profile\/index/)
    await page.locator('.profile-card').waitFor()
    assert.equal(await title(), 'Me')
    assert.equal(mobx.length, 1, 'the profile page, a MobX observer, brought MobX')
    // a MobX page follows the language store (src/stores/mobx.ts bridges it): its texts switch both ways
    await page.locator('.menu-language').click()
    await page.locator('.menu-language .menu-list__value', { hasText: '中文' }).waitFor()
    assert.equal(await title(), '我的')
    await page.locator('.menu-language').click()
    await page.locator('.menu-language .menu-list__value', { hasText: 'English' }).waitFor()
    assert.equal(await title(), 'Me')
    await page.waitForTimeout(500) // the pushed page slides in
    await page.screenshot({ path: path.join(SHOTS, 'h5-profile-en.png') })
    await page.goBack()
    await page.waitForURL(/\/pagesA\/home\/index/)

    // 5. on a first page (deep link) the bar offers home, which returns to the entry page
    await page.goto(`${base}/pagesA/props/index`, { waitUntil: 'networkidle' })
    await page.locator('.prop-card').first().waitFor()
    const home = page.locator('#taro-navigation-bar .taro-navigation-bar-home')
    assert.ok(await home.isVisible(), 'home button on a first page')
    await home.click()
    await page.locator('.login-submit').waitFor()
    assert.match(page.url(), /\/pages\/login\/index|\/$/)

    // 6. every route renders its title in English at 375 px
    const titles = {
      blind_box_detail: 'Blind box details', combine: 'Combine prizes', combine_result: 'Combined',
      editor: 'Shop management', my_blind_box: 'My blind boxes', open_chest_animation: 'Opening your box',
      prize_detail: 'Prize details', prize_show: 'Your prizes', purchase: 'Confirm purchase',
      recharge: 'Top up and withdraw', security: 'Account security'
    }
    for (const [p, want] of Object.entries(titles)) {
      await page.goto(`${base}/pagesA/${p}/index`, { waitUntil: 'networkidle' })
      await page.waitForFunction(w => document.querySelector('#taro-navigation-bar .taro-navigation-bar-title')?.textContent === w, want, { timeout: 10000 })
        .catch(async e => { throw new Error(`${p}: title ${JSON.stringify(await title())}, want ${want}: ${e.message}`) })
      await noOverflow(p)
    }
    // a page that needs an account says so, and sends a visitor to the login page
    await page.goto(`${base}/pagesA/purchase/index?seriesId=1&caseId=1&slots=1`, { waitUntil: 'networkidle' })
    const why = page.locator('.taro__modal .taro-modal__text')
    await why.waitFor({ state: 'visible' })
    assert.equal(await why.innerText(), 'Boxes picked: 1. Log in to buy; you will come back here with them kept.')
    await page.locator('.taro__modal .taro-model__confirm').click()
    await page.locator('.login-submit').waitFor()

    // 7. a page that fails while rendering (here: a series answered without its designs) says so and
    // offers to load it again or go back; once the answer is whole again, reloading shows the page
    const broken = async route => route.fulfill({ contentType: 'application/json', body: JSON.stringify({ code: 200, message: 'ok', data: { id: 1 } }) })
    await page.route('**/dev-api/api/seriesDetail', broken)
    await page.goto(`${base}/pagesA/blind_box_detail/index?seriesId=1`, { waitUntil: 'networkidle' })
    await page.locator('.page-error').waitFor()
    assert.match(await page.locator('.page-error__text').innerText(), /Something went wrong on this page/)
    await noOverflow('the page error')
    await page.screenshot({ path: path.join(SHOTS, 'h5-page-error-en.png') })
    await page.unroute('**/dev-api/api/seriesDetail', broken)
    await page.locator('.page-error__reload').click()
    await page.locator('.detail-hero__img').waitFor().catch(async e => {
      await page.screenshot({ path: path.join(SHOTS, 'h5-page-error-reloaded-en.png') })
      throw new Error(`after reload: ${page.url()} ${e.message}`)
    })
    assert.equal(await page.locator('.page-error').count(), 0)
    assert.match(page.url(), /\/pagesA\/blind_box_detail\/index\?seriesId=1$/)

    assert.deepEqual(errors, [])
    assert.deepEqual(foreign, [], 'requests to other origins')
    // nor could it: no style the app injected points at another origin (a loading button would fetch it)
    const remote = await page.evaluate(() => [...document.querySelectorAll('style')].map(s => s.textContent).join('\n').match(/url\(\s*['"]?https?:[^)]*\)/g))
    assert.equal(remote, null, `remote images in styles: ${remote}`)
  } finally {
    await close()
  }
}

module.exports = { name: 'H5 shell: routes, deep link, titles, language, back', run }
