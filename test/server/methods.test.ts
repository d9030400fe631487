/**
 * The generic call POST /api/{method_name} (types/methods.ts): the allow-listed methods answer, each
 * after its own authorization and parameter check; every other name (hostile ones included) is the 404
 * of an unknown API; it is in the OpenAPI document; and it shadows no route: every route the server
 * registers under /api still answers as itself.
 */
import { testDialects } from './support/db'
import { createTestApp, get, loginToken, makeUser, nextIp, post, PREFIX, type TestApp } from './support/app'
import { registeredRoutes } from '../../server/src/http/openapi'
import * as jd from '../support/providers/jdunion'

describe.each(testDialects())('the generic call on %s', (dialect) => {
  let t: TestApp
  let fake: Awaited<ReturnType<typeof jd.start>>
  let token: string

  beforeAll(async () => {
    fake = await jd.start()
    t = await createTestApp(dialect, { env: jd.envFor(fake) })
    fake.now = t.clock.now
    const u = await makeUser(t.db, t.clock)
    token = await loginToken(t.app, u.user_name!, u.password)
  })
  afterAll(async () => { await t?.close(); await fake.close() })

  test('the allow-listed methods answer, each with its own auth and schema', async () => {
    expect((await post(t.app, '/api/serverTime', {})).body).toEqual({ code: 200, message: 'OK', data: { now: '2026-03-01T08:00:00.000Z', timeZone: 'Asia/Shanghai', today: '2026-03-01' } })
    expect((await post(t.app, '/api/serverTime')).body.code).toBe(200)
    expect((await post(t.app, '/api/helperFeatures', {})).body.data).toEqual({ priceCompare: true, tickets: false, flights: false, ai: false, tts: expect.any(Boolean), ocr: expect.any(Boolean), word2pic: false, pdf: true, video: false, music: false })
    // travelDates is for logged-in users: 401 before anything about the body
    expect((await post(t.app, '/api/travelDates', { junk: 1 })).body.code).toBe(401)
    expect((await post(t.app, '/api/travelDates', {}, { token })).body.data).toEqual({ first: '2026-03-01', lastTrain: '2026-03-16', lastFlight: '2027-03-01' })
    // a method's schema is strict: an unknown field is a 400 naming it, in the caller's language
    expect((await post(t.app, '/api/serverTime', { tz: 'UTC' }, { lang: 'en' })).body).toMatchObject({ code: 400, data: { field: 'tz', rule: 'additionalProperties' } })
    expect((await post(t.app, '/api/travelDates', { x: 1 }, { token, lang: 'zh' })).body).toMatchObject({ code: 400, data: { field: 'x' } })
    expect((await post(t.app, '/api/serverTime', [1, 2])).body.code).toBe(400)
    // only POST: a GET of a method name is an unknown API
    expect((await get(t.app, '/api/serverTime')).body).toMatchObject({ code: 404 })
  })

  test('any other name is the 404 of an unknown API, hostile ones included, and never a 5xx', async () => {
    const names = [
      'nope', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__',
      'ServerTime', 'servertime', 'serverTime%20', '%20serverTime', 'serverTime%00', '%2e%2e', '..%2Fadmin', '%2E%2E%2Fapi%2FserverTime',
      'serverTime%2F..', '%F0%9F%98%80', '%E6%AF%94%E4%BB%B7', 'serverTime%E2%80%8B', 'a'.repeat(5000), '%00', '%', '%zz', '$where', 'constructor.prototype',
      'bijia_spu_search%20'
    ]
    for (const name of names) {
      const r = await post(t.app, `/api/${name}`, {}, { token, lang: 'en', ip: nextIp() })
      expect([name.slice(0, 40), r.status < 500, r.body.code]).toEqual([name.slice(0, 40), true, r.body.code === 400 ? 400 : 404])
      if (r.body.code === 404) expect(r.body.message).toBe('No such API')
    }
    // an unknown name answers like a path that does not exist at all
    const missing = await post(t.app, '/api/no/such/path', {}, { lang: 'zh' })
    const unknown = await post(t.app, '/api/noSuchMethod', {}, { lang: 'zh' })
    expect(unknown.body).toEqual(missing.body)
    expect(unknown.body).toEqual({ code: 404, message: '接口不存在', data: null })
  })

  test('it shadows no route: every route registered under /api answers as itself, not as the generic call', async () => {
    const routes = registeredRoutes(t.app).filter(r => r.url.startsWith(`${PREFIX}/api/`) && !r.url.includes(':') && (r.method === 'POST' || r.method === 'GET'))
    expect(routes.length).toBeGreaterThan(40)
    for (const r of routes) {
      const res = await t.app.inject({ method: r.method as 'GET' | 'POST', url: r.url, headers: { 'x-forwarded-for': nextIp(), 'content-type': 'application/json' }, payload: r.method === 'POST' ? '{}' : undefined })
      const body = res.headers['content-type']?.toString().includes('json') ? res.json() : null
      // an existing route never gives the unknown-API answer
      expect([r.method, r.url, body?.message === 'No such API' || body?.message === '接口不存在']).toEqual([r.method, r.url, false])
      expect([r.url, res.statusCode < 500]).toEqual([r.url, true])
    }
    // the named helper calls run their own handlers (the generic call would say "No such API")
    expect((await post(t.app, '/api/bijia_spu_search', { keyword: '星际' }, { token })).body.data.source).toBe('jd')
  })

  test('the OpenAPI document lists it with its path parameter', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: `${PREFIX}/openapi.json` })).json()
    const op = doc.paths[`${PREFIX}/api/{method_name}`]?.post
    expect(op).toBeDefined()
    expect(op.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'method_name', in: 'path', required: true })]))
    expect(op.description).toContain('serverTime')
    expect(doc.paths[`${PREFIX}/api/bijia_spu_search`]?.post).toBeDefined()
    expect(doc.paths[`${PREFIX}/api/queryTickets`]?.post).toBeDefined()
  })
})
