/**
 * Secrets in the log (issue 48 item 5): query values the server does not know were logged verbatim, so
 * a token sent as `?token=` landed in the log. Now a logged URL keeps its keys and shows only the values
 * of known harmless keys (server/src/http/redact.ts), in the request's `url` and in every other line
 * (error messages, Fastify's warnings): checked on the functions and on the app's own log.
 */
import { LOGGED_QUERY_KEYS, redactLine, redactQuery, redactUrl } from '../../server/src/http/redact'
import { createTestApp, PREFIX, type TestApp } from './support/app'

const SECRET = 'sk_live_Q2hhbmdlTWUtTm90QVJlYWxUb2tlbg'

describe('redacting query values', () => {
  test('values of keys the server does not know are redacted, the keys kept', () => {
    expect(redactUrl(`/dev-api/api/x?token=${SECRET}`)).toBe('/dev-api/api/x?token=***')
    expect(redactUrl(`/dev-api/api/x?access_token=${SECRET}&id=12&page=2`)).toBe('/dev-api/api/x?access_token=***&id=12&page=2')
    expect(redactUrl('/dev-api/login/sms/code?phone=13800138000')).toBe('/dev-api/login/sms/code?phone=***')
    expect(redactUrl('/pages/web_view/index?url=https%3A%2F%2Fevil.test%2F%3Fk%3Dv&title=hi')).toBe('/pages/web_view/index?url=***&title=***')
    // the same key twice, an empty value, a key without a value
    expect(redactUrl(`/a?token=${SECRET}&token=2&empty=&id`)).toBe('/a?token=***&token=***&empty=&id')
    // no query, or an empty one
    expect(redactUrl('/dev-api/getUserInfo')).toBe('/dev-api/getUserInfo')
    expect(redactUrl('/dev-api/getUserInfo?')).toBe('/dev-api/getUserInfo?')
  })

  test('a bare token as a key, or a key of odd characters, is not logged either', () => {
    expect(redactUrl(`/a?${SECRET}`)).toBe('/a?[key]')
    expect(redactUrl(`/a?id=1&${SECRET}`)).toBe('/a?id=1&[key]')
    expect(redactUrl(`/a?${'x'.repeat(41)}=1`)).toBe('/a?[key]=***')
    expect(redactUrl('/a?%E4%BD%A0%E5%A5%BD=1')).toBe('/a?[key]=***')
    expect(redactQuery('a%20b=1')).toBe('[key]=***')
  })

  test('every allowed key is a plain name; what is allowed is shown as sent', () => {
    for (const key of LOGGED_QUERY_KEYS) {
      expect(key).toMatch(/^[A-Za-z]+$/)
      expect(redactUrl(`/x?${key}=abc`)).toBe(`/x?${key}=abc`)
    }
    // a secret is never among them
    for (const key of ['token', 'access_token', 'code', 'js_code', 'state', 'phone', 'email', 'password', 'key', 'sig', 'signature', 'url', 'redirect_uri', 'q', 'session']) {
      expect(LOGGED_QUERY_KEYS.has(key)).toBe(false)
    }
  })

  test('a finished log line: every query in it redacted, JSON kept valid, other text untouched', () => {
    const line = JSON.stringify({ level: 40, msg: `Reply was already sent, did you forget to "return reply" in the "/dev-api/x?token=${SECRET}&id=3" (GET) route?` }) + '\n'
    const out = redactLine(line)
    expect(out).not.toContain(SECRET)
    expect(JSON.parse(out).msg).toContain('/dev-api/x?token=***&id=3')
    expect(out.endsWith('\n')).toBe(true)
    expect(redactLine('{"msg":"is it ok? yes"}')).toBe('{"msg":"is it ok? yes"}')
    expect(redactLine('GET /a?code=123456 HTTP/1.1')).toBe('GET /a?code=*** HTTP/1.1')
    // a URL inside a value
    expect(redactLine(`"err":"fetch https://api.test/v1?key=${SECRET} failed"`)).toBe('"err":"fetch https://api.test/v1?key=*** failed"')
  })
})

describe('the app\'s own log', () => {
  let t: TestApp
  beforeAll(async () => { t = await createTestApp('sqlite') })
  afterAll(async () => { await t.close() })

  test('a request with a secret query value: logged with the key, never the value, whatever the route answers', async () => {
    const before = t.logs.length
    const urls = [
      `${PREFIX}/serverTime?token=${SECRET}&id=5`,
      `${PREFIX}/api/nothing-here?token=${SECRET}`,
      `${PREFIX}/login/openid?code=${SECRET}`,
      `${PREFIX}/login/wechat?redirect_uri=https%3A%2F%2Fa.test%2F%3Ftoken%3D${SECRET}`,
      `/pagesA/show/index?token=${SECRET}`,
      `/media/u/${'0'.repeat(64)}.png?w=120&sig=${SECRET}`,
      // a malformed path (Fastify refuses it before routing, and logs the error)
      `${PREFIX}/%E0%A4%A?token=${SECRET}`
    ]
    for (const url of urls) {
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${SECRET}`, cookie: `sid=${SECRET}` } })
      expect(res.statusCode).toBeLessThan(500)
    }
    const written = t.logs.slice(before).join('')
    expect(written).toContain('token=***')
    expect(written).toContain('id=5')
    expect(written).toContain('w=120&sig=***')
    expect(written).not.toContain(SECRET)
    // every line is still JSON
    for (const line of t.logs.slice(before)) expect(() => JSON.parse(line)).not.toThrow()
  })

  test('an error report from the app is stored with the query values of its URLs redacted', async () => {
    const r = await t.app.inject({
      method: 'POST', url: `${PREFIX}/error/report`, remoteAddress: '10.9.8.7',
      payload: { error_message: `request:fail https://api.shop.test/dev-api/x?token=${SECRET}&id=4`, path: `/pagesA/web_view/index?url=${SECRET}`, type: 'error', sub_source: 'h5', app_id: 'blindbox' }
    })
    expect(r.json().code).toBe(200)
    const row = await t.db.selectFrom('error_reports').select(['error_message', 'path']).where('ip', '=', '10.9.8.7').executeTakeFirstOrThrow()
    expect(row).toEqual({ error_message: 'request:fail https://api.shop.test/dev-api/x?token=***&id=4', path: '/pagesA/web_view/index?url=***' })
  })
})
