/**
 * A launch event in the compiled mini-program (issue 24 item 3), against the shop's real API server
 * and the local WeChat (code2session, access token, subscription messages), Tencent location service
 * and Juhe: a shopper logged in through WeChat opens the event; WeChat's map (<map>) shows the venue
 * with the route from the phone, within WeChat's map rules; they pick the city they leave from
 * (WeChat's picker) and see trains and flights to it that day; "remind me" asks WeChat's consent for
 * one subscription message from the tap (wx.requestSubscribeMessage), the server stores the reminder,
 * and, the event being within a day, sends it through WeChat at once; WeChat delivers it to that user
 * with the event's page. A shopper who refuses the consent is offered mail instead (the shop has a mail
 * server: development's log mailer is no channel, issue 48), and nothing is stored.
 */
const { createHarness, waitFor, maps } = require('./harness')
const { startShop, callApi } = require('./shop')
const wechat = require('../support/providers/wechat')
const tencent = require('../support/providers/tencent')
const juhe = require('../support/providers/juhe')
const { startSmtp } = require('../e2e/smtp')

const h = createHarness()
/** The phone: People's Square, Shanghai (GCJ-02). */
const DEVICE = { latitude: 31.23136, longitude: 121.47004 }
const HOUR = 3_600_000
let shop
let mini
let tx
let jh
let smtp
let event
let page

const api = (route, body, as) => callApi(h.state.apiOrigin, route, body, as)
const textOf = (el) => el.dom.textContent

beforeAll(async () => {
  mini = await wechat.startMiniProgram()
  tx = await tencent.start()
  jh = await juhe.start()
  smtp = await startSmtp()
  shop = await startShop(h, {
    WECHAT_APPID: mini.appid, WECHAT_SECRET: mini.secret, WECHAT_API_BASE: mini.url,
    WECHAT_EVENT_TEMPLATE_ID: wechat.EVENT_TEMPLATE_ID, WECHAT_MINIPROGRAM_STATE: 'developer', EVENT_REMINDER_SWEEP_MS: '1000',
    TENCENT_MAP_KEY: tencent.KEY, TENCENT_MAP_API_BASE: tx.url,
    ...juhe.envFor(jh),
    SMTP_URL: smtp.url, MAIL_FROM: 'Shop <shop@example.test>'
  }, { prefix: 'shop-weapp-event-' })
  const op = await api('/login/passwd', { user_name: 'operator', password: 'operator123' }, null)
  const series = (await api('/api/seriesList', { page: 1, size: 10 }, null)).list[0]
  const startsAt = new Date(Date.now() + 3 * HOUR)
  startsAt.setUTCMinutes(0, 0, 0)
  event = await api('/api/operator/eventSave', {
    seriesId: series.id, title: { zh: '上海首发会', en: 'Shanghai launch' }, city: '上海', venue: '静安嘉里中心', address: '上海市静安区南京西路 1515 号',
    latitude: 31.224361, longitude: 121.446235, startsAt: startsAt.toISOString(), endsAt: new Date(startsAt.getTime() + 5 * HOUR).toISOString()
  }, op.token)
  // a shopper of the mini-program: logged in through WeChat (their openid is who WeChat writes to)
  mini.user = { openid: 'o_event_weapp_user_01' }
  const login = await api('/login/weapp', { code: mini.mint() }, null)
  h.state.wechat = mini
  h.state.privacy.agreed = true
  h.state.scopeAnswers['scope.userLocation'] = true
  h.state.location = { ...h.state.location, ...DEVICE }
  h.state.storage.h5_token = login.token
  h.boot()
  page = h.loadPage('pagesA/event/index', { id: String(event.id) })
  await waitFor(() => expect(page.querySelector('.event-head__title')).toBeTruthy(), 15000)
}, 90000)

afterAll(async () => {
  await shop?.stop()
  await mini?.close()
  await tx?.close()
  await jh?.close()
  // smtp-server calls unref() on its close timer once it has stopped listening; this environment's
  // timers (jsdom's) have none: the listener is closed all the same
  await smtp?.close().catch(() => undefined)
})

