/**
 * Pictures (types/vision.ts) on both databases:
 * - OCR with the local engine (tesseract from Debian; .ci/run installs it): a label rendered in the test
 *   with Chinese and English lines comes back with its text, lines and confidences; bad files by field;
 *   the engine off says "not configured"; a broken image that still looks like one is a 422.
 * - pic2word through the Dify-compatible fake (the picture as a remote_url file, the question in the
 *   answer's language); word2pic through the fake OpenAI-compatible Images API (auth, body, the
 *   picture stored and served byte for byte, refusals and outages).
 * - the shopper's screenshot upload: stored like an upload, images only, a budget an hour.
 */
import Ajv2020 from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, PREFIX, type TestApp } from './support/app'
import { makePng, multipartBody } from '../support/png'
import { renderText } from '../support/textImage'
import * as difyFake from '../support/providers/dify'
import * as imagesFake from '../support/providers/images'
import { createHash } from 'node:crypto'
import { createCanvas } from '@napi-rs/canvas'
import { FairGate, joinWords, parseTsv, TesseractEngine, type OcrEngine, type OcrLineOut } from '../../server/src/providers/ocr'
import { PIC2WORD_QUERY } from '../../server/src/routes/vision'
import { IMAGE_MAX_PIXELS, UPLOAD_MAX_BYTES, VISION_LIMITS } from '../../types/limits'
import { pngClaiming } from '../support/hugeImages'

/**
 * A picture the engine cannot finish in time: width x height of tiny print, line under line (2000 x
 * 2000 kept tesseract busy past 30 s here). Small as a file (it repeats), and under every size limit.
 */
function densePrint (width: number, height: number): Buffer {
  const canvas = createCanvas(width, height)
  const g = canvas.getContext('2d')
  g.fillStyle = '#ffffff'
  g.fillRect(0, 0, width, height)
  g.fillStyle = '#000000'
  g.font = '10px sans-serif'
  const line = 'ab8x '.repeat(Math.ceil(width / 20))
  for (let y = 10; y < height; y += 12) g.fillText(line, 0, y)
  return canvas.toBuffer('image/png')
}

/** The real engine, watched: which picture each run read (by a name the test gives it), and how many of an account's ran at once. */
class WatchedTesseract extends TesseractEngine {
  readonly started: string[] = []
  readonly names = new Map<string, string>()
  readonly running = new Map<string, number>()
  readonly most = new Map<string, number>()
  name_ (bytes: Buffer, name: string) { this.names.set(createHash('sha256').update(bytes).digest('hex'), name) }
  protected async run (image: Buffer) {
    const name = this.names.get(createHash('sha256').update(image).digest('hex')) ?? '?'
    this.started.push(name)
    this.running.set(name, (this.running.get(name) ?? 0) + 1)
    this.most.set(name, Math.max(this.most.get(name) ?? 0, this.running.get(name)!))
    try { return await super.run(image) } finally { this.running.set(name, this.running.get(name)! - 1) }
  }
}

const squash = (s: string) => s.replace(/\s+/g, '')

/**
 * The real engine, each picture read once per file: the tests below send the same pictures on both
 * databases, and reading one (scaling it down included) is the engine's work alone, no table in it. The
 * second database's app gets the lines the first one's engine read; its route, budgets and media store
 * still run. A reading that fails is not kept.
 */
const readings = new Map<string, Promise<OcrLineOut[]>>()
class ReadOnce extends TesseractEngine {
  protected run (image: Buffer): Promise<OcrLineOut[]> {
    const key = createHash('sha256').update(image).digest('hex')
    let reading = readings.get(key)
    if (!reading) {
      reading = super.run(image)
      readings.set(key, reading)
      reading.catch(() => readings.delete(key))
    }
    return reading
  }
}

test('the engine is installed where the tests run, with Chinese and English (.ci/run installs it)', () => {
  expect(TesseractEngine.available()).toBe(true)
  expect(TesseractEngine.version()).toMatch(/^\d+\.\d+/)
})

