/**
 * Accessibility beyond axe's rules (axe itself runs in the routes sweep, routes.e2e.js):
 *  - reduced motion: with the system's "reduce motion" on (Playwright's reducedMotion), the opening
 *    page runs no CSS animation (document.getAnimations() empty or all finished), before and after the
 *    tap, and still reaches the results;
 *  - text at 200 %: every element's font size doubled on home and purchase (what a phone's largest
 *    text setting does), in zh and en: no text box overlaps another and nothing is wider than the
 *    screen. Screenshots: test-results/screenshots/a11y-200-<locale>-<page>.png.
 * A11Y_MOTION=no-preference runs the motion check without reduced motion (it must fail: the check can).
 */
const assert = require('node:assert/strict')
const path = require('node:path')
const { openPhonePage, SHOTS } = require('./browser')
const { api } = require('./api')

async function mailLogin (base, smtp, address) {
  const before = smtp.mails.length
  await api(base, '/login/mail/sendCode', { phone: address })
  const code = await smtp.codeFor(address, { after: before })
  return api(base, '/login/mail', { phone: address, code })
}

/** A shopper with money and a birth date, and the URL of the purchase page of one free box. */
async function shopper (base, smtp, name) {
  const { token } = await mailLogin(base, smtp, `${name}@example.com`)
  const userId = (await api(base, '/getUserInfo', undefined, token)).id
  await api(base, '/api/ageVerify', { birthDate: '1990-05-06' }, token)
  const opId = await api(base, '/generalOrder/getUniqueOrderNo', { productId: 'wallet_topup', userId }, token)
  await api(base, '/generalOrder/create', { productId: 'wallet_topup', userId, opId, amountCents: 400000, channel: 'sandbox' }, token)
  await api(base, '/api/sandboxPay', { opId }, token)
  const series = (await api(base, '/api/seriesList', { page: 1, size: 10 })).list
  const purchaseUrl = async (i = 0) => {
    const s = series[i % series.length]
    const c = await api(base, '/api/caseCurrent', { seriesId: s.id }, token)
    return `/pagesA/purchase/index?seriesId=${s.id}&caseId=${c.caseId}&slots=${c.slots.find(x => !x.sold).slot}`
  }
  return { token, purchaseUrl }
}

const signIn = (page, token, locale) => page.evaluate(([t, l]) => {
  localStorage.setItem('h5_token', JSON.stringify({ data: t }))
  localStorage.setItem('app_locale', JSON.stringify({ data: l }))
}, [token, locale])

/** CSS animations and transitions still running: their names and targets. */
const running = page => page.evaluate(() => document.getAnimations()
  .filter(a => a.playState === 'running' || a.playState === 'pending')
  .map(a => `${a.animationName || a.transitionProperty || 'animation'} on ${a.effect?.target?.className || a.effect?.target?.tagName}`))

async function reducedMotion ({ base, smtp }, s) {
  const motion = process.env.A11Y_MOTION || 'reduce'
  const p = await openPhonePage({ locale: 'en-US', reducedMotion: motion })
  try {
    await p.page.goto(`${base}/`, { waitUntil: 'networkidle' })
    await signIn(p.page, s.token, 'en')
    await p.page.goto(base + await s.purchaseUrl(1), { waitUntil: 'networkidle' })
    await p.page.locator('.disclosure .purchase-ack').click()
    await p.page.locator('.purchase-pay').click()
    await p.page.waitForURL(/open_chest_animation/)
    await p.page.locator('.chest').waitFor({ timeout: 15000 })
    await p.page.waitForTimeout(300)
    assert.deepEqual(await running(p.page), [], 'the closed chest stands still under reduced motion')
    await p.shot('a11y-reduced-motion-closed.png')
    await p.page.locator('.chest').click()
    // no shaking wait: the prize shows on the tap, still
    await p.page.locator('.reveal').waitFor({ timeout: 500 })
    await p.page.waitForTimeout(100)
    assert.deepEqual(await running(p.page), [], 'the reveal stands still under reduced motion')
    await p.shot('a11y-reduced-motion-open.png')
    for (let i = 0; i < 20 && !/prize_show/.test(p.page.url()); i++) {
      const chest = p.page.locator('.chest')
      if (await chest.count()) await chest.click()
      await p.page.locator('.chest-next').click()
      await p.page.waitForTimeout(100)
    }
    await p.page.waitForURL(/prize_show/)
    await p.page.locator('.result').first().waitFor({ timeout: 15000 })
    assert.deepEqual(p.errors, [])
  } finally {
    await p.close()
  }
}

/** Doubles every element's font size (from the sizes as laid out, so nothing doubles twice). */
const doubleText = page => page.evaluate(() => {
  const els = [...document.querySelectorAll('body *')]
  const sizes = els.map(el => parseFloat(getComputedStyle(el).fontSize))
  els.forEach((el, i) => { if (sizes[i]) el.style.setProperty('font-size', `${sizes[i] * 2}px`, 'important') })
})