test('the venue on WeChat\'s map with the route from the phone; trains and flights from the city picked', async () => {
  expect(textOf(page.querySelector('.event-head__title'))).toBe('上海首发会')
  let [map] = maps(page)
  await waitFor(() => { [map] = maps(page); expect(map.props.polyline?.length).toBe(1) }, 15000)
  expect(map.problems).toEqual([])
  expect(map.props.scale).toBe(16)
  expect(map.props.markers.map(m => [m.id, m.iconPath])).toEqual([[event.id, '/static/map/pin-on.png'], [0, '/static/map/origin.png']])
  await waitFor(() => expect(textOf(page.querySelector('.event-route'))).toMatch(/驾车 [\d.]+ (米|公里) · 约 \d+ 分钟/), 10000)

  // WeChat's picker: Beijing, the first city
  page.querySelector('.event-from-picker').dispatchEvent('change', { detail: { value: '0' } })
  await waitFor(() => expect(page.querySelectorAll('.event-train').length).toBeGreaterThan(0), 15000)
  await waitFor(() => expect(page.querySelectorAll('.event-flight').length).toBeGreaterThan(0), 15000)
  expect(textOf(page.querySelector('.event-from'))).toContain('从北京出发')
  const day = new Date(Date.parse(event.startsAt) + 8 * HOUR).toISOString().slice(0, 10)
  expect(jh.calls.map(c => c.api === 'train' ? [c.departure_station, c.arrival_station, c.date] : [c.departure, c.arrival, c.departureDate]))
    .toEqual(expect.arrayContaining([['北京', '上海', day], ['BJS', 'SHA', day]]))
  // remembered on the phone for the next event
  expect(h.state.storage.eventFromCity).toBe('北京')
}, 60000)

test('remind me: a refused consent stores nothing and offers mail; an allowed one is sent through WeChat to this user, once', async () => {
  h.state.subscribeAnswers[wechat.EVENT_TEMPLATE_ID] = 'reject'
  page.querySelector('.event-remind').dispatchEvent('tap')
  // the server has mail too (a mail server): the page asks for an address instead
  await waitFor(() => expect(page.querySelector('.event-email-input')).toBeTruthy(), 10000)
  expect(h.state.subscribeRequests).toEqual([expect.objectContaining({ tmplIds: [wechat.EVENT_TEMPLATE_ID], inTap: true })])
  expect(mini.consentsLeft('o_event_weapp_user_01', wechat.EVENT_TEMPLATE_ID)).toBe(0)
  expect((await api('/api/eventDetail', { eventId: event.id }, h.state.storage.h5_token)).reminder.mine).toBeNull()

  // WeChat again, from the button beside the address; this time the shopper allows it
  expect(textOf(page.querySelector('.event-remind'))).toContain('改用微信通知')
  h.state.subscribeAnswers[wechat.EVENT_TEMPLATE_ID] = 'accept'
  page.querySelector('.event-remind').dispatchEvent('tap')
  await waitFor(() => expect(h.state.toasts).toContain('已设置提醒'), 10000)
  expect(h.state.subscribeRequests.at(-1)).toMatchObject({ tmplIds: [wechat.EVENT_TEMPLATE_ID] })
  // due at once (the event is within a day): the server's sweep sends it through WeChat
  await waitFor(() => expect(mini.messages).toHaveLength(1), 15000)
  expect(mini.messages[0]).toMatchObject({ touser: 'o_event_weapp_user_01', templateId: wechat.EVENT_TEMPLATE_ID, page: `pagesA/event/index?id=${event.id}`, lang: 'zh_CN', state: 'developer' })
  expect(mini.messages[0].data.thing1).toBe('上海首发会')
  expect(mini.messages[0].data.time2).toMatch(/^\d{4}年\d{1,2}月\d{1,2}日 \d{2}:\d{2}$/)
  const mine = (await api('/api/eventDetail', { eventId: event.id }, h.state.storage.h5_token)).reminder.mine
  expect(mine).toMatchObject({ channel: 'wechat', status: 'sent' })
}, 60000)
