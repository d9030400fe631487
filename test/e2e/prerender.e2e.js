/**
 * The prerendered first paint (scripts/prerender.js): index.html itself carries the login page (in the
 * default language, and the other), home's own document (pagesA/home/index.html, sent for its route)
 * home's skeleton, and neither carries the other's; with the app's scripts held back the phone
 * shows them; once the app has rendered, the copy is gone and the screen is the same pixel for pixel
 * (no layout shift either), there is one login form, and what was typed into the copy is in the app's
 * field. No frame is painted before the copy is whole, even when the document arrives slowly.
 * Screenshots: prerender-*.png in test-results/screenshots.
 */
const assert = require('node:assert/strict')
const fs = require('node:fs')
const http = require('node:http')
const path = require('node:path')
const { PNG } = require('pngjs')
const { launchPhone, SHOTS } = require('./browser')

/** Pixels whose colour differs noticeably between two screenshots of the same size. */
function differingPixels (a, b) {
  assert.equal(a.width, b.width)
  assert.equal(a.height, b.height)
  let n = 0
  for (let i = 0; i < a.data.length; i += 4) {
    const d = Math.abs(a.data[i] - b.data[i]) + Math.abs(a.data[i + 1] - b.data[i + 1]) + Math.abs(a.data[i + 2] - b.data[i + 2])
    if (d > 24) n++
  }
  return n
}

/** Opens a route with the API held unanswered (the app stays in its first state); `scripts` decides the app's bundles. */
async function open (base, route, { locale, scripts }) {
  const { ctx, close } = await launchPhone({ locale })
  const page = await ctx.newPage()
  const requests = []
  page.on('request', r => requests.push(new URL(r.url()).pathname))
  await page.addInitScript(() => {
    window.__shifts = 0
    new PerformanceObserver(list => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts += e.value })
      .observe({ type: 'layout-shift', buffered: true })
  })
  await page.route('**/dev-api/**', () => undefined)
  let release = () => undefined
  const gate = new Promise(resolve => { release = resolve })
  await page.route('**/js/*.js', async route => {
    if (scripts === 'blocked') return route.abort()
    if (scripts === 'held') await gate
    return route.continue()
  })
  await page.goto(`${base}${route}`, { waitUntil: 'domcontentloaded' })
  return { page, close, release, requests }
}

/**
 * Serves `doc` from 127.0.0.1 in two parts: up to `at` at once, the rest when `sendRest()` is called
 * (as a slow link delivers a document). Anything else is a 404.
 */
async function slowDocument (doc, at) {
  let sendRest = () => undefined
  let firstPartSent
  const sent = new Promise(resolve => { firstPartSent = resolve })
  const rest = new Promise(resolve => { sendRest = resolve })
  const server = http.createServer((req, res) => {
    if (req.headers.accept && !req.headers.accept.includes('text/html')) { res.writeHead(404).end(); return }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
    res.write(doc.slice(0, at))
    firstPartSent()
    void rest.then(() => res.end(doc.slice(at)))
  })
  await new Promise(resolve => server.listen(0, '127.0.0.1', resolve))
  return { origin: `http://127.0.0.1:${server.address().port}`, firstPartSent: sent, sendRest, close: () => { sendRest(); server.close() } }
}

async function shot (page, name) {
  await page.waitForTimeout(300)
  const file = path.join(SHOTS, name)
  await page.screenshot({ path: file })
  return PNG.sync.read(fs.readFileSync(file))
}

