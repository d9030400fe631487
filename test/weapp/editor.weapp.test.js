/**
 * The compiled editor of dist/weapp as the demo operator, against the shop's real API server: the
 * operator's tabs render, and a setting typed into its field is saved and read back from the server;
 * a shopper's complaint is answered in the Complaints tab.
 */
const fs = require('node:fs')
const http = require('node:http')
const path = require('node:path')
const { createHarness, waitFor } = require('./harness')
const { tapAgree } = require('./wx-privacy')
const { startShop, callApi, eventually } = require('./shop')

const h = createHarness()
let shop
let token

const api = (route, body, as = token) => callApi(h.state.apiOrigin, route, body, as)

beforeAll(async () => {
  shop = await startShop(h, {}, { prefix: 'shop-weapp-editor-' })
  token = (await api('/login/passwd', { user_name: 'operator', password: 'operator123' })).token
  h.state.storage.h5_token = token
  h.boot()
}, 90000)

afterAll(async () => {
  await shop?.stop()
})

/** The editor page, loaded once (miniprogram-simulate registers a page's component once per file). */
let editor

test('editor, as the operator: the desk\'s tabs, and a shop setting typed, saved and read back from the server', async () => {
  const page = editor = h.loadPage('pagesA/editor/index')
  await waitFor(() => expect(page.querySelector('.editor-tab-settings')).toBeTruthy(), 10000)
  for (const tab of ['series', 'shipments', 'withdrawals', 'recipes', 'settings']) expect(page.querySelector(`.editor-tab-${tab}`)).toBeTruthy()
  page.querySelector('.editor-tab-settings').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.op-setting-shipFeeCents .editor-input')).toBeTruthy(), 10000)
  const input = page.querySelector('.op-setting-shipFeeCents .editor-input')
  input.dispatchEvent('input', { detail: { value: '9.50' } })
  await waitFor(() => expect(page.querySelector('.op-settings__save').dom.className).not.toContain('btn--disabled'))
  page.querySelector('.op-settings__save').dispatchEvent('tap')
  await eventually(async () => expect((await api('/api/shippingRule', {})).feeCents).toBe(950))
}, 30000)

