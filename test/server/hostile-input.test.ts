/**
 * Holes an attacker's probe found (issues 7 and 21), kept as tests on SQLite and PostgreSQL: huge pages,
 * ids beyond a bigint, control characters in strings, pictures small as files and enormous once
 * decoded. Each answers a 400/422 naming the field, never a 500, and changes nothing. (The table API's
 * share is in data-api.test.ts; the fuzz test covers the rest; PDFs in tasks.test.ts, OCR in
 * vision.test.ts.)
 */
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, PREFIX, type TestApp } from './support/app'
import { makeSeries, makeShopper, type Shopper } from './support/shop'
import { makePng, multipartBody } from '../support/png'
import { gifWithFrame, jpegClaiming, pngClaiming, webpClaiming } from '../support/hugeImages'
import { IMAGE_MAX_PIXELS } from '../../types/limits'
import { sniffImage } from '../../types/imageHeader'

const HUGE_PAGE = 1e17
/** 2^63 + 1 in JSON: beyond PostgreSQL's bigint (and JavaScript's safe integers). */
const BEYOND_BIGINT = '9223372036854775809'

describe.each(testDialects())('hostile input on %s', (dialect) => {
  let t: TestApp
  let shopper: Shopper
  beforeAll(async () => {
    t = await createTestApp(dialect)
    await makeSeries(t.db, t.clock)
    shopper = await makeShopper(t.app, t.db, t.clock)
  })
  afterAll(async () => { await t.close() })

  /** Posts raw JSON text (so numbers beyond double precision reach the server as written). */
  const raw = (path: string, json: string, token?: string) => t.app.inject({
    method: 'POST',
    url: `/dev-api${path}`,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: json
  })

  test('a page of 10^17 on every paged call is a 400 naming page', async () => {
    for (const path of ['/api/seriesList', '/api/walletLedger', '/api/prizeList']) {
      const r = await post(t.app, path, { page: HUGE_PAGE, size: 10 }, { token: shopper.token })
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({ code: 400, data: { field: 'page', rule: 'maximum' } })
    }
    // the largest page allowed is answered (empty), not a 500
    const last = await post(t.app, '/api/seriesList', { page: 100000, size: 100 })
    expect(last.body).toMatchObject({ code: 200, data: { list: [] } })
  })

  test('ids beyond a bigint are a 400 naming the field', async () => {
    const cases: Array<[string, string]> = [
      ['/api/seriesDetail', 'seriesId'], ['/api/caseCurrent', 'seriesId'], ['/api/caseSwitch', 'seriesId'],
      ['/api/caseProof', 'caseId'], ['/api/prizeDetail', 'prizeId']
    ]
    for (const [path, field] of cases) {
      for (const value of [BEYOND_BIGINT, '9007199254740993', '1e300']) {
        const res = await raw(path, `{"${field}": ${value}}`, shopper.token)
        expect(res.statusCode).toBe(200)
        expect(res.json()).toMatchObject({ code: 400, data: { field, rule: 'maximum' } })
      }
    }
    const purchase = await raw('/api/casePurchase', `{"caseId": ${BEYOND_BIGINT}, "slots": [1], "acknowledged": true, "idempotencyKey": "hostile-key-1"}`, shopper.token)
    expect(purchase.json()).toMatchObject({ code: 400, data: { field: 'caseId' } })
  })

  test('\\u0000 and other control characters in strings are a 400 naming the field; nothing is stored', async () => {
    const report = { error_message: 'boom', path: '/pagesA/home/index', type: 'error', sub_source: 'h5', app_id: 'shop' }
    const before = await t.db.selectFrom('error_reports').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    for (const field of Object.keys(report) as Array<keyof typeof report>) {
      for (const bad of ['a\u0000b', 'a\u0007b', 'a\u001bb', 'a\u007fb']) {
        const r = await post(t.app, '/error/report', { ...report, [field]: bad }, { lang: 'en' })
        expect(r.body).toMatchObject({ code: 400, data: { field, rule: 'pattern' } })
        expect(r.body.message).toBe(`${field} must not contain control characters`)
      }
    }
    // a stack trace keeps its line breaks and tabs
    expect((await post(t.app, '/error/report', { ...report, error_message: 'Error: x\n\tat f (a.js:1:2)\r\n' })).body.code).toBe(200)
    const after = await t.db.selectFrom('error_reports').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    expect(Number(after.n) - Number(before.n)).toBe(1)

    const zh = await post(t.app, '/generalOrder/getUniqueOrderNo', { productId: 'wallet\u0000topup', userId: shopper.id }, { token: shopper.token, lang: 'zh' })
    expect(zh.body).toEqual({ code: 400, message: 'productId 不能包含控制字符', data: { field: 'productId', rule: 'pattern' } })
    const name = await post(t.app, '/login/passwd', { user_name: 'bob\u0000', password: 'secret-pw' })
    expect(name.body).toMatchObject({ code: 400, data: { field: 'user_name' } })
  })

  test('the table API: a huge page, ids beyond a bigint, control characters in address fields', async () => {
    const invoke = (table: string, method: string, json: string) =>
      raw(`/api/data/invoke?table=${table}&method=${method}`, json, shopper.token)
    expect((await invoke('series', 'page', `{"page": ${HUGE_PAGE}, "size": 10}`)).json()).toMatchObject({ code: 400, data: { field: 'page', rule: 'maximum' } })
    expect((await invoke('prizes', 'page', `{"page": ${HUGE_PAGE}, "size": 10}`)).json()).toMatchObject({ code: 400, data: { field: 'page' } })
    for (const table of ['series', 'designs', 'cases', 'addresses', 'prizes']) {
      expect((await invoke(table, 'get', `{"id": ${BEYOND_BIGINT}}`)).json()).toMatchObject({ code: 400, data: { field: 'id', rule: 'maximum' } })
    }
    expect((await invoke('addresses', 'delete', `{"id": ${BEYOND_BIGINT}}`)).json()).toMatchObject({ code: 400, data: { field: 'id' } })
    expect((await invoke('designs', 'list', `{"where": {"series_id": ${BEYOND_BIGINT}}}`)).json()).toMatchObject({ code: 400, data: { field: 'where.series_id' } })
    const address = { name: 'Ada', phone: '13800138000', region: 'Shanghai', detail: 'No. 1 Road' }
    for (const field of ['name', 'region', 'detail'] as const) {
      const r = await post(t.app, '/api/data/invoke', { ...address, [field]: 'x\u0000y' }, { token: shopper.token, query: { table: 'addresses', method: 'add' } })
      expect(r.body).toMatchObject({ code: 400, data: { field, rule: 'pattern' } })
    }
    const list = await post(t.app, '/api/data/invoke', {}, { token: shopper.token, query: { table: 'addresses', method: 'list' } })
    expect(list.body).toEqual({ code: 200, message: 'OK', data: [] })
  })

  test('answers carry only the fields of their schema', async () => {
    const me = await t.app.inject({ method: 'GET', url: '/dev-api/getUserInfo', headers: { authorization: `Bearer ${shopper.token}` } })
    const user = me.json().data
    expect(Object.keys(user).sort()).toEqual(['avatar', 'email', 'id', 'nickname', 'phone', 'role', 'userName'])
    expect(me.body).not.toMatch(/password|hash/i)
  })
})

