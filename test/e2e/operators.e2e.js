/**
 * Roles, the audit log, recipes and WeChat web login, end to end in Chromium (issue 10):
 *  - the demo shopper has no editor entry on the profile page, and the editor opened by its URL shows
 *    "no access" with no operator call made;
 *  - the demo operator logs in, finds the shopper in the Operators tab and grants the role; the Audit
 *    log tab shows the entry (who, role before and after); the shopper, reloading, now has the editor;
 *  - the operator creates a recipe in the Recipes tab's form (odds previewed as the weights are typed);
 *  - H5 WeChat OAuth against the local fake of WeChat (test/support/providers/wechat.js): the WeChat
 *    button, WeChat's consent page, back with code and state, logged in as the WeChat user; a code with
 *    a state the page did not keep is refused without a call to the server;
 *  - that new WeChat user, a shopper, sees the new recipe on the combine page with its odds (no sign-up
 *    through the form here: sign-ups per address are limited and the suites before used them).
 * The shopper is a shopper again at the end (the suites after this one expect it).
 */
const assert = require('node:assert/strict')
const { openPhonePage } = require('./browser')
const { api } = require('./api')

/** Logs in through the login page by password (the agreement ticked), lands on home. */
async function logIn (phone, base, userName, password) {
  await phone.page.goto(`${base}/pages/login/index`, { waitUntil: 'networkidle' })
  await phone.input('input-account').fill(userName)
  await phone.input('input-password').fill(password)
  await phone.page.locator('.login-check').click()
  await phone.page.locator('.login-submit').click()
  await phone.page.waitForURL(/\/pagesA\/home\/index/)
}

/** The operator calls a page makes (collected as they happen). */
function operatorCalls (page) {
  const urls = []
  page.on('request', r => { if (/\/dev-api\/(api\/operator\/|generalOrder\/deliver)/.test(r.url())) urls.push(r.url()) })
  return urls
}

