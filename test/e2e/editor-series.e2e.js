/**
 * The series editor end to end in Chromium (issue 10, item 6):
 *  - the demo operator (zh) opens the editor's Series tab, starts a new series, types both languages,
 *    the price and the hidden chance, adds 6 designs and uploads an image for each through the page's
 *    file input (real PNG files), sees the odds preview the server will publish, is stopped by the
 *    publish check while one image is missing and again while the warehouse holds none of it, counts
 *    20 of each design on the stock screen, then publishes; opens 7 cases ahead of its launch;
 *  - the new series is in the list as on sale, its images are served under /media/u/ byte for byte,
 *    and the audit log holds its creation and publication;
 *  - the demo shopper (en) finds it on the home page, sees every design's odds as previewed, and buys a
 *    box of it.
 */
const assert = require('node:assert/strict')
const { openPhonePage } = require('./browser')
const { makePng } = require('../support/png')
const { api } = require('./api')

async function logIn (phone, base, userName, password) {
  await phone.page.goto(`${base}/pages/login/index`, { waitUntil: 'networkidle' })
  await phone.input('input-account').fill(userName)
  await phone.input('input-password').fill(password)
  await phone.page.locator('.login-check').click()
  await phone.page.locator('.login-submit').click()
  await phone.page.waitForURL(/\/pagesA\/home\/index/)
}

/** The per-box odds of the case model (PRODUCT.md), as formatPpm shows them. */
function expectedOdds (rarities, hiddenPpm) {
  const n = rarities.filter(r => r !== 'hidden').length
  const regular = rarities.filter(r => r === 'regular').length
  const ppm = rarities.map(r => Math.round((r === 'hidden' ? hiddenPpm * regular : r === 'rare' ? 1e6 * regular : 1e6 * regular - hiddenPpm) * 1e6 / (n * regular * 1e6)))
  const pct = p => { const x = p / 10000; const d = x >= 10 ? 1 : x >= 1 ? 2 : 3; return `${x.toFixed(d).replace(/\.?0+$/, '')}%` }
  return ppm.map(pct)
}

const DESIGNS = [
  { zh: '领航员', en: 'Navigator', rarity: 'rare', ref: '59', rec: '20', colour: [230, 80, 80], alt: { zh: '红色宇航服的领航员举着星图', en: 'A navigator in a red spacesuit holding a star chart' } },
  { zh: '机械师', en: 'Mechanic', rarity: 'regular', ref: '45', rec: '10', colour: [80, 180, 90] },
  { zh: '厨师', en: 'Cook', rarity: 'regular', ref: '45', rec: '10', colour: [70, 110, 220] },
  { zh: '医生', en: 'Doctor', rarity: 'regular', ref: '45', rec: '10', colour: [240, 190, 60] },
  { zh: '画家', en: 'Painter', rarity: 'regular', ref: '45', rec: '10', colour: [150, 90, 200] },
  { zh: '星灵', en: 'Star Spirit', rarity: 'hidden', ref: '300', rec: '90', colour: [40, 190, 190] }
]
/** The real <input> of a Taro Input inside `scope` (the class sits on the input itself in H5). */
const field = (scope, cls) => scope.locator(`input.${cls}, .${cls} input`).first()

const TITLE = { zh: '星际旅人', en: `Star Travellers ${Date.now().toString(36)}` }

