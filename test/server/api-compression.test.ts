/**
 * The API's JSON answers are compressed by the client's Accept-Encoding (server/src/http/compress.ts):
 * brotli first, then gzip; what is decoded is the answer byte for byte; small answers, HEAD, clients
 * without compression and codings refused with q=0 get the plain JSON.
 */
import zlib from 'node:zlib'
import { createTestApp, nextIp, post, PREFIX, type TestApp } from './support/app'
import { makeSeries } from './support/shop'
import { chooseCoding, COMPRESS_MIN_BYTES } from '../../server/src/http/compress'

describe('compressed API answers', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp('sqlite')
    for (let i = 0; i < 6; i++) await makeSeries(t.db, t.clock)
  })
  afterAll(async () => { await t.close() })

  const list = (headers: Record<string, string>) => t.app.inject({
    method: 'POST',
    url: `${PREFIX}/api/seriesList`,
    headers: { 'content-type': 'application/json', ...headers },
    remoteAddress: nextIp(),
    payload: { page: 1, size: 10 }
  })

  test('a page of series is sent as brotli, else gzip, and decodes to the same JSON', async () => {
    const plain = await post(t.app, '/api/seriesList', { page: 1, size: 10 })
    expect(plain.body.code).toBe(200)
    const json = plain.res.body
    expect(Buffer.byteLength(json)).toBeGreaterThanOrEqual(COMPRESS_MIN_BYTES)
    expect(plain.res.headers['content-encoding']).toBeUndefined()
    expect(plain.res.headers.vary).toMatch(/accept-encoding/i)

    const br = await list({ 'accept-encoding': 'gzip, deflate, br' })
    expect(br.statusCode).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toMatch(/accept-encoding/i)
    expect(br.headers['cache-control']).toBe('no-store')
    expect(br.headers['content-type']).toMatch(/application\/json/)
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length)
    expect(br.rawPayload.length).toBeLessThan(Buffer.byteLength(json) / 2)
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toEqual(JSON.parse(json))

    for (const enc of ['gzip', 'br;q=0, gzip', 'x-gzip', 'deflate, gzip;q=0.5']) {
      const gz = await list({ 'accept-encoding': enc })
      expect(gz.headers['content-encoding']).toBe('gzip')
      expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString())).toEqual(JSON.parse(json))
    }
  })

  test('no coding accepted, or only refused ones: the plain JSON', async () => {
    for (const enc of ['identity', 'br;q=0, gzip;q=0', 'deflate', '*;q=0', '']) {
      const res = await list({ 'accept-encoding': enc })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-encoding']).toBeUndefined()
      expect(res.json().code).toBe(200)
    }
  })

  test('small answers and error answers under the threshold are sent as they are', async () => {
    const small = await t.app.inject({ method: 'POST', url: `${PREFIX}/api/seriesList`, headers: { 'content-type': 'application/json', 'accept-encoding': 'br' }, remoteAddress: nextIp(), payload: { page: 1 } })
    expect(small.json()).toMatchObject({ code: 400, data: { field: 'size' } })
    expect(small.headers['content-encoding']).toBeUndefined()
    expect(small.headers.vary).toBeUndefined()
  })

  test('the coding chosen for an Accept-Encoding header', () => {
    expect(chooseCoding(undefined)).toBeNull()
    expect(chooseCoding('br')).toBe('br')
    expect(chooseCoding('gzip, br')).toBe('br')
    expect(chooseCoding('BR;Q=0.1, gzip')).toBe('br')
    expect(chooseCoding('br;q=0')).toBeNull()
    expect(chooseCoding('*')).toBe('br')
    expect(chooseCoding('*, br;q=0')).toBe('gzip')
    expect(chooseCoding(['deflate', 'gzip'])).toBe('gzip')
    expect(chooseCoding('br;q=abc, gzip')).toBe('gzip')
  })
})
