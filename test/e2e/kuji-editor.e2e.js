/**
 * The 一番赏 (kuji) series editor end to end in Chromium at 375 px, in zh and then in en: the demo operator
 * starts a new series and chooses kuji (the hidden chance gives way to a turn length, the price is per
 * ticket), gives four designs their prize tiers (A, B, then the Last One and the Double Chance from the
 * tier picker) and tickets or winners, reads the odds of each tier and the tickets per set, is stopped by
 * a turn length out of range, then saves the draft; the server holds it as kuji, with those tiers,
 * tickets and winners and no hidden chance.
 */
const assert = require('node:assert/strict')
const { openPhonePage, passwordLogin } = require('./browser')
const { makePng } = require('../support/png')
const { api } = require('./api')

const WORDS = {
  zh: {
    locale: 'zh-CN',
    kindKuji: '一番赏',
    priceLabel: '每张签价格（元，最多 200）',
    turnInvalid: '每轮时长须是 20 到 300 之间的整数秒',
    tiers: ['A赏 ▾', 'B赏 ▾', 'C赏 ▾', 'D赏 ▾'],
    lastOne: '最终赏 ▾',
    doubleChance: '双重机会赏 ▾',
    noTicket: '不占签',
    winners: '抽完时抽 2 人',
    odds: ['A赏 2/80 = 2.50%', 'B赏 78/80 = 97.50%'],
    setSize: '每套 80 张签，另加最终赏',
    noLastOne: '要有且只有一个款式的赏级是“最终赏”（最终赏不占签）',
    saved: '已保存',
    fillable: '库存还能再开 0 套',
    title: '星海一番赏',
    description: 'A 赏、B 赏，买下最后一张签的人另得最终赏，抽完时再抽出双重机会赏。'
  },
  en: {
    locale: 'en-US',
    kindKuji: 'Ichiban kuji',
    priceLabel: 'Price per ticket (yuan, at most 200)',
    turnInvalid: 'Turn length: whole seconds from 20 to 300',
    tiers: ['Prize A ▾', 'Prize B ▾', 'Prize C ▾', 'Prize D ▾'],
    lastOne: 'Last One ▾',
    doubleChance: 'Double Chance ▾',
    noTicket: 'No ticket',
    winners: '2 winners at sell-out',
    odds: ['Prize A 2/80 = 2.50%', 'Prize B 78/80 = 97.50%'],
    setSize: '80 tickets per set, plus the Last One',
    noLastOne: 'Exactly one design must have the prize tier "Last One" (it takes no ticket)',
    saved: 'Saved',
    fillable: 'Enough for 0 more sets',
    title: 'Star sea kuji',
    description: 'Prizes A and B, the Last One for whoever buys the final ticket, and a Double Chance at sell-out.'
  }
}

const DESIGNS = [
  { zh: '星海巨像', en: 'Star colossus', ref: '800', rec: '200', tickets: '2', colour: [230, 80, 80] },
  { zh: '星砂挂件', en: 'Star sand charm', ref: '60', rec: '10', tickets: '78', colour: [70, 110, 220] },
  { zh: '终章星灵', en: 'Final spirit', ref: '900', rec: '300', tickets: null, colour: [40, 190, 190] },
  { zh: '再来一次', en: 'One more time', ref: '100', rec: '20', tickets: null, colour: [240, 190, 60] }
]
/** The real <input> of a Taro Input inside `scope`. */
const field = (scope, cls) => scope.locator(`input.${cls}, .${cls} input`).first()

/**
 * Sets design i's tier picker to the option at `index` (A is 0, the Last One 26, the Double Chance 27):
 * the column is scrolled there once it has come to rest at the current tier (it glides there as it opens,
 * and a scroll meanwhile is undone), then confirmed once it has settled (its scroll end, then 100 ms).
 */
async function pickTier (page, i, index, label) {
  await page.locator(`.design-tier-${i}`).click()
  const column = page.locator('.taro-picker__content').last()
  await column.waitFor()
  await page.waitForTimeout(800)
  // the picker counts an option a row of the column down (its measure: the column's height over its rows)
  await column.evaluate((el, at) => { el.scrollTop = at * el.scrollHeight / el.childNodes.length }, index)
  await page.locator('.taro-picker__item--selected', { hasText: label }).waitFor()
  await page.waitForTimeout(800)
  assert.equal(await page.locator('.taro-picker__item--selected').last().innerText(), label)
  await page.locator('.taro-picker__hd .taro-picker__action').last().click()
}

