/**
 * Issue 48, on SQLite and PostgreSQL: "My orders" lists a shopper's purchases, top-ups, shipments (a
 * pickup among them) and withdrawals, newest first, paged, only their own; the contact form's related
 * order is one of the caller's own (another's is 404 on `related`, nothing filed); an address's
 * recipient needs a letter (zh and en, nothing saved) and a picked region is kept as its parts (an
 * old typed one reads as it was); the region lists; every open pickup point by city.
 */
import { createTestApp, nextIp, post, type TestApp } from './support/app'
import { testDialects } from './support/db'
import { invariantViolations } from './support/invariants'
import { buy, currentCaseId, makeSeries, makeShopper, newKey, topUp, type Shopper } from './support/shop'
import { cityOf } from '../../server/src/domain/prizes/pickup'

describe.each(testDialects())('my orders, related orders, addresses and pickup directory on %s', (dialect) => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(dialect)
    const now = new Date(t.clock.now()).toISOString()
    const point = (name: string, address: string, active = 1) => ({ name, address, hours: '每天 10:00-22:00', latitude: 39.9, longitude: 116.4, active, updated_by: null, created_at: now, updated_at: now })
    await t.db.insertInto('pickup_points').values([
      point('拾盒 国贸店', '北京市朝阳区建国门外大街1号'), point('拾盒 中关村店', '北京市海淀区中关村大街15号'),
      point('拾盒 海岸城店', '广东省深圳市南山区文心五路33号'), point('拾盒 旧店', '北京市东城区王府井大街1号', 0)
    ]).execute()
  })
  afterAll(async () => {
    expect(await invariantViolations(t.db)).toEqual([])
    await t.close()
  })
  const call = (s: Shopper, path: string, body: unknown, lang?: string) => post(t.app, path, body, { token: s.token, ip: nextIp(), ...(lang ? { lang } : {}) })
  const address = { name: '张三', phone: '13800138000', region: '上海市 浦东新区', detail: '世纪大道 100 号' }

  /** A shopper who topped up, bought two boxes, asked for a pickup of one and a withdrawal. */
  async function busyShopper () {
    const s = await makeShopper(t.app, t.db, t.clock)
    const opId = await topUp(t.app, s, 5000)
    t.clock.advance(1000)
    const seriesId = await makeSeries(t.db, t.clock, { priceCents: 1000 })
    const caseId = await currentCaseId(t.app, seriesId, s.token)
    const bought = await buy(t.app, s, { caseId, slots: [1, 2] })
    expect(bought.body.code).toBe(200)
    t.clock.advance(1000)
    const addressId = (await call(s, '/api/addressSave', address)).body.data.id
    const [point] = (await call(s, '/api/pickupDirectory', {})).body.data.cities[0].list
    const shipped = await call(s, '/api/shipmentCreate', { prizeIds: [bought.body.data.prizes[0].prizeId], addressId, pickupPointId: point.id, idempotencyKey: newKey('ship') })
    expect(shipped.body.code).toBe(200)
    t.clock.advance(1000)
    const wd = await call(s, '/api/withdrawRequest', { amountCents: 1000, idempotencyKey: newKey('wd') })
    expect(wd.body.code).toBe(200)
    return { s, opId, purchaseId: bought.body.data.purchaseId as number | undefined, shipmentId: shipped.body.data.shipment.id as number, withdrawalId: wd.body.data.id as number | undefined }
  }

  test('one list of every kind, newest first, paged, with numbers, amounts and statuses; only the caller\'s own', async () => {
    const { s, opId, shipmentId } = await busyShopper()
    const other = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, other, 700)

    const all = (await call(s, '/api/myOrders', { page: 1, size: 10 })).body
    expect(all.code).toBe(200)
    expect(all.data.total).toBe(4)
    expect(all.data.list.map((o: { kind: string }) => o.kind)).toEqual(['withdrawal', 'shipment', 'purchase', 'topup'])
    const [wd, ship, purchase, topup] = all.data.list
    expect(topup).toMatchObject({ number: opId, amountCents: 5000, status: 'paid', pickup: false })
    expect(purchase).toMatchObject({ amountCents: 2000, status: 'paid' })
    expect(purchase.number).toBe(`P-${purchase.id}`)
    expect(ship).toMatchObject({ id: shipmentId, number: `S-${shipmentId}`, amountCents: 0, status: 'requested', pickup: true })
    expect(wd).toMatchObject({ amountCents: 1000, status: 'requested' })
    expect(wd.number).toBe(`W-${wd.id}`)
    const times = all.data.list.map((o: { createdAt: string }) => o.createdAt)
    expect([...times].sort().reverse()).toEqual(times)

    // paged: two and two, nothing lost or repeated
    const p1 = (await call(s, '/api/myOrders', { page: 1, size: 2 })).body.data
    const p2 = (await call(s, '/api/myOrders', { page: 2, size: 2 })).body.data
    expect([...p1.list, ...p2.list]).toEqual(all.data.list)
    expect(p1.total).toBe(4)
    // one kind
    const tops = (await call(s, '/api/myOrders', { page: 1, size: 10, kind: 'topup' })).body.data
    expect(tops).toEqual({ list: [topup], total: 1 })

    // the other shopper sees only their own top-up
    const theirs = (await call(other, '/api/myOrders', { page: 1, size: 10 })).body.data
    expect(theirs.total).toBe(1)
    expect(theirs.list[0].number).not.toBe(opId)
    // login first, then a bad body is a 400 naming the field
    expect((await post(t.app, '/api/myOrders', { page: 1, size: 10 }, { ip: nextIp() })).body.code).toBe(401)
    const bad = (await call(s, '/api/myOrders', { page: 0, size: 10 })).body
    expect(bad.code).toBe(400)
  })

  test('a complaint\'s related order is one of the caller\'s own, kept as its number; another\'s is 404 on related and files nothing', async () => {
    const { s, shipmentId } = await busyShopper()
    const other = await makeShopper(t.app, t.db, t.clock)
    const text = '自提单一直没有到店，请帮忙看看是什么情况。'
    const mine = await call(s, '/api/complaintCreate', { topic: 'shipping', text, related: { kind: 'shipment', id: shipmentId }, idempotencyKey: newKey('c') })
    expect(mine.body.code).toBe(200)
    expect(mine.body.data.orderNo).toBe(`S-${shipmentId}`)
    const before = await t.db.selectFrom('complaints').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    const theirs = await call(other, '/api/complaintCreate', { topic: 'shipping', text, related: { kind: 'shipment', id: shipmentId }, idempotencyKey: newKey('c') }, 'en')
    expect(theirs.body.code).toBe(404)
    expect(theirs.body.data).toEqual({ field: 'related' })
    expect(theirs.body.message).toBe('None of your orders has that number')
    const after = await t.db.selectFrom('complaints').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    expect(Number(after.n)).toBe(Number(before.n))
    const zh = await call(other, '/api/complaintCreate', { topic: 'order', text, related: { kind: 'purchase', id: 999999 }, idempotencyKey: newKey('c') }, 'zh-CN')
    expect(zh.body).toMatchObject({ code: 404, message: '没有找到你的这笔订单' })
  })

  test('a recipient needs a letter or Chinese character (zh and en), and nothing is saved', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    for (const name of ['😀😀', '123', '—— !', '\u200b\u200b']) {
      const en = await call(s, '/api/addressSave', { ...address, name }, 'en')
      expect(en.body.code).toBe(400)
      expect(en.body.data).toMatchObject({ field: 'name' })
      expect(en.body.message).toBe('The recipient\'s name needs at least one letter or Chinese character')
    }
    const zh = await call(s, '/api/addressSave', { ...address, name: '😀😀' }, 'zh-CN')
    expect(zh.body.message).toBe('收件人姓名至少要有一个汉字或字母')
    expect((await call(s, '/api/addressList', {})).body.data).toEqual([])
    for (const name of ['李', 'Ann 😀', 'Zoë']) expect((await call(s, '/api/addressSave', { ...address, name })).body.code).toBe(200)
  })

  test('a picked region is kept as its parts and its text written from them; a typed one (an old row) reads as it was', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    const area = { province: '广东省', city: '深圳市', district: '南山区' }
    const saved = await call(s, '/api/addressSave', { ...address, region: 'ignored', area })
    expect(saved.body.code).toBe(200)
    expect(saved.body.data).toMatchObject({ region: '广东省 深圳市 南山区', area })
    const row = await t.db.selectFrom('addresses').select(['province', 'city', 'district', 'region']).where('id', '=', saved.body.data.id).executeTakeFirstOrThrow()
    expect(row).toEqual({ ...area, region: '广东省 深圳市 南山区' })
    const city = await call(s, '/api/addressSave', { ...address, area: { province: '北京市', city: '北京市', district: '朝阳区' } })
    expect(city.body.data.region).toBe('北京市 朝阳区')
    const typed = await call(s, '/api/addressSave', address)
    expect(typed.body.data).toMatchObject({ region: '上海市 浦东新区', area: null })
    const bad = await call(s, '/api/addressSave', { ...address, area: { ...area, district: '😀' } }, 'en')
    expect(bad.body).toMatchObject({ code: 400, data: { field: 'area' }, message: 'Choose the province, city and district from the list' })
  })

  test('the region lists: provinces, a province\'s cities, a city\'s districts; unknown parents answer none', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    const provinces = (await call(s, '/api/regions', {})).body.data.list
    expect(provinces.length).toBe(34)
    expect(provinces).toContainEqual({ code: '440000', name: '广东省' })
    const cities = (await call(s, '/api/regions', { parent: '440000' })).body.data.list
    expect(cities).toContainEqual({ code: '440300', name: '深圳市' })
    expect(cities.every((c: { code: string }) => c.code.startsWith('44') && c.code.endsWith('00'))).toBe(true)
    const districts = (await call(s, '/api/regions', { parent: '440300' })).body.data.list
    expect(districts).toContainEqual({ code: '440305', name: '南山区' })
    expect((await call(s, '/api/regions', { parent: '440305' })).body.data.list).toEqual([])
    expect((await call(s, '/api/regions', { parent: 'abc' })).body.code).toBe(400)
  })

  test('every open pickup point by city, without a position; a closed one is not listed', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    const dir = (await call(s, '/api/pickupDirectory', {})).body
    expect(dir.code).toBe(200)
    const open = await t.db.selectFrom('pickup_points').select('id').where('active', '=', 1).execute()
    expect(dir.data.total).toBe(open.length)
    expect(dir.data.cities.flatMap((c: { list: unknown[] }) => c.list)).toHaveLength(open.length)
    expect(dir.data.cities.map((c: { city: string; list: Array<{ name: string }> }) => [c.city, c.list.map(p => p.name)]))
      .toEqual([['北京市', ['拾盒 国贸店', '拾盒 中关村店']], ['深圳市', ['拾盒 海岸城店']]])
    expect(cityOf('广东省深圳市南山区科技园')).toBe('深圳市')
    expect(cityOf('北京市海淀区中关村大街15号')).toBe('北京市')
    expect(cityOf('新疆维吾尔自治区乌鲁木齐市天山区')).toBe('乌鲁木齐市')
    expect(cityOf('中关村大街15号')).toBe('')
    expect((await post(t.app, '/api/pickupDirectory', {}, { ip: nextIp() })).body.code).toBe(401)
  })
})
