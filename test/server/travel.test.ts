/**
 * Train tickets and flights (types/travel.ts) against a local Juhe (test/support/providers/juhe.js,
 * which checks each API's own key and its parameters): the answers mapped (prices in cents); stations,
 * airports and dates checked by field before Juhe hears of them (date in China time: not before today,
 * at most 15 days ahead for trains and 365 for flights, a real day; arrival not the departure); Juhe's
 * refusals (an unknown station, quota) a 422 with its reason, an outage 502; 20 a minute; not configured.
 */
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import * as juhe from '../support/providers/juhe'
import { JuheFlightClient, JuheTrainClient } from '../../server/src/providers/juhe'
import { ProviderUnavailableError } from '../../server/src/providers/errors'
import { addDays, chinaToday, isRealDay } from '../../server/src/domain/events/travel'

describe('the Juhe adapters', () => {
  let fake: Awaited<ReturnType<typeof juhe.start>>
  beforeAll(async () => { fake = await juhe.start() })
  afterAll(async () => { await fake.close() })

  test('trains and flights mapped; each key is its own API\'s; refusals carry Juhe\'s code; outages are not refusals', async () => {
    const tr = await new JuheTrainClient(juhe.TRAIN_KEY, fake.url).tickets('北京南', '上海虹桥', '2026-03-02')
    expect(fake.calls.at(-1)).toEqual({ api: 'train', key: juhe.TRAIN_KEY, search_type: '1', departure_station: '北京南', arrival_station: '上海虹桥', date: '2026-03-02' })
    expect(tr.trains[0]).toEqual({ code: 'G1', from: '北京南', to: '上海虹桥', departs: '07:00', arrives: '11:08', duration: '04:08', seats: [{ name: '二等座', priceCents: 66200, left: '有' }, { name: '一等座', priceCents: 106050, left: '12' }] })
    const fl = await new JuheFlightClient(juhe.FLIGHT_KEY, fake.url).flights('BJS', 'SHA', '2026-03-02')
    expect(fake.calls.at(-1)).toEqual({ api: 'flight', key: juhe.FLIGHT_KEY, departure: 'BJS', arrival: 'SHA', departureDate: '2026-03-02' })
    expect(fl.flights[0]).toEqual({ flightNo: 'CA1501', airline: '中国国航', from: '北京', to: '上海虹桥国际机场', departs: '2026-03-02 08:30', arrives: '2026-03-02 10:45', priceCents: 98000 })
    await expect(new JuheFlightClient(juhe.TRAIN_KEY, fake.url).flights('BJS', 'SHA', '2026-03-02')).rejects.toMatchObject({ provider: 'juheFlight', status: '10001', detail: '错误的请求KEY' })
    fake.next = 'hang'
    await expect(new JuheTrainClient(juhe.TRAIN_KEY, fake.url, 200).tickets('北京', '上海', '2026-03-02')).rejects.toBeInstanceOf(ProviderUnavailableError)
    fake.next = { json: { reason: 'ok', result: { not: 'a list' }, error_code: 0 } }
    await expect(new JuheTrainClient(juhe.TRAIN_KEY, fake.url).tickets('北京', '上海', '2026-03-02')).rejects.toBeInstanceOf(ProviderUnavailableError)
  })

  test('the days: China time, real days', () => {
    expect(chinaToday(Date.parse('2026-03-01T15:59:59Z'))).toBe('2026-03-01')
    expect(chinaToday(Date.parse('2026-03-01T16:00:00Z'))).toBe('2026-03-02')
    expect(addDays('2026-02-20', 15)).toBe('2026-03-07')
    expect([isRealDay('2026-02-28'), isRealDay('2026-02-29'), isRealDay('2028-02-29'), isRealDay('2026-13-01'), isRealDay('0000-00-00')]).toEqual([true, false, true, false, false])
  })
})

