/**
 * Issue 48 in the H5 app, zh and en at 375 px: the web view shows only the shop's pages. An operator
 * lists the business domains in the editor's Settings (a bad entry named by its line before anything
 * is sent); a link to any other page is refused with a warning, and its ?title= is shown nowhere; a
 * listed page is framed with its host in a bar above it and in the title; POST /get_mp_url makes no
 * mini-program link to an unlisted page. The player show is reached from home and from the profile.
 * Screenshots: web-domains-*.png.
 */
const assert = require('node:assert/strict')
const { openPhonePage } = require('./browser')
const { api } = require('./api')

const enc = encodeURIComponent

async function run ({ base }) {
  const operator = (await api(base, '/login/passwd', { user_name: 'operator', password: 'operator123' })).token
  const shopper = (await api(base, '/login/passwd', { user_name: 'shopper', password: 'shopper123' })).token
  const mpUrl = async (query) => (await fetch(`${base}/dev-api/get_mp_url`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'accept-language': 'zh' }, body: JSON.stringify({ path: 'pages/web_view/index', query })
  })).json()

  for (const locale of ['zh', 'en']) {
    const zh = locale === 'zh'
    const p = await openPhonePage({ locale: zh ? 'zh-CN' : 'en-US' })
    const { page, errors, shot } = p
    const as = async (token) => {
      await page.goto(`${base}/`, { waitUntil: 'networkidle' })
      await page.evaluate(([t, l]) => {
        if (t) localStorage.setItem('h5_token', JSON.stringify({ data: t }))
        else localStorage.removeItem('h5_token')
        localStorage.setItem('app_locale', JSON.stringify({ data: l }))
      }, [token, locale])
    }
    const title = () => page.locator('#taro-navigation-bar .taro-navigation-bar-title').innerText()
    try {
      // the operator's list: a path is refused beside the list, nothing sent; then saved
      await as(operator)
      await page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
      await page.locator('.editor-tab-settings').click()
      const box = page.locator('.op-web-domains__input textarea').first()
      await box.waitFor()
      await box.fill('shop.example.com\nevil.example/login')
      const problem = page.locator('.op-web-domains__problem')
      await problem.waitFor()
      assert.match(await problem.innerText(), zh ? /第 2 行“evil\.example\/login”不是域名/ : /Line 2, "evil\.example\/login", is not a domain/)
      await page.locator('.op-web-domains').scrollIntoViewIfNeeded()
      await shot(`web-domains-editor-error-${locale}.png`)
      await box.fill('shop.example.com\nPay.Example.com:8443')
      await page.locator('.op-web-domains__save').click()
      await page.locator('.taro__toast', { hasText: zh ? '业务域名已保存' : 'Business domains saved' }).first().waitFor({ state: 'attached' })
      assert.deepEqual((await api(base, '/api/operator/webDomains', {}, operator)).domains, ['shop.example.com', 'pay.example.com:8443'])
      await page.locator('.op-web-domains').scrollIntoViewIfNeeded()
      await shot(`web-domains-editor-${locale}.png`)

      // a shopper follows a link to a page outside the list: refused, its title nowhere
      await as(shopper)
      await page.goto(`${base}/pages/web_view/index?url=${enc('https://evil-shop.example.com/login')}&title=${enc('Bank sign-in')}`, { waitUntil: 'networkidle' })
      await page.locator('.web-view-refused').waitFor()
      assert.equal(await page.locator('iframe').count(), 0)
      assert.match(await page.locator('.web-view-refused').innerText(), zh ? /这个网页不属于本店/ : /not one of the shop's/)
      assert.doesNotMatch(`${await title()} ${await page.title()} ${await page.locator('body').innerText()}`, /Bank/)
      await shot(`web-domains-refused-${locale}.png`)

      // a listed page: framed, its host above it and in the title beside the link's own
      await page.context().route('https://shop.example.com/**', r => r.fulfill({ contentType: 'text/html', body: '<!doctype html><html><body style="font:16px sans-serif;padding:16px"><h1>Guide</h1><p>Served by shop.example.com</p></body></html>' }))
      await page.goto(`${base}/pages/web_view/index?url=${enc('https://shop.example.com/guide')}&title=${enc('Guide')}`, { waitUntil: 'networkidle' })
      await page.locator('.web-view-host').waitFor()
      assert.equal(await page.locator('iframe').getAttribute('src'), 'https://shop.example.com/guide')
      assert.equal((await page.locator('.web-view-host__name').innerText()).trim(), 'shop.example.com')
      assert.equal(await title(), 'Guide · shop.example.com')
      await page.frameLocator('iframe').locator('h1').waitFor()
      await shot(`web-domains-allowed-${locale}.png`)

      // the player show from home and from the profile
      await page.goto(`${base}/pagesA/home/index`, { waitUntil: 'networkidle' })
      await page.locator('.shortcut-show').waitFor()
      assert.equal((await page.locator('.shortcut-show .home-shortcut__label').innerText()).trim(), zh ? '玩家秀' : 'Player show')
      await shot(`web-domains-home-${locale}.png`)
      await page.locator('.shortcut-show').click()
      await page.waitForURL(/\/pagesA\/show\/index/)
      await page.goto(`${base}/pagesA/profile/index?contact=1`, { waitUntil: 'networkidle' })
      await page.locator('.menu-show').waitFor()
      // H5 keeps the contact form; WeChat's customer service is the mini-program's
      await page.locator('.contact-submit').waitFor()
      assert.equal(await page.locator('.wechat-contact__button').count(), 0)
      await page.locator('.menu-show').scrollIntoViewIfNeeded()
      await shot(`web-domains-profile-${locale}.png`)
      await page.locator('.menu-show').click()
      await page.waitForURL(/\/pagesA\/show\/index/)
      assert.deepEqual(errors, [])
    } finally {
      await p.close()
    }
  }

  // no mini-program link to a page outside the list (and one to a listed page)
  const refused = await mpUrl(`url=${enc('https://evil-shop.example.com/login')}&title=${enc('Bank')}`)
  assert.deepEqual(refused, { code: 422, message: '这个网页不在本店的业务域名里，不能在店内打开', data: { field: 'query', reason: 'web_domain' } })
  assert.equal((await mpUrl(`url=${enc('https://shop.example.com/guide')}`)).code, 200)
  // the list back as it was (other suites' pages frame nothing)
  await api(base, '/api/operator/webDomainsSave', { domains: [] }, operator)
}

module.exports = { name: 'web-domains: the web view shows only the shop\'s pages; the player show from home and profile', run }
