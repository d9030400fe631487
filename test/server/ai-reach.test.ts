/**
 * The pictures a provider fetches (security/fetchableUrl.ts): AiAnalysis, questionRecognize and
 * pic2word pass a URL to the AI, which fetches it. Only the shop's own media (outside production, on
 * the shop's own origin) or a public https URL whose every address is public may go; every other form
 * of an internal address is refused with a 400 naming the field and why, and the provider never hears
 * of it. Host names resolve as test/server/support/resolver.ts says.
 */
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import { testResolveHost } from './support/resolver'
import * as dify from '../support/providers/dify'
import { isPublicAddress, refuseUnfetchable, type UrlRefusal } from '../../server/src/security/fetchableUrl'

const SHA = 'ab'.repeat(32)

/** Each form of a URL a provider must not fetch, and the reason the check gives. */
const REFUSED: Array<[string, UrlRefusal]> = [
  ['http://127.0.0.1/a.png', 'https'],
  ['https://127.0.0.1/a.png', 'address'],
  ['https://127.1.2.3/a.png', 'address'],
  ['http://[::1]/a.png', 'https'],
  ['https://[::1]/a.png', 'address'],
  ['https://169.254.169.254/latest/meta-data/', 'address'],
  ['http://169.254.169.254/latest/meta-data/', 'https'],
  // decimal, hex and octal spellings of 127.0.0.1 (WHATWG URL reads them as 127.0.0.1)
  ['https://2130706433/a.png', 'address'],
  ['http://2130706433/a.png', 'https'],
  ['https://0x7f000001/a.png', 'address'],
  ['https://0x7f.0.0.1/a.png', 'address'],
  ['https://0177.0.0.1/a.png', 'address'],
  ['https://017700000001/a.png', 'address'],
  // a public address spelt in decimal is refused too: only the plain dotted form is taken
  ['https://1572395022/a.png', 'address'],
  // IPv4-mapped and NAT64 IPv6 of internal addresses
  ['https://[::ffff:127.0.0.1]/a.png', 'address'],
  ['https://[::ffff:a9fe:a9fe]/a.png', 'address'],
  ['https://[64:ff9b::a00:1]/a.png', 'address'],
  ['https://[2002:c0a8:101::1]/a.png', 'address'],
  // private, CGNAT, link-local, multicast, unspecified, reserved
  ['https://10.1.2.3/a.png', 'address'],
  ['https://172.16.0.9/a.png', 'address'],
  ['https://192.168.1.1/a.png', 'address'],
  ['https://100.64.0.1/a.png', 'address'],
  ['https://169.254.0.1/a.png', 'address'],
  ['https://224.0.0.1/a.png', 'address'],
  ['https://0.0.0.0/a.png', 'address'],
  ['https://255.255.255.255/a.png', 'address'],
  ['https://[::]/a.png', 'address'],
  ['https://[fe80::1]/a.png', 'address'],
  ['https://[fd00::1]/a.png', 'address'],
  ['https://[ff02::1]/a.png', 'address'],
  // user-info tricks
  ['https://shop.example@127.0.0.1/a.png', 'credentials'],
  ['https://user:secret@shop.example/a.png', 'credentials'],
  ['https://@shop.example/a.png', 'credentials'],
  // names that resolve inside, or partly inside, or not at all
  ['https://localhost/a.png', 'address'],
  ['https://x.localhost/a.png', 'address'],
  ['https://intranet/a.png', 'address'],
  ['https://loopback.example/a.png', 'address'],
  ['https://mixed.example/a.png', 'address'],
  ['https://metadata.example/a.png', 'address'],
  ['https://cgnat.example/a.png', 'address'],
  ['https://ula.example/a.png', 'address'],
  ['https://mapped.example/a.png', 'address'],
  ['https://nowhere.example/a.png', 'unresolvable'],
  // plain http anywhere, and a port other than https's own
  ['http://shop.example/a.png', 'https'],
  ['https://shop.example:8443/a.png', 'port'],
  ['https://shop.example:22/a.png', 'port']
]

const ACCEPTED = [
  'https://shop.example/media/u/abc.png',
  'https://cdn.example/pictures/a.png?size=large',
  'https://93.184.215.14/a.png',
  'https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/a.png',
  'https://shop.example:443/a.png'
]

