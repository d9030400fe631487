/**
 * Price comparison (types/bijia.ts) against a local JD Union router (test/support/providers/jdunion.js,
 * which checks the app key, the MD5 signature and the timestamp as JD documents): products by keyword,
 * then the offers of one product with their lowest and median price; answers kept 10 minutes (the
 * provider is not asked again, and `asOf` keeps the first time); bad input by field before the provider
 * hears of it; 30 a minute per account; refusals and outages told apart; "not configured" without keys.
 */
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import * as jd from '../support/providers/jdunion'
import { JdUnionClient, jdSign, jdTimestamp, medianOf, yuanToCents } from '../../server/src/providers/jdUnion'
import { ProviderRefusedError, ProviderUnavailableError } from '../../server/src/providers/errors'

describe('the JD Union adapter', () => {
  let fake: Awaited<ReturnType<typeof jd.start>>
  beforeAll(async () => { fake = await jd.start() })
  afterAll(async () => { await fake.close() })

  test('the signature, the timestamp and the arithmetic', () => {
    // the documented rule: secret + sorted k+v + secret, MD5, upper-case (the fake computes it on its own)
    const p = { v: '1.0', method: 'm', app_key: 'k', timestamp: '2026-03-01 16:00:00' }
    expect(jdSign(p, 's')).toBe(jd.sign(p, 's'))
    expect(jdSign(p, 's')).toMatch(/^[0-9A-F]{32}$/)
    expect(jdSign({ ...p, sign: 'ignored' }, 's')).toBe(jdSign(p, 's'))
    expect(jdTimestamp(Date.parse('2026-03-01T08:00:00Z'))).toBe('2026-03-01 16:00:00')
    expect([yuanToCents(19.9), yuanToCents('0.07'), yuanToCents(-1), yuanToCents('x'), yuanToCents(undefined)]).toEqual([1990, 7, null, null, null])
    expect([medianOf([]), medianOf([5]), medianOf([9, 1, 5]), medianOf([1, 2, 3, 10])]).toEqual([null, 5, 5, 3])
  })

  test('search groups goods by SPU; one SPU\'s offers come cheapest first; the signed request is accepted', async () => {
    const c = new JdUnionClient({ appKey: jd.APP_KEY, appSecret: jd.APP_SECRET }, fake.url)
    const s = await c.searchSpus('星际旅人')
    expect(s).toMatchObject({ source: 'jd', page: 1, total: 7 })
    expect(s.list.map(x => x.offers)).toEqual([3, 4])
    expect(fake.calls.at(-1)).toEqual({ keyword: '星际旅人', pageIndex: 1, pageSize: 20 })
    const g = await c.spuGoods(s.list[1].spuId)
    expect(fake.calls.at(-1)).toEqual({ spuId: Number(s.list[1].spuId), pageIndex: 1, pageSize: 20 })
    expect(g.offers).toHaveLength(4)
    const cents = g.offers.map(o => o.priceCents)
    expect(cents).toEqual([...cents].sort((a, b) => a - b))
    expect(g.lowestCents).toBe(cents[0])
    expect(g.lowestCents).toBe(s.list[1].lowestCents)
    expect(g.medianCents).toBe(Math.round((cents[1] + cents[2]) / 2))
    expect(g.offers[0].url).toMatch(/^https:\/\/item\.jd\.com\/\d+\.html$/)
    expect(g.offers[0].shop).not.toBe('')
  })

  test('a wrong secret, a stale clock and a refused query are refusals with JD\'s code; an outage is not', async () => {
    await expect(new JdUnionClient({ appKey: jd.APP_KEY, appSecret: 'wrong' }, fake.url).searchSpus('a')).rejects.toMatchObject({ provider: 'jdUnion', status: '13' })
    await expect(new JdUnionClient({ appKey: jd.APP_KEY, appSecret: jd.APP_SECRET }, fake.url, () => Date.now() - 11 * 60_000).searchSpus('b')).rejects.toMatchObject({ status: '11' })
    fake.next = { json: { jd_union_open_goods_query_responce: { code: '0', queryResult: JSON.stringify({ code: 411, message: '无权调用' }) } } }
    await expect(new JdUnionClient({ appKey: jd.APP_KEY, appSecret: jd.APP_SECRET }, fake.url).searchSpus('c')).rejects.toBeInstanceOf(ProviderRefusedError)
    for (const trouble of ['http500', 'garbage', { json: { jd_union_open_goods_query_responce: { code: '0' } } }] as const) {
      fake.next = trouble
      await expect(new JdUnionClient({ appKey: jd.APP_KEY, appSecret: jd.APP_SECRET }, fake.url).searchSpus(`d${String(trouble)}`)).rejects.toBeInstanceOf(ProviderUnavailableError)
    }
  })
})

