/**
 * Subscription messages (订阅消息): HttpWeChatClient.sendSubscribeMessage against the local WeChat
 * (test/support/providers/wechat.js startMiniProgram and start), which refuses what WeChat refuses as
 * https://developers.weixin.qq.com/miniprogram/dev/OpenApiDoc/mp-message-management/subscribe-message/sendMessage.html
 * documents it: 40001 a token it did not give, 40003 an openid that is not this mini-program's, 40037 an
 * unknown template, 43101 no consent left (each "accept" in wx.requestSubscribeMessage grants one, a
 * message spends it), 47003 a value breaking its keyword's rule, a page or state or lang it does not
 * know, 43002 a GET, 47001 a body that is not JSON. subscribeValue fits values to those rules.
 */
import { HttpWeChatClient, subscribeTime, subscribeValue, WeChatError, type SubscribeMessage } from '../../server/src/providers/wechat'
import * as wechat from '../support/providers/wechat'

const AUTHORIZE = 'https://open.weixin.qq.com/connect/oauth2/authorize'
const USER = 'o_subscribe_user_01'

/** What the page's example answers, keyword by keyword, for the fake's event template. */
const DATA = { thing1: '星际旅人上海首发', time2: '2026年12月12日 14:00', thing3: '上海 静安嘉里中心', thing4: '活动即将开始' }

async function refusal (p: Promise<unknown>): Promise<{ errcode: number; errmsg: string }> {
  try {
    await p
  } catch (err) {
    if (err instanceof WeChatError) return { errcode: err.errcode, errmsg: err.errmsg }
    throw err
  }
  throw new Error('WeChat took it')
}

/** A raw call on the fake, as WeChat's HTTP API is called (to reach what the adapter never sends). */
async function raw (url: string, init?: RequestInit): Promise<Record<string, unknown>> {
  return await (await fetch(url, init)).json() as Record<string, unknown>
}