test('editor, the series tab: a new draft with a design whose image is picked with chooseImage and sent with uploadFile, saved to the server', async () => {
  const { makePng } = require('../support/png')
  const file = path.join(shop.dataDir, 'design.png')
  const png = makePng(40, 40, [200, 60, 90])
  fs.writeFileSync(file, png)
  const page = editor
  page.querySelector('.editor-tab-series').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.series-new')).toBeTruthy(), 10000)
  page.querySelector('.series-new').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.series-title-zh')).toBeTruthy())
  page.querySelector('.series-title-zh').dispatchEvent('input', { detail: { value: '小程序系列' } })
  page.querySelector('.series-title-en').dispatchEvent('input', { detail: { value: 'Mini-program series' } })
  page.querySelector('.series-price').dispatchEvent('input', { detail: { value: '29' } })
  await new Promise(r => setTimeout(r, 100))
  page.querySelector('.design-add').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.design-image-0')).toBeTruthy())
  // a cancelled pick says no file was selected and sends nothing; the operator has not agreed to the privacy
  // guide yet: WeChat holds chooseImage and the app's prompt asks first (issue 22)
  h.state.chooseImage = { path: '', fail: 'chooseImage:fail cancel' }
  const why = '选择图片需要你同意隐私保护指引，未同意时无法继续。'
  // declined, and not asked again: the pick says why it cannot go on, and nothing is sent
  h.state.modalConfirms = false
  page.querySelector('.design-image-0').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.privacy-prompt')).toBeTruthy())
  page.querySelector('.privacy-prompt__decline').dispatchEvent('tap')
  await waitFor(() => expect(h.state.toasts[h.state.toasts.length - 1]).toBe(why))
  expect(h.state.modals[h.state.modals.length - 1]).toBe(why)
  expect(h.state.uploads).toHaveLength(0)
  // the picker takes a tap again once its pick is over (the toast comes just before)
  const idle = () => waitFor(() => expect(page.querySelector('.design-image-0').dom.textContent).not.toContain('上传中'))
  await idle()
  // declined, then "ask again": WeChat asks once more through the prompt, and the agree button lets the pick go on
  h.state.modalConfirms = true
  page.querySelector('.design-image-0').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.privacy-prompt')).toBeTruthy())
  page.querySelector('.privacy-prompt__decline').dispatchEvent('tap')
  await waitFor(() => expect(h.state.privacy.asked).toHaveLength(3))
  await waitFor(() => expect(page.querySelector('#privacy-agree')).toBeTruthy())
  tapAgree(h.state, page)
  await waitFor(() => expect(h.state.toasts[h.state.toasts.length - 1]).toBe('未选择文件'))
  expect(h.state.privacy.agreed).toBe(true)
  expect(page.querySelector('.privacy-prompt')).toBeFalsy()
  expect(h.state.uploads).toHaveLength(0)
  await idle()
  h.state.chooseImage = { path: file, fail: '' }
  page.querySelector('.design-image-0').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.design-image-0 .image-picker__img')).toBeTruthy(), 10000)
  expect(h.state.uploads[0]).toMatchObject({ url: '/dev-api/api/operator/upload', name: 'file', bytes: png.length })
  expect(h.state.uploads[0].header.Authorization).toBe(`Bearer ${token}`)
  page.querySelector('.design-name-zh').dispatchEvent('input', { detail: { value: '款一' } })
  page.querySelector('.design-name-en').dispatchEvent('input', { detail: { value: 'One' } })
  page.querySelector('.design-reference').dispatchEvent('input', { detail: { value: '30' } })
  page.querySelector('.design-recycle').dispatchEvent('input', { detail: { value: '8' } })
  await new Promise(r => setTimeout(r, 100))
  page.querySelector('.series-save').dispatchEvent('tap')
  await eventually(async () => {
    const drafts = (await api('/api/operator/seriesList', { page: 1, size: 50, status: 'draft' })).list
    expect(drafts.map(d => d.title.en)).toContain('Mini-program series')
  })
  const id = (await api('/api/operator/seriesList', { page: 1, size: 50, status: 'draft' })).list.find(d => d.title.en === 'Mini-program series').id
  const saved = await api('/api/operator/series', { seriesId: id })
  expect(saved).toMatchObject({ priceCents: 2900, designs: [{ name: { zh: '款一', en: 'One' }, referenceValueCents: 3000, recycleValueCents: 800 }] })
  const served = await new Promise((resolve, reject) => http.get(`${h.state.apiOrigin}${saved.designs[0].image}`, res => {
    const chunks = []
    res.on('data', c => chunks.push(c))
    res.on('end', () => resolve(Buffer.concat(chunks)))
  }).on('error', reject))
  expect(Buffer.compare(served, png)).toBe(0)
}, 40000)

test('editor, the complaints tab: a shopper\'s message listed as awaiting a reply, opened and answered; the shopper reads the reply', async () => {
  const shopper = (await api('/login/passwd', { user_name: 'shopper', password: 'shopper123' }, null)).token
  const filed = await api('/api/complaintCreate', { topic: 'prize', text: '收到的奖品有划痕，可以换一个吗？', idempotencyKey: 'weapp-complaint-0001' }, shopper)
  const page = editor
  page.querySelector('.editor-tab-complaints').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.cq-row--open')).toBeTruthy(), 10000)
  expect(page.querySelector('.cq-filter-open').dom.textContent).toBe('待回复 1')
  expect(page.querySelector('.cq-row--open').dom.textContent).toContain(`#${filed.id}`)
  page.querySelector('.cq-row--open').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.cq-reply-input')).toBeTruthy())
  expect(page.querySelector('.complaint-detail').dom.textContent).toContain('收到的奖品有划痕')
  page.querySelector('.cq-reply-input').dispatchEvent('input', { detail: { value: '可以的，我们会寄一个新的给你。' } })
  await new Promise(r => setTimeout(r, 100))
  page.querySelector('.cq-send').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.complaint-detail .cq-status--answered')).toBeTruthy(), 10000)
  const mine = await api('/api/complaintList', { page: 1, size: 10 }, shopper)
  expect(mine.list[0]).toMatchObject({ id: filed.id, status: 'answered', reply: '可以的，我们会寄一个新的给你。' })
}, 30000)

