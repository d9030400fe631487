/**
 * The operators' chat robots (spec 7: /api/feishuRobotText, /api/wechatRobotText) against local servers
 * on 127.0.0.1 that speak the providers' documented webhook APIs (test/support/providers/feishu.js,
 * wecom.js): first the adapters alone (Feishu's signature checked by the fake, WeCom's body, line
 * breaks as spaces, every refusal and outage), then the routes on SQLite and PostgreSQL (operators
 * only, before validation; not configured; refusals as a 422 naming the reason; the per-operator limit).
 */
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import { testDialects } from './support/db'
import * as feishuFake from '../support/providers/feishu'
import * as wecomFake from '../support/providers/wecom'
import { FeishuRobot, WeComRobot, feishuSign, robotText } from '../../server/src/providers/robots'
import { ProviderRefusedError, ProviderUnavailableError } from '../../server/src/providers/errors'
import { ROBOT_TEXT_MAX } from '../../types/limits'

const refusal = async (p: Promise<unknown>) => {
  try {
    await p
  } catch (err) {
    return err
  }
  throw new Error('expected a failure')
}

describe('the robot adapters against local webhooks', () => {
  let feishu: feishuFake.FakeFeishu
  let wecom: wecomFake.FakeWeCom
  beforeAll(async () => { [feishu, wecom] = await Promise.all([feishuFake.start(), wecomFake.start()]) })
  afterAll(async () => { await Promise.all([feishu.close(), wecom.close()]) })
  beforeEach(() => { feishu.keyword = null; feishu.now = () => Date.now(); feishu.perMinute = 100; wecom.perMinute = 20 })

  test('spec 5: line breaks become spaces (\\n, \\r\\n, \\r, U+2028), nothing else changes', () => {
    expect(robotText('新留言\n第二行\r\n第三行\r四\u2028五\tTab  two spaces')).toBe('新留言 第二行 第三行 四 五\tTab  two spaces')
  })

  test('Feishu: a signed JSON text message; the fake checks the signature the documented way', async () => {
    const now = Date.parse('2026-03-01T08:00:00Z')
    feishu.now = () => now + 30 * 60 * 1000 // the bot's clock half an hour ahead: still within the hour
    const robot = new FeishuRobot(feishu.url, feishuFake.SECRET, () => now)
    expect(await robot.send('第一行\n第二行')).toBe('第一行 第二行')
    const call = feishu.calls[feishu.calls.length - 1]
    expect(call.method).toBe('POST')
    expect(call.contentType).toMatch(/^application\/json/)
    expect(call.body).toEqual({ timestamp: String(now / 1000), sign: expect.any(String), msg_type: 'text', content: { text: '第一行 第二行' } })
    // base64 of HMAC-SHA256 keyed with "timestamp\nsecret" over nothing
    expect(call.body.sign).toBe(feishuSign(String(now / 1000), feishuFake.SECRET))
    expect(call.body.sign).toBe(feishuFake.signOf(String(now / 1000), feishuFake.SECRET))
    expect(feishu.messages[feishu.messages.length - 1]).toBe('第一行 第二行')
  })

  test('Feishu refusals carry its code and message: wrong secret, clock off by more than an hour, keyword, token, rate', async () => {
    const wrongSecret = await refusal(new FeishuRobot(feishu.url, 'not-the-secret', Date.now).send('hi'))
    expect(wrongSecret).toBeInstanceOf(ProviderRefusedError)
    expect(wrongSecret).toMatchObject({ provider: 'feishu', status: '19021', detail: 'sign match fail or timestamp is not within one hour from current time' })
    const late = await refusal(new FeishuRobot(feishu.url, feishuFake.SECRET, () => Date.now() - 2 * 3600 * 1000).send('hi'))
    expect(late).toMatchObject({ status: '19021' })
    feishu.keyword = '盲盒'
    expect(await refusal(new FeishuRobot(feishu.url, feishuFake.SECRET, Date.now).send('no keyword here'))).toMatchObject({ status: '19024', detail: 'Key Words Not Found' })
    expect(await new FeishuRobot(feishu.url, feishuFake.SECRET, Date.now).send('盲盒 alert')).toBe('盲盒 alert')
    feishu.keyword = null
    const otherToken = feishu.url.replace(feishuFake.TOKEN, '00000000-0000-0000-0000-000000000000')
    expect(await refusal(new FeishuRobot(otherToken, feishuFake.SECRET, Date.now).send('hi'))).toMatchObject({ status: '19001' })
    feishu.perMinute = 0
    expect(await refusal(new FeishuRobot(feishu.url, feishuFake.SECRET, Date.now).send('hi'))).toMatchObject({ status: '11232' })
  })

  test('Feishu outages are ProviderUnavailableError and never name the webhook token: HTTP 500, not JSON, no code, a hang', async () => {
    const robot = new FeishuRobot(feishu.url, feishuFake.SECRET, Date.now, 300)
    for (const next of ['http500', 'garbage', { json: { ok: true } }, 'hang'] as const) {
      feishu.next = next
      const err = await refusal(robot.send('hi')) as Error
      expect([next, err]).toEqual([next, expect.any(ProviderUnavailableError)])
      expect(err.message).not.toContain(feishuFake.TOKEN)
    }
    // the old-style answer {StatusCode: 0} is a success too
    feishu.next = { json: { Extra: null, StatusCode: 0, StatusMessage: 'success' } }
    expect(await robot.send('old bot')).toBe('old bot')
  })

  test('WeCom: {msgtype: text, text: {content}} to webhook/send?key=...', async () => {
    const robot = new WeComRobot(wecom.url)
    expect(await robot.send('line 1\nline 2')).toBe('line 1 line 2')
    const call = wecom.calls[wecom.calls.length - 1]
    expect(call).toMatchObject({ path: '/cgi-bin/webhook/send', query: { key: wecomFake.KEY }, method: 'POST' })
    expect(call.contentType).toMatch(/^application\/json/)
    expect(call.body).toEqual({ msgtype: 'text', text: { content: 'line 1 line 2' } })
    expect(wecom.messages[wecom.messages.length - 1]).toBe('line 1 line 2')
  })

  test('WeCom refusals carry its errcode and errmsg: wrong key 93000, over 2048 bytes 45002, 20 a minute 45009', async () => {
    const wrong = await refusal(new WeComRobot(wecom.url.replace(wecomFake.KEY, 'not-the-key')).send('hi'))
    expect(wrong).toBeInstanceOf(ProviderRefusedError)
    expect(wrong).toMatchObject({ provider: 'wecom', status: '93000' })
    expect((wrong as ProviderRefusedError).detail).toMatch(/^invalid webhook url/)
    const robot = new WeComRobot(wecom.url)
    expect(await refusal(robot.send('字'.repeat(683)))).toMatchObject({ status: '45002' })
    // the longest text the server accepts fits WeCom's 2048 bytes, even in CJK
    expect(Buffer.byteLength('字'.repeat(ROBOT_TEXT_MAX))).toBeLessThanOrEqual(2048)
    expect(await robot.send('字'.repeat(ROBOT_TEXT_MAX))).toHaveLength(ROBOT_TEXT_MAX)
    wecom.perMinute = 0
    expect(await refusal(robot.send('hi'))).toMatchObject({ status: '45009', detail: 'api freq out of limit' })
    wecom.next = 'http500'
    const down = await refusal(robot.send('hi')) as Error
    expect(down).toBeInstanceOf(ProviderUnavailableError)
    expect(down.message).not.toContain(wecomFake.KEY)
  })
})