async function run ({ base }) {
  fs.mkdirSync(SHOTS, { recursive: true })

  // 1. the HTML itself: the login form's texts in the default language (en) and in zh at / and at the
  // login route; home's skeleton in its own document; each without the other page's copy
  const html = await (await fetch(`${base}/`)).text()
  for (const text of ['Welcome to Pickbox', 'Password', 'Log in', 'No account yet? Sign up', '欢迎来到拾盒', '密码登录']) {
    assert.ok(html.includes(text), `index.html lacks "${text}"`)
  }
  assert.ok(!html.includes('series-skeleton'), 'the login document carries no copy of home')
  assert.equal(await (await fetch(`${base}/pages/login/index?x=1`, { headers: { accept: 'text/html' } })).text(), html, 'the login route gets the same document')
  assert.match(html, /html:not\(\[data-prerender\]\) \[data-view="login-en"\]/, 'without JavaScript the login page in English shows')
  const homeHtml = await (await fetch(`${base}/pagesA/home/index`, { headers: { accept: 'text/html' } })).text()
  assert.ok(homeHtml.includes('pr-series-skeleton'), 'home\'s document carries its skeleton')
  for (const text of ['Welcome to Pickbox', '欢迎来到拾盒', 'pr-login-submit']) assert.ok(!homeHtml.includes(text), `home's document carries login's "${text}"`)
  assert.match(homeHtml, /html:not\(\[data-prerender\]\) \[data-view="home-en"\]/, 'without JavaScript home in English shows')
  // a route without a document of its own gets index.html (and shows the splash: no view of its page)
  assert.equal(await (await fetch(`${base}/pagesA/profile/index`, { headers: { accept: 'text/html' } })).text(), html)
  // each view's page chunks, fetched by the entry's loader with the entry's scripts
  const loaderPages = doc => JSON.parse(/,pages=(\{.*?\});function go\(/.exec(doc)?.[1] ?? 'null')
  const pageFiles = { ...loaderPages(html), ...loaderPages(homeHtml) }
  assert.deepEqual(Object.keys(loaderPages(html)).sort(), ['login-en', 'login-zh'], 'the login document lists the chunks of its views')
  assert.deepEqual(Object.keys(loaderPages(homeHtml)).sort(), ['home-en', 'home-zh'], 'home\'s document lists the chunks of its views')

  for (const [route, locale, name, ready] of [
    ['/', 'en-US', 'login-en', '.login-page .login-submit'],
    ['/', 'zh-CN', 'login-zh', '.login-page .login-submit'],
    ['/pagesA/home/index', 'zh-CN', 'home-zh', '.home-page .series-skeleton'],
    ['/pagesA/home/index', 'en-US', 'home-en', '.home-page .series-skeleton']
  ]) {
    // 2. before any script of the app: the copy is what shows
    const before = await open(base, route, { locale, scripts: 'blocked' })
    let pre
    try {
      assert.equal(await before.page.evaluate(() => document.documentElement.getAttribute('data-prerender')), name)
      assert.equal(await before.page.locator(ready).count(), 0, 'no app yet')
      assert.ok(await before.page.locator(`[data-view="${name}"]`).isVisible(), `${name} is shown`)
      pre = await shot(before.page, `prerender-${name}-before-js.png`)
    } finally {
      await before.close()
    }
    // 3. the app takes over: the copy goes, the screen stays the same, nothing shifted
    const after = await open(base, route, { locale, scripts: 'normal' })
    try {
      await after.page.locator(ready).first().waitFor()
      await after.page.waitForFunction(() => !document.getElementById('prerender') && !document.getElementById('splash'))
      assert.equal(await after.page.locator(ready.split(' ')[0]).count(), 1, 'one page, no copy left')
      assert.equal(await after.page.locator('[class*="pr-"]').count(), 0, 'nothing of the copy left')
      const app = await shot(after.page, `prerender-${name}-app.png`)
      const diff = differingPixels(pre, app)
      assert.ok(diff <= pre.width * pre.height * 0.001, `${name}: ${diff} pixels differ between the prerendered copy and the app`)
      const shifts = await after.page.evaluate(() => window.__shifts)
      assert.ok(shifts < 0.001, `${name}: layout shift ${shifts}`)
      // the page's chunks came with the entry's scripts, before the app asked the API anything, and
      // webpack did not fetch them a second time when the router wanted them
      const own = pageFiles[name]
      assert.ok(own && own.some(f => f.endsWith('.js')), `${name}: the loader knows the page's scripts`)
      const firstApi = after.requests.findIndex(p => p.startsWith('/dev-api/'))
      assert.ok(firstApi > 0, `${name}: the app called the API`)
      for (const file of own) {
        const at = after.requests.indexOf(file)
        assert.ok(at >= 0 && at < firstApi, `${name}: ${file} fetched before the app ran (${after.requests.join(' ')})`)
      }
      const chunks = after.requests.filter(p => /^\/(js|css)\//.test(p))
      assert.deepEqual(chunks, [...new Set(chunks)], `${name}: a chunk fetched twice`)
    } finally {
      await after.close()
    }
  }

  // 4. the first frame is the whole copy: the document arrives in two parts, cut inside the copy, with
  // a pause between. During the pause nothing has been painted (rendering waits for the copy's last
  // element, <link rel=expect>); without that, Chromium paints the half-parsed page. The root font size
  // is 3.5% of the width from the first frame on (CSS), and the script keeps it once it has run.
  for (const [route, cut] of [['/', '<div class="pr-view" data-view="login-en"'], ['/pagesA/home/index', '<div class="pr-view" data-view="home-en"']]) {
    const doc = await (await fetch(`${base}${route}`, { headers: { accept: 'text/html' } })).text()
    assert.ok(doc.indexOf(cut) > 0, `${route}: the document has the view to cut at`)
    const slow = await slowDocument(doc, doc.indexOf(cut))
    const { ctx, close } = await launchPhone({ locale: 'en-US' })
    try {
      const page = await ctx.newPage()
      await page.route('**/js/*.js', r => r.abort())
      await page.goto(`${slow.origin}${route}`, { waitUntil: 'commit' })
      await slow.firstPartSent
      await page.waitForFunction(() => document.querySelector('[data-view="login-zh"], [data-view="home-zh"]'))
      await page.waitForTimeout(400)
      assert.deepEqual(await page.evaluate(() => performance.getEntriesByType('paint').map(e => e.name)), [], `${route}: a frame was painted before the copy was whole`)
      assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize), '13.125px', 'the root font size before any script: 3.5% of 375 px')
      slow.sendRest()
      await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length === 1)
      assert.ok(await page.locator('[data-view$="-en"]').isVisible(), `${route}: the copy in English shows`)
      await page.waitForFunction(() => document.documentElement.style.fontSize === '13.125px')
      await page.setViewportSize({ width: 600, height: 812 })
      await page.waitForFunction(() => document.documentElement.style.fontSize === '21px')
    } finally {
      await close()
      slow.close()
    }
  }

  // 5. typed into the copy before the app arrived: the app's field has it, and the form works with it
  const typed = await open(base, '/', { locale: 'en-US', scripts: 'held' })
  try {
    const copyInput = typed.page.locator('[data-view="login-en"] .pr-input-account input, [data-view="login-en"] input.pr-input-account').first()
    await copyInput.fill('early-bird')
    typed.release()
    await typed.page.locator('.login-page .login-submit').waitFor()
    await typed.page.waitForFunction(() => !document.getElementById('prerender'))
    const field = typed.page.locator('.login-page input.input-account, .login-page .input-account input').first()
    assert.equal(await field.inputValue(), 'early-bird')
    // the app's state has it too: the next error is about the password, not the account
    await typed.page.locator('.login-page .login-submit').click()
    await typed.page.locator('.login-field--password.login-field--error').waitFor()
    assert.equal(await typed.page.locator('.login-field--account.login-field--error').count(), 0, 'the account typed early counts')
  } finally {
    await typed.close()
  }
}

module.exports = { name: 'prerender', run }