/** What is wrong at this text size: text boxes that overlap, text past the screen's right edge. */
const textProblems = page => page.evaluate(() => {
  const problems = []
  const wide = document.documentElement.scrollWidth - window.innerWidth
  if (wide > 0) problems.push(`the page is ${wide}px wider than the screen`)
  // text clipped by a box that ends inside the screen (a row of chips that scrolls sideways, a title cut
  // with an ellipsis by its own box) is not past the screen
  const clipped = el => { for (let e = el; e && e !== document.body; e = e.parentElement) { if (getComputedStyle(e).overflowX !== 'visible' && e.getBoundingClientRect().right <= window.innerWidth + 1) return true } return false }
  // every line of every text (a decoration hidden from screen readers still must not cover words)
  const fixed = el => { for (let e = el; e; e = e.parentElement) { const p = getComputedStyle(e).position; if (p === 'fixed' || p === 'sticky') return e } return null }
  // what of a box can be seen: inside every box that clips it (its own too: a text clamped to two lines)
  const visiblePart = (el, r) => {
    let [l, t, rt, b] = [r.left, r.top, r.right, r.bottom]
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      const cs = getComputedStyle(e)
      if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue
      const c = e.getBoundingClientRect()
      l = Math.max(l, c.left); t = Math.max(t, c.top); rt = Math.min(rt, c.right); b = Math.min(b, c.bottom)
    }
    return rt - l >= 1 && b - t >= 1 ? { left: l, top: t, right: rt, bottom: b } : null
  }
  const lines = []
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.data.trim()) continue
    const el = n.parentElement
    const s = getComputedStyle(el)
    if (s.visibility === 'hidden' || s.opacity === '0' || el.closest('#splash, .taro_page:not(.taro_page_show)')) continue
    const range = document.createRange(); range.selectNodeContents(n)
    const text = n.data.trim().slice(0, 30)
    for (const r of range.getClientRects()) {
      if (r.width < 1 || r.height < 1) continue
      if (r.right > window.innerWidth + 1 && !clipped(el)) problems.push(`"${text}" reaches ${Math.round(r.right - window.innerWidth)}px past the screen`)
      // a line clipped out of sight (scrolled sideways, past a clamp) overlaps nothing one can see
      const seen = visiblePart(el, r)
      if (seen && seen.left < window.innerWidth && seen.right > 0) lines.push({ r: seen, node: n, layer: fixed(el), text })
    }
  }
  for (let i = 0; i < lines.length; i++) {
    for (let j = i + 1; j < lines.length; j++) {
      // a bar fixed over the page covers what scrolls under it by design
      if (lines[i].layer !== lines[j].layer) continue
      const a = lines[i].r; const b = lines[j].r
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left)
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top)
      // more than a sliver: neighbouring line boxes may touch. One text's own lines: only lines one above
      // the other (an ellipsis splits one line in two boxes), by more than the font's ascent and descent
      // reach past a line box (a third of the line)
      const same = lines[i].node === lines[j].node
      if (same && (Math.abs(a.top - b.top) < 2 || y < Math.min(a.bottom - a.top, b.bottom - b.top) / 3)) continue
      if (x > 2 && y > 4) problems.push(`"${lines[i].text}" overlaps "${lines[j].text}"${lines[i].node === lines[j].node ? ' (its own next line)' : ''} (${Math.round(x)}x${Math.round(y)}px)`)
    }
  }
  return problems
})

async function largeText ({ base }, s) {
  const failures = []
  for (const locale of ['zh', 'en']) {
    const p = await openPhonePage({ locale: locale === 'zh' ? 'zh-CN' : 'en-US' })
    try {
      await p.page.goto(`${base}/`, { waitUntil: 'networkidle' })
      await signIn(p.page, s.token, locale)
      for (const [key, url, ready] of [['home', '/pagesA/home/index', '.series-card'], ['purchase', await s.purchaseUrl(2), '.purchase-pay']]) {
        await p.page.goto(base + url, { waitUntil: 'networkidle' })
        await p.page.locator(ready).first().waitFor({ timeout: 15000 })
        await p.page.waitForTimeout(500)
        await doubleText(p.page)
        await p.page.waitForTimeout(300)
        const problems = await textProblems(p.page)
        await p.page.screenshot({ path: path.join(SHOTS, `a11y-200-${locale}-${key}.png`), fullPage: true })
        if (problems.length) failures.push(`${locale} ${key} at 200 %:\n    ${[...new Set(problems)].slice(0, 20).join('\n    ')}`)
      }
      assert.deepEqual(p.errors, [])
    } finally {
      await p.close()
    }
  }
  assert.deepEqual(failures, [], `\n${failures.join('\n')}`)
}

async function run (env) {
  const s = await shopper(env.base, env.smtp, `a11y_${Date.now().toString(36)}`)
  await reducedMotion(env, s)
  await largeText(env, s)
}

module.exports = { name: 'a11y: reduced motion on the opening, text at 200 % on home and purchase', run }