describe.each(testDialects())('pictures enormous once decoded, on %s', (dialect) => {
  let t: TestApp
  let operator: string
  let shopper: string
  beforeAll(async () => {
    t = await createTestApp(dialect)
    const o = await makeUser(t.db, t.clock, { role: 'operator' })
    operator = await loginToken(t.app, o.user_name!, o.password)
    const s = await makeUser(t.db, t.clock)
    shopper = await loginToken(t.app, s.user_name!, s.password)
  })
  afterAll(async () => { await t.close() })

  const send = async (url: string, bytes: Buffer, token: string, lang = 'en') => {
    const form = multipartBody('file', 'picture', 'image/png', bytes)
    const res = await t.app.inject({
      method: 'POST', url: `${PREFIX}${url}`, payload: form.body, remoteAddress: nextIp(),
      headers: { 'content-type': form.contentType, authorization: `Bearer ${token}`, 'accept-language': lang }
    })
    return res.json()
  }
  const mediaCount = async () => Number((await t.db.selectFrom('media').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)

  // every format, its size read from its header: the probe's 150 KB-class PNG of 30000 x 30000 first
  const hostile: Array<[string, Buffer, number, number]> = [
    ['PNG', pngClaiming(30000, 30000), 30000, 30000],
    ['PNG one pixel over', pngClaiming(4097, 4096), 4097, 4096],
    ['JPEG after 64 KB of EXIF', jpegClaiming(20000, 15000, 65000), 20000, 15000],
    ['GIF with a frame far beyond its screen', gifWithFrame(16, 16, 100, 0, 60000, 400), 60100, 400],
    ['WebP (VP8X)', webpClaiming(16384, 16384), 16384, 16384]
  ]

  test.each(hostile)('%s: read from the header, never decoded', (_, bytes, width, height) => {
    expect(bytes.length).toBeLessThan(70_000)
    expect(sniffImage(bytes)).toMatchObject({ width, height })
  })

  test('uploads (operator pictures, a shopper\'s screenshot, OCR) refuse each with a 422 naming the limit in pixels, in the caller\'s language; nothing is kept', async () => {
    const before = await mediaCount()
    for (const [, bytes, width, height] of hostile) {
      for (const [url, token] of [['/api/operator/upload', operator], ['/api/upload/image', shopper], ['/api/ocr', shopper]] as const) {
        const en = await send(url, bytes, token)
        expect(en).toEqual({
          code: 422,
          message: `The image is too large: at most 16,777,216 pixels (width × height, such as 4096 × 4096); this one is ${width} × ${height}`,
          data: { field: 'file', maxPixels: IMAGE_MAX_PIXELS }
        })
      }
    }
    const zh = await send('/api/operator/upload', hostile[0][1], operator, 'zh')
    expect(zh.message).toBe('图片尺寸太大：最多 16,777,216 像素（宽 × 高，如 4096 × 4096），这张是 30000 × 30000')
    expect(await mediaCount()).toBe(before)
    // exactly at the limit is a picture like any other
    const edge = await send('/api/operator/upload', pngClaiming(4096, 4096), operator)
    expect(edge).toMatchObject({ code: 200, data: { width: 4096, height: 4096 } })
    expect((await send('/api/upload/image', makePng(40, 30, [9, 9, 9]), shopper)).code).toBe(200)
  })

  test('a picture kept before the limit existed is not served to phones', async () => {
    const sha = 'ab'.repeat(32)
    const bytes = pngClaiming(30000, 30000)
    await t.db.insertInto('media').values({
      sha256: sha, content_type: 'image/png', ext: 'png', data: bytes, size: bytes.length, width: 30000, height: 30000, uploaded_by: null, created_at: new Date(t.clock.now()).toISOString()
    }).execute()
    expect((await t.app.inject({ method: 'GET', url: `/media/u/${sha}.png` })).statusCode).toBe(404)
    const fine = await send('/api/operator/upload', makePng(20, 20, [1, 2, 3]), operator)
    expect((await t.app.inject({ method: 'GET', url: fine.data.url })).statusCode).toBe(200)
  })
})