test('TSV words become lines: Chinese without the spaces the engine puts in, English with them', () => {
  const tsv = [
    'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
    '1\t1\t0\t0\t0\t0\t0\t0\t100\t100\t-1\t',
    '4\t1\t1\t1\t1\t0\t10\t10\t80\t20\t-1\t',
    '5\t1\t1\t1\t1\t1\t10\t10\t20\t20\t91.5\t运单',
    '5\t1\t1\t1\t1\t2\t30\t10\t10\t20\t88.25\t号',
    '5\t1\t1\t1\t1\t3\t45\t10\t40\t20\t95\tSF123',
    '5\t1\t1\t1\t2\t1\t10\t40\t20\t20\t-1\t ',
    '5\t1\t1\t1\t2\t2\t10\t40\t30\t20\t70\tBlind',
    '5\t1\t1\t1\t2\t3\t45\t40\t30\t20\t80\tbox'
  ].join('\n')
  const lines = parseTsv(tsv)
  expect(lines.map(l => l.text)).toEqual(['运单号 SF123', 'Blind box'])
  expect(lines[0].words[1]).toEqual({ text: '号', confidence: 88.3, box: [30, 10, 10, 20] })
  expect(lines[1].confidence).toBe(75)
  expect(joinWords(['顺丰', '速运', '：', 'SF1', '号'])).toBe('顺丰速运： SF1 号')
})

test('the engine\'s places are shared fairly: one account holds at most one, waiting accounts take turns', async () => {
  const gate = new FairGate(2, 1)
  const log: string[] = []
  const opened = new Map<string, () => void>()
  // each run stays until the test lets it finish
  const job = (who: string, n: number) => gate.run(who, () => new Promise<void>(resolve => { log.push(`${who}${n}`); opened.set(`${who}${n}`, resolve) }))
  const settle = () => new Promise(resolve => setImmediate(resolve))
  const all = [1, 2, 3, 4].map(n => job('a', n))
  await settle()
  // four of a's: one runs, three wait, one place stays free for anyone else
  expect([log, gate.counts]).toEqual([['a1'], { active: 1, waiting: 3 }])
  all.push(job('b', 1))
  await settle()
  expect(log).toEqual(['a1', 'b1'])
  all.push(job('b', 2), job('c', 1))
  await settle()
  expect(gate.counts).toEqual({ active: 2, waiting: 5 })
  // a's place frees: c, never served, goes before a's second (a was served last)
  opened.get('a1')!()
  await settle()
  expect(log).toEqual(['a1', 'b1', 'c1'])
  // b's place frees: a was served before b, so a's second, although b's waited too
  opened.get('b1')!()
  await settle()
  expect(log.slice(3)).toEqual(['a2'])
  // a's place frees: b's second (b served before a's second)
  opened.get('a2')!()
  await settle()
  expect(log.slice(4)).toEqual(['b2'])
  // b's place frees: a's third; c's ending frees a place that a may not take (it holds one)
  opened.get('b2')!()
  await settle()
  expect(log.slice(5)).toEqual(['a3'])
  opened.get('c1')!()
  await settle()
  expect([log.length, gate.counts]).toEqual([6, { active: 1, waiting: 1 }])
  opened.get('a3')!()
  await settle()
  opened.get('a4')!()
  await Promise.all(all)
  expect(log).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4'])
  expect(gate.counts).toEqual({ active: 0, waiting: 0 })
})

