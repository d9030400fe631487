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
import { createHash } from 'node:crypto'
import zlib from 'node:zlib'
import { concatTransformationMatrix, drawObject, PDFDocument, PDFName, popGraphicsState, pushGraphicsState, rgb } from 'pdf-lib'
import { createCanvas, loadImage } from '@napi-rs/canvas'
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, PREFIX, type TestApp } from './support/app'
import { multipartBody } from '../support/png'
import * as cogvideo from '../support/providers/cogvideo'
import * as suno from '../support/providers/suno'
import { TASK_LIMITS, normaliseMusicPrompt } from '../../types/limits'
import { PdfjsEngine, type PdfEngine, type RenderLimits } from '../../server/src/engines/pdf'
import { hasPrlimit } from '../../server/src/engines/bounded'
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

/**
 * The attacker's PDF: one page showing one side x side greyscale picture of zeros, deflated (20000 x
 * 20000 is 400 MB of pixels in a 389 KB file; drawn, 1.6 GB of RGBA).
 */
async function hugeImagePdf (side: number): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const page = doc.addPage([300, 300])
  const deflate = zlib.createDeflate({ level: 9 })
  const chunks: Buffer[] = []
  deflate.on('data', (c: Buffer) => chunks.push(c))
  const ended = new Promise(resolve => deflate.on('end', resolve))
  const row = Buffer.alloc(side)
  for (let y = 0; y < side; y++) if (!deflate.write(row)) await new Promise(resolve => deflate.once('drain', resolve))
  deflate.end()
  await ended
  const image = doc.context.register(doc.context.stream(Buffer.concat(chunks), {
    Type: 'XObject', Subtype: 'Image', Width: side, Height: side, ColorSpace: 'DeviceGray', BitsPerComponent: 8, Filter: 'FlateDecode'
  }))
  page.node.setXObject(PDFName.of('Im0'), image)
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(300, 0, 0, 300, 0, 0), drawObject('Im0'), popGraphicsState())
  return Buffer.from(await doc.save())
}
let hugePdf: Promise<Buffer> | null = null
const attackersPdf = () => (hugePdf ??= hugeImagePdf(20000))

const LIMITS: RenderLimits = {
  maxPages: TASK_LIMITS.pdfMaxPages, maxSide: TASK_LIMITS.pdfMaxSide, maxBytes: TASK_LIMITS.pdfMaxOutputBytes,
  maxImagePixels: TASK_LIMITS.pdfMaxImagePixels, memoryBytes: TASK_LIMITS.pdfMemoryMb * 1024 * 1024, timeoutMs: 60_000
}

/**
 * The real engine, watched: which PDF each render drew (by a name the test gives it). A held name's
 * drawing starts only when the test lets it go (the task is being drawn meanwhile, as a long PDF is).
 */
class WatchedPdf extends PdfjsEngine {
  readonly started: string[] = []
  readonly names = new Map<string, string>()
  private readonly held = new Map<string, { gate: Promise<void>; open: () => void }>()
  name_ (pdf: Buffer, name: string) { this.names.set(createHash('sha256').update(pdf).digest('hex'), name) }
  hold (name: string) {
    let open = () => {}
    const gate = new Promise<void>(resolve => { open = resolve })
    this.held.set(name, { gate, open })
  }

  letGo (name: string) { this.held.get(name)?.open() }
  async render (...args: Parameters<PdfjsEngine['render']>) {
    const name = this.names.get(createHash('sha256').update(args[0]).digest('hex')) ?? '?'
    this.started.push(name)
    await this.held.get(name)?.gate
    return super.render(...args)
  }
}

