/**
 * The long-running tasks in Chromium (issue 11): in the editor's "PDF pages" tab the operator uploads a
 * PDF made here (pdf-lib), the local engine draws its pages while the page shows the progress (polling
 * every 2000 ms), the pages appear with their pixel sizes, and one opens in the zoomable preview. In the
 * series editor the promo video and the jingle run as tasks against the local CogVideoX and Suno-style
 * fakes, show their progress and end playable. Both in Chinese and in English, at 375 px.
 */
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { PDFDocument, rgb } = require('pdf-lib')
const { openPhonePage, passwordLogin } = require('./browser')

async function makePdf (pages) {
  const doc = await PDFDocument.create()
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([420, 595])
    page.drawRectangle({ x: 30, y: 420, width: 360, height: 140, color: rgb(1, 0.35, 0.37) })
    page.drawRectangle({ x: 30, y: 60 + (i % 3) * 60, width: 120 + i * 20, height: 40, color: rgb(0.42, 0.3, 1) })
    page.drawText(`Catalogue page ${i + 1}`, { x: 40, y: 360, size: 24 })
  }
  return Buffer.from(await doc.save())
}

async function pdfFlow (o, base, file, lang) {
  await o.page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
  await o.page.locator('.editor-tab-pdf').click()
  await o.page.locator('.pdf-tab').waitFor()
  await o.shot(`tasks-pdf-empty-${lang}.png`)
  // when each query left the browser, by the browser's own clock: a time taken when the event reaches
  // this process would shrink a gap whenever this process was busy (Lighthouse runs in it)
  const asked = []
  o.page.on('requestfinished', r => { if (r.url().includes('/api/queryPDF2ImageTask')) asked.push(r.timing().startTime) })
  await o.page.locator('.pdf-upload__input').setInputFiles(file)
  // the progress shows while the server draws the pages
  await o.page.locator('.pdf-progress.task-progress--running').waitFor({ timeout: 15000 })
  const text = await o.page.locator('.pdf-progress .task-progress__text').innerText()
  assert.match(text, lang === 'zh' ? /正在|生成中|排队/ : /Sending|progress|Converting|Waiting/)
  await o.shot(`tasks-pdf-progress-${lang}.png`)
  await o.page.locator('.pdf-summary').waitFor({ timeout: 60000 })
  assert.match(await o.page.locator('.pdf-summary').innerText(), lang === 'zh' ? /共 6 页，已显示 6 页/ : /6 pages, 6 shown/)
  assert.equal(await o.page.locator('.pdf-page').count(), 6)
  // A5 portrait at 1200 px on the longer side
  assert.match(await o.page.locator('.pdf-page-1 .pdf-page__label').innerText(), /847×1200/)
  // drawn images, really loaded
  await o.page.waitForFunction(() => {
    const img = document.querySelector('.pdf-page-1 .pdf-page__img img, .pdf-page-1 img.pdf-page__img')
    return img && img.complete && img.naturalWidth === 847 && img.naturalHeight === 1200
  })
  // polled every 2000 ms (never faster)
  asked.sort((a, b) => a - b)
  for (let i = 1; i < asked.length; i++) assert.ok(asked[i] - asked[i - 1] >= 1900, `polls ${asked[i] - asked[i - 1]} ms apart`)
  assert.ok(asked.length >= 1)
  await o.shot(`tasks-pdf-pages-${lang}.png`)
  await o.page.locator('.pdf-page-2').click()
  await o.page.locator('.page-preview').waitFor()
  assert.equal(await o.page.locator('.page-preview-index').innerText(), '2 / 6')
  await o.page.locator('.page-preview .zoom-in').click()
  await o.page.locator('.page-preview .zoom-in').click()
  assert.equal(await o.page.locator('.page-preview-zoom').innerText(), '2×')
  await o.shot(`tasks-pdf-preview-${lang}.png`)
  await o.page.locator('.page-preview-close').click()
  // the PDF itself, through the download helper: saved byte for byte
  const saving = o.page.waitForEvent('download')
  await o.page.locator('.pdf-open').click()
  const saved = await saving
  assert.match(saved.suggestedFilename(), /^[0-9a-f]{64}\.pdf$/)
  assert.equal(Buffer.compare(fs.readFileSync(await saved.path()), fs.readFileSync(file)), 0, 'the PDF saved is the one uploaded')
}

async function promoFlow (o, base, fakes, lang) {
  await o.page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
  await o.page.locator('.series-new').click()
  await o.input('series-title-zh').fill('星际旅人')
  await o.page.locator('.series-description-zh textarea').fill('六位在星海间旅行的伙伴。')
  if (lang === 'en') {
    await o.input('series-title-en').fill('Star Travellers')
    await o.page.locator('.series-description-en textarea').fill('Six friends travelling the stars.')
  }
  const videoCalls = fakes.video.calls.length
  await o.page.locator('.promo-video-start').click()
  await o.page.locator('.promo-video-progress.task-progress--running').waitFor()
  await o.page.locator('.promo-music-start').click()
  await o.page.locator('.promo-music-progress.task-progress--running').waitFor()
  await o.page.locator('.promo-tasks').scrollIntoViewIfNeeded()
  await o.shot(`tasks-promo-progress-${lang}.png`)
  await o.page.locator('.promo-video-result').waitFor({ timeout: 30000 })
  await o.page.locator('.promo-music-result').waitFor({ timeout: 30000 })
  const created = fakes.video.calls.slice(videoCalls).find(c => c.kind === 'create')
  assert.equal(created.body.prompt, lang === 'zh' ? '星际旅人：六位在星海间旅行的伙伴。' : 'Star Travellers：Six friends travelling the stars.')
  const generated = fakes.music.calls.filter(c => c.kind === 'generate').at(-1)
  assert.doesNotMatch(generated.body.prompt, /[\n\t]| {2}/)
  assert.equal(await o.page.locator('.promo-clip').count(), 2)
  assert.match(await o.page.locator('.promo-video video, video.promo-video').first().getAttribute('src'), /\.mp4$/)
  // the player takes its room (a video of 0 px would be "ready" and invisible)
  const box = await o.page.locator('.promo-video-box').boundingBox()
  assert.ok(box && box.height > 150 && box.width > 250, JSON.stringify(box))
  await o.page.locator('.promo-tasks').scrollIntoViewIfNeeded()
  await o.shot(`tasks-promo-done-${lang}.png`)
}

async function run ({ base, fakes }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-e2e-'))
  const file = path.join(dir, 'catalogue.pdf')
  fs.writeFileSync(file, await makePdf(6))
  for (const [lang, locale] of [['zh', 'zh-CN'], ['en', 'en-US']]) {
    const o = await openPhonePage({ locale })
    try {
      await passwordLogin(o, base, 'operator', 'operator123')
      await pdfFlow(o, base, file, lang)
      await promoFlow(o, base, fakes, lang)
      assert.deepEqual(o.errors, [])
    } catch (e) {
      await o.shot(`tasks-failure-${lang}.png`).catch(() => undefined)
      throw e
    } finally {
      await o.close()
    }
  }
  fs.rmSync(dir, { recursive: true, force: true })
}

module.exports = { name: 'Tasks: a PDF as images with progress, promo video and jingle (local engine, CogVideoX and Suno fakes)', run }