async function makeKujiDraft (base, lang) {
  const w = WORDS[lang]
  const o = await openPhonePage({ locale: w.locale })
  const title = { zh: `${WORDS.zh.title} ${lang}`, en: `${WORDS.en.title} ${lang} ${Date.now().toString(36)}` }
  try {
    await passwordLogin(o, base, 'operator', 'operator123')
    await o.page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
    await o.page.locator('.series-list').waitFor()
    await o.page.locator('.series-new').click()
    await o.page.locator('.series-kind-kuji').click()
    assert.equal(await o.page.locator('.series-kind-kuji').innerText(), w.kindKuji)
    assert.equal(await o.page.locator('.series-kind-kuji').getAttribute('aria-checked'), 'true')
    // a kuji series has no hidden chance: the field gives way to the turn length
    assert.equal(await o.page.locator('.series-hidden').count(), 0)
    await o.page.locator('.series-turn').waitFor()
    assert.ok((await o.page.locator('.series-editor').innerText()).includes(w.priceLabel))

    await o.input('series-title-zh').fill(title.zh)
    await o.input('series-title-en').fill(title.en)
    await o.page.locator('.series-description-zh textarea').fill(WORDS.zh.description)
    await o.page.locator('.series-description-en textarea').fill(WORDS.en.description)
    await o.input('series-price').fill('59')
    await o.input('series-turn').fill('5')
    await o.page.locator('.series-kind').scrollIntoViewIfNeeded()
    await o.shot(`kuji-editor-top-${lang}.png`)

    for (const [i, d] of DESIGNS.entries()) {
      await o.page.locator('.design-add').click()
      const row = o.page.locator(`.design-row-${i}`)
      await row.waitFor()
      assert.equal(await row.locator(`.design-tier-${i}`).innerText(), w.tiers[i])
      await field(row, 'design-name-zh').fill(d.zh)
      await field(row, 'design-name-en').fill(d.en)
      await field(row, 'design-reference').fill(d.ref)
      await field(row, 'design-recycle').fill(d.rec)
      if (d.tickets) await field(row, 'design-tickets').fill(d.tickets)
      await row.locator('.design-image input[type=file]').setInputFiles({ name: `${d.en}.png`, mimeType: 'image/png', buffer: makePng(120, 120, d.colour) })
      await row.locator('.design-image img').waitFor()
    }
    // every design in a lettered tier: no Last One yet, and the odds say so
    await o.page.locator('.series-odds--kuji .series-odds-problem', { hasText: w.noLastOne }).waitFor()
    await pickTier(o.page, 2, 26, w.lastOne.replace(' ▾', ''))
    await o.page.locator('.design-tier-2', { hasText: w.lastOne }).waitFor()
    assert.equal(await o.page.locator('.design-row-2 .design-tickets-none').innerText(), w.noTicket)
    assert.equal(await o.page.locator('.design-row-2 .design-tickets').count(), 0)
    // the Double Chance: its winners per set where the tickets were
    await pickTier(o.page, 3, 27, w.doubleChance.replace(' ▾', ''))
    await o.page.locator('.design-tier-3', { hasText: w.doubleChance }).waitFor()
    await o.input('series-dc-winners').fill('2')
    assert.equal(await o.page.locator('.design-row-3 .design-row__odds').innerText(), w.winners)
    assert.equal(await o.page.locator('.series-odds--kuji .series-odds-problem').count(), 0)
    assert.deepEqual(await o.page.locator('.series-tier-odds').allInnerTexts(), w.odds)
    assert.equal(await o.page.locator('.series-set-size').innerText(), w.setSize)
    await o.page.locator('.design-row-2').scrollIntoViewIfNeeded()
    await o.shot(`kuji-editor-designs-${lang}.png`)

    // the turn length out of range is named beside its field; nothing is sent
    let saves = 0
    o.page.on('request', r => { if (r.url().endsWith('/api/operator/seriesSave')) saves++ })
    await o.page.locator('.series-save').click()
    await o.page.locator('.error-turnSeconds', { hasText: w.turnInvalid }).waitFor()
    assert.equal(saves, 0)
    await o.page.locator('.series-turn').scrollIntoViewIfNeeded()
    await o.shot(`kuji-editor-turn-${lang}.png`)
    await o.input('series-turn').fill('90')
    await o.page.locator('.series-save').click()
    await o.page.getByText(w.saved, { exact: true }).first().waitFor()
    assert.equal(saves, 1)
    await o.page.getByText(w.saved, { exact: true }).first().waitFor({ state: 'hidden' })
    await o.page.locator('.series-odds--kuji').scrollIntoViewIfNeeded()
    await o.shot(`kuji-editor-odds-${lang}.png`)
    // the saved draft's stock counts sets
    await o.page.locator('.stock-summary__fillable', { hasText: w.fillable }).waitFor()
    await o.page.locator('.stock-panel').scrollIntoViewIfNeeded()
    await o.shot(`kuji-editor-stock-${lang}.png`)

    // the server holds the draft as it was typed
    const token = (await api(base, '/login/passwd', { user_name: 'operator', password: 'operator123' })).token
    const row = (await api(base, '/api/operator/seriesList', { page: 1, size: 50, status: 'draft' }, token)).list.find(r => r.title.en === title.en)
    assert.ok(row, 'the draft is listed')
    const series = await api(base, '/api/operator/series', { seriesId: row.id }, token)
    assert.equal(series.kind, 'kuji')
    assert.equal(series.turnSeconds, 90)
    assert.equal(series.hiddenCasePpm, 0)
    assert.equal(series.priceCents, 5900)
    assert.deepEqual(series.designs.map(d => [d.name.en, d.tier, d.tickets]),
      [['Star colossus', 'A', 2], ['Star sand charm', 'B', 78], ['Final spirit', 'last_one', 0], ['One more time', 'double_chance', 0]])
    assert.equal(series.doubleChanceWinners, 2)
    assert.equal(series.caseSize, 80)
    assert.deepEqual(o.errors, [])
  } catch (e) {
    await o.shot(`kuji-editor-failure-${lang}.png`).catch(() => undefined)
    throw e
  } finally {
    await o.close()
  }
}

async function run ({ base }) {
  await makeKujiDraft(base, 'zh')
  await makeKujiDraft(base, 'en')
}

module.exports = { name: 'kuji editor (operator makes a kuji draft, zh and en)', run }