test('the renderer\'s memory is bounded by the kernel: with the picture check off, the attacker\'s PDF is refused memory at its limit, not drawn with gigabytes', async () => {
  expect(hasPrlimit()).toBe(true)
  const pdf = await attackersPdf()
  expect(pdf.length).toBeLessThan(400 * 1024)
  const drawn: number[] = []
  // unbounded, this drawing peaked at 4.4 GB of RSS; under prlimit --data it dies near 512 MB
  await expect(new PdfjsEngine().render(pdf, { ...LIMITS, maxImagePixels: -1 }, () => undefined, async p => { drawn.push(p.page) }))
    .rejects.toMatchObject({ name: 'PdfRenderError', reason: 'memory' })
  expect(drawn).toEqual([])
  // the same engine draws an ordinary PDF under the same limit
  const pages: number[] = []
  await new PdfjsEngine().render(await makePdf(1), LIMITS, () => undefined, async p => { pages.push(p.page) })
  expect(pages).toEqual([1])
}, 60000)

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

  test('a PDF of one 20000 x 20000 picture (389 KB) fails naming the limit in pixels, the picture never decoded; the server stays up', async () => {
    const pdf = await attackersPdf()
    const rssBefore = process.memoryUsage().rss
    const up = await uploadPdf(pdf)
    const created = await call('/api/pdf2image', { url: up.data.url }, shopper)
    const done = await finished(created.body.data.taskId, shopper)
    expect(done.body.data).toMatchObject({ state: -1, pages: [], pageCount: 1, message: 'A picture in the PDF is too large to convert: at most 16,777,216 pixels (width × height)' })
    expect((await pdfTask(created.body.data.taskId, shopper, 'zh')).body.data.message).toBe('PDF 里有一张图片太大：最多 16,777,216 像素（宽 × 高），无法转换')
    // drawn in a child process: this one did not grow by the picture's 1.6 GB, and answers
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(256 * 1024 * 1024)
    expect((await call('/api/helpers', {}, shopper)).body.code).toBe(200)
    // a picture at the limit is drawn
    const edge = await uploadPdf(await hugeImagePdf(4096))
    const ok = await call('/api/pdf2image', { url: edge.data.url }, shopper)
    expect((await finished(ok.body.data.taskId, shopper)).body.data).toMatchObject({ state: 1, pageCount: 1 })
  }, 90000)

  test('the PDF line is shared: one account holds at most its share, and another account\'s PDF is drawn before the first one\'s second', async () => {
    const engine = new WatchedPdf()
    const t2 = await createTestApp(dialect, { build: { pdf: engine } })
    try {
      const account = async (role: 'operator' | 'shopper') => { const u = await makeUser(t2.db, t2.clock, { role }); return loginToken(t2.app, u.user_name!, u.password) }
      const [a, b, c] = [await account('operator'), await account('shopper'), await account('shopper')]
      const upload = async (pdf: Buffer, name: string) => {
        engine.name_(pdf, name)
        const form = multipartBody('file', `${name}.pdf`, 'application/pdf', pdf)
        return (await t2.app.inject({ method: 'POST', url: `${PREFIX}/api/operator/uploadPdf`, payload: form.body, headers: { 'content-type': form.contentType, authorization: `Bearer ${a}` } })).json().data.url as string
      }
      // a's first is still being drawn while the others arrive: held at the engine until they are all in
      // line (a PDF long enough to outlast them took 8-10 s of drawing, and more on a loaded machine)
      engine.hold('a1')
      // one page each (the turns are what counts), of four sizes so that they are four PDFs
      const [a1, a2, b1, c1] = [await upload(await makePdf(1, 300), 'a1'), await upload(await makePdf(1, 310), 'a2'), await upload(await makePdf(1, 320), 'b1'), await upload(await makePdf(1, 330), 'c1')]
      const create = (url: string, token: string, lang = 'en') => post(t2.app, '/api/pdf2image', { url }, { token, lang, ip: nextIp() })
      const ids = [(await create(a1, a)).body.data.taskId, (await create(a2, a)).body.data.taskId]
      const third = await create(b1, a)
      expect(third.body).toEqual({ code: 429, message: 'You already have 2 PDFs waiting to be converted: try again when one is done', data: null })
      expect((await create(b1, a, 'zh')).body.message).toBe('你已有 2 个 PDF 在排队转换，请等其中一个完成后再试')
      ids.push((await create(b1, b)).body.data.taskId)
      // three at once from one account: two places, taken once each
      const burst = await Promise.all([create(c1, c), create(c1, c), create(c1, c)])
      expect(burst.map(r => r.body.code).sort()).toEqual([200, 200, 429])
      ids.push(...burst.filter(r => r.body.code === 200).map(r => r.body.data.taskId))
      engine.letGo('a1')
      const tokens = [a, a, b, c, c]
      for (const [i, id] of ids.entries()) {
        const done = await until(() => post(t2.app, '/api/queryPDF2ImageTask', { taskId: id }, { token: tokens[i], ip: nextIp() }), r => r.body.data?.state === 1 || r.body.data?.state < 0, 60000)
        expect(done.body.data.state).toBe(1)
      }
      // turns: a's first, then b's and c's before a's second, then c's second
      expect(engine.started).toEqual(['a1', 'b1', 'c1', 'a2', 'c1'])
    } finally { await t2.close() }
  }, 120000)

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