describe.each(testDialects())('pictures on %s', (dialect) => {
  let t: TestApp
  let dify: Awaited<ReturnType<typeof difyFake.start>>
  let images: Awaited<ReturnType<typeof imagesFake.start>>
  let shopper: { id: number; token: string }
  let operator: { id: number; token: string }

  const send = async (url: string, bytes: Buffer, o: { field?: string; token?: string; lang?: string; app?: TestApp; type?: string } = {}) => {
    const form = multipartBody(o.field ?? 'file', 'label.png', o.type ?? 'image/png', bytes)
    const res = await (o.app ?? t).app.inject({
      method: 'POST', url: `${PREFIX}${url}`, payload: form.body, remoteAddress: nextIp(),
      headers: { 'content-type': form.contentType, ...(o.token === '' ? {} : { authorization: `Bearer ${o.token ?? shopper.token}` }), 'accept-language': o.lang ?? 'en' }
    })
    return { status: res.statusCode, body: res.json() }
  }
  const mediaCount = async () => Number((await t.db.selectFrom('media').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)
  const account = async (app: TestApp, role: 'shopper' | 'operator') => {
    const u = await makeUser(app.db, app.clock, { role })
    return { id: Number(u.id), token: await loginToken(app.app, u.user_name!, u.password) }
  }

  beforeAll(async () => {
    ;[dify, images] = await Promise.all([difyFake.start(), imagesFake.start()])
    t = await createTestApp(dialect, { env: { ...difyFake.envFor(dify), ...imagesFake.envFor(images) }, build: { ocr: new ReadOnce() } })
    shopper = await account(t, 'shopper')
    operator = await account(t, 'operator')
  })
  afterAll(async () => { await t?.close(); await dify?.close(); await images?.close() })

  test('which helpers are configured: all of them here, none in an app without them', async () => {
    expect((await post(t.app, '/api/helpers', {}, { token: shopper.token, ip: nextIp() })).body.data).toMatchObject({ ai: true, tts: true, ocr: true, word2pic: true, video: false, music: false, priceCompare: false })
    expect((await post(t.app, '/api/helpers', {})).body.code).toBe(401)
    const off = await createTestApp(dialect, { build: { ocr: null, tts: null } })
    try {
      const who = await account(off, 'shopper')
      expect((await post(off.app, '/api/helpers', {}, { token: who.token, ip: nextIp() })).body.data).toMatchObject({ ai: false, tts: false, ocr: false, word2pic: false })
    } finally { await off.close() }
  })

  test('OCR: a parcel label rendered here in Chinese and English comes back as its text, lines and confidences', async () => {
    const label = renderText(['中国上海 顺丰速运', '运单号：SF1402339827156', 'Blind Box Shop'], { px: 36 })
    const r = await send('/api/ocr', label)
    expect(r.status).toBe(200)
    // the answer, its boxes (tuples) included, is what the published OpenAPI 3.1 document (JSON Schema 2020-12) says
    const doc = (await t.app.inject({ method: 'GET', url: `${PREFIX}/openapi.json` })).json()
    const documented = addFormats(new Ajv2020()).compile(doc.paths[`${PREFIX}/api/ocr`].post.responses['200'].content['application/json'].schema)
    expect([documented(r.body), documented.errors]).toEqual([true, null])
    const data = r.body.data
    expect(data).toMatchObject({ engine: expect.stringMatching(/^tesseract \d/), languages: ['zh', 'en'] })
    expect(squash(data.text)).toContain('中国上海')
    expect(squash(data.text)).toContain('顺丰速运')
    expect(data.text).toContain('SF1402339827156')
    expect(data.text).toContain('Blind Box Shop')
    expect(data.lines.length).toBe(3)
    const numberLine = data.lines.find((l: { text: string }) => l.text.includes('SF1402339827156'))
    expect(numberLine.confidence).toBeGreaterThan(60)
    const word = numberLine.words.find((w: { text: string }) => w.text.includes('SF1402339827156'))
    expect(word.confidence).toBeGreaterThan(60)
    // its box lies inside the picture
    expect(word.box[0] + word.box[2]).toBeLessThanOrEqual(data.width)
    expect(word.box[1] + word.box[3]).toBeLessThanOrEqual(data.height)
    // a JPEG photo, slightly turned, with specks: still read
    const photo = renderText(['运单号 YT7512345678901', 'Hello OCR world'], { px: 40, angle: 1.5, noise: 0.02, type: 'jpeg' })
    const p = await send('/api/ocr', photo, { type: 'image/jpeg' })
    expect(p.body.data.text).toContain('YT7512345678901')
    expect(p.body.data.text).toContain('Hello OCR world')
    // nothing is kept
    expect(await mediaCount()).toBe(0)
  }, 60000)

  test('OCR: bad files by field in the caller\'s language, anonymous 401, the engine off or broken', async () => {
    expect((await send('/api/ocr', makePng(8, 8, [0, 0, 0]), { token: '' })).body.code).toBe(401)
    const notImage = await send('/api/ocr', Buffer.from('%PDF-1.4 not a picture'), { lang: 'zh' })
    expect([notImage.body.code, notImage.body.data, notImage.body.message]).toEqual([400, { field: 'file' }, '只能上传 PNG、JPEG、WebP 或 GIF 图片'])
    expect((await send('/api/ocr', makePng(8, 8, [0, 0, 0]), { field: 'photo' })).body).toMatchObject({ code: 400, data: { field: 'file' } })
    const big = await send('/api/ocr', Buffer.concat([makePng(8, 8, [0, 0, 0]), Buffer.alloc(UPLOAD_MAX_BYTES)]))
    expect(big.body).toMatchObject({ code: 422, data: { field: 'file' } })
    // a PNG header over a picture that is not there: the engine cannot read it, the caller is told
    const png = makePng(200, 100, [255, 255, 255])
    const broken = await send('/api/ocr', png.subarray(0, 40))
    expect(broken.body).toMatchObject({ code: 422, data: { field: 'file' }, message: 'This image cannot be read, try another one' })
    // too many pixels for the engine (the header says so; refused before it runs)
    const huge = makePng(1, 1, [0, 0, 0])
    huge.writeUInt32BE(10_000, 16); huge.writeUInt32BE(10_000, 20)
    expect((await send('/api/ocr', huge)).body).toMatchObject({ code: 422, data: { field: 'file' } })
    // a blank picture has no text
    expect((await send('/api/ocr', makePng(120, 60, [255, 255, 255]))).body).toMatchObject({ code: 200, data: { text: '', lines: [] } })

    const off = await createTestApp(dialect, { build: { ocr: null } })
    try {
      const who = await account(off, 'shopper')
      const r = await send('/api/ocr', makePng(8, 8, [0, 0, 0]), { app: off, token: who.token, lang: 'zh' })
      expect(r.body).toEqual({ code: 422, message: '这个商城暂不提供文字识别', data: { provider: 'ocr' } })
    } finally { await off.close() }
  }, 60000)

  test('OCR: 20 a minute per account; an engine failure is a 502 naming OCR', async () => {
    let runs = 0
    const counting: OcrEngine = { name: 'counting', languages: ['zh', 'en'], read: async () => { runs++; return [] } }
    const app = await createTestApp(dialect, { build: { ocr: counting } })
    try {
      const who = await account(app, 'shopper')
      const png = makePng(8, 8, [0, 0, 0])
      for (let i = 0; i < 20; i++) expect((await send('/api/ocr', png, { app, token: who.token })).body.code).toBe(200)
      expect((await send('/api/ocr', png, { app, token: who.token })).body.code).toBe(429)
      expect(runs).toBe(20)
      app.clock.advance(61_000)
      counting.read = async () => { throw new (await import('../../server/src/providers/errors')).ProviderUnavailableError('ocr', 'took too long') }
      expect((await send('/api/ocr', png, { app, token: who.token })).body).toMatchObject({ code: 502, data: { provider: 'ocr' } })
    } finally { await app.close() }
  })

  test('OCR: a picture larger than a phone should decode is refused by its header before the engine runs (the 23-megapixel probe)', async () => {
    const probe = pngClaiming(5600, 4100)
    expect(probe.length).toBeLessThan(5000)
    for (const [lang, message] of [
      ['en', 'The image is too large: at most 16,777,216 pixels (width × height, such as 4096 × 4096); this one is 5600 × 4100'],
      ['zh', '图片尺寸太大：最多 16,777,216 像素（宽 × 高，如 4096 × 4096），这张是 5600 × 4100']
    ]) {
      const r = await send('/api/ocr', probe, { lang })
      expect(r.body).toEqual({ code: 422, message, data: { field: 'file', maxPixels: IMAGE_MAX_PIXELS } })
    }
  })

  test('OCR: a 16-megapixel photo is scaled down before it is read; its words come back in the photo\'s own pixels', async () => {
    const photo = renderText(['SF1402339827156', 'Blind Box Shop'], { px: 200, width: 4096, height: 4000 })
    expect(4096 * 4000).toBeGreaterThan(VISION_LIMITS.ocrMaxPixels)
    const r = await send('/api/ocr', photo)
    expect(r.body).toMatchObject({ code: 200, data: { width: 4096, height: 4000 } })
    expect(r.body.data.text).toContain('SF1402339827156')
    expect(r.body.data.text).toContain('Blind Box Shop')
    const word = r.body.data.lines[0].words.find((w: { text: string }) => w.text.includes('SF1402339827156'))
    // 15 letters of 200 px from x = 200: about 1,900 px wide on the photo (half that on the copy the engine read)
    expect(word.box[0]).toBeGreaterThan(150)
    expect(word.box[0]).toBeLessThan(260)
    expect(word.box[0] + word.box[2]).toBeGreaterThan(1500)
    expect(word.box[0] + word.box[2]).toBeLessThanOrEqual(4096)
  }, 60000)

  // The flood keeps the engine busy to its limit four times over (32 s of a processor): it is run on
  // the first database only, as it reads and writes no table beyond the two accounts it makes.
  const onOneDatabase = dialect === testDialects()[0] ? test : test.skip
  onOneDatabase('OCR: one account\'s flood of pictures too slow to read holds one place; another\'s label is read meanwhile; too slow is a 422 naming why', async () => {
    const engine = new WatchedTesseract(undefined, undefined, { timeoutMs: 8000 })
    const app = await createTestApp(dialect, { build: { ocr: engine } })
    try {
      const flooder = await account(app, 'shopper')
      const other = await account(app, 'shopper')
      const slow = densePrint(2000, 2000)
      const label = renderText(['运单号 SF1402339827156'], { px: 36 })
      engine.name_(slow, 'flood')
      engine.name_(label, 'label')
      const flood = ['en', 'en', 'en', 'zh'].map(lang => send('/api/ocr', slow, { app, token: flooder.token, lang }))
      // all four are in: one reading, three waiting
      for (let i = 0; i < 200 && engine.gate.counts.active + engine.gate.counts.waiting < 4; i++) await new Promise(resolve => setTimeout(resolve, 25))
      expect(engine.gate.counts).toEqual({ active: 1, waiting: 3 })
      const read = await send('/api/ocr', label, { app, token: other.token })
      expect(read.body).toMatchObject({ code: 200 })
      expect(read.body.data.text).toContain('SF1402339827156')
      // the label waited for none of the flood: when it started, only the flood's first had
      expect(engine.started.slice(0, engine.started.indexOf('label'))).toEqual(['flood'])
      const answers = await Promise.all(flood)
      for (const a of answers.slice(0, 3)) {
        expect(a.body).toEqual({ code: 422, message: 'This picture could not be read within 8 seconds: try a smaller one with clearer text', data: { field: 'file', reason: 'timeout' } })
      }
      expect(answers[3].body).toMatchObject({ code: 422, message: '这张图片无法在 8 秒内识别完，请换一张更小、文字更清楚的图片' })
      // never two of one account's pictures at once
      expect(engine.most.get('flood')).toBe(1)
      expect(engine.started.filter(n => n === 'flood')).toHaveLength(4)
    } finally { await app.close() }
  }, 90000)

  test('pic2word: the picture goes to the AI as a remote_url file with the question in the answer\'s language', async () => {
    dify.calls.length = 0
    const url = 'https://shop.example.com/media/u/' + 'a'.repeat(64) + '.png'
    const zh = await post(t.app, '/api/pic/pic2word', { file: url }, { token: shopper.token, lang: 'zh-CN', ip: nextIp() })
    expect(zh.body).toMatchObject({ code: 200, data: { text: `AI answer to: ${PIC2WORD_QUERY.zh} (images: ${url})` } })
    const en = await post(t.app, '/api/pic/pic2word', { file: url, lang: 'en' }, { token: shopper.token, lang: 'zh-CN', ip: nextIp() })
    expect(en.body.data.text).toContain(PIC2WORD_QUERY.en)
    expect(dify.calls[0]).toMatchObject({ user: `shop-user-${shopper.id}`, files: [{ type: 'image', transfer_method: 'remote_url', url }] })
    for (const [body, field] of [[{ file: '/media/u/x.png' }, 'file'], [{ file: 'ftp://x.example/a.png' }, 'file'], [{}, 'file'], [{ file: url, lang: 'fr' }, 'lang']] as const) {
      const r = await post(t.app, '/api/pic/pic2word', body, { token: shopper.token, ip: nextIp() })
      expect([field, r.body.code, r.body.data?.field]).toEqual([field, 400, field])
    }
    expect((await post(t.app, '/api/pic/pic2word', { file: url })).body.code).toBe(401)
    expect(dify.calls.length).toBe(2)
    const off = await createTestApp(dialect)
    try {
      const who = await account(off, 'shopper')
      expect((await post(off.app, '/api/pic/pic2word', { file: url }, { token: who.token, ip: nextIp() })).body).toMatchObject({ code: 422, data: { provider: 'ai' } })
    } finally { await off.close() }
  })

  test('word2pic: the Images API draws, the picture is stored and served byte for byte; operators only', async () => {
    images.calls.length = 0
    const before = await mediaCount()
    const r = await post(t.app, '/api/pic/word2pic', { text: '星际旅人系列封面，蓝色星空', size: '512x512' }, { token: operator.token, ip: nextIp() })
    expect(r.body).toMatchObject({ code: 200, data: { contentType: 'image/png', width: 512, height: 512, url: expect.stringMatching(/^\/media\/u\/[0-9a-f]{64}\.png$/), revisedPrompt: 'A picture of 星际旅人系列封面，蓝色星空' } })
    expect(images.calls).toEqual([{ model: imagesFake.MODEL, prompt: '星际旅人系列封面，蓝色星空', n: 1, size: '512x512', response_format: 'b64_json' }])
    const served = await t.app.inject({ method: 'GET', url: r.body.data.url })
    expect(served.statusCode).toBe(200)
    expect(served.rawPayload.length).toBe(r.body.data.bytes)
    expect(served.rawPayload.subarray(1, 4).toString('ascii')).toBe('PNG')
    expect(await mediaCount()).toBe(before + 1)
    // the default size
    expect((await post(t.app, '/api/pic/word2pic', { text: 'cover' }, { token: operator.token, ip: nextIp() })).body.data).toMatchObject({ width: 1024, height: 1024 })

    // a picture answered by URL is fetched from the provider
    const png = makePng(300, 200, [10, 20, 30])
    images.files.set('0000-1111', png)
    images.next = { json: { created: 1, data: [{ url: `${images.url.replace(/\/v1$/, '')}/files/0000-1111.png` }] } }
    const byUrl = await post(t.app, '/api/pic/word2pic', { text: 'by url' }, { token: operator.token, ip: nextIp() })
    expect(byUrl.body.data).toMatchObject({ width: 300, height: 200, bytes: png.length })
    expect(byUrl.body.data.revisedPrompt).toBeUndefined()

    // a refusal carries the provider's message; an outage or nonsense is a 502; nothing is stored
    const count = await mediaCount()
    const refused = await post(t.app, '/api/pic/word2pic', { text: 'something forbidden' }, { token: operator.token, ip: nextIp() })
    expect(refused.body).toMatchObject({ code: 422, message: 'Your request was rejected as a result of our safety system.', data: { provider: 'imageGen', status: 'content_policy_violation' } })
    for (const trouble of ['http500', 'garbage', { json: { data: [{ b64_json: Buffer.from('not a picture').toString('base64') }] } }, { json: { data: [] } }] as const) {
      images.next = trouble
      const r2 = await post(t.app, '/api/pic/word2pic', { text: 'x' }, { token: operator.token, ip: nextIp() })
      expect(r2.body).toMatchObject({ code: 502, data: { provider: 'imageGen' } })
    }
    expect(await mediaCount()).toBe(count)

    // bad input by field; a shopper is refused before the body is read; anonymous 401
    for (const [body, field] of [[{ text: '' }, 'text'], [{ text: 'x'.repeat(VISION_LIMITS.promptMax + 1) }, 'text'], [{ text: 'a', size: '999x999' }, 'size']] as const) {
      const r3 = await post(t.app, '/api/pic/word2pic', body, { token: operator.token, ip: nextIp() })
      expect([field, r3.body.code, r3.body.data?.field]).toEqual([field, 400, field])
    }
    expect((await post(t.app, '/api/pic/word2pic', { text: '' }, { token: shopper.token, ip: nextIp() })).body.code).toBe(403)
    expect((await post(t.app, '/api/pic/word2pic', { text: 'a' })).body.code).toBe(401)
  })

  test('word2pic: a wrong key is an outage, not the operator\'s fault; unconfigured it says so; 10 a minute', async () => {
    const wrong = await createTestApp(dialect, { env: { ...imagesFake.envFor(images), IMAGE_API_KEY: 'sk-wrong' } })
    try {
      const op = await account(wrong, 'operator')
      expect((await post(wrong.app, '/api/pic/word2pic', { text: 'a' }, { token: op.token, ip: nextIp() })).body).toMatchObject({ code: 502, data: { provider: 'imageGen' } })
    } finally { await wrong.close() }
    const off = await createTestApp(dialect)
    try {
      const op = await account(off, 'operator')
      expect((await post(off.app, '/api/pic/word2pic', { text: 'a' }, { token: op.token, lang: 'zh-CN', ip: nextIp() })).body).toEqual({ code: 422, message: '这个商城暂不提供AI 绘图', data: { provider: 'imageGen' } })
    } finally { await off.close() }
    t.clock.advance(61_000)
    const op2 = await account(t, 'operator')
    for (let i = 0; i < 10; i++) expect((await post(t.app, '/api/pic/word2pic', { text: `n${i}`, size: '256x256' }, { token: op2.token, ip: nextIp() })).body.code).toBe(200)
    expect((await post(t.app, '/api/pic/word2pic', { text: 'n10', size: '256x256' }, { token: op2.token, ip: nextIp() })).body.code).toBe(429)
  })

  test('a shopper\'s screenshot: stored and served like an upload, images only, a budget an hour', async () => {
    const who = await account(t, 'shopper')
    const shot = makePng(90, 160, [200, 100, 50])
    const r = await send('/api/upload/image', shot, { token: who.token })
    expect(r.body).toMatchObject({ code: 200, data: { contentType: 'image/png', width: 90, height: 160, bytes: shot.length } })
    const served = await t.app.inject({ method: 'GET', url: r.body.data.url })
    expect(Buffer.compare(served.rawPayload, shot)).toBe(0)
    expect((await send('/api/upload/image', Buffer.from('<svg/>'), { token: who.token })).body).toMatchObject({ code: 400, data: { field: 'file' } })
    expect((await send('/api/upload/image', shot, { token: '' })).body.code).toBe(401)
    for (let i = 2; i < VISION_LIMITS.shopperUploadsPerHour; i++) expect((await send('/api/upload/image', makePng(4, 4, [i, 0, 0]), { token: who.token })).body.code).toBe(200)
    const over = await send('/api/upload/image', shot, { token: who.token })
    expect(over.body.code).toBe(429)
  })
})
