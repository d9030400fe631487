/**
 * A design worth less than one box (issue 51, item 5) in Chromium, zh and en: the operator opens a draft
 * whose two designs are worth less than its price; each is marked under its value, and the others are
 * not. Publishing asks first (the usual confirmation), then names those designs with their values; the
 * operator confirms and the series is on sale, with the acknowledgement in the audit log.
 */
const assert = require('node:assert/strict')
const { openPhonePage, passwordLogin } = require('./browser')
const { api } = require('./api')

const STAMP = Date.now().toString(36)

/** A counted draft of 49 yuan whose second and third designs are worth 15 and 30 yuan. */
async function cheapDraft (base, op, title) {
  const draft = await api(base, '/api/operator/seriesSave', {
    title,
    description: { zh: '两位伙伴的参考价值低于单盒价格。', en: 'Two of the friends are worth less than a box.' },
    rules: { zh: '', en: '' },
    cover: '/media/art/1f98a.webp',
    priceCents: 4900,
    hiddenCasePpm: 100000,
    designs: ['1f431', '1f436', '1f430', '1f98a', '1f984'].map((art, i) => ({
      name: { zh: `低价伙伴${i + 1}`, en: `Cheap buddy ${i + 1}` },
      rarity: i === 4 ? 'hidden' : i === 3 ? 'rare' : 'regular',
      image: `/media/art/${art}.webp`,
      referenceValueCents: [5900, 1500, 3000, 8000, 12000][i],
      recycleValueCents: 200
    }))
  }, op)
  const counted = await api(base, '/api/operator/stock', { seriesId: draft.id }, op)
  await api(base, '/api/operator/stockSave', { seriesId: draft.id, designs: counted.designs.map(d => ({ designId: d.designId, stock: 6, was: d.stock })) }, op)
  return draft
}

async function run ({ base }) {
  const op = (await api(base, '/login/passwd', { user_name: 'operator', password: 'operator123' })).token
  for (const lang of ['zh', 'en']) {
    const o = await openPhonePage({ locale: lang === 'zh' ? 'zh-CN' : 'en-US' })
    try {
      const draft = await cheapDraft(base, op, { zh: `低价款 ${lang} ${STAMP}`, en: `Worth less ${lang} ${STAMP}` })
      await passwordLogin(o, base, 'operator', 'operator123')
      await o.page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
      await o.page.locator(`.series-row-${draft.id}`).click()
      await o.page.locator('.series-publish').waitFor()
      // marked under the values of the second and third designs only
      const marks = o.page.locator('.design-low-value')
      await marks.first().waitFor()
      assert.equal(await marks.count(), 2)
      assert.match(await marks.first().innerText(), lang === 'zh' ? /参考价值低于单盒价格/ : /Worth less than one box/)
      await marks.first().scrollIntoViewIfNeeded()
      await o.shot(`editor-low-value-mark-${lang}.png`)

      await o.page.locator('.series-publish').click()
      await o.page.locator('.taro-modal__content', { hasText: lang === 'zh' ? '上架后' : 'Once on sale' }).waitFor()
      await o.page.locator('.taro-model__confirm').click()
      const modal = o.page.locator('.taro-modal__content', { hasText: lang === 'zh' ? '仍要上架吗' : 'Publish anyway?' })
      await modal.waitFor()
      const said = await modal.innerText()
      assert.match(said, lang === 'zh' ? /低价伙伴2 \(¥15\.00\)、低价伙伴3 \(¥30\.00\)/ : /Cheap buddy 2 \(¥15\.00\), Cheap buddy 3 \(¥30\.00\)/)
      assert.ok(!said.includes(lang === 'zh' ? '低价伙伴1' : 'Cheap buddy 1'), said)
      await o.shot(`editor-low-value-confirm-${lang}.png`)
      await o.page.locator('.taro-model__confirm').click()
      await o.page.locator('.series-list').waitFor()
      const series = await api(base, '/api/operator/series', { seriesId: draft.id }, op)
      assert.equal(series.status, 'on_sale')
    } finally {
      await o.close()
    }
  }
}

module.exports = { name: 'low value: designs worth less than one box marked in the editor, named and acknowledged at publishing (zh, en)', run }
