/**
 * Layout at 375 px (issue 21), measured in Chromium: Taro's own dialog and toast styles (inline
 * `word-break: break-all`) no longer split English words, while Chinese still wraps between any two
 * characters; the home shortcuts in English keep clear of each other and never break inside a word.
 */
const assert = require('node:assert/strict')
const { openPhonePage } = require('./browser')

/** Every line box of an element's text: the words on each (a word split over two lines shows as a line ending inside a word). */
const LINES = el => {
  const text = el.firstChild
  const range = document.createRange()
  const lines = []
  let top = null
  for (let i = 0; i < text.length; i++) {
    range.setStart(text, i); range.setEnd(text, i + 1)
    const r = range.getClientRects()[0]
    if (!r) continue
    if (top === null || Math.abs(r.top - top) > 2) { lines.push(''); top = r.top }
    lines[lines.length - 1] += text.data[i]
  }
  return lines
}

async function run ({ base }) {
  const { page, errors, close } = await openPhonePage({ locale: 'en-US' })
  try {
    await page.goto(`${base}/pagesA/home/index`, { waitUntil: 'networkidle' })
    // a dialog built as Taro's H5 showModal builds it (its classes and its inline text style)
    const lines = await page.evaluate(`(() => {
      const el = document.createElement('div'); el.className = 'taro__modal'
      el.innerHTML = '<div class="taro-modal__content" style="position:fixed;top:40%;left:50%;width:80%;max-width:300px"><div class="taro-modal__text" style="padding:0 24px 12px;font-size:15px;word-wrap:break-word;word-break:break-all">Free from 3 items; otherwise the shipping fee of ¥12.00 is paid from your balance, credit first.</div><div class="taro-modal__text zh" style="padding:0 24px 12px;font-size:15px;word-break:break-all">满 3 件包邮，否则运费从余额扣除（先扣赠送金），请确认收货地址与联系电话无误后再提交申请。</div></div>'
      document.body.appendChild(el)
      const LINES = ${LINES.toString()}
      const [en, zh] = el.querySelectorAll('.taro-modal__text')
      const out = { en: LINES(en), zh: LINES(zh) }
      el.remove()
      return out
    })()`)
    assert.ok(lines.en.length > 1, 'the English text wraps')
    for (const line of lines.en.slice(0, -1)) assert.match(line, /\s$/, `an English line ends at a word boundary: ${JSON.stringify(lines.en)}`)
    assert.ok(lines.zh.length > 1 && lines.zh.slice(0, -1).some(l => !/[\s，。）]$/.test(l)), `Chinese still wraps between characters: ${JSON.stringify(lines.zh)}`)

    // the home shortcuts: six in a row (the player show's joined them: issue 48), apart, each label whole words
    // (home renders them once its settings arrive, which may be after the network fell quiet)
    await page.locator('.home-shortcut__label').nth(5).waitFor()
    const boxes = await page.locator('.home-shortcut__label').evaluateAll(els => els.map(e => {
      const r = e.getBoundingClientRect()
      return { left: r.left, right: r.right, text: e.textContent, width: e.scrollWidth, client: e.clientWidth }
    }))
    assert.equal(boxes.length, 6)
    for (let i = 1; i < boxes.length; i++) assert.ok(boxes[i].left - boxes[i - 1].right >= 4, `shortcut labels ${boxes[i - 1].text} and ${boxes[i].text} keep apart`)
    for (const b of boxes) assert.ok(b.width <= b.client + 1, `${b.text} fits its column`)
    // eslint-disable-next-line no-eval
    const split = await page.locator('.home-shortcut__label').evaluateAll((els, src) => els.map(eval(`(${src})`)).filter(ls => ls.slice(0, -1).some(l => !/\s$/.test(l))), LINES.toString())
    assert.deepEqual(split, [], 'no shortcut label breaks inside a word')
    assert.deepEqual(errors, [])
  } finally {
    await close()
  }
}

module.exports = { name: 'layout', run }