async function run ({ base }) {
  const o = await openPhonePage({ locale: 'zh-CN' })
  const s = await openPhonePage({ locale: 'en-US' })
  const uploads = []
  o.page.on('response', async r => { if (r.url().endsWith('/api/operator/upload')) uploads.push(await r.json()) })
  try {
    // ---- the operator makes the series
    await logIn(o, base, 'operator', 'operator123')
    await o.page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
    await o.page.locator('.series-list').waitFor()
    await o.shot('editor-series-list-zh.png')
    await o.page.locator('.series-new').click()
    await o.input('series-title-zh').fill(TITLE.zh)
    await o.input('series-title-en').fill(TITLE.en)
    await o.page.locator('.series-description-zh textarea').fill('六位在星海间旅行的伙伴，每箱 5 盒，集齐一套。')
    await o.page.locator('.series-description-en textarea').fill('Six friends travelling the stars: 5 boxes per case, a full set in each.')
    await o.input('series-price').fill('39')
    await o.input('series-hidden').fill('10')
    // keystroke by keystroke, nothing is lost
    await o.input('series-title-en').press('End')
    await o.input('series-title-en').pressSequentially(' ✦', { delay: 30 })
    assert.equal(await o.input('series-title-en').inputValue(), `${TITLE.en} ✦`)
    TITLE.en = `${TITLE.en} ✦`

    for (const [i, d] of DESIGNS.entries()) {
      await o.page.locator('.design-add').click()
      const row = o.page.locator(`.design-row-${i}`)
      await row.waitFor()
      await field(row, 'design-name-zh').fill(d.zh)
      await field(row, 'design-name-en').fill(d.en)
      await row.locator(`.design-rarity-${d.rarity}`).click()
      await field(row, 'design-reference').fill(d.ref)
      await field(row, 'design-recycle').fill(d.rec)
      if (d.alt) {
        await field(row, 'design-alt-zh').fill(d.alt.zh)
        await field(row, 'design-alt-en').fill(d.alt.en)
      }
      if (i === DESIGNS.length - 1) continue // the last image comes after the publish check
      await row.locator('.design-image input[type=file]').setInputFiles({ name: `${d.en}.png`, mimeType: 'image/png', buffer: makePng(120, 120, d.colour) })
      await row.locator('.design-image img').waitFor()
    }
    assert.equal(uploads.length, 5)
    assert.ok(uploads.every(u => u.code === 200 && /^\/media\/u\/[0-9a-f]{64}\.png$/.test(u.data.url)))

    // the preview: the same odds the server will publish
    const odds = expectedOdds(DESIGNS.map(d => d.rarity), 100000)
    for (const [i] of DESIGNS.entries()) assert.equal(await o.page.locator(`.design-row-${i} .design-row__odds`).innerText(), odds[i], `design ${i} odds`)
    assert.match(await o.page.locator('.series-case-size').innerText(), /每箱 5 盒/)

    // publishing with an image missing: the page says which, nothing goes on sale
    await o.page.locator('.series-publish').click()
    await o.page.getByText('第 6 个款式需要图片').first().waitFor()
    await o.shot('editor-series-missing-image-zh.png')
    const row5 = o.page.locator('.design-row-5')
    await row5.locator('.design-image input[type=file]').setInputFiles({ name: 'spirit.png', mimeType: 'image/png', buffer: makePng(120, 120, DESIGNS[5].colour) })
    await row5.locator('.design-image img').waitFor()
    // a file that is no image is refused by the server with its reason
    await row5.locator('.design-image input[type=file]').setInputFiles({ name: 'evil.png', mimeType: 'image/png', buffer: Buffer.from('<script>alert(1)</script>') })
    await o.page.getByText('只能上传 PNG、JPEG、WebP 或 GIF 图片').first().waitFor()
    await o.shot('editor-series-form-zh.png')

    // publishing before the warehouse is counted: the draft is saved, and the server names every design
    // the warehouse holds none of (a case needs one of each); nothing goes on sale
    await o.page.locator('.series-publish').click()
    await o.page.locator('.taro-model__confirm').click()
    await o.page.locator('.series-problem', { hasText: '在仓库里没有库存' }).first().waitFor()
    assert.equal(await o.page.locator('.series-problem', { hasText: '在仓库里没有库存' }).count(), DESIGNS.length)
    // the stock screen of the saved draft: a count per design, what a case takes, then publish
    await o.page.locator('.stock-panel .stock-row-6').waitFor()
    assert.match(await o.page.locator('.stock-summary__fillable').innerText(), /还能再开 0 箱/)
    await field(o.page.locator('.stock-row-1'), 'stock-row__input').fill('x')
    await o.page.locator('.stock-save').click()
    await o.page.locator('.stock-row__problem', { hasText: '请填 0 到' }).waitFor()
    for (const [i] of DESIGNS.entries()) await field(o.page.locator(`.stock-row-${i + 1}`), 'stock-row__input').fill('20')
    await o.page.locator('.stock-save').click()
    await o.page.locator('.stock-summary__fillable', { hasText: '还能再开 20 箱' }).waitFor()
    await o.page.locator('.stock-panel').scrollIntoViewIfNeeded()
    await o.shot('editor-series-stock-zh.png')

    await o.page.locator('.series-publish').click()
    assert.match(await o.page.locator('.taro-modal__content').innerText(), /上架后/)
    await o.page.locator('.taro-model__confirm').click()
    await o.page.locator('.series-list').waitFor()
    const listed = o.page.locator('.series-row', { hasText: TITLE.zh }).first()
    await listed.waitFor()
    assert.match(await listed.innerText(), /在售/)
    await o.shot('editor-series-published-zh.png')

    const opToken = (await api(base, '/login/passwd', { user_name: 'operator', password: 'operator123' })).token
    const mine = (await api(base, '/api/operator/seriesList', { page: 1, size: 50, status: 'on_sale' }, opToken)).list.find(r => r.title.en === TITLE.en)
    assert.ok(mine, 'on sale')
    const series = await api(base, '/api/operator/series', { seriesId: mine.id }, opToken)
    assert.deepEqual(series.designs.map(d => d.name.en), DESIGNS.map(d => d.en))
    assert.deepEqual(series.designs.map(d => d.rarity), DESIGNS.map(d => d.rarity))
    assert.deepEqual(series.designs.map(d => d.alt), DESIGNS.map(d => d.alt ?? { zh: '', en: '' }))
    assert.equal(series.priceCents, 3900)
    assert.equal(series.hiddenCasePpm, 100000)
    // every image is the file that was sent
    for (const [i, d] of series.designs.entries()) {
      const got = Buffer.from(await (await fetch(`${base}${d.image}`)).arrayBuffer())
      assert.equal(Buffer.compare(got, makePng(120, 120, DESIGNS[i].colour)), 0, `image ${i}`)
    }
    const audit = await api(base, '/api/operator/audit', { page: 1, size: 20, entity: 'series' }, opToken)
    const actions = audit.list.filter(a => a.entityId === mine.id).map(a => a.action)
    assert.ok(actions.includes('series.create') && actions.includes('series.stock') && actions.includes('series.publish'), actions.join())

    // ---- cases opened ahead of its launch, from the series' page: a bad count is named, then 7 open
    await listed.click()
    await o.page.locator('.open-ahead__go').waitFor()
    await o.input('open-ahead__count').fill('abc')
    await o.page.locator('.open-ahead__go').click()
    await o.page.locator('.open-ahead__problem', { hasText: '请填 1 到 1000 的整数' }).waitFor()
    await o.input('open-ahead__count').fill('7')
    await o.page.locator('.open-ahead__go').click()
    await o.page.getByText('已开 7 箱，现在在售 8 箱').waitFor()
    await o.shot('editor-series-open-ahead-zh.png')
    const opened = (await api(base, '/api/operator/audit', { page: 1, size: 20, entity: 'series' }, opToken)).list
      .filter(a => a.entityId === mine.id && a.action === 'series.openCasesAhead')
    assert.equal(opened.length, 1, 'one audited batch of cases opened ahead')

    // ---- the shopper sees it with those odds and buys a box
    await logIn(s, base, 'shopper', 'shopper123')
    // the age gate's own page flow is the shop suite's: the demo shopper's birth date goes in by the API
    const shopperToken = (await api(base, '/login/passwd', { user_name: 'shopper', password: 'shopper123' })).token
    await api(base, '/api/ageVerify', { birthDate: '1990-05-01' }, shopperToken).catch(() => undefined)
    const card = s.page.locator('.series-card', { hasText: TITLE.en }).first()
    await card.scrollIntoViewIfNeeded()
    await card.click()
    await s.page.waitForURL(/blind_box_detail/)
    await s.page.locator('.slot').first().waitFor()
    const shown = await s.page.$$eval('.design', els => els.map(e => [e.querySelector('.design__name')?.textContent ?? e.textContent, e.querySelector('.design__odds')?.textContent]))
    for (const [i, d] of DESIGNS.entries()) {
      const hit = shown.find(([name]) => name.includes(d.en))
      assert.ok(hit, `${d.en} shown`)
      assert.equal(hit[1], odds[i], `${d.en} odds on the detail page`)
    }
    // each picture is named for a screen reader: by the operator's description where written, else by its name
    const labels = await s.page.$$eval('.design .design__img', els => els.map(e => [e.getAttribute('role'), e.getAttribute('aria-label')]))
    for (const d of DESIGNS) assert.ok(labels.some(([role, label]) => role === 'img' && label === (d.alt?.en ?? d.en)), `${d.en}: ${JSON.stringify(labels)}`)
    await s.shot('editor-series-shopper-detail-en.png')
    await s.page.locator('.slot:not(.slot--sold)').first().click()
    await s.page.locator('.buy-picked').click()
    await s.page.waitForURL(/purchase/)
    await s.page.locator('.disclosure').waitFor()
    await s.page.locator('.disclosure .purchase-ack').click()
    await s.page.locator('.purchase-pay').click()
    await s.page.waitForURL(/open_chest_animation|prize_show/, { timeout: 20000 })
    const after = await api(base, '/api/operator/seriesList', { page: 1, size: 50, status: 'on_sale' }, opToken)
    assert.equal(after.list.find(r => r.id === mine.id).boxesSold, 1)
    assert.deepEqual(o.errors, [])
    assert.deepEqual(s.errors, [])
  } catch (e) {
    await o.shot('editor-series-failure-operator.png').catch(() => undefined)
    await s.shot('editor-series-failure-shopper.png').catch(() => undefined)
    throw e
  } finally {
    await o.close()
    await s.close()
  }
}

module.exports = { name: 'editor series (operator makes, shopper buys)', run }
