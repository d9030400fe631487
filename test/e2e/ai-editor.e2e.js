/**
 * One AI-assisted editor flow in Chromium against the local fake of a Dify chat app (issue 11): the
 * operator types a new series in Chinese, has the English fields translated (textTransform: title,
 * description and a design's name), then has a Chinese description written (AiAnalysis) and polished
 * (text/text2text). The fake
 * checks the key and the body; the page fills the fields with its answers.
 */
const assert = require('node:assert/strict')
const { openPhonePage } = require('./browser')
const { makePng } = require('../support/png')

async function run ({ base, fakes }) {
  const o = await openPhonePage({ locale: 'zh-CN' })
  try {
    await o.page.goto(`${base}/pages/login/index`, { waitUntil: 'networkidle' })
    await o.input('input-account').fill('operator')
    await o.input('input-password').fill('operator123')
    await o.page.locator('.login-check').click()
    await o.page.locator('.login-submit').click()
    await o.page.waitForURL(/\/pagesA\/home\/index/)
    await o.page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
    await o.page.locator('.series-new').click()
    await o.input('series-title-zh').fill('星际旅人')
    await o.page.locator('.series-description-zh textarea').fill('六位在星海间旅行的伙伴。')
    await o.page.locator('.design-add').click()
    await o.page.locator('.design-row-0 input.design-name-zh, .design-row-0 .design-name-zh input').first().fill('领航员')

    const before = fakes.dify.calls.length
    await o.page.locator('.series-ai-translate').click()
    const titleEn = o.input('series-title-en')
    await o.page.waitForFunction(() => document.querySelector('input.series-title-en, .series-title-en input')?.value === 'Star Travellers')
    assert.equal(await titleEn.inputValue(), 'Star Travellers')
    assert.equal(await o.page.locator('.series-description-en textarea').inputValue(), 'Six friends travelling the sea of stars.')
    assert.equal(await o.page.locator('.design-row-0 input.design-name-en, .design-row-0 .design-name-en input').first().inputValue(), 'Navigator')
    const asked = fakes.dify.calls.slice(before)
    assert.equal(asked.length, 3, 'title, description and one name')
    assert.ok(asked.every(c => /^shop-user-\d+$/.test(c.user) && c.response_mode === 'blocking'))

    await o.page.locator('.series-ai-describe').click()
    await o.page.waitForFunction(() => (document.querySelector('.series-description-zh textarea')?.value ?? '').startsWith('AI answer to:'))
    const written = await o.page.locator('.series-description-zh textarea').inputValue()
    assert.match(written, /系列：星际旅人/)
    assert.match(written, /领航员/)
    assert.deepEqual(fakes.dify.calls.at(-1).inputs, { prompt: '为这个盲盒系列写一段简短的中文商品描述（80 字以内）：说明系列主题和款式亮点，不要写价格、概率或承诺。' })

    // polish it (text2text): the description and the polishing prompt go to the AI; its answer replaces it
    await o.page.locator('.series-ai-polish').click()
    await o.page.waitForFunction(() => (document.querySelector('.series-description-zh textarea')?.value ?? '').includes('润色这段盲盒系列的中文描述'))
    const polished = fakes.dify.calls.at(-1)
    assert.deepEqual(polished.inputs, { prompt: '润色这段盲盒系列的中文描述：更通顺、更生动，保留原有事实，不增加价格、概率或承诺，120 字以内，只输出润色后的文字。' })
    assert.ok(polished.query.includes(written.slice(0, 20)), 'the description went to the AI')
    // a design's picture described for screen readers (pic/pic2word): the picture's absolute URL goes to
    // the AI once per language; the answers fill the two fields, for the operator to check
    const row = o.page.locator('.design-row-0')
    await row.locator('.design-image input[type=file]').setInputFiles({ name: 'navigator.png', mimeType: 'image/png', buffer: makePng(96, 96, [200, 60, 60]) })
    await row.locator('.design-image img').waitFor()
    const beforeAlt = fakes.dify.calls.length
    await row.locator('.design-alt-ai').click()
    await o.page.waitForFunction(() => (document.querySelector('.design-row-0 input.design-alt-en, .design-row-0 .design-alt-en input')?.value ?? '').startsWith('AI answer to:'))
    const described = fakes.dify.calls.slice(beforeAlt)
    assert.equal(described.length, 2, 'one question per language')
    for (const c of described) {
      assert.equal(c.files.length, 1)
      assert.match(c.files[0].url, /^http:\/\/127\.0\.0\.1:\d+\/media\/u\/[0-9a-f]{64}\.png$/)
    }
    const altZh = await row.locator('input.design-alt-zh, .design-alt-zh input').first().inputValue()
    const altEn = await row.locator('input.design-alt-en, .design-alt-en input').first().inputValue()
    assert.notEqual(altZh, altEn, 'asked in each language')
    assert.ok(altZh.length <= 200 && altEn.length <= 200)
    assert.ok(!/[\r\n]/.test(altZh + altEn), 'one line')
    await o.shot('editor-ai-zh.png')
    assert.deepEqual(o.errors, [])
  } catch (e) {
    await o.shot('editor-ai-failure.png').catch(() => undefined)
    throw e
  } finally {
    await o.close()
  }
}

module.exports = { name: 'AI in the editor: translate to English, write and polish a description (local Dify fake)', run }
