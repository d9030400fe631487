/**
 * The long-running helper tasks (types/tasks.ts) on both databases:
 * - PDF to images with the local engine: a PDF made here (pdf-lib) is uploaded, becomes PNG pages of the
 *   right count and pixel size (served under /media/u/), with pixels where the PDF drew them; a broken or
 *   encrypted PDF and an engine that dies end at state < 0; only the creator sees a task (others 404);
 *   only the shop's own uploads are accepted (no URL of another host, no SSRF); bad input by field.
 * - Video (Zhipu CogVideoX) and music (gcui-art/suno-api) against local fakes that speak those APIs
 *   with their keys: running, then succeeded or failed; the prompt normalised as spec 5 says; the
 *   provider's refusal and outages; not configured without keys.
 */
import { PDFDocument, rgb } from 'pdf-lib'
import { createCanvas, loadImage } from '@napi-rs/canvas'
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, PREFIX, type TestApp } from './support/app'
import { multipartBody } from '../support/png'
import * as cogvideo from '../support/providers/cogvideo'
import * as suno from '../support/providers/suno'
import { TASK_LIMITS, normaliseMusicPrompt } from '../../types/limits'
import type { PdfEngine } from '../../server/src/engines/pdf'
import { CogVideoClient } from '../../server/src/providers/cogvideo'
import { SunoClient } from '../../server/src/providers/suno'
import { ProviderUnavailableError } from '../../server/src/providers/errors'

/** A PDF of `pages` pages of w x h points, each a red square at the left and a blue one at the right. */
async function makePdf (pages: number, w = 300, h = 200): Promise<Buffer> {
  const doc = await PDFDocument.create()
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([w, h])
    page.drawRectangle({ x: 0, y: 0, width: w / 4, height: h, color: rgb(1, 0, 0) })
    page.drawRectangle({ x: (3 * w) / 4, y: 0, width: w / 4, height: h, color: rgb(0, 0, 1) })
    page.drawText(`Page ${i + 1}`, { x: w / 3, y: h / 2, size: 12 })
  }
  return Buffer.from(await doc.save())
}

const until = async <T>(fn: () => Promise<T>, done: (v: T) => boolean, ms = 30000): Promise<T> => {
  const end = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (done(v) || Date.now() > end) return v
    await new Promise(resolve => setTimeout(resolve, 100))
  }
}

test('the music prompt is normalised as spec 5 says', () => {
  // exactly in the spec's order: the runs become commas first, then only whitespace is trimmed
  expect(normaliseMusicPrompt(' happy\njingle\r\nfor\tboxes ')).toBe('happy,jingle,for,boxes')
  expect(normaliseMusicPrompt('  happy  ')).toBe(',happy,')
  expect(normaliseMusicPrompt('a  b   c d')).toBe('a,b,c d')
  expect(normaliseMusicPrompt('\n\t')).toBe(',,')
  expect(normaliseMusicPrompt('   ')).toBe(',')
})