async function run ({ base, fakes }) {
  const opToken = (await api(base, '/login/passwd', { user_name: 'operator', password: 'operator123' })).token
  const shopperId = (await api(base, '/api/operator/users', { page: 1, size: 5, query: 'shopper' }, opToken)).list.find(u => u.userName === 'shopper').id
  const shopperPhone = await openPhonePage({ locale: 'en-US' })
  const operatorPhone = await openPhonePage({ locale: 'zh-CN' })
  try {
    // ---- the shopper before: no editor entry, and the editor by URL shows no access and calls nothing
    const s = shopperPhone
    const shopperOperatorCalls = operatorCalls(s.page)
    await logIn(s, base, 'shopper', 'shopper123')
    await s.page.goto(`${base}/pagesA/profile/index`, { waitUntil: 'networkidle' })
    await s.page.locator('.profile-name').waitFor()
    assert.equal(await s.page.locator('.menu-editor').count(), 0, 'no editor entry for a shopper')
    await s.page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
    await s.page.getByText('No access: the editor is for the shop\'s operators').waitFor()
    assert.equal(await s.page.locator('.editor-tab').count(), 0)
    await s.shot('operators-shopper-no-access-en.png')
    assert.deepEqual(shopperOperatorCalls, [], 'a shopper\'s editor makes no operator call')

    // ---- the operator grants the shopper the role
    const o = operatorPhone
    await logIn(o, base, 'operator', 'operator123')
    await o.page.goto(`${base}/pagesA/profile/index`, { waitUntil: 'networkidle' })
    await o.page.locator('.menu-editor').click()
    await o.page.waitForURL(/\/pagesA\/editor\/index/)
    await o.page.locator('.editor-tab-operators').click()
    await o.page.locator('.op-roles .op-user--operator').first().waitFor()
    await o.input('op-find__input').fill('shopper')
    await o.page.locator('.op-find__go').click()
    const row = o.page.locator(`.op-find .op-user-${shopperId}`)
    await row.waitFor()
    assert.match(await row.innerText(), /138\*\*\*\*0001/)
    await o.shot('operators-tab-zh.png')
    await row.locator('.op-user__grant').click()
    assert.match(await o.page.locator('.taro-modal__content').innerText(), /成为运营人员/)
    await o.page.locator('.taro-model__confirm').click()
    await o.page.locator(`.op-roles .op-user-${shopperId}`).waitFor()
    assert.equal((await api(base, '/getUserInfo', undefined, (await api(base, '/login/passwd', { user_name: 'shopper', password: 'shopper123' })).token)).role, 'operator')

    // ---- the audit log shows it: who, what, role before and after
    await o.page.locator('.editor-tab-audit').click()
    const entry = o.page.locator('.audit-entry').first()
    await entry.waitFor()
    const entryText = await entry.innerText()
    assert.match(entryText, /授予运营权限/)
    assert.match(entryText, /Demo operator \(operator\)/)
    assert.match(entryText, /账号 #\d+/)
    assert.match(await entry.locator('.audit-diff__row').first().innerText(), /角色\s*顾客\s*→\s*运营/)
    await o.shot('operators-audit-zh.png')

    // ---- the shopper, reloading, now has the editor
    await s.page.goto(`${base}/pagesA/profile/index`, { waitUntil: 'networkidle' })
    await s.page.locator('.menu-editor').waitFor()
    await s.page.locator('.menu-editor').click()
    await s.page.locator('.editor-tab-operators').waitFor()
    await s.page.locator('.editor-tab-audit').click()
    await s.page.locator('.audit-entry').first().waitFor()
    assert.match(await s.page.locator('.audit-entry').first().innerText(), /Operator role granted/)
    await s.shot('operators-audit-en.png')

    // ---- a recipe made in the form, seen by shoppers on the combine page
    await o.page.locator('.editor-tab-recipes').click()
    await o.page.locator('.recipe-new').click()
    await o.page.locator('.recipe-chips .recipe-chip').first().waitFor()
    const seriesChip = o.page.locator('.recipe-form .recipe-chips .recipe-chip').first()
    await seriesChip.click()
    const seriesId = Number((await seriesChip.getAttribute('class')).match(/recipe-chip-series-(\d+)/)[1])
    const name = `双色合成 ${Date.now().toString(36)}`
    await o.input('recipe-name-zh').fill(name)
    await o.input('recipe-name-en').fill('Two-tone combine')
    await o.page.locator('.recipe-chip-rarity-rare').click()
    await o.input('recipe-count').fill('2')
    const designChips = o.page.locator('.recipe-designs .recipe-chip')
    await designChips.first().waitFor()
    await designChips.last().click()
    await designChips.last().click()
    const weights = o.page.locator('input.recipe-weight, .recipe-weight input')
    await weights.nth(0).fill('3')
    await weights.nth(1).fill('1')
    const odds = o.page.locator('.recipe-pool__odds')
    assert.deepEqual([await odds.nth(0).innerText(), await odds.nth(1).innerText()], ['75%', '25%'])
    assert.match(await o.page.locator('.recipe-preview').innerText(), /权重合计 4/)
    await o.shot('operators-recipe-form-zh.png')
    await o.page.locator('.recipe-save').click()
    await o.page.locator('.op-recipes').waitFor()
    const made = (await api(base, '/api/operator/recipes', { seriesId }, opToken)).find(r => r.name.zh === name)
    assert.ok(made, 'the recipe was saved')
    assert.deepEqual([made.input, made.pool.map(p => p.oddsPpm), made.status], [{ kind: 'rarity', rarity: 'rare', count: 2 }, [750000, 250000], 'on'])
    await o.page.locator(`.op-recipe-${made.id}`).waitFor()

    // ---- WeChat web OAuth: the button, WeChat's consent page, back with code and state, logged in
    const wx = fakes.wechat
    const w = await openPhonePage({ locale: 'zh-CN' })
    try {
      const logins = []
      w.page.on('request', r => { if (/\/dev-api\/login\/(wechat|openid)/.test(r.url())) logins.push(`${r.method()} ${new URL(r.url()).pathname}`) })
      // a code with a state this page never kept: refused, and the server is not asked
      await w.page.goto(`${base}/pages/login/index?code=stolen_code&state=forged`, { waitUntil: 'networkidle' })
      await w.page.getByText(/微信授权已过期，或不是从这个页面发起的/).waitFor()
      assert.deepEqual(logins, [])
      assert.equal(new URL(w.page.url()).searchParams.get('code'), null, 'the code left the address bar')

      // the flow's code (src/pages/login/wechatOAuth.ts) is a chunk of its own: not fetched until it runs
      const flowChunks = []
      w.page.on('request', r => { if (/\/js\/wechat-oauth\.\w+\.js$/.test(new URL(r.url()).pathname)) flowChunks.push(r.url()) })
      await w.page.goto(`${base}/pages/login/index`, { waitUntil: 'networkidle' })
      await w.page.locator('.login-wechat--web').waitFor()
      await w.shot('login-wechat-zh.png')
      assert.deepEqual(flowChunks, [], 'the login page fetched the WeChat flow before it was needed')
      await w.page.locator('.login-check').click()
      await w.page.locator('.login-wechat--web').click()
      // WeChat's page (the fake's, on 127.0.0.1): allow
      await w.page.waitForURL(u => u.origin === wx.url && u.pathname === '/connect/oauth2/authorize')
      const authorize = new URL(w.page.url())
      assert.equal(authorize.searchParams.get('appid'), wx.appid)
      assert.equal(authorize.searchParams.get('scope'), 'snsapi_userinfo')
      assert.equal(authorize.searchParams.get('redirect_uri'), `${base}/pages/login/index`)
      await w.page.locator('.wx-allow').click()
      await w.page.waitForURL(/\/pagesA\/home\/index/)
      await w.page.locator('.home-hello', { hasText: wx.user.nickname }).waitFor()
      assert.deepEqual(logins, ['GET /dev-api/login/wechat', 'POST /dev-api/login/wechat'])
      assert.ok(flowChunks.length >= 1, 'the WeChat flow came as its own chunk')
      assert.deepEqual(wx.calls.filter(c => c.path.startsWith('/sns/')).map(c => c.path).slice(-2), ['/sns/oauth2/access_token', '/sns/userinfo'])
      const token = await w.page.evaluate(() => { const raw = localStorage.getItem('h5_token'); try { return JSON.parse(raw).data ?? raw } catch { return raw } })
      assert.equal((await api(base, '/getUserInfo', undefined, token)).nickname, wx.user.nickname)
      await w.shot('login-wechat-home-zh.png')

      // the new WeChat user is a shopper: the recipe made in the form is on the combine page, with its odds
      await w.page.goto(`${base}/pagesA/combine/index?recipeId=${made.id}`, { waitUntil: 'networkidle' })
      await w.page.locator(`.recipe-${made.id}`).waitFor()
      assert.match(await w.page.locator(`.recipe-${made.id}`).innerText(), new RegExp(name))
      const pool = await w.page.locator('.pool-row').allInnerTexts()
      assert.equal(pool.length, 2)
      assert.match(pool[0], /75%/)
      assert.match(pool[1], /25%/)
      await w.shot('operators-recipe-on-combine-zh.png')
      assert.deepEqual(w.errors, [])
    } finally {
      await w.close()
    }

    assert.deepEqual(s.errors, [])
    assert.deepEqual(o.errors, [])
  } finally {
    // the shopper is a shopper again for the suites that follow
    await api(base, '/api/operator/roleSave', { userId: shopperId, role: 'shopper' }, opToken).catch(() => undefined)
    await shopperPhone.close()
    await operatorPhone.close()
  }
}

module.exports = { name: 'operators: a shopper has no editor; the operator grants the role (audit log), creates a recipe shoppers see; WeChat web OAuth login against a local WeChat', run }
