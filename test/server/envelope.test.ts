/** The wire contract: envelope, strict validation, messages by Accept-Language, 404, 500, static H5. */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { testDialects } from './support/db'
import { createTestApp, get, post, nextIp, PREFIX, type TestApp } from './support/app'

describe.each(testDialects())('wire contract on %s', (dialect) => {
  let t: TestApp
  beforeAll(async () => { t = await createTestApp(dialect) })
  afterAll(async () => { await t.close() })

  test('success is HTTP 200 with {code: 200, message, data}', async () => {
    const r = await get(t.app, '/system/setting/login')
    expect(r.status).toBe(200)
    expect(Object.keys(r.body).sort()).toEqual(['code', 'data', 'message'])
    expect(r.body.code).toBe(200)
    expect(typeof r.body.message).toBe('string')
    expect(r.res.headers['content-type']).toMatch(/application\/json/)
    expect(r.res.headers['cache-control']).toBe('no-store')
  })

  test('an unknown API route is a 404 envelope over HTTP 200', async () => {
    for (const [method, url] of [['GET', '/nope'], ['POST', '/login/nope'], ['GET', '']] as const) {
      const res = await t.app.inject({ method, url: PREFIX + url })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ code: 404, message: 'No such API', data: null })
    }
  })

  test('an unknown field is a 400 naming the field, never dropped', async () => {
    const r = await post(t.app, '/login/passwd', { user_name: 'a', password: 'abc', admin: true }, { ip: nextIp() })
    expect(r.status).toBe(200)
    expect(r.body.code).toBe(400)
    expect(r.body.data).toEqual({ field: 'admin', rule: 'additionalProperties' })
    expect(r.body.message).toBe('Unknown field admin')
  })

  test('a wrong type is a 400, never coerced ("100" is not a number, 123 not a string)', async () => {
    const a = await post(t.app, '/get_mp_url', { expire_interval: '10' })
    // not configured would be 422: validation comes first
    expect(a.body).toMatchObject({ code: 400, data: { field: 'expire_interval', rule: 'type' } })
    expect(a.body.message).toBe('expire_interval must be an integer')
    const b = await post(t.app, '/login/passwd', { user_name: 'abc', password: 123456 }, { ip: nextIp() })
    expect(b.body).toMatchObject({ code: 400, data: { field: 'password', rule: 'type' } })
    const c = await post(t.app, '/api/data/invoke?table=series&method=page', { page: '1', size: 10 })
    expect(c.body).toMatchObject({ code: 400, data: { field: 'page', rule: 'type' } })
  })

  test('messages follow Accept-Language: zh when it starts with zh, else en', async () => {
    const body = { password: 'abcdef' }
    const zh = await post(t.app, '/login/passwd', body, { lang: 'zh-CN,zh;q=0.9', ip: nextIp() })
    expect(zh.body).toMatchObject({ code: 400, message: '必须提供 user_name、phone 或 email 之一' })
    const en = await post(t.app, '/login/passwd', body, { lang: 'en-US', ip: nextIp() })
    expect(en.body).toMatchObject({ code: 400, message: 'One of user_name, phone or email is required' })
    const none = await post(t.app, '/login/passwd', body, { ip: nextIp() })
    expect(none.body.message).toBe('One of user_name, phone or email is required')
    const other = await post(t.app, '/login/passwd', body, { lang: 'fr-FR,zh;q=0.5', ip: nextIp() })
    expect(other.body.message).toBe('One of user_name, phone or email is required')
    const unknownZh = await post(t.app, '/login/passwd', { x: 1 }, { lang: 'zh-Hans' })
    expect(unknownZh.body.message).toBe('不允许的字段 x')
    const nf = await get(t.app, '/nope', { lang: 'zh' })
    expect(nf.body.message).toBe('接口不存在')
  })

  test('bad JSON and oversized bodies are 400 envelopes', async () => {
    const bad = await t.app.inject({ method: 'POST', url: `${PREFIX}/login/passwd`, headers: { 'content-type': 'application/json' }, payload: '{"user_name":' })
    expect(bad.statusCode).toBe(200)
    expect(bad.json()).toMatchObject({ code: 400, message: 'The request body is not valid JSON' })
    const big = await post(t.app, '/login/passwd', { user_name: 'x'.repeat(70 * 1024), password: 'abc' })
    expect(big.status).toBe(200)
    expect(big.body).toMatchObject({ code: 400, message: 'The request body is too large' })
  })
})

describe('unhandled errors', () => {
  test('are logged and answered with HTTP 500 and a 500 envelope', async () => {
    const { buildApp } = await import('../../server/src/app')
    const { loadConfig } = await import('../../server/src/config')
    const { openDatabase } = await import('../../server/src/db')
    const database = openDatabase({ sqlitePath: ':memory:' })
    const logs: string[] = []
    const app = await buildApp({
      config: loadConfig({ NODE_ENV: 'test', STATIC_DIR: '/nonexistent' }),
      database,
      maintenance: false,
      logger: { level: 'error', stream: { write: (l: string) => { logs.push(l) } } }
    })
    // no migrations ran: every query fails like a lost database would
    const r = await app.inject({ method: 'GET', url: `${PREFIX}/getUserInfo`, headers: { authorization: `Bearer ${'a'.repeat(43)}` } })
    expect(r.statusCode).toBe(500)
    expect(r.json()).toEqual({ code: 500, message: 'Internal server error', data: null })
    expect(logs.join('\n')).toMatch(/unhandled error/)
    expect(logs.join('\n')).toMatch(/no such table: sessions/)
    await app.close()
    await database.close()
  })
})

describe('static H5 build', () => {
  let dir: string
  let app: Awaited<ReturnType<typeof import('../../server/src/app')['buildApp']>>
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h5-'))
    fs.mkdirSync(path.join(dir, 'js'))
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>shop</title>')
    fs.writeFileSync(path.join(dir, 'js', 'app.0123abcd.js'), 'console.log(1)')
    const { buildApp } = await import('../../server/src/app')
    const { loadConfig } = await import('../../server/src/config')
    const { openDatabase } = await import('../../server/src/db')
    app = await buildApp({ config: loadConfig({ NODE_ENV: 'test', STATIC_DIR: dir }), database: openDatabase({}), maintenance: false })
  })
  afterAll(async () => {
    await app.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  test('serves files, index.html at / and for page routes (history fallback)', async () => {
    const root = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } })
    expect(root.statusCode).toBe(200)
    expect(root.body).toContain('<title>shop</title>')
    expect(root.headers['cache-control']).toBe('no-cache')
    const page = await app.inject({ method: 'GET', url: '/pagesA/home/index?x=1', headers: { accept: 'text/html,*/*' } })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toMatch(/text\/html/)
    expect(page.body).toContain('<title>shop</title>')
    const js = await app.inject({ method: 'GET', url: '/js/app.0123abcd.js' })
    expect(js.statusCode).toBe(200)
    expect(js.headers['cache-control']).toContain('immutable')
  })

  test('no fallback for API paths, non-GET, or requests that do not accept HTML', async () => {
    const api = await app.inject({ method: 'GET', url: `${PREFIX}/nope`, headers: { accept: 'text/html' } })
    expect(api.statusCode).toBe(200)
    expect(api.json()).toMatchObject({ code: 404 })
    const asset = await app.inject({ method: 'GET', url: '/js/missing.js', headers: { accept: '*/*' } })
    expect(asset.statusCode).toBe(404)
    const postPage = await app.inject({ method: 'POST', url: '/pagesA/home/index', headers: { accept: 'text/html' } })
    expect(postPage.statusCode).toBe(404)
  })
})