describe.each(testDialects())('helper tasks on %s', (dialect) => {
  let t: TestApp
  let video: Awaited<ReturnType<typeof cogvideo.start>>
  let music: Awaited<ReturnType<typeof suno.start>>
  let op: string
  let shopper: string
  let other: string
  const call = (url: string, body: unknown, token: string, lang = 'en') => post(t.app, url, body, { token, lang, ip: nextIp() })
  const uploadPdf = async (bytes: Buffer, token = op) => {
    const form = multipartBody('file', 'catalogue.pdf', 'application/pdf', bytes)
    const res = await t.app.inject({
      method: 'POST', url: `${PREFIX}/api/operator/uploadPdf`, payload: form.body, remoteAddress: nextIp(),
      headers: { 'content-type': form.contentType, authorization: `Bearer ${token}`, 'accept-language': 'en' }
    })
    return res.json()
  }
  const pdfTask = (taskId: string, token = op, lang = 'en') => call('/api/queryPDF2ImageTask', { taskId }, token, lang)
  const finished = (taskId: string, token = op, lang = 'en') => until(() => pdfTask(taskId, token, lang), r => r.body.data?.state === 1 || r.body.data?.state < 0)

  beforeAll(async () => {
    video = await cogvideo.start()
    music = await suno.start()
    t = await createTestApp(dialect, { env: { ...cogvideo.envFor(video), ...suno.envFor(music) } })
    const o = await makeUser(t.db, t.clock, { role: 'operator' })
    op = await loginToken(t.app, o.user_name!, o.password)
    const s = await makeUser(t.db, t.clock)
    shopper = await loginToken(t.app, s.user_name!, s.password)
    const x = await makeUser(t.db, t.clock)
    other = await loginToken(t.app, x.user_name!, x.password)
  })
  afterAll(async () => { await t?.close(); await video?.close(); await music?.close() })

  test('features: what is configured here', async () => {
    const r = await t.app.inject({ method: 'POST', url: `${PREFIX}/api/helpers`, headers: { authorization: `Bearer ${shopper}` }, payload: {} })
    expect(r.json().data).toMatchObject({ pdf: true, video: true, music: true })
  })

  test('a PDF made here becomes PNG pages of the right count and size, served back, with the colours where the PDF drew them', async () => {
    const up = await uploadPdf(await makePdf(3, 300, 200))
    expect(up).toMatchObject({ code: 200, data: { contentType: 'application/pdf', url: expect.stringMatching(/^\/media\/u\/[0-9a-f]{64}\.pdf$/) } })
    const served = await t.app.inject({ method: 'GET', url: up.data.url })
    expect([served.statusCode, served.headers['content-type']]).toEqual([200, 'application/pdf'])
    // a shopper may view it (e.g. an invoice the shop sent), with the spec's default format
    const created = await call('/api/pdf2image', { url: up.data.url }, shopper)
    expect(created.body).toMatchObject({ code: 200, data: { state: 0, taskId: expect.any(String) } })
    const done = await finished(created.body.data.taskId, shopper)
    expect(done.body.data).toMatchObject({ state: 1, pageCount: 3, truncated: false, message: '' })
    expect(done.body.data.pages).toHaveLength(3)
    for (const page of done.body.data.pages) {
      // 300 x 200 points drawn with the longer side at pdfMaxSide pixels
      expect([page.width, page.height]).toEqual([TASK_LIMITS.pdfMaxSide, Math.round(TASK_LIMITS.pdfMaxSide * 2 / 3)])
      const png = await t.app.inject({ method: 'GET', url: page.url })
      expect([png.statusCode, png.headers['content-type']]).toEqual([200, 'image/png'])
      const image = await loadImage(png.rawPayload)
      expect([image.width, image.height]).toEqual([page.width, page.height])
      const canvas = createCanvas(image.width, image.height)
      const g = canvas.getContext('2d')
      g.drawImage(image, 0, 0)
      const at = (x: number, y: number) => Array.from(g.getImageData(x, y, 1, 1).data.slice(0, 3))
      expect(at(20, 100)).toEqual([255, 0, 0])
      expect(at(image.width - 20, 100)).toEqual([0, 0, 255])
      expect(at(Math.round(image.width * 0.3), 10)).toEqual([255, 255, 255])
    }
    // pages differ (each says its number), so they are three images
    expect(new Set(done.body.data.pages.map((p: { url: string }) => p.url)).size).toBe(3)
    // explicit format, a URL with our origin: the same PDF again
    const again = await call('/api/pdf2image', { url: `https://shop.example.com${up.data.url}`, format: 'pdf-to-image' }, op)
    expect((await finished(again.body.data.taskId)).body.data.state).toBe(1)
  }, 60000)

  test('a long PDF: only the first pages are drawn, the count says how many there are', async () => {
    const up = await uploadPdf(await makePdf(TASK_LIMITS.pdfMaxPages + 2, 100, 100))
    const created = await call('/api/pdf2image', { url: up.data.url }, op)
    const done = await finished(created.body.data.taskId)
    expect(done.body.data).toMatchObject({ state: 1, pageCount: TASK_LIMITS.pdfMaxPages + 2, truncated: true })
    expect(done.body.data.pages).toHaveLength(TASK_LIMITS.pdfMaxPages)
  }, 90000)

  test('a task is its creator\'s: anyone else, and an unknown id, hear 404', async () => {
    const up = await uploadPdf(await makePdf(1))
    const created = await call('/api/pdf2image', { url: up.data.url }, shopper)
    const id = created.body.data.taskId
    await finished(id, shopper)
    expect((await pdfTask(id, other)).body).toMatchObject({ code: 404, data: null })
    expect((await pdfTask('A'.repeat(32), shopper)).body.code).toBe(404)
    expect((await post(t.app, '/api/queryPDF2ImageTask', { taskId: id })).body.code).toBe(401)
  }, 30000)

  test('a broken PDF ends below 0 with the reason in the caller\'s language', async () => {
    const broken = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x41)])
    const up = await uploadPdf(broken)
    expect(up.code).toBe(200)
    const created = await call('/api/pdf2image', { url: up.data.url }, op)
    const done = await finished(created.body.data.taskId, op, 'zh')
    expect(done.body.data).toMatchObject({ state: -1, pages: [], message: '文件不是可读的 PDF' })
  }, 30000)

  test('an engine that gives up (its time limit) fails the task: state < 0 with the reason', async () => {
    const dying: PdfEngine = { name: 'dying', render: async () => { const { PdfRenderError } = await import('../../server/src/engines/pdf'); throw new PdfRenderError('timeout', 'too long') } }
    const t2 = await createTestApp(dialect, { build: { pdf: dying } })
    try {
      const o = await makeUser(t2.db, t2.clock, { role: 'operator' })
      const token = await loginToken(t2.app, o.user_name!, o.password)
      const form = multipartBody('file', 'a.pdf', 'application/pdf', await makePdf(1))
      const up = (await t2.app.inject({ method: 'POST', url: `${PREFIX}/api/operator/uploadPdf`, payload: form.body, headers: { 'content-type': form.contentType, authorization: `Bearer ${token}` } })).json()
      const created = (await post(t2.app, '/api/pdf2image', { url: up.data.url }, { token, ip: nextIp() })).body
      const done = await until(() => post(t2.app, '/api/queryPDF2ImageTask', { taskId: created.data.taskId }, { token, ip: nextIp() }), r => r.body.data?.state !== 0 && r.body.data?.state !== 2)
      expect(done.body.data).toMatchObject({ state: -1, message: 'Converting the PDF took too long' })
    } finally { await t2.close() }
  }, 30000)

  test('a task lost by a restart fails once it is stale (no poll goes on for ever)', async () => {
    const row = { id: 'lost-task-0123456789abcdef', kind: 'pdf' as const, user_id: 0, status: 'running' as const, provider_id: null, source: 'x', page_count: 2, result: null, error: null }
    const owner = await makeUser(t.db, t.clock)
    const token = await loginToken(t.app, owner.user_name!, owner.password)
    const at = new Date(t.clock.now()).toISOString()
    await t.db.insertInto('helper_tasks').values({ ...row, user_id: Number(owner.id), created_at: at, updated_at: at }).execute()
    expect((await pdfTask(row.id, token)).body.data.state).toBe(2)
    t.clock.advance(TASK_LIMITS.pdfStaleMs + 1)
    expect((await pdfTask(row.id, token)).body.data).toMatchObject({ state: -1, message: expect.stringContaining('interrupted') })
  })

  test('only the shop\'s own PDFs: other hosts\' URLs, other files and unknown ones are refused, nothing is created', async () => {
    const count = async () => Number((await t.db.selectFrom('helper_tasks').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)
    const before = await count()
    const png = `/media/u/${'a'.repeat(64)}.png`
    for (const url of ['http://127.0.0.1:22/x.pdf', 'file:///etc/passwd', `/media/u/${'a'.repeat(64)}.pdf?x=1`, png, '/media/u/../x.pdf', '']) {
      const r = await call('/api/pdf2image', { url }, op, 'zh')
      expect([url, r.body.code, r.body.data?.field]).toEqual([url, 400, 'url'])
    }
    expect((await call('/api/pdf2image', { url: `/media/u/${'b'.repeat(64)}.pdf` }, op)).body.code).toBe(404)
    expect((await call('/api/pdf2image', { url: `/media/u/${'b'.repeat(64)}.pdf`, format: 'jpg' }, op)).body.data.field).toBe('format')
    expect(await count()).toBe(before)
    // not a PDF: refused at upload; a shopper cannot upload
    expect((await uploadPdf(Buffer.from('hello, not a pdf'))).data.field).toBe('file')
    expect((await uploadPdf(await makePdf(1), shopper)).code).toBe(403)
  })

  test('video: created, running while the provider works, then succeeded with the video; its key and body as CogVideoX wants them', async () => {
    const created = await call('/api/text2video', { text: '星际旅人盲盒，六位伙伴在星海间旅行' }, op)
    expect(created.body).toMatchObject({ code: 200, data: { status: 'running', id: expect.any(String) } })
    const sent = video.calls.find(c => c.kind === 'create')!
    expect(sent).toMatchObject({ body: { model: 'cogvideox-flash', prompt: '星际旅人盲盒，六位伙伴在星海间旅行', request_id: created.body.data.id } })
    const q = () => call('/api/queryVideo', { id: created.body.data.id }, op)
    expect((await q()).body.data).toMatchObject({ status: 'running', videoUrl: null })
    expect((await q()).body.data.status).toBe('running')
    const done = (await q()).body.data
    expect(done).toMatchObject({ status: 'succeeded', videoUrl: expect.stringMatching(/^https:\/\/.*\.mp4$/), coverUrl: expect.stringMatching(/cover/) })
    // kept: asking again does not ask the provider
    const calls = video.calls.length
    expect((await q()).body.data).toEqual(done)
    expect(video.calls.length).toBe(calls)
    // prompt instead of text; someone else's task is 404
    expect((await call('/api/text2video', { prompt: 'a jingle' }, op)).body.code).toBe(200)
    expect((await call('/api/queryVideo', { id: created.body.data.id }, other)).body.code).toBe(404)
  })

  test('video: failed is a final state with a message; refusals are 422 with the provider\'s words; outages 502; bad input by field', async () => {
    const created = await call('/api/text2video', { text: 'please fail' }, op)
    let r
    for (let i = 0; i < 4; i++) r = await call('/api/queryVideo', { id: created.body.data.id }, op, 'zh')
    expect(r!.body.data).toMatchObject({ status: 'failed', videoUrl: null, message: '视频生成失败' })
    const refused = await call('/api/text2video', { text: 'forbidden words' }, op)
    expect(refused.body).toMatchObject({ code: 422, data: { provider: 'video', status: '1301' } })
    video.next = 'http500'
    expect((await call('/api/text2video', { text: 'x' }, op)).body).toMatchObject({ code: 502, data: { provider: 'video' } })
    for (const [body, field] of [[{}, ''], [{ text: '' }, 'text'], [{ text: 'x'.repeat(501) }, 'text'], [{ text: 'a', extra: 1 }, 'extra'], [{ text: '   ' }, 'text']] as const) {
      const res = await call('/api/text2video', body, op)
      expect([JSON.stringify(body), res.body.code]).toEqual([JSON.stringify(body), 400])
      if (field) expect(res.body.data?.field).toBe(field)
    }
  })

  test('music: the prompt is sent normalised, two clips are polled by item_ids to succeeded; failed; ownership', async () => {
    const created = await call('/api/text2music', { prompt: ' cheerful\tjingle\nfor   a blind box ' }, op)
    expect(created.body).toMatchObject({ code: 200, data: { prompt: 'cheerful,jingle,for,a blind box' } })
    expect(music.calls.at(-1)).toMatchObject({ kind: 'generate', body: { prompt: 'cheerful,jingle,for,a blind box', wait_audio: false } })
    const ids = created.body.data.item_ids
    expect(ids).toHaveLength(2)
    const q = (token = op) => call('/api/queryMusic', { item_ids: ids }, token)
    expect((await q()).body.data.status).toBe('running')
    expect((await q()).body.data.status).toBe('running')
    const done = (await q()).body.data
    expect(done.status).toBe('succeeded')
    expect(done.items).toEqual(ids.map((id: string) => expect.objectContaining({ id, status: 'succeeded', audioUrl: expect.stringMatching(/\.mp3$/), durationS: 30.5 })))
    const gets = music.calls.length
    expect((await q()).body.data).toEqual(done)
    expect(music.calls.length).toBe(gets)
    expect((await q(other)).body.code).toBe(404)
    expect((await call('/api/queryMusic', { item_ids: [ids[0], 'Z'.repeat(20)] }, op)).body.code).toBe(404)

    const failing = await call('/api/text2music', { prompt: 'fail please' }, op)
    let r
    for (let i = 0; i < 4; i++) r = await call('/api/queryMusic', { item_ids: failing.body.data.item_ids }, op)
    expect(r!.body.data.status).toBe('failed')
    expect((await call('/api/text2music', { prompt: ' \n\t ' }, op)).body).toMatchObject({ code: 400 })
    expect((await call('/api/queryMusic', { item_ids: [] }, op)).body.data.field).toBe('item_ids')
    music.next = 'garbage'
    expect((await call('/api/text2music', { prompt: 'x' }, op)).body).toMatchObject({ code: 502, data: { provider: 'music' } })
  })
})