describe.each(testDialects())('the robot routes on %s', (dialect) => {
  let feishu: feishuFake.FakeFeishu
  let wecom: wecomFake.FakeWeCom
  let t: TestApp
  let bare: TestApp
  let operator: string
  let bareOperator: string
  let shopper: string

  beforeAll(async () => {
    [feishu, wecom] = await Promise.all([feishuFake.start(), wecomFake.start()])
    t = await createTestApp(dialect, { env: { ...feishu.env, ...wecom.env } })
    feishu.now = t.clock.now
    bare = await createTestApp(dialect)
    const op = await makeUser(t.db, t.clock, { role: 'operator' })
    operator = await loginToken(t.app, op.user_name!, op.password)
    const s = await makeUser(t.db, t.clock)
    shopper = await loginToken(t.app, s.user_name!, s.password)
    const bop = await makeUser(bare.db, bare.clock, { role: 'operator' })
    bareOperator = await loginToken(bare.app, bop.user_name!, bop.password)
  })
  afterAll(async () => {
    await t.close()
    await bare.close()
    await Promise.all([feishu.close(), wecom.close()])
  })
  beforeEach(() => { t.clock.advance(61_000); feishu.keyword = null; feishu.perMinute = 100; wecom.perMinute = 20 })

  const send = (path: string, body: unknown, o: { token?: string; lang?: string; app?: TestApp } = {}) =>
    post((o.app ?? t).app, path, body, { token: o.token ?? operator, ip: nextIp(), lang: o.lang })
  const ROUTES = [['/api/feishuRobotText', 'feishu'], ['/api/wechatRobotText', 'wecom']] as const

  test('operators only, decided before the body is read: anonymous 401, shopper 403 (never a 400)', async () => {
    for (const [path] of ROUTES) {
      for (const body of [{ text: 'hi' }, { text: '' }, { nope: 1 }, undefined]) {
        expect((await post(t.app, path, body, { ip: nextIp() })).body.code).toBe(401)
        expect((await send(path, body, { token: shopper })).body.code).toBe(403)
      }
    }
    expect(feishu.messages).toHaveLength(0)
    expect(wecom.messages).toHaveLength(0)
  })

  test('an operator posts; line breaks become spaces; the answer says what was posted', async () => {
    const f = await send('/api/feishuRobotText', { text: '今晚 8 点上新\n隐藏款概率 1/72' })
    expect(f.body).toEqual({ code: 200, message: 'OK', data: { provider: 'feishu', text: '今晚 8 点上新 隐藏款概率 1/72' } })
    expect(feishu.messages[feishu.messages.length - 1]).toBe('今晚 8 点上新 隐藏款概率 1/72')
    const w = await send('/api/wechatRobotText', { text: 'New series tonight\r\nat 8' })
    expect(w.body.data).toEqual({ provider: 'wecom', text: 'New series tonight at 8' })
    expect(wecom.messages[wecom.messages.length - 1]).toBe('New series tonight at 8')
  })

  test('bad input is a 400 naming text, and nothing is posted', async () => {
    const before = [feishu.calls.length, wecom.calls.length]
    for (const [path] of ROUTES) {
      expect((await send(path, {}, { lang: 'en' })).body).toMatchObject({ code: 400, data: { field: 'text' } })
      expect((await send(path, { text: '' })).body).toMatchObject({ code: 400, data: { field: 'text' } })
      expect((await send(path, { text: 'x'.repeat(ROBOT_TEXT_MAX + 1) }, { lang: 'en' })).body)
        .toEqual({ code: 400, message: `text must be at most ${ROBOT_TEXT_MAX} characters`, data: { field: 'text', rule: 'maxLength' } })
      expect((await send(path, { text: 'a\u0000b' })).body).toMatchObject({ code: 400, data: { field: 'text' } })
      expect((await send(path, { text: 'hi', at: 'all' })).body).toMatchObject({ code: 400, data: { field: 'at' } })
    }
    expect([feishu.calls.length, wecom.calls.length]).toEqual(before)
  })

  test('not configured: 422 "provider not configured" naming the robot', async () => {
    expect((await send('/api/feishuRobotText', { text: 'hi' }, { app: bare, token: bareOperator, lang: 'en' })).body)
      .toEqual({ code: 422, message: 'The Feishu robot is not available in this shop', data: { provider: 'feishu' } })
    expect((await send('/api/wechatRobotText', { text: 'hi' }, { app: bare, token: bareOperator, lang: 'zh' })).body)
      .toEqual({ code: 422, message: '这个商城暂不提供企业微信机器人', data: { provider: 'wecom' } })
  })

  test('refusals (code / errcode not 0) are a 422 naming the reason, never a 5xx', async () => {
    feishu.keyword = '盲盒'
    const kw = await send('/api/feishuRobotText', { text: 'no keyword' }, { lang: 'en' })
    expect(kw.status).toBe(200)
    expect(kw.body).toEqual({ code: 422, message: 'The Feishu robot refused the message: the message lacks the keyword the robot asks for (code 19024)', data: { provider: 'feishu', status: '19024' } })
    feishu.keyword = null
    feishu.perMinute = 0
    expect((await send('/api/feishuRobotText', { text: 'hi' }, { lang: 'zh' })).body)
      .toEqual({ code: 422, message: '飞书机器人拒绝了这条消息：发送太频繁，请稍后再试（错误码 11232）', data: { provider: 'feishu', status: '11232' } })
    // a code this shop does not know: Feishu's own message
    feishu.next = { json: { code: 9499, msg: 'Bad Request', data: {} } }
    expect((await send('/api/feishuRobotText', { text: 'hi' }, { lang: 'en' })).body.message).toBe('The Feishu robot refused the message: Bad Request (code 9499)')
    wecom.perMinute = 0
    expect((await send('/api/wechatRobotText', { text: 'hi' }, { lang: 'en' })).body)
      .toEqual({ code: 422, message: 'The WeCom robot refused the message: too many messages, try again shortly (code 45009)', data: { provider: 'wecom', status: '45009' } })

    // a wrong secret and a wrong key
    const wrong = await createTestApp(dialect, { env: { FEISHU_WEBHOOK_URL: feishu.url, FEISHU_WEBHOOK_SECRET: 'wrong-secret', WECOM_WEBHOOK_URL: wecom.url.replace(wecomFake.KEY, 'wrong-key') } })
    try {
      feishu.now = () => wrong.clock.now()
      const op = await makeUser(wrong.db, wrong.clock, { role: 'operator' })
      const token = await loginToken(wrong.app, op.user_name!, op.password)
      expect((await send('/api/feishuRobotText', { text: 'hi' }, { app: wrong, token, lang: 'en' })).body)
        .toEqual({ code: 422, message: 'The Feishu robot refused the message: the signature check failed; check the robot\'s signing secret (see the editor\'s Settings tab) and the server clock (code 19021)', data: { provider: 'feishu', status: '19021' } })
      expect((await send('/api/wechatRobotText', { text: 'hi' }, { app: wrong, token, lang: 'en' })).body)
        .toEqual({ code: 422, message: 'The WeCom robot refused the message: the webhook URL is not valid (the robot may have been removed) (code 93000)', data: { provider: 'wecom', status: '93000' } })
    } finally {
      feishu.now = t.clock.now
      await wrong.close()
    }
  })

  test('an outage is the documented HTTP 502 "unavailable" (as every provider of the shop)', async () => {
    wecom.next = 'http500'
    const r = await send('/api/wechatRobotText', { text: 'hi' }, { lang: 'en' })
    expect(r.status).toBe(502)
    expect(r.body).toEqual({ code: 502, message: 'The WeCom robot is unavailable, please try again later', data: { provider: 'wecom' } })
  })

  test('20 posts a minute per operator, then 429', async () => {
    wecom.perMinute = 1000
    for (let i = 0; i < 20; i++) expect((await send('/api/wechatRobotText', { text: `n${i}` })).body.code).toBe(200)
    const over = await send('/api/wechatRobotText', { text: 'one more' }, { lang: 'en' })
    expect(over.body).toMatchObject({ code: 429, data: { retryAfter: expect.any(Number) } })
    t.clock.advance(61_000)
    expect((await send('/api/wechatRobotText', { text: 'later' })).body.code).toBe(200)
  })
})