test('editor, the PDF tab: an uploaded PDF opened in WeChat\'s document viewer, through the download helper (the file byte for byte)', async () => {
  const { PDFDocument } = require('pdf-lib')
  const doc = await PDFDocument.create()
  doc.addPage([420, 595]).drawText('catalogue', { x: 40, y: 500, size: 24 })
  const bytes = Buffer.from(await doc.save())
  const { multipartBody } = require('../support/png')
  const form = multipartBody('file', 'catalogue.pdf', 'application/pdf', bytes)
  const uploaded = await new Promise((resolve, reject) => {
    const req = http.request(`${h.state.apiOrigin}/dev-api/api/operator/uploadPdf`, { method: 'POST', headers: { 'content-type': form.contentType, authorization: `Bearer ${token}` } }, res => {
      const chunks = []
      res.on('data', c => chunks.push(c))
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))))
    })
    req.on('error', reject)
    req.end(form.body)
  })
  expect(uploaded.code).toBe(200)
  const page = editor
  page.querySelector('.editor-tab-pdf').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.pdf-url')).toBeTruthy(), 10000)
  page.querySelector('.pdf-url').dispatchEvent('input', { detail: { value: uploaded.data.url } })
  await waitFor(() => expect(page.querySelector('.pdf-open')).toBeTruthy())
  const before = h.state.downloads.length
  page.querySelector('.pdf-open').dispatchEvent('tap')
  await waitFor(() => expect(h.state.openedDocuments).toHaveLength(1), 10000)
  // from where the shop serves uploads (beside the API, as every picture)
  expect(h.state.downloads.slice(before)).toEqual([expect.objectContaining({ url: uploaded.data.url })])
  const opened = h.state.openedDocuments[0]
  expect(opened).toMatchObject({ fileType: 'pdf', showMenu: true })
  expect(Buffer.compare(fs.readFileSync(opened.filePath), bytes)).toBe(0)
}, 30000)

test('an upload whose session has ended (logged out elsewhere) clears the token and goes to the login page, as any request does', async () => {
  const { makePng } = require('../support/png')
  const file = path.join(shop.dataDir, 'late.png')
  fs.writeFileSync(file, makePng(16, 16, [20, 160, 90]))
  const page = editor
  page.querySelector('.editor-tab-series').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.series-new')).toBeTruthy(), 10000)
  page.querySelector('.series-new').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.design-add')).toBeTruthy())
  page.querySelector('.design-add').dispatchEvent('tap')
  await waitFor(() => expect(page.querySelector('.design-image-0')).toBeTruthy())
  // the operator's session ends on the server (a logout on another device)
  await api('/logout')
  const uploadsBefore = h.state.uploads.length
  const navigationsBefore = h.state.navigations.length
  h.state.chooseImage = { path: file, fail: '' }
  page.querySelector('.design-image-0').dispatchEvent('tap')
  await waitFor(() => expect(h.state.uploads.length).toBe(uploadsBefore + 1), 10000)
  await waitFor(() => expect(h.state.storage.h5_token || '').toBe(''), 10000)
  await waitFor(() => expect(h.state.navigations.slice(navigationsBefore)).toContainEqual({ type: 'reLaunch', url: '/pages/login/index' }), 10000)
}, 30000)
