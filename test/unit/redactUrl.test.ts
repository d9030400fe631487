import { HIDDEN_KEY, HIDDEN_VALUE, SHOWN_QUERY_KEYS, redactQuery, redactUrls } from '@/utils/redactUrl'
import { LOGGED_QUERY_KEYS } from '../../server/src/http/redact'

it('shows the values of harmless keys only; other values, odd keys and bare tokens are hidden', () => {
  expect(redactQuery('id=7&token=abc&sort=price&access_token=x.y.z')).toBe('id=7&token=***&sort=price&access_token=***')
  expect(redactQuery('eyJhbGciOiJIUzI1NiJ9')).toBe(HIDDEN_KEY)
  expect(redactQuery('id&tab')).toBe('id&tab')
  expect(redactQuery('a%20b%3Cc=1')).toBe(`${HIDDEN_KEY}=${HIDDEN_VALUE}`)
  expect(redactQuery('code=&state=')).toBe('code=&state=')
  expect(redactQuery('se%72iesId=4')).toBe('se%72iesId=4')
})

it('redacts every URL query in a text: API calls, H5 hash routes, stack frames, several in one text', () => {
  const msg = 'Request failed: GET https://api.shop.test/dev-api/orders?id=3&token=s3cr3t (500)\n' +
    'opened https://shop.test/#/pages/login/index?code=wxcode123&state=xyz&lang=en\n' +
    '    at f (https://shop.test/js/app.js?v=42:1:200)\n' +
    'then /pagesA/home/index?eyJhbGciOiJub25lIn0'
  const out = redactUrls(msg)
  for (const secret of ['s3cr3t', 'wxcode123', 'xyz', 'eyJhbGciOiJub25lIn0']) expect(out).not.toContain(secret)
  expect(out).toContain('/dev-api/orders?id=3&token=***')
  expect(out).toContain('index?code=***&state=***&lang=en')
  expect(out).toContain('app.js?v=42:1:200)')
  expect(out).toContain('/pagesA/home/index?[key]')
  expect(out.split('\n')).toHaveLength(4)
})

it('leaves text without a query alone: prose questions, a lone "?"', () => {
  for (const text of ['Is it gone? yes', 'what?no', 'a ? b', 'no query here', '']) expect(redactUrls(text)).toBe(text)
})

it('is linear enough for a long message', () => {
  const long = `${'a'.repeat(200000)} x?token=zz ${'b/'.repeat(50000)}?${'c'.repeat(1000)}`
  const started = Date.now()
  const out = redactUrls(long)
  expect(Date.now() - started).toBeLessThan(1000)
  expect(out).toContain('x?token=***')
  expect(out.endsWith(`?${HIDDEN_KEY}`)).toBe(true)
})

it('keeps the same allow-list as the server log (server/src/http/redact.ts)', () => {
  expect([...SHOWN_QUERY_KEYS].sort()).toEqual([...LOGGED_QUERY_KEYS].sort())
})