describe('refuseUnfetchable', () => {
  const dev = { ownOrigin: 'http://127.0.0.1:10086', production: false, resolve: testResolveHost }
  test.each(REFUSED)('%s is refused (%s)', async (url, reason) => {
    expect(await refuseUnfetchable(url, dev)).toBe(reason)
    expect(await refuseUnfetchable(url, { ...dev, production: true })).toBe(reason)
  })
  test.each(ACCEPTED)('%s is accepted', async url => {
    expect(await refuseUnfetchable(url, dev)).toBeNull()
  })

  test("the shop's own media on its own origin: outside production only, and only media paths", async () => {
    const own = `http://127.0.0.1:10086/media/u/${SHA}.png`
    expect(await refuseUnfetchable(own, dev)).toBeNull()
    expect(await refuseUnfetchable('http://127.0.0.1:10086/media/art/navigator.webp', dev)).toBeNull()
    expect(await refuseUnfetchable(own, { ...dev, production: true })).toBe('https')
    for (const other of ['http://127.0.0.1:10086/dev-api/metrics', `http://127.0.0.1:10086/media/u/${SHA}.png?x=1`, `http://127.0.0.1:6379/media/u/${SHA}.png`, `http://10.0.0.1:10086/media/u/${SHA}.png`]) {
      // not media, or not the shop's origin: judged as any URL (plain http is refused)
      expect([other, await refuseUnfetchable(other, dev)]).toEqual([other, 'https'])
    }
    expect(await refuseUnfetchable(`http://user@127.0.0.1:10086/media/u/${SHA}.png`, dev)).toBe('credentials')
  })

  test('isPublicAddress', () => {
    for (const ip of ['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) expect([ip, isPublicAddress(ip)]).toEqual([ip, true])
    for (const ip of ['127.0.0.1', '::1', '::', '0.0.0.0', '169.254.169.254', '100.127.255.255', '::ffff:10.0.0.1', '::ffff:7f00:1', 'fe80::1%eth0', '2001:db8::1', 'not an ip']) {
      expect([ip, isPublicAddress(ip)]).toEqual([ip, false])
    }
  })
})

describe.each(testDialects())('the AI calls that pass a URL on %s', (dialect) => {
  let t: TestApp
  let fake: Awaited<ReturnType<typeof dify.start>>
  let token: string
  beforeAll(async () => {
    fake = await dify.start()
    t = await createTestApp(dialect, { env: dify.envFor(fake) })
    const u = await makeUser(t.db, t.clock)
    token = await loginToken(t.app, u.user_name!, u.password)
  })
  afterAll(async () => { await t?.close(); await fake.close() })

  const image = (url: string) => ({ type: 'image', transfer_method: 'remote_url', url })
  const CALLS: Array<[string, (url: string) => object, string]> = [
    ['/api/AiAnalysis', url => ({ query: 'describe', files: [image('https://shop.example/ok.png'), image(url)] }), 'files.1.url'],
    ['/api/questionRecognize', url => ({ query: 'what is asked?', files: [image(url)] }), 'files.0.url'],
    ['/api/pic/pic2word', url => ({ file: url }), 'file']
  ]

  test.each(CALLS)('%s: every internal form is a 400 naming the field; the provider never hears of it', async (path, body, field) => {
    const before = fake.calls.length
    for (const [url, reason] of REFUSED) {
      // the per-minute limit (20, one every 3 s) comes first: kept from answering
      t.clock.advance(3_100)
      const r = await post(t.app, path, body(url), { token, ip: nextIp(), lang: 'en' })
      expect([url, r.status, r.body.code, r.body.data]).toEqual([url, 200, 400, { field }])
      // the message names the field in the shopper's words (data.field has its wire path)
      expect(r.body.message).not.toContain(field)
      if (reason === 'address') expect(r.body.message).toBe('Picture leads to an internal or special-use network address')
      else expect(r.body.message).toMatch(/^Picture\b/)
    }
    expect(fake.calls.length).toBe(before)
    t.clock.advance(61_000)
    const zh = await post(t.app, path, body('https://169.254.169.254/latest/meta-data/'), { token, ip: nextIp(), lang: 'zh' })
    expect(zh.body).toEqual({ code: 400, message: '图片指向内部或保留的网络地址，不能使用', data: { field } })
    expect((await post(t.app, path, body('https://shop.example@127.0.0.1/a.png'), { token, ip: nextIp(), lang: 'zh' })).body.message).toBe('图片不能包含用户名或密码')
  })

  test.each(CALLS)("%s: a public https URL and the shop's own media reach the provider", async (path, body) => {
    for (const url of ['https://cdn.example/a.png', 'http://localhost/media/u/' + SHA + '.png']) {
      const r = await post(t.app, path, body(url), { token, ip: nextIp() })
      expect([url, r.body.code]).toEqual([url, 200])
      expect((fake.calls.at(-1)!.files ?? []).map((f: { url: string }) => f.url)).toContain(url)
    }
  })
})