describe.each(testDialects())('the ticket and flight calls on %s', (dialect) => {
  let t: TestApp
  let fake: Awaited<ReturnType<typeof juhe.start>>
  let a: string
  const ask = (token: string, url: string, body: unknown, lang = 'en') => post(t.app, url, body, { token, lang, ip: nextIp() })

  beforeAll(async () => {
    fake = await juhe.start()
    t = await createTestApp(dialect, { env: juhe.envFor(fake) })
    const u = await makeUser(t.db, t.clock)
    a = await loginToken(t.app, u.user_name!, u.password)
  })
  afterAll(async () => { await t?.close(); await fake.close() })

  test('a day ahead: trains and flights arrive', async () => {
    const tr = await ask(a, '/api/queryTickets', { from: '北京南', to: '上海虹桥', date: '2026-03-02' })
    expect(tr.body).toMatchObject({ code: 200, data: { source: 'juhe', date: '2026-03-02' } })
    expect(tr.body.data.trains.map((x: { code: string }) => x.code)).toEqual(['G1', 'G7', 'D311'])
    const fl = await ask(a, '/api/queryFlight', { from: 'PEK', to: 'CAN', date: '2026-12-31' })
    expect(fl.body.data.flights).toHaveLength(2)
  })

  test('the date window follows China time: today (even late on its UTC eve) to 15 days ahead for trains, 365 for flights', async () => {
    // 2026-03-01T08:00Z is 16:00 in China: today there is 2026-03-01
    expect((await ask(a, '/api/queryTickets', { from: '北京', to: '上海', date: '2026-03-01' })).body.code).toBe(200)
    expect((await ask(a, '/api/queryTickets', { from: '北京', to: '上海', date: '2026-03-16' })).body.code).toBe(200)
    expect((await ask(a, '/api/queryFlight', { from: 'BJS', to: 'SHA', date: '2027-03-01' })).body.code).toBe(200)
    const before = fake.calls.length
    for (const [url, body, field, message] of [
      ['/api/queryTickets', { from: '北京', to: '上海', date: '2026-02-28' }, 'date', 'date cannot be before today (2026-03-01)'],
      ['/api/queryTickets', { from: '北京', to: '上海', date: '2026-03-17' }, 'date', 'date can be at most 15 days ahead (last 2026-03-16)'],
      ['/api/queryFlight', { from: 'BJS', to: 'SHA', date: '2027-03-02' }, 'date', 'date can be at most 365 days ahead (last 2027-03-01)'],
      ['/api/queryTickets', { from: '北京', to: '上海', date: '2026-02-30' }, 'date', 'date is not a valid date'],
      ['/api/queryTickets', { from: '北京', to: '北京', date: '2026-03-02' }, 'to', 'to must differ from the departure'],
      ['/api/queryFlight', { from: 'SHA', to: 'SHA', date: '2026-03-02' }, 'to', 'to must differ from the departure']
    ] as const) {
      const r = await ask(a, url, body)
      expect([url, r.body.code, r.body.data?.field, r.body.message]).toEqual([url, 400, field, message])
    }
    expect((await ask(a, '/api/queryTickets', { from: '北京', to: '上海', date: '2026-02-28' }, 'zh')).body.message).toBe('date 不能早于今天（2026-03-01）')
    expect(fake.calls.length).toBe(before)
  })

  test('stations and airports by shape, each field named; anonymous 401; Juhe\'s refusals 422 with its reason; 20 a minute', async () => {
    const before = fake.calls.length
    for (const [url, body, field] of [
      ['/api/queryTickets', { from: 'Beijing', to: '上海', date: '2026-03-02' }, 'from'],
      ['/api/queryTickets', { from: '北', to: '上海', date: '2026-03-02' }, 'from'],
      ['/api/queryTickets', { from: '北京', to: '上海\u0000', date: '2026-03-02' }, 'to'],
      ['/api/queryTickets', { from: '北京', to: '上海', date: '2026/03/02' }, 'date'],
      ['/api/queryTickets', { from: '北京', to: '上海' }, 'date'],
      ['/api/queryFlight', { from: 'sha', to: 'PEK', date: '2026-03-02' }, 'from'],
      ['/api/queryFlight', { from: 'SHA', to: 'PEKX', date: '2026-03-02' }, 'to'],
      ['/api/queryFlight', { from: 'SHA', to: 'PEK', date: 20260302 }, 'date']
    ] as const) {
      const r = await ask(a, url, body, 'zh')
      expect([url, field, r.body.code, r.body.data?.field]).toEqual([url, field, 400, field])
    }
    expect(fake.calls.length).toBe(before)
    expect((await post(t.app, '/api/queryFlight', { from: 'x' })).body.code).toBe(401)
    expect((await ask(a, '/api/queryTickets', { from: '拉萨', to: '上海', date: '2026-03-02' }, 'zh')).body)
      .toMatchObject({ code: 422, message: '出发站或到达站不存在', data: { provider: 'juheTrain', status: '225801' } })
    fake.quotaLeft = 0
    expect((await ask(a, '/api/queryFlight', { from: 'BJS', to: 'SHA', date: '2026-03-02' })).body)
      .toMatchObject({ code: 422, data: { provider: 'juheFlight', status: '10012' } })
    fake.quotaLeft = Infinity
    fake.next = 'http500'
    expect((await ask(a, '/api/queryFlight', { from: 'BJS', to: 'SHA', date: '2026-03-02' })).status).toBe(502)
    const u = await makeUser(t.db, t.clock)
    const c = await loginToken(t.app, u.user_name!, u.password)
    for (let i = 0; i < 20; i++) expect((await ask(c, '/api/queryTickets', { from: '北京', to: '上海', date: '2026-03-03' })).body.code).toBe(200)
    expect((await ask(c, '/api/queryFlight', { from: 'BJS', to: 'SHA', date: '2026-03-03' })).body.code).toBe(429)
  })
})

test('without the Juhe keys each call says its provider is not configured (one key does not open the other)', async () => {
  const fake = await juhe.start()
  const t = await createTestApp('sqlite', { env: { JUHE_API_BASE: fake.url, JUHE_TRAIN_KEY: juhe.TRAIN_KEY } })
  try {
    const u = await makeUser(t.db, t.clock)
    const token = await loginToken(t.app, u.user_name!, u.password)
    expect((await post(t.app, '/api/queryTickets', { from: '北京', to: '上海', date: '2026-03-02' }, { token })).body.code).toBe(200)
    expect((await post(t.app, '/api/queryFlight', { from: 'BJS', to: 'SHA', date: '2026-03-02' }, { token, lang: 'en' })).body)
      .toEqual({ code: 422, message: 'Juhe flight query is not available in this shop', data: { provider: 'juheFlight' } })
  } finally { await t.close(); await fake.close() }
})
