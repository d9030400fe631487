/**
 * Holes an attacker's probe found (issue 7), kept as tests on SQLite and PostgreSQL: huge pages, ids
 * beyond a bigint, control characters in strings. Each answers a 400 naming the field, never a 500,
 * and changes nothing. (The table API's share is in data-api.test.ts; the fuzz test covers the rest.)
 */
import { testDialects } from './support/db'
import { createTestApp, post, type TestApp } from './support/app'
import { makeSeries, makeShopper, type Shopper } from './support/shop'

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
      const r = await post(t.app, '/api/data/invoke', { ...address, [field]: `x\u0000y` }, { token: shopper.token, query: { table: 'addresses', method: 'add' } })
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