describe('sendSubscribeMessage against the mini-program fake', () => {
  let mini: wechat.FakeMiniProgram
  let client: HttpWeChatClient
  let now = Date.parse('2026-11-25T00:00:00Z')
  const message = (over: Partial<SubscribeMessage> = {}): SubscribeMessage =>
    ({ touser: USER, templateId: wechat.EVENT_TEMPLATE_ID, page: 'pagesA/event/index?id=7', data: { ...DATA }, ...over })
  const tokenCalls = () => mini.calls.filter(c => c.path === '/cgi-bin/token').length

  beforeAll(async () => {
    mini = await wechat.startMiniProgram()
    mini.mint({ openid: USER })
    client = new HttpWeChatClient({ appId: wechat.MINI_APPID, secret: wechat.MINI_SECRET, apiBase: mini.url, authorizeUrl: AUTHORIZE }, () => now)
  })
  afterAll(async () => { await mini?.close() })

  test('the event and restock templates are the defaults; a consent lets one message through and the next is 43101', async () => {
    expect(mini.templates).toEqual({ [wechat.EVENT_TEMPLATE_ID]: ['thing1', 'time2', 'thing3', 'thing4'], [wechat.RESTOCK_TEMPLATE_ID]: ['thing1', 'time2', 'thing3'] })
    expect(await refusal(client.sendSubscribeMessage(message()))).toEqual({ errcode: 43101, errmsg: 'user refuse to accept the msg' })
    mini.subscribe(USER, wechat.EVENT_TEMPLATE_ID)
    await client.sendSubscribeMessage(message({ lang: 'en_US', state: 'developer' }))
    expect(mini.messages).toEqual([{ touser: USER, templateId: wechat.EVENT_TEMPLATE_ID, page: 'pagesA/event/index?id=7', data: DATA, lang: 'en_US', state: 'developer' }])
    expect(mini.consentsLeft(USER, wechat.EVENT_TEMPLATE_ID)).toBe(0)
    expect(await refusal(client.sendSubscribeMessage(message()))).toMatchObject({ errcode: 43101 })
    // two consents, two messages (defaults: formal, zh_CN)
    mini.subscribe(USER, wechat.EVENT_TEMPLATE_ID)
    mini.subscribe(USER, wechat.EVENT_TEMPLATE_ID)
    await client.sendSubscribeMessage(message())
    await client.sendSubscribeMessage(message({ page: undefined }))
    expect(mini.messages.slice(1).map(m => [m.lang, m.state, m.page])).toEqual([['zh_CN', 'formal', 'pagesA/event/index?id=7'], ['zh_CN', 'formal', undefined]])
    expect(await refusal(client.sendSubscribeMessage(message()))).toMatchObject({ errcode: 43101 })
    // one access_token for all of them (cached)
    expect(tokenCalls()).toBe(1)
  })

  test('refused before any consent is spent: unknown template 40037, unknown openid 40003, bad values 47003', async () => {
    mini.subscribe(USER, wechat.EVENT_TEMPLATE_ID)
    const sent = mini.messages.length
    expect(await refusal(client.sendSubscribeMessage(message({ templateId: 'tmpl_nowhere' })))).toMatchObject({ errcode: 40037 })
    expect(await refusal(client.sendSubscribeMessage(message({ touser: 'o_not_this_apps_user' })))).toMatchObject({ errcode: 40003 })
    for (const data of [
      { ...DATA, thing1: '星'.repeat(21) }, // thing: at most 20 characters
      { ...DATA, time2: 'next Saturday' }, // time: a time of day (with a date or not)
      { ...DATA, time2: '2026年12月12日' }, // a date is no time
      { thing1: DATA.thing1, time2: DATA.time2, thing3: DATA.thing3 }, // a keyword missing
      { ...DATA, thing4: '' } // empty
    ]) expect(await refusal(client.sendSubscribeMessage(message({ data })))).toMatchObject({ errcode: 47003 })
    expect(await refusal(client.sendSubscribeMessage(message({ page: 'pagesA/nowhere/index' })))).toMatchObject({ errcode: 47003 })
    expect(await refusal(client.sendSubscribeMessage(message({ page: '/pagesA/event/index' })))).toMatchObject({ errcode: 47003 })
    expect(await refusal(client.sendSubscribeMessage(message({ state: 'beta' as never })))).toMatchObject({ errcode: 47003 })
    expect(await refusal(client.sendSubscribeMessage(message({ lang: 'fr_FR' as never })))).toMatchObject({ errcode: 47003 })
    expect(mini.messages).toHaveLength(sent)
    expect(mini.consentsLeft(USER, wechat.EVENT_TEMPLATE_ID)).toBe(1)
    // the time forms the page shows: a time alone, a date and time, a period joined by ~
    for (const time2 of ['15:01', '2026-12-12 14:00', '2026年12月12日 14:00~2026年12月12日 18:00']) {
      mini.subscribe(USER, wechat.EVENT_TEMPLATE_ID)
      await client.sendSubscribeMessage(message({ data: { ...DATA, time2 } }))
    }
    await client.sendSubscribeMessage(message())
    expect(mini.consentsLeft(USER, wechat.EVENT_TEMPLATE_ID)).toBe(0)
  })

  test('a stale token is fetched again once and the message goes; twice stale it is a WeChatError 40001', async () => {
    now += 3 * 3_600_000 // the cached token has expired: the next send asks for one
    const before = tokenCalls()
    mini.staleTokens = 1
    mini.subscribe(USER, wechat.EVENT_TEMPLATE_ID)
    await client.sendSubscribeMessage(message())
    expect(tokenCalls() - before).toBe(2)
    expect(mini.consentsLeft(USER, wechat.EVENT_TEMPLATE_ID)).toBe(0)

    now += 3 * 3_600_000
    mini.staleTokens = 2
    mini.subscribe(USER, wechat.EVENT_TEMPLATE_ID)
    const e = await refusal(client.sendSubscribeMessage(message()))
    expect(e.errcode).toBe(40001)
    expect(tokenCalls() - before).toBe(4)
    // nothing spent; with a good token it goes
    expect(mini.consentsLeft(USER, wechat.EVENT_TEMPLATE_ID)).toBe(1)
    now += 3 * 3_600_000
    await client.sendSubscribeMessage(message())
    expect(mini.consentsLeft(USER, wechat.EVENT_TEMPLATE_ID)).toBe(0)
  })

  test('what the adapter never sends: GET 43002, not JSON 47001, a token it did not give 40001, a wrong secret 40013', async () => {
    const token = (await raw(`${mini.url}/cgi-bin/token?grant_type=client_credential&appid=${mini.appid}&secret=${mini.secret}`)).access_token as string
    expect(token).toMatch(/^app_/)
    const send = `${mini.url}/cgi-bin/message/subscribe/send?access_token=${token}`
    expect(await raw(send)).toMatchObject({ errcode: 43002 })
    expect(await raw(send, { method: 'POST', body: '{touser:' })).toMatchObject({ errcode: 47001 })
    expect(await raw(`${mini.url}/cgi-bin/message/subscribe/send?access_token=made_up`, { method: 'POST', body: '{}' })).toMatchObject({ errcode: 40001 })
    expect(await raw(`${mini.url}/cgi-bin/token?grant_type=client_credential&appid=${mini.appid}&secret=wrong`)).toMatchObject({ errcode: 40013 })
    // a success answers a msgid
    mini.subscribe(USER, wechat.EVENT_TEMPLATE_ID)
    const data = Object.fromEntries(Object.entries(DATA).map(([k, value]) => [k, { value }]))
    expect(await raw(send, { method: 'POST', body: JSON.stringify({ touser: USER, template_id: wechat.EVENT_TEMPLATE_ID, data }) }))
      .toEqual({ errcode: 0, errmsg: 'ok', msgid: expect.any(Number) })
  })

  test('other keyword kinds: phrase, character_string, number, letter, date, name, as subscribeValue fits them', async () => {
    const id = 'tmpl_all_kinds'
    mini.templates[id] = ['phrase1', 'character_string2', 'number3', 'letter4', 'date5', 'name6']
    const raw = { phrase1: '已经开始报名了', character_string2: `ORDER-${'9'.repeat(40)} x`, number3: '¥ 1,299.50', letter4: 'Hello World 2026', date5: new Date('2026-12-12T06:00:00Z'), name6: '王小明 Wang' }
    const fitted = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, subscribeValue(k, v)]))
    expect(fitted).toEqual({
      phrase1: '已经开始报', character_string2: `ORDER-${'9'.repeat(26)}`, number3: '1299.50', letter4: 'HelloWorld', date5: '2026年12月12日 14:00', name6: '王小明'
    })
    mini.subscribe(USER, id)
    await client.sendSubscribeMessage({ touser: USER, templateId: id, data: fitted })
    expect(mini.messages.at(-1)).toMatchObject({ templateId: id, data: fitted })
    // unfitted, each is refused
    for (const [k, v] of [['phrase1', '已经开始报名了'], ['character_string2', raw.character_string2], ['number3', '1,299'], ['letter4', 'Hello World'], ['date5', '12/12/2026'], ['name6', '王小明 Wang']]) {
      mini.subscribe(USER, id)
      expect(await refusal(client.sendSubscribeMessage({ touser: USER, templateId: id, data: { ...fitted, [k]: v } }))).toMatchObject({ errcode: 47003 })
    }
    delete mini.templates[id]
  })
})

