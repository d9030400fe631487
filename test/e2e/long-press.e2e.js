/**
 * Long press with real touches (issue 21): Chromium's own touch input (CDP Input.dispatchTouchEvent,
 * the path a finger takes: hit testing, gesture detection, the click a touch ends with), not events
 * built in the page. A press held on a box opens its props sheet; lifting the finger must neither close
 * the sheet (the release used to count as a tap on the backdrop, which was now under the finger), nor
 * use a prop whose button came to lie under it, nor pick the box. A tap of its own on the backdrop closes it.
 */
const assert = require('node:assert/strict')
const { openPhonePage } = require('./browser')

async function run ({ base }) {
  const { page, errors, close, input, shot } = await openPhonePage({ locale: 'en-US' })
  try {
    await page.goto(`${base}/`, { waitUntil: 'networkidle' })
    await page.locator('.login-switch').click()
    await input('input-account').fill(`presser_${Date.now().toString(36)}`)
    await input('input-password').fill('presser-pass')
    await page.locator('.login-check').click()
    await page.locator('.login-submit').click()
    await page.waitForURL(/\/pagesA\/home\/index/)
    await page.goto(`${base}/pagesA/blind_box_detail/index?seriesId=1`, { waitUntil: 'networkidle' })
    await page.locator('.props-bar').waitFor()
    const cdp = await page.context().newCDPSession(page)
    const touch = (type, x, y) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y, id: 1 }] })
    const sheetOpen = () => page.locator('.prop-sheet').count().then(n => n === 1)
    const centre = async el => {
      const b = await el.boundingBox()
      return { x: Math.round(b.x + b.width / 2), y: Math.round(b.y + b.height / 2) }
    }
    /** A finger held still on (x, y) for `ms`, then lifted; answers once the page has settled. */
    const hold = async ({ x, y }, ms) => {
      await touch('touchStart', x, y)
      await page.waitForTimeout(ms)
      await touch('touchEnd', x, y)
      await page.waitForTimeout(500)
    }
    let dialogs = 0
    page.on('dialog', d => { dialogs += 1; void d.dismiss() })
    const shakesBefore = await page.locator('.props-bar-shake').innerText()

    // 1. a press held a little past the 350 ms, and one held long: the sheet stays open after the lift
    for (const ms of [600, 1600]) {
      const slot = page.locator('.slot:not(.slot--sold)').first()
      await slot.scrollIntoViewIfNeeded()
      const at = await centre(slot)
      await hold(at, ms)
      assert.ok(await sheetOpen(), `the props sheet stays open after a ${ms} ms press is released`)
      assert.equal(await page.locator('.slot--picked').count(), 0, 'the release does not pick the box')
      await shot(`long-press-open-${ms}-en.png`)
      // 2. a tap of its own on the backdrop (above the panel) closes it
      await touch('touchStart', 180, 60)
      await touch('touchEnd', 180, 60)
      await page.waitForTimeout(400)
      assert.ok(!(await sheetOpen()), 'a tap on the backdrop closes the sheet')
    }

    // 3. a box low on the screen: once the sheet is open, its prop buttons lie under the finger.
    // The page scrolls (its scrolling box, whichever it is) to put the box between the panel's top and the bottom bar.
    const low = page.locator('.slot:not(.slot--sold)').last()
    const barTop = (await page.locator('.action-bar').boundingBox()).y
    await low.evaluate((el, y) => {
      let box = el.parentElement
      while (box && !(box.scrollHeight > box.clientHeight + 1 && /auto|scroll/.test(getComputedStyle(box).overflowY))) box = box.parentElement
      const scroller = box || document.scrollingElement
      const r = el.getBoundingClientRect()
      scroller.scrollTop += r.top + r.height / 2 - y
    }, barTop - 45)
    await page.waitForTimeout(300)
    const at = await centre(low)
    await touch('touchStart', at.x, at.y)
    await page.waitForTimeout(700)
    const under = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('.prop-sheet__panel') !== null, at)
    await touch('touchEnd', at.x, at.y)
    await page.waitForTimeout(500)
    assert.ok(under, `the lower box (${at.x}, ${at.y}) is covered by the sheet's panel once it opens`)
    assert.ok(await sheetOpen(), 'the sheet stays open when its panel came to lie under the finger')
    assert.equal(await page.locator('.props-bar-shake').innerText(), shakesBefore, 'no prop was used by the release')
    assert.equal(dialogs + await page.locator('.taro__modal').count(), 0, 'no prop dialog opened')
    // 4. a tap of its own on a prop button is taken
    await page.locator('.prop-sheet-shake').tap()
    await page.waitForTimeout(800)
    assert.ok(!(await sheetOpen()), 'a tap on a prop button uses it and closes the sheet')
    assert.deepEqual(errors, [])
  } finally {
    await close()
  }
}

module.exports = { name: 'long-press', run }