describe.each(testDialects())('the price comparison calls on %s', (dialect) => {
  let t: TestApp
  let fake: Awaited<ReturnType<typeof jd.start>>
  let a: string
  const ask = (token: string, url: string, body: unknown, lang = 'en') => post(t.app, url, body, { token, lang, ip: nextIp() })

  beforeAll(async () => {
    fake = await jd.start()
    t = await createTestApp(dialect, { env: jd.envFor(fake) })
    fake.now = t.clock.now
    const u = await makeUser(t.db, t.clock)
    a = await loginToken(t.app, u.user_name!, u.password)
  })
  afterAll(async () => { await t?.close(); await fake.close() })

  test('products by keyword, then one product\'s offers with lowest and median; kept 10 minutes with their first time', async () => {
    const s = await ask(a, '/api/bijia_spu_search', { keyword: '  领航员 ' })
    expect(s.body).toMatchObject({ code: 200, data: { source: 'jd', asOf: '2026-03-01T08:00:00.000Z', page: 1, total: 7 } })
    expect(fake.calls.at(-1)!.keyword).toBe('领航员')
    const spu = s.body.data.list[0]
    const g = await ask(a, '/api/bijia_spu_goods_search', { spuId: spu.spuId })
    expect(g.body).toMatchObject({ code: 200, data: { spuId: spu.spuId, lowestCents: spu.lowestCents, medianCents: expect.any(Number) } })
    expect(g.body.data.offers).toHaveLength(spu.offers)
    expect(Object.keys(g.body.data.offers[0]).sort()).toEqual(['image', 'priceCents', 'shop', 'skuId', 'title', 'url'])
    const calls = fake.calls.length
    t.clock.advance(9 * 60_000)
    expect((await ask(a, '/api/bijia_spu_search', { keyword: '领航员' })).body.data.asOf).toBe('2026-03-01T08:00:00.000Z')
    expect(fake.calls.length).toBe(calls)
    t.clock.advance(2 * 60_000)
    expect((await ask(a, '/api/bijia_spu_search', { keyword: '领航员' })).body.data.asOf).toBe('2026-03-01T08:11:00.000Z')
    expect(fake.calls.length).toBe(calls + 1)
    const none = await ask(a, '/api/bijia_spu_search', { keyword: '无货的东西' })
    expect(none.body.data).toMatchObject({ total: 0, list: [] })
    const unknown = await ask(a, '/api/bijia_spu_goods_search', { spuId: '123456' })
    expect(unknown.body.data).toMatchObject({ offers: [], lowestCents: null, medianCents: null })
  })

  test('bad input by field, before the provider hears of it; anonymous 401; 30 a minute; refusal 422 and outage 502', async () => {
    const before = fake.calls.length
    for (const [url, body, field] of [
      ['/api/bijia_spu_search', { keyword: '' }, 'keyword'],
      ['/api/bijia_spu_search', { keyword: '   ' }, 'keyword'],
      ['/api/bijia_spu_search', { keyword: 'x'.repeat(61) }, 'keyword'],
      ['/api/bijia_spu_search', { keyword: 'a\u0000b' }, 'keyword'],
      ['/api/bijia_spu_search', { keyword: 'a', page: 11 }, 'page'],
      ['/api/bijia_spu_search', { keyword: 'a', page: '2' }, 'page'],
      ['/api/bijia_spu_goods_search', { spuId: '0123' }, 'spuId'],
      ['/api/bijia_spu_goods_search', { spuId: 123 }, 'spuId'],
      ['/api/bijia_spu_goods_search', { spuId: '1'.repeat(16) }, 'spuId'],
      ['/api/bijia_spu_goods_search', { spuId: '1', extra: 1 }, 'extra']
    ] as const) {
      const r = await ask(a, url, body, 'zh')
      expect([url, field, r.body.code, r.body.data?.field]).toEqual([url, field, 400, field])
    }
    expect(fake.calls.length).toBe(before)
    expect((await post(t.app, '/api/bijia_spu_search', { keyword: 'x' })).body.code).toBe(401)
    const u = await makeUser(t.db, t.clock)
    const c = await loginToken(t.app, u.user_name!, u.password)
    for (let i = 0; i < 30; i++) expect((await ask(c, '/api/bijia_spu_search', { keyword: `k${i}` })).body.code).toBe(200)
    expect((await ask(c, '/api/bijia_spu_search', { keyword: 'one more' })).body.code).toBe(429)
    fake.next = { json: { error_response: { code: '26', zh_desc: '业务参数错误', en_desc: 'bad' } } }
    expect((await ask(a, '/api/bijia_spu_search', { keyword: 'refused' }, 'zh')).body).toMatchObject({ code: 422, message: '业务参数错误', data: { provider: 'jdUnion', status: '26' } })
    fake.next = 'garbage'
    const down = await ask(a, '/api/bijia_spu_search', { keyword: 'down' }, 'zh')
    expect(down.status).toBe(502)
    expect(down.body).toMatchObject({ code: 502, data: { provider: 'jdUnion' }, message: '京东联盟比价暂时不可用，请稍后再试' })
  })
})

test('without JD_UNION_APP_KEY the calls say the price comparison is not configured', async () => {
  const t = await createTestApp('sqlite')
  try {
    const u = await makeUser(t.db, t.clock)
    const token = await loginToken(t.app, u.user_name!, u.password)
    expect((await post(t.app, '/api/bijia_spu_search', { keyword: 'x' }, { token, lang: 'en' })).body)
      .toEqual({ code: 422, message: 'JD Union price comparison is not available in this shop', data: { provider: 'jdUnion' } })
    expect((await post(t.app, '/api/bijia_spu_goods_search', { spuId: '1' }, { token, lang: 'zh' })).body)
      .toEqual({ code: 422, message: '这个商城暂不提供京东联盟比价', data: { provider: 'jdUnion' } })
  } finally { await t.close() }
})