describe('the adapters against the fakes', () => {
  test('CogVideoX: the Bearer key is checked (a wrong one is an outage), refusals carry the provider\'s code, unknown task_status is an outage', async () => {
    const fake = await cogvideo.start()
    try {
      const good = new CogVideoClient(fake.url, cogvideo.KEY, 'cogvideox-flash')
      const id = await good.create('a prompt', 'req-1')
      expect(fake.tasks.get(id)).toMatchObject({ prompt: 'a prompt' })
      expect(await good.result(id)).toEqual({ status: 'running' })
      await expect(new CogVideoClient(fake.url, 'wrong', 'cogvideox-flash').create('a prompt', 'r')).rejects.toBeInstanceOf(ProviderUnavailableError)
      await expect(new CogVideoClient(fake.url, cogvideo.KEY, 'no-such-model').create('x', 'r')).rejects.toMatchObject({ name: 'ProviderRefusedError', status: '1211' })
      await expect(good.result('nope')).rejects.toMatchObject({ name: 'ProviderRefusedError', status: '1205' })
      fake.next = { json: { task_status: 'WEIRD' } }
      await expect(good.result(id)).rejects.toBeInstanceOf(ProviderUnavailableError)
      fake.next = { json: { task_status: 'SUCCESS', video_result: [{ url: 'javascript:alert(1)' }] } }
      await expect(good.result(id)).rejects.toBeInstanceOf(ProviderUnavailableError)
    } finally { await fake.close() }
  })

  test('Suno-style: the gateway key is checked, two clips come back, their states map to running / succeeded / failed', async () => {
    const fake = await suno.start()
    fake.pollsBeforeDone = 0
    try {
      const good = new SunoClient(fake.url, suno.KEY)
      const clips = await good.generate('a,jingle')
      expect(clips.map(c => c.status)).toEqual(['running', 'running'])
      const again = await good.get(clips.map(c => c.providerId))
      expect(again.map(c => [c.status, c.durationS])).toEqual([['succeeded', 30.5], ['succeeded', 30.5]])
      await expect(new SunoClient(fake.url, null).generate('x')).rejects.toBeInstanceOf(ProviderUnavailableError)
      await expect(new SunoClient(fake.url, 'wrong').get(['a'])).rejects.toBeInstanceOf(ProviderUnavailableError)
      await expect(good.generate('not\nnormalised')).rejects.toMatchObject({ name: 'ProviderRefusedError', detail: 'prompt was not normalised' })
      fake.next = { json: [{ title: 'no id' }] }
      await expect(good.get(['x'])).rejects.toBeInstanceOf(ProviderUnavailableError)
    } finally { await fake.close() }
  })
})

describe.each(testDialects())('helper tasks unconfigured on %s', (dialect) => {
  let t: TestApp
  let token: string
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { PDF_ENGINE: 'off' } })
    const u = await makeUser(t.db, t.clock)
    token = await loginToken(t.app, u.user_name!, u.password)
  })
  afterAll(async () => { await t?.close() })

  test('every task call says which provider is not configured; features say so too', async () => {
    for (const [url, body, provider] of [
      ['/api/pdf2image', { url: `/media/u/${'a'.repeat(64)}.pdf` }, 'pdf'],
      ['/api/text2video', { text: 'x' }, 'video'],
      ['/api/text2music', { prompt: 'x' }, 'music']
    ] as const) {
      const r = await post(t.app, url, body, { token, lang: 'en', ip: nextIp() })
      expect([url, r.body.code, r.body.data]).toEqual([url, 422, { provider }])
      expect(r.body.message).toMatch(/is not available in this shop$/)
    }
    const r = await t.app.inject({ method: 'POST', url: `${PREFIX}/api/helpers`, headers: { authorization: `Bearer ${token}` }, payload: {} })
    expect(r.json().data).toMatchObject({ pdf: false, video: false, music: false })
  })
})
