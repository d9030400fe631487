/**
 * Parcel tracking (types/express.ts) through the Kuaidi100 adapter against a local fake that speaks its
 * documented API (test/support/providers/kuaidi100.js): the signature, the answers, spec 5's phone
 * check, refusals, the map call's success-false answers (spec 8), 401, not configured, the limit.
 */
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import * as kuaidi100 from '../support/providers/kuaidi100'
import { md5 } from '../support/providers/http'
import { RULES } from '../../server/src/security/rules'

describe.each(testDialects())('parcel tracking on %s', (dialect) => {
  let k: kuaidi100.FakeKuaidi100
  let t: TestApp
  let bare: TestApp
  let token: string
  let bareToken: string

  beforeAll(async () => {
    k = await kuaidi100.start()
    t = await createTestApp(dialect, { env: { KUAIDI100_CUSTOMER: kuaidi100.CUSTOMER, KUAIDI100_KEY: kuaidi100.KEY, KUAIDI100_API_BASE: k.url } })
    bare = await createTestApp(dialect)
    const u = await makeUser(t.db, t.clock)
    token = await loginToken(t.app, u.user_name!, u.password)
    const b = await makeUser(bare.db, bare.clock)
    bareToken = await loginToken(bare.app, b.user_name!, b.password)
  })
  afterAll(async () => {
    await t.close()
    await bare.close()
    await k.close()
  })

  const call = (path: string, body: unknown, o: { lang?: string; app?: TestApp; token?: string } = {}) =>
    post((o.app ?? t).app, path, body, { token: o.token ?? token, ip: nextIp(), ...(o.lang ? { lang: o.lang } : {}) })
  const last = () => k.calls[k.calls.length - 1]

  test('expressInquiry: a signed form post to poll/query.do; the events newest first; delivered when signed for', async () => {
    const r = await call('/api/expressInquiry', { com: 'zhongtong', num: '75312345678901', resultv2: 4 })
    expect(r.body.code).toBe(200)
    const sent = last()
    expect(sent.path).toBe('/poll/query.do')
    expect(sent.contentType).toBe('application/x-www-form-urlencoded')
    expect(sent.form.customer).toBe(kuaidi100.CUSTOMER)
    expect(sent.form.sign).toBe(md5(sent.form.param + kuaidi100.KEY + kuaidi100.CUSTOMER).toUpperCase())
    expect(sent.param).toEqual({ com: 'zhongtong', num: '75312345678901', resultv2: '4', show: '0', order: 'desc' })
    expect(r.body.data).toMatchObject({ com: 'zhongtong', num: '75312345678901', state: '3', delivered: true })
    const events = r.body.data.events
    expect(events).toHaveLength(4)
    expect(events[0]).toEqual({ time: '2026-02-27 14:40:00', context: '【北京市】 快件已签收，签收人: 本人', status: '签收', location: '北京市,海淀区' })
    expect(events.map((e: { time: string }) => e.time)).toEqual([...events.map((e: { time: string }) => e.time)].sort().reverse())
  })

  test('shunfeng and shunfengkuaiyun need the phone: 400 "必须提供手机号参数" on phone; with it, the track', async () => {
    for (const com of ['shunfeng', 'shunfengkuaiyun']) {
      const r = await call('/api/expressInquiry', { com, num: 'SF1234567890123', resultv2: 4 }, { lang: 'zh' })
      expect(r.body).toEqual({ code: 400, message: '必须提供手机号参数', data: { field: 'phone' } })
      const m = await call('/api/expressMap', { com, num: 'SF1234567890123', from: '深圳', to: '上海', resultv2: 5 }, { lang: 'zh' })
      expect(m.body).toEqual({ code: 400, message: '必须提供手机号参数', data: { field: 'phone' } })
    }
    expect((await call('/api/expressInquiry', { com: 'shunfeng', num: 'SF1234567890123' })).body.message).toBe('A phone number is required')
    const ok = await call('/api/expressInquiry', { com: 'shunfeng', num: 'SF1234567890123', resultv2: 4, phone: '8000' })
    expect(last().param).toMatchObject({ phone: '8000' })
    expect(ok.body.data).toMatchObject({ state: '5', delivered: false })
    expect(ok.body.data.events[0].status).toBe('派件')
    expect((await call('/api/expressInquiry', { com: 'shunfeng', num: 'SF1234567890123', phone: '12ab' })).body).toMatchObject({ code: 400, data: { field: 'phone' } })
  })

  test("Kuaidi100's refusals answer its message (422): wrong phone 408, no record 500, unknown carrier 400", async () => {
    expect((await call('/api/expressInquiry', { com: 'shunfeng', num: 'SF1234567890123', phone: '1234' })).body)
      .toEqual({ code: 422, message: '快递公司参数异常：验证码错误', data: { provider: 'kuaidi100', status: '408' } })
    expect((await call('/api/expressInquiry', { com: 'yuantong', num: 'YT0000000000' })).body)
      .toEqual({ code: 422, message: '查询无结果，请隔段时间再查', data: { provider: 'kuaidi100', status: '500' } })
    expect((await call('/api/expressInquiry', { com: 'nosuchcarrier', num: 'X1234567' })).body)
      .toEqual({ code: 422, message: '找不到对应公司', data: { provider: 'kuaidi100', status: '400' } })
    k.next = 'http500'
    const down = await call('/api/expressInquiry', { com: 'zhongtong', num: '75312345678901' })
    expect(down.status).toBe(502)
    expect(down.body).toEqual({ code: 502, message: 'Kuaidi100 is unavailable, please try again later', data: { provider: 'kuaidi100' } })
  })

  test('the body is checked: carrier code, tracking number, resultv2 4 only', async () => {
    expect((await call('/api/expressInquiry', { num: '75312345678901' })).body).toMatchObject({ code: 400, data: { field: 'com' } })
    expect((await call('/api/expressInquiry', { com: 'Zhong Tong', num: '75312345678901' })).body).toMatchObject({ code: 400, data: { field: 'com' } })
    expect((await call('/api/expressInquiry', { com: 'zhongtong', num: '75 31' })).body).toMatchObject({ code: 400, data: { field: 'num' } })
    expect((await call('/api/expressInquiry', { com: 'zhongtong', num: '75312345678901', resultv2: 1 })).body).toMatchObject({ code: 400, data: { field: 'resultv2' } })
    expect((await call('/api/expressMap', { com: 'zhongtong', num: '75312345678901', from: '广州' })).body).toMatchObject({ code: 400, data: { field: 'to' } })
  })

  test('a wrong key fails the signature check (503) and says so', async () => {
    const wrong = await createTestApp(dialect, { env: { KUAIDI100_CUSTOMER: kuaidi100.CUSTOMER, KUAIDI100_KEY: 'NotTheKey', KUAIDI100_API_BASE: k.url } })
    try {
      const u = await makeUser(wrong.db, wrong.clock)
      const tok = await loginToken(wrong.app, u.user_name!, u.password)
      expect((await call('/api/expressInquiry', { com: 'zhongtong', num: '75312345678901' }, { app: wrong, token: tok })).body)
        .toEqual({ code: 422, message: '验证签名失败', data: { provider: 'kuaidi100', status: '503' } })
    } finally {
      await wrong.close()
    }
  })

  test('expressMap: poll/maptrack.do with from and to; the track, its map page and the route', async () => {
    const r = await call('/api/expressMap', { com: 'shunfeng', num: 'SF1234567890123', from: '广东省深圳市', to: '上海市徐汇区', resultv2: 5, phone: '13800138000' })
    const sent = last()
    expect(sent.path).toBe('/poll/maptrack.do')
    expect(sent.form.sign).toBe(md5(sent.form.param + kuaidi100.KEY + kuaidi100.CUSTOMER).toUpperCase())
    expect(sent.param).toMatchObject({ com: 'shunfeng', num: 'SF1234567890123', from: '广东省深圳市', to: '上海市徐汇区', phone: '13800138000', resultv2: '5' })
    expect(r.body.code).toBe(200)
    const data = r.body.data
    expect(data).toMatchObject({
      success: true, message: 'ok', arrivalTime: '2026-03-01 18', totalTime: '3天3小时', remainTime: '0天10小时',
      route: { from: { name: '广东省深圳市', adcode: 'CN440300000000' }, current: { name: '上海,上海市', adcode: 'CN310100000000' }, to: { name: '上海市徐汇区', adcode: 'CN310104000000' } }
    })
    // each city of the route where it is, for the app's map (the centres the server ships)
    expect(data.route.from.position).toEqual({ latitude: 22.543, longitude: 114.058 })
    expect(data.route.current.position).toEqual({ latitude: 31.23, longitude: 121.474 })
    expect(data.route.to.position).toEqual({ latitude: 31.23, longitude: 121.474 })
    expect(data.trailUrl).toMatch(/^https:\/\/api\.kuaidi100\.com\/tools\/map\//)
    expect(data.track).toMatchObject({ com: 'shunfeng', state: '5', delivered: false })
    expect(data.track.events).toHaveLength(4)
    // a delivered parcel: Kuaidi100 gives remainTime null
    const done = await call('/api/expressMap', { com: 'zhongtong', num: '75312345678901', from: '广州', to: '北京' })
    expect(done.body.data).toMatchObject({ success: true, remainTime: '', track: { delivered: true } })
    // without from: the shop's own city (SHIP_FROM_CITY, 广东省深圳市 by default); a name of no known city has no position
    const own = await call('/api/expressMap', { com: 'zhongtong', num: '75312345678901', to: '某个不存在的地方' })
    expect(last().param.from).toBe('广东省深圳市')
    expect(own.body.data.route.to).toEqual({ name: '某个不存在的地方', adcode: 'CN310104000000', position: null })
  })

  test('expressMap failures are success false with the message, or "接口请求失败" (spec 8)', async () => {
    expect((await call('/api/expressMap', { com: 'yuantong', num: 'YT0000000000', from: '广州', to: '北京' })).body)
      .toEqual({ code: 200, message: 'OK', data: { success: false, message: '查询无结果，请隔段时间再查' } })
    for (const trouble of ['http500', 'garbage'] as const) {
      k.next = trouble
      const r = await call('/api/expressMap', { com: 'zhongtong', num: '75312345678901', from: '广州', to: '北京' }, { lang: 'zh' })
      expect(r.status).toBe(200)
      expect(r.body.data).toEqual({ success: false, message: '接口请求失败' })
    }
    k.next = 'http500'
    expect((await call('/api/expressMap', { com: 'zhongtong', num: '75312345678901', from: '广州', to: '北京' })).body.data)
      .toEqual({ success: false, message: 'The API request failed' })
  })

  test('without KUAIDI100_*: 422 "Kuaidi100 is not configured" (HTTP 200); the phone check still comes first', async () => {
    for (const [path, body] of [['/api/expressInquiry', { com: 'zhongtong', num: '75312345678901' }], ['/api/expressMap', { com: 'zhongtong', num: '75312345678901', from: '广州', to: '北京' }]] as const) {
      const r = await call(path, body, { app: bare, token: bareToken })
      expect(r.status).toBe(200)
      expect(r.body).toEqual({ code: 422, message: 'Kuaidi100 is not available in this shop', data: { provider: 'kuaidi100' } })
      expect((await call(path, body, { app: bare, token: bareToken, lang: 'zh' })).body.message).toBe('这个商城暂不提供快递100')
    }
    expect((await call('/api/expressInquiry', { com: 'shunfeng', num: 'SF1234567890123' }, { app: bare, token: bareToken })).body).toMatchObject({ code: 400, data: { field: 'phone' } })
  })

  test('both calls need a login', async () => {
    for (const path of ['/api/expressInquiry', '/api/expressMap']) {
      expect((await post(t.app, path, { com: 'zhongtong' }, { ip: nextIp() })).body).toMatchObject({ code: 401 })
    }
  })

  test(`expressPerUser: ${RULES.expressPerUser.limit} tracking calls a minute per user, then 429`, async () => {
    expect(RULES.expressPerUser).toMatchObject({ limit: 20, periodMs: 60_000 })
    const u = await makeUser(t.db, t.clock)
    const tok = await loginToken(t.app, u.user_name!, u.password)
    const before = k.calls.length
    for (let i = 0; i < RULES.expressPerUser.limit; i++) {
      expect((await call('/api/expressInquiry', { com: 'zhongtong', num: '75312345678901' }, { token: tok })).body.code).toBe(200)
    }
    const over = await call('/api/expressMap', { com: 'zhongtong', num: '75312345678901', from: '广州', to: '北京' }, { token: tok })
    expect(over.body).toMatchObject({ code: 429 })
    // the refused call never reached Kuaidi100
    expect(k.calls.length - before).toBe(RULES.expressPerUser.limit)
    expect((await call('/api/expressInquiry', { com: 'zhongtong', num: '75312345678901' })).body.code).toBe(200)
  })
})