describe('the official-account fake (start) takes subscription messages by the same rules', () => {
  let fake: wechat.FakeWeChatOAuth
  beforeAll(async () => { fake = await wechat.start() })
  afterAll(async () => { await fake?.close() })

  test('a mini-program user (knownOpenids, or one who subscribed) with a consent gets one message', async () => {
    const client = new HttpWeChatClient({ appId: fake.env.WECHAT_APPID, secret: fake.env.WECHAT_SECRET, apiBase: fake.url, authorizeUrl: AUTHORIZE }, Date.now)
    const m: SubscribeMessage = { touser: 'o_known_01', templateId: wechat.EVENT_TEMPLATE_ID, data: { ...DATA } }
    expect(await refusal(client.sendSubscribeMessage(m))).toMatchObject({ errcode: 40003 })
    fake.knownOpenids.add('o_known_01')
    expect(await refusal(client.sendSubscribeMessage(m))).toMatchObject({ errcode: 43101 })
    fake.subscribe('o_known_01', wechat.EVENT_TEMPLATE_ID)
    await client.sendSubscribeMessage(m)
    expect(fake.messages).toEqual([expect.objectContaining({ touser: 'o_known_01', data: DATA })])
    // subscribe() makes the openid one of the mini-program's
    fake.subscribe('o_new_02', wechat.EVENT_TEMPLATE_ID)
    await client.sendSubscribeMessage({ ...m, touser: 'o_new_02' })
    expect(await refusal(client.sendSubscribeMessage({ ...m, touser: 'o_new_02', templateId: 'tmpl_x' }))).toMatchObject({ errcode: 40037 })
  })
})

describe('subscribeValue and subscribeTime', () => {
  test('thing: at most 20 characters, cut with …; spaces folded', () => {
    expect(subscribeValue('thing1', '  星际旅人\n上海首发  ')).toBe('星际旅人 上海首发')
    const long = subscribeValue('thing3', '上海市静安区南京西路 1515 号 静安嘉里中心 B1 中庭')
    expect([...long]).toHaveLength(20)
    expect(long.endsWith('…')).toBe(true)
    expect(subscribeValue('thing4', '一'.repeat(20))).toBe('一'.repeat(20))
    // astral characters count as one
    expect([...subscribeValue('thing1', '🎁'.repeat(30))]).toHaveLength(20)
  })

  test('time: WeChat forms are kept, a Date or ISO time becomes China time', () => {
    expect(subscribeValue('time2', '2026年12月12日 14:00')).toBe('2026年12月12日 14:00')
    expect(subscribeValue('time2', '15:01')).toBe('15:01')
    expect(subscribeValue('time2', new Date('2026-12-12T06:00:00Z'))).toBe('2026年12月12日 14:00')
    expect(subscribeValue('time12', '2026-12-31T16:30:00.000Z')).toBe('2027年1月1日 00:30')
    expect(subscribeTime(Date.parse('2026-03-05T01:02:00Z'), false)).toBe('2026年3月5日')
    expect(() => subscribeTime('soon')).toThrow(RangeError)
  })

  test('phrase, character_string, number: the kind\'s characters, cut to its length', () => {
    expect(subscribeValue('phrase1', '已发货 shipped')).toBe('已发货')
    expect(subscribeValue('phrase2', '一二三四五六七')).toBe('一二三四五')
    expect(subscribeValue('character_string3', 'A'.repeat(40))).toBe('A'.repeat(32))
    expect(subscribeValue('character_string1', '订单 SN-2026 / 01')).toBe('SN-2026/01')
    expect(subscribeValue('number1', '1'.repeat(40))).toBe('1'.repeat(32))
    expect(subscribeValue('number2', '.5')).toBe('0.5')
    expect(subscribeValue('number2', '12.')).toBe('12')
  })
})
