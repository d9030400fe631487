/** POST /error/report: validated, size-limited, stored (with the user when a token comes along). */
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'

const report = { error_message: 'TypeError: x is undefined\n    at Home (home.tsx:10)', path: '/pagesA/home/index', type: 'error', sub_source: 'h5', app_id: 'blindbox' }

describe.each(testDialects())('error reports on %s', (dialect) => {
  let t: TestApp
  beforeAll(async () => { t = await createTestApp(dialect) })
  afterAll(async () => { await t.close() })

  test('a report is stored with the client IP, user agent and (if logged in) the user', async () => {
    const ip = nextIp()
    const r = await post(t.app, '/error/report', report, { ip, headers: { 'user-agent': 'jest-agent' } })
    expect(r.body).toEqual({ code: 200, message: 'OK', data: null })
    const rows = await t.db.selectFrom('error_reports').selectAll().where('ip', '=', ip).execute()
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ ...report, user_id: null, ip, user_agent: 'jest-agent', created_at: new Date(t.clock.now()).toISOString() })

    const u = await makeUser(t.db, t.clock)
    const token = await loginToken(t.app, u.user_name!, u.password)
    const ip2 = nextIp()
    await post(t.app, '/error/report', { ...report, type: 'unhandledrejection' }, { ip: ip2, token })
    const mine = await t.db.selectFrom('error_reports').select(['user_id', 'type']).where('ip', '=', ip2).executeTakeFirstOrThrow()
    expect(mine).toEqual({ user_id: Number(u.id), type: 'unhandledrejection' })
  })

  test('request ids: each answer names its request (X-Request-Id: the caller\'s when sane, else a new one); a report carries the failing one', async () => {
    const made = await post(t.app, '/api/seriesList', { page: 1, size: 1 }, { ip: nextIp() })
    const id = made.res.headers['x-request-id'] as string
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    const again = await post(t.app, '/api/seriesList', { page: 1, size: 1 }, { ip: nextIp() })
    expect(again.res.headers['x-request-id']).not.toBe(id)
    // a proxy's or the app's own id is kept; one that is not sane is replaced
    const given = await post(t.app, '/api/seriesList', { page: 1, size: 1 }, { ip: nextIp(), headers: { 'x-request-id': 'edge-1234-abcd' } })
    expect(given.res.headers['x-request-id']).toBe('edge-1234-abcd')
    for (const bad of ['short', 'a'.repeat(65), 'has space in it', 'quote"inside12']) {
      const r = await post(t.app, '/api/seriesList', { page: 1, size: 1 }, { ip: nextIp(), headers: { 'x-request-id': bad } })
      expect(r.res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    }
    // failures carry it too
    const refused = await post(t.app, '/api/caseCurrent', { seriesId: 'x' }, { ip: nextIp() })
    expect(refused.body.code).toBe(400)
    expect(refused.res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)

    const ip = nextIp()
    await post(t.app, '/error/report', { ...report, request_id: id }, { ip })
    expect((await t.db.selectFrom('error_reports').select('request_id').where('ip', '=', ip).executeTakeFirstOrThrow()).request_id).toBe(id)
    expect((await post(t.app, '/error/report', { ...report, request_id: 'not an id' }, { ip: nextIp() })).body).toMatchObject({ code: 400, data: { field: 'request_id' } })
  })

  test('validated: every field, no unknown fields, string types, length limits', async () => {
    const cases: Array<[object, string, string]> = [
      [{ ...report, error_message: undefined }, 'error_message', 'required'],
      [{ ...report, extra: 1 }, 'extra', 'additionalProperties'],
      [{ ...report, path: 42 }, 'path', 'type'],
      [{ ...report, error_message: 'x'.repeat(4001) }, 'error_message', 'maxLength'],
      [{ ...report, type: '' }, 'type', 'minLength'],
      [{ ...report, app_id: 'a'.repeat(101) }, 'app_id', 'maxLength']
    ]
    for (const [body, field, rule] of cases) {
      expect((await post(t.app, '/error/report', body, { ip: nextIp() })).body).toMatchObject({ code: 400, data: { field, rule } })
    }
    // a 4000-character message (the client's cut) in Chinese fits
    expect((await post(t.app, '/error/report', { ...report, error_message: '错'.repeat(4000) }, { ip: nextIp() })).body.code).toBe(200)
  })

  test('size-limited: a body over 32 KiB is refused before parsing', async () => {
    const r = await post(t.app, '/error/report', { ...report, error_message: '"'.repeat(20000) }, { ip: nextIp() })
    expect(r.body).toMatchObject({ code: 400, message: 'The request body is too large' })
  })
})
