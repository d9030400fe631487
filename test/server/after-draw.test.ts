/**
 * After the draw (issue 8) on SQLite and PostgreSQL: addresses, the collection, recycling, shipments,
 * deliver / confirm (and the 10-day automatic receipt), authenticity codes, the operator's queue and
 * settings, with the races a hostile or hurried shopper makes. The books balance after every test.
 */
import ExcelJS from 'exceljs'
import { AFTER_DRAW_LIMITS, DEFAULT_SHOP_SETTINGS } from '../../types/limits'
import { createTestApp, loginToken, makeUser, post, type TestApp } from './support/app'
import { testDialects } from './support/db'
import { invariantViolations } from './support/invariants'
import { buy, currentCaseId, makeSeries, makeShopper, newKey, topUp, type Shopper } from './support/shop'
import { DAY_MS } from '../../server/src/core/days'
import { EXPORT_WORDS } from '../../server/src/data/prizeExport'
import zhCore from '../../src/locales/zh/core'
import zhRest from '../../src/locales/zh/rest'
import enCore from '../../src/locales/en/core'
import enRest from '../../src/locales/en/rest'

describe.each(testDialects())('after the draw on %s', (dialect) => {
  let t: TestApp
  let operator: string
  let op: { user_name: string | null; password: string }
  beforeAll(async () => {
    t = await createTestApp(dialect)
    op = await makeUser(t.db, t.clock, { role: 'operator' })
  })
  // tests move the clock on by days: the operator logs in again before each
  beforeEach(async () => { operator = await loginToken(t.app, op.user_name!, op.password) })
  afterEach(async () => { expect(await invariantViolations(t.db)).toEqual([]) })
  afterAll(async () => { await t.close() })

  const call = (s: Shopper | string, path: string, body: unknown, lang?: string) =>
    post(t.app, path, body, { token: typeof s === 'string' ? s : s.token, lang })

  /** A shopper with `n` prizes in the warehouse (and the rest of a top-up as cash). */
  async function shopperWithPrizes (n: number, cashCents = 10000): Promise<{ s: Shopper; login: () => Promise<string>; seriesId: number; prizes: Array<{ prizeId: number; design: { id: number; recycleValueCents: number } }> }> {
    const user = await makeUser(t.db, t.clock)
    const login = () => loginToken(t.app, user.user_name!, user.password)
    const s: Shopper = { id: Number(user.id), token: await login(), userName: user.user_name! }
    expect((await call(s, '/api/ageVerify', { birthDate: '1990-05-01' })).body.code).toBe(200)
    await topUp(t.app, s, cashCents)
    // a series of its own, so every shopper finds n free slots
    const seriesId = await makeSeries(t.db, t.clock, { priceCents: 1000 })
    const caseId = await currentCaseId(t.app, seriesId, s.token)
    const free = (await post(t.app, '/api/caseCurrent', { seriesId }, { token: s.token })).body.data.slots.filter((x: { sold: boolean }) => !x.sold).map((x: { slot: number }) => x.slot)
    const r = await buy(t.app, s, { caseId, slots: free.slice(0, n) })
    expect(r.body.code).toBe(200)
    expect(r.body.data.prizes).toHaveLength(n)
    return { s, login, seriesId, prizes: r.body.data.prizes }
  }
  const address = { name: '张三', phone: '13800138000', region: '上海市 浦东新区', detail: '世纪大道 100 号' }
  async function addressOf (s: Shopper): Promise<number> {
    const r = await call(s, '/api/addressSave', address)
    expect(r.body.code).toBe(200)
    return r.body.data.id
  }
  const balance = async (s: Shopper) => (await call(s, '/api/walletBalance', {})).body.data
  const prizeStatus = async (id: number) => (await t.db.selectFrom('prizes').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status

  describe('addresses', () => {
    test('the first is the default; a new default replaces it; delete hands it on; at most 20; 400 names the field', async () => {
      const s = await makeShopper(t.app, t.db, t.clock)
      const first = (await call(s, '/api/addressSave', address)).body.data
      expect(first).toMatchObject({ ...address, isDefault: true })
      const second = (await call(s, '/api/addressSave', { ...address, detail: 'B 座', isDefault: true })).body.data
      expect(second.isDefault).toBe(true)
      let list = (await call(s, '/api/addressList', {})).body.data
      expect(list.map((a: { id: number; isDefault: boolean }) => [a.id, a.isDefault])).toEqual([[second.id, true], [first.id, false]])
      // changing the default with isDefault: false keeps it the default (there must be one)
      const changed = await call(s, '/api/addressSave', { id: second.id, ...address, detail: 'C 座', isDefault: false })
      expect(changed.body.data).toMatchObject({ id: second.id, detail: 'C 座', isDefault: true })
      expect((await call(s, '/api/addressSetDefault', { id: first.id })).body.data.isDefault).toBe(true)
      expect((await call(s, '/api/addressDelete', { id: first.id })).body).toMatchObject({ code: 200, data: null })
      list = (await call(s, '/api/addressList', {})).body.data
      expect(list).toHaveLength(1)
      expect(list[0]).toMatchObject({ id: second.id, isDefault: true })

      for (let i = 1; i < AFTER_DRAW_LIMITS.addressesMax; i++) expect((await call(s, '/api/addressSave', { ...address, detail: `Room ${i}` })).body.code).toBe(200)
      const over = await call(s, '/api/addressSave', address, 'en')
      expect(over.body).toEqual({ code: 422, message: 'At most 20 addresses can be saved', data: { max: 20 } })

      const badPhone = await call(s, '/api/addressSave', { ...address, phone: '12345' }, 'en')
      expect(badPhone.body.code).toBe(400)
      expect(badPhone.body.data.field).toBe('phone')
      const blank = await call(s, '/api/addressSave', { ...address, name: '   ' }, 'zh')
      expect(blank.body).toMatchObject({ code: 400, message: '收货人不能为空', data: { field: 'name' } })
      const other = await makeShopper(t.app, t.db, t.clock)
      expect((await call(other, '/api/addressDelete', { id: second.id })).body.code).toBe(404)
      expect((await call(other, '/api/addressSave', { id: second.id, ...address })).body.code).toBe(404)
      expect((await post(t.app, '/api/addressList', {})).body.code).toBe(401)
    })

    test('parallel "make default" and adds keep one default and the cap', async () => {
      const s = await makeShopper(t.app, t.db, t.clock)
      const ids: number[] = []
      for (let i = 0; i < 10; i++) ids.push((await call(s, '/api/addressSave', { ...address, detail: `No. ${i}` })).body.data.id)
      const answers = await Promise.all([
        ...ids.map(id => call(s, '/api/addressSetDefault', { id })),
        ...Array.from({ length: 20 }, (_, i) => call(s, '/api/addressSave', { ...address, detail: `More ${i}`, isDefault: i % 2 === 0 }))
      ])
      expect(answers.every(a => [200, 409, 422].includes(a.body.code))).toBe(true)
      const rows = await t.db.selectFrom('addresses').select('is_default').where('user_id', '=', s.id).execute()
      expect(rows).toHaveLength(20)
      expect(rows.filter(r => Number(r.is_default) === 1)).toHaveLength(1)
    })
  })

  describe('collection', () => {
    test('counts per status and set progress per series', async () => {
      const { s, prizes, seriesId } = await shopperWithPrizes(3)
      await call(s, '/api/prizeRecycle', { prizeIds: [prizes[0].prizeId], idempotencyKey: newKey() })
      const r = (await call(s, '/api/collectionSummary', {})).body.data
      expect(r.counts).toEqual({ all: 3, warehouse: 2, shipping: 0, received: 0, combined: 0, recycled: 1 })
      expect(r.series).toHaveLength(1)
      const mine = r.series[0]
      expect(mine.seriesId).toBe(seriesId)
      expect(mine.total).toBe(13)
      const ownedDesigns = new Set(prizes.slice(1).map(p => p.design.id))
      expect(mine.collected).toBe(ownedDesigns.size)
      for (const d of mine.designs) expect(d.owned > 0).toBe(ownedDesigns.has(d.design.id))
    })

    test('the export has readable columns in the caller\'s language', async () => {
      const { s, prizes } = await shopperWithPrizes(2)
      for (const [lang, header, statusWord] of [['zh', '系列', '仓库中'], ['en', 'Series', 'In warehouse']] as const) {
        const res = await t.app.inject({ method: 'POST', url: '/dev-api/api/prizeExport', payload: {}, headers: { authorization: `Bearer ${s.token}`, 'accept-language': lang } })
        expect(res.headers['content-type']).toContain('spreadsheetml')
        const book = new ExcelJS.Workbook()
        await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer)
        const sheet = book.worksheets[0]
        const headers = (sheet.getRow(1).values as unknown[]).slice(1)
        expect(headers).toContain(header)
        expect(sheet.rowCount).toBe(3)
        const row = (sheet.getRow(2).values as unknown[]).slice(1)
        expect(row[0]).toBe(Math.max(...prizes.map(p => p.prizeId)))
        expect(row[1]).toMatch(lang === 'zh' ? /^测试系列/ : /^Test series/)
        expect(row[4]).toBe(statusWord)
        expect(row).not.toContain('warehouse')
      }
    })

    test('the export\'s words are the app\'s: statuses, parcel states and rarities, in both languages', () => {
      const app = { zh: { ...zhCore, ...zhRest }, en: { ...enCore, ...enRest } }
      for (const lang of ['zh', 'en'] as const) {
        const w = EXPORT_WORDS[lang]
        expect(w.status).toEqual({
          warehouse: app[lang].collection.warehouse, shipping: app[lang].collection.shipping, received: app[lang].collection.received,
          combined: app[lang].collection.combined, recycled: app[lang].collection.recycled
        })
        expect(w.parcel).toEqual({ requested: app[lang].parcel.requested, shipping: app[lang].parcel.shipping })
        expect(w.rarity).toEqual(app[lang].rarity)
      }
    })

    test('a prize follows its parcel: waiting while the parcel waits, on its way once sent, received with it (list, detail and export)', async () => {
      const { s, prizes } = await shopperWithPrizes(2)
      const addressId = await addressOf(s)
      const [sent, kept] = prizes.map(p => p.prizeId)
      const made = (await call(s, '/api/shipmentCreate', { prizeIds: [sent], addressId, idempotencyKey: newKey() })).body.data.shipment
      const seen = async () => {
        const list = (await call(s, '/api/prizeList', { page: 1, size: 10 })).body.data.list as Array<{ prizeId: number; status: string; parcelStatus: string | null }>
        const detail = (await call(s, '/api/prizeDetail', { prizeId: sent })).body.data
        const words: Record<string, unknown> = {}
        for (const lang of ['zh', 'en'] as const) {
          const res = await t.app.inject({ method: 'POST', url: '/dev-api/api/prizeExport', payload: {}, headers: { authorization: `Bearer ${s.token}`, 'accept-language': lang } })
          const book = new ExcelJS.Workbook()
          await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer)
          const sheet = book.worksheets[0]
          for (let i = 2; i <= sheet.rowCount; i++) {
            const row = (sheet.getRow(i).values as unknown[]).slice(1)
            if (row[0] === sent) words[lang] = row[4]
          }
        }
        const item = list.find(p => p.prizeId === sent)!
        expect(list.find(p => p.prizeId === kept)).toMatchObject({ status: 'warehouse', parcelStatus: null })
        expect(detail).toMatchObject({ status: item.status, parcelStatus: item.parcelStatus })
        return { status: item.status, parcel: item.parcelStatus, words }
      }
      expect(await seen()).toEqual({ status: 'shipping', parcel: 'requested', words: { zh: '待发货', en: 'Waiting to be shipped' } })
      expect((await call(operator, '/generalOrder/deliver', { shipmentId: made.id, carrier: 'shunfeng', trackingNo: 'SF1234567890' })).body.code).toBe(200)
      expect(await seen()).toEqual({ status: 'shipping', parcel: 'shipping', words: { zh: '运输中', en: 'On its way' } })
      expect((await call(s, '/generalOrder/confirm', { shipmentId: made.id })).body.code).toBe(200)
      expect(await seen()).toEqual({ status: 'received', parcel: 'received', words: { zh: '已签收', en: 'Received' } })
    })
  })

  describe('recycle', () => {
    test('credit at the recycle value through the ledger, idempotent, never withdrawable cash', async () => {
      const { s, prizes } = await shopperWithPrizes(2)
      const before = await balance(s)
      const key = newKey()
      const ids = prizes.map(p => p.prizeId)
      const value = prizes.reduce((sum, p) => sum + p.design.recycleValueCents, 0)
      const first = await call(s, '/api/prizeRecycle', { prizeIds: ids, idempotencyKey: key })
      expect(first.body.code).toBe(200)
      expect(first.body.data).toEqual({ prizeIds: ids, creditCents: value, balance: { cashCents: before.cashCents, creditCents: before.creditCents + value } })
      const again = await call(s, '/api/prizeRecycle', { prizeIds: ids, idempotencyKey: key })
      expect(again.body).toEqual(first.body)
      expect(await balance(s)).toEqual(first.body.data.balance)
      for (const id of ids) expect(await prizeStatus(id)).toBe('recycled')
      const lines = await t.db.selectFrom('ledger_lines').innerJoin('ledger_transactions', 'ledger_transactions.id', 'ledger_lines.tx_id')
        .select(['ledger_lines.account', 'ledger_lines.amount_cents']).where('ledger_transactions.kind', '=', 'recycle').where('ledger_transactions.user_id', '=', s.id).execute()
      expect(lines.map(l => [l.account, Number(l.amount_cents)]).sort()).toEqual([['house_credit', -value], ['user_credit', value]])
      // a new key for a recycled prize: 409 naming it
      const late = await call(s, '/api/prizeRecycle', { prizeIds: [ids[0]], idempotencyKey: newKey() }, 'en')
      expect(late.body).toEqual({ code: 409, message: `Prize ${ids[0]} is not in the warehouse (it is recycled)`, data: { field: 'prizeIds', prizeId: ids[0], status: 'recycled' } })
      // the same key with another body
      expect((await call(s, '/api/prizeRecycle', { prizeIds: [ids[0]], idempotencyKey: key })).body.code).toBe(409)
    })

    test('someone else\'s prize is a 404, a duplicate a 400; nothing changes', async () => {
      const { s, prizes } = await shopperWithPrizes(1)
      const other = await makeShopper(t.app, t.db, t.clock)
      const r = await call(other, '/api/prizeRecycle', { prizeIds: [prizes[0].prizeId], idempotencyKey: newKey() })
      expect(r.body).toMatchObject({ code: 404, data: { field: 'prizeIds', prizeId: prizes[0].prizeId } })
      const dup = await call(s, '/api/prizeRecycle', { prizeIds: [prizes[0].prizeId, prizes[0].prizeId], idempotencyKey: newKey() })
      expect(dup.body).toMatchObject({ code: 400, data: { field: 'prizeIds' } })
      expect(await prizeStatus(prizes[0].prizeId)).toBe('warehouse')
    })

    test('two recycles of one prize in parallel: one credit', async () => {
      const { s, prizes } = await shopperWithPrizes(1)
      const before = await balance(s)
      const answers = await Promise.all(Array.from({ length: 6 }, () => call(s, '/api/prizeRecycle', { prizeIds: [prizes[0].prizeId], idempotencyKey: newKey() })))
      expect(answers.filter(a => a.body.code === 200)).toHaveLength(1)
      expect(answers.filter(a => a.body.code !== 200).every(a => a.body.code === 409)).toBe(true)
      expect((await balance(s)).creditCents).toBe(before.creditCents + prizes[0].design.recycleValueCents)
    })

    test('ship and recycle of one prize in parallel: exactly one wins', async () => {
      const { s, prizes } = await shopperWithPrizes(1)
      const addressId = await addressOf(s)
      const before = await balance(s)
      const [ship, recycle] = await Promise.all([
        call(s, '/api/shipmentCreate', { prizeIds: [prizes[0].prizeId], addressId, idempotencyKey: newKey() }),
        call(s, '/api/prizeRecycle', { prizeIds: [prizes[0].prizeId], idempotencyKey: newKey() })
      ])
      expect([ship.body.code, recycle.body.code].sort()).toEqual([200, 409])
      const status = await prizeStatus(prizes[0].prizeId)
      const after = await balance(s)
      if (ship.body.code === 200) {
        expect(status).toBe('shipping')
        expect(after.creditCents + after.cashCents).toBe(before.creditCents + before.cashCents - DEFAULT_SHOP_SETTINGS.shipFeeCents)
      } else {
        expect(status).toBe('recycled')
        expect(await t.db.selectFrom('shipments').select('id').where('user_id', '=', s.id).execute()).toEqual([])
        expect(after.creditCents).toBe(before.creditCents + prizes[0].design.recycleValueCents)
      }
    })
  })

  describe('shipments', () => {
    test('fee below N items from the balance, free from N; deliver; timeline of statuses; confirm; verify codes', async () => {
      const { s, prizes } = await shopperWithPrizes(4, 4000)
      const addressId = await addressOf(s)
      expect((await post(t.app, '/api/shippingRule', {})).body.data).toEqual({ freeFromItems: 3, feeCents: 1200 })
      // 40 yuan cash - 4 boxes of 10 yuan = 0 cash: a one-item shipment's fee is not covered
      const poor = await call(s, '/api/shipmentCreate', { prizeIds: [prizes[0].prizeId], addressId, idempotencyKey: newKey() }, 'en')
      expect(poor.body).toMatchObject({ code: 422, data: { reason: 'insufficient_balance', shortfallCents: 1200, totalCents: 1200 } })
      expect(await prizeStatus(prizes[0].prizeId)).toBe('warehouse')

      const key = newKey()
      const three = prizes.slice(0, 3).map(p => p.prizeId)
      const made = await call(s, '/api/shipmentCreate', { prizeIds: three, addressId, idempotencyKey: key })
      expect(made.body.code).toBe(200)
      const shipment = made.body.data.shipment
      expect(shipment).toMatchObject({ status: 'requested', feeCents: 0, address, carrier: null, trackingNo: null })
      expect(shipment.items.map((i: { prizeId: number }) => i.prizeId)).toEqual([...three].sort((a, b) => a - b))
      expect((await call(s, '/api/shipmentCreate', { prizeIds: three, addressId, idempotencyKey: key })).body).toEqual(made.body)
      for (const id of three) expect(await prizeStatus(id)).toBe('shipping')

      // the address book may change; the shipment keeps the address it was sent to
      await call(s, '/api/addressSave', { id: addressId, ...address, detail: 'moved' })
      expect((await call(s, '/api/shipmentDetail', { shipmentId: shipment.id })).body.data.address.detail).toBe(address.detail)
      // and a repeat of the request (its answer lost) still gets the first answer once the address is deleted
      expect((await call(s, '/api/addressDelete', { id: addressId })).body.code).toBe(200)
      expect((await call(s, '/api/shipmentCreate', { prizeIds: three, addressId, idempotencyKey: key })).body).toEqual(made.body)
      expect((await call(s, '/api/shipmentCreate', { prizeIds: three, addressId, idempotencyKey: newKey() })).body).toMatchObject({ code: 404, data: { field: 'addressId' } })

      // confirm before it was shipped: 422
      expect((await call(s, '/generalOrder/confirm', { shipmentId: shipment.id }, 'en')).body).toMatchObject({ code: 422, data: { status: 'requested' } })
      // deliver: operators only (a shopper: 403 before the body is even looked at)
      expect((await call(s, '/generalOrder/deliver', { nonsense: true })).body.code).toBe(403)
      expect((await post(t.app, '/generalOrder/deliver', { shipmentId: shipment.id, carrier: 'shunfeng', trackingNo: 'SF1234567890' })).body.code).toBe(401)
      const bad = await call(operator, '/generalOrder/deliver', { shipmentId: shipment.id, carrier: 'SF Express!', trackingNo: 'x' })
      expect(bad.body).toMatchObject({ code: 400, data: { field: 'carrier' } })
      const queue = (await call(operator, '/api/operator/shipments', { page: 1, size: 100, status: 'requested' })).body.data
      expect(queue.list.some((q: { id: number; userId: number }) => q.id === shipment.id && q.userId === s.id)).toBe(true)
      const delivered = await call(operator, '/generalOrder/deliver', { shipmentId: shipment.id, carrier: 'shunfeng', trackingNo: 'SF1234567890' })
      expect(delivered.body.data).toMatchObject({ status: 'shipping', carrier: 'shunfeng', trackingNo: 'SF1234567890' })
      expect((await call(operator, '/generalOrder/deliver', { shipmentId: shipment.id, carrier: 'shunfeng', trackingNo: 'SF1234567890' })).body.code).toBe(200)
      expect((await call(operator, '/generalOrder/deliver', { shipmentId: shipment.id, carrier: 'yuantong', trackingNo: 'YT1' + '0000' })).body.code).toBe(422)
      const audit = await t.db.selectFrom('audit_log').select(['action', 'entity_id']).where('entity', '=', 'shipment').where('entity_id', '=', shipment.id).execute()
      expect(audit).toHaveLength(1)

      // the packing slip's QR links check each prize; a wrong code tells nothing
      const slip = (await call(operator, '/api/operator/packingSlip', { shipmentId: shipment.id })).body.data
      expect(slip.codes).toHaveLength(3)
      const url = new URL(slip.codes[0].verifyUrl)
      expect(url.pathname).toBe('/pagesA/prize_detail/index')
      const code = url.searchParams.get('verify')!
      const verified = await post(t.app, '/api/prizeVerify', { prizeId: slip.codes[0].prizeId, code })
      expect(verified.body.data).toMatchObject({ authentic: true, prizeId: slip.codes[0].prizeId, caseId: prizes[0].design ? expect.any(Number) : 0 })
      expect((await post(t.app, '/api/prizeVerify', { prizeId: slip.codes[1].prizeId, code }, { lang: 'en' })).body).toEqual({
        code: 404, message: 'Check failed: this QR code belongs to no prize this shop has shipped', data: { field: 'code' }
      })

      const confirmed = await call(s, '/generalOrder/confirm', { shipmentId: shipment.id })
      expect(confirmed.body.data).toMatchObject({ status: 'received', receivedBy: 'shopper' })
      expect((await call(s, '/generalOrder/confirm', { shipmentId: shipment.id })).body.data.status).toBe('received')
      for (const id of three) expect(await prizeStatus(id)).toBe('received')
      const stranger = await makeShopper(t.app, t.db, t.clock)
      expect((await call(stranger, '/generalOrder/confirm', { shipmentId: shipment.id })).body.code).toBe(404)
    })

    test('a one-item shipment takes the operator\'s fee (credit first), through the ledger', async () => {
      const saved = await call(operator, '/api/operator/settingsSave', { shipFeeCents: 800, shipFreeFromItems: 5 })
      expect(saved.body.data).toMatchObject({ shipFeeCents: 800, shipFreeFromItems: 5 })
      try {
        const { s, prizes } = await shopperWithPrizes(2, 5000)
        await call(s, '/api/prizeRecycle', { prizeIds: [prizes[1].prizeId], idempotencyKey: newKey() })
        const before = await balance(s)
        const addressId = await addressOf(s)
        const r = await call(s, '/api/shipmentCreate', { prizeIds: [prizes[0].prizeId], addressId, idempotencyKey: newKey() })
        expect(r.body.data.shipment.feeCents).toBe(800)
        const credit = Math.min(800, before.creditCents)
        expect(r.body.data.balance).toEqual({ creditCents: before.creditCents - credit, cashCents: before.cashCents - (800 - credit) })
        const fee = await t.db.selectFrom('ledger_lines').innerJoin('ledger_transactions', 'ledger_transactions.id', 'ledger_lines.tx_id')
          .select(['ledger_lines.account', 'ledger_lines.amount_cents']).where('ledger_transactions.kind', '=', 'shipping_fee').where('ledger_transactions.user_id', '=', s.id).execute()
        expect(fee.find(l => l.account === 'house_shipping')?.amount_cents).toBe(800)
      } finally {
        await call(operator, '/api/operator/settingsSave', { shipFeeCents: DEFAULT_SHOP_SETTINGS.shipFeeCents, shipFreeFromItems: DEFAULT_SHOP_SETTINGS.shipFreeFromItems })
      }
      // settings are operators' only
      const shopper = await makeShopper(t.app, t.db, t.clock)
      expect((await call(shopper, '/api/operator/settingsSave', { shipFeeCents: 0 })).body.code).toBe(403)
      expect((await call(operator, '/api/operator/settingsSave', {})).body.code).toBe(400)
    })

    test('unconfirmed parcels count as received 10 days after shipping', async () => {
      const { s, prizes, login } = await shopperWithPrizes(3)
      const addressId = await addressOf(s)
      const made = (await call(s, '/api/shipmentCreate', { prizeIds: prizes.map(p => p.prizeId), addressId, idempotencyKey: newKey() })).body.data.shipment
      await call(operator, '/generalOrder/deliver', { shipmentId: made.id, carrier: 'yuantong', trackingNo: 'YT9876543210' })
      t.clock.advance(AFTER_DRAW_LIMITS.autoReceiveDays * DAY_MS - 60_000)
      s.token = await login()
      expect((await call(s, '/api/shipmentDetail', { shipmentId: made.id })).body.data.status).toBe('shipping')
      t.clock.advance(120_000)
      const after = (await call(s, '/api/shipmentList', { page: 1, size: 10 })).body.data.list.find((x: { id: number }) => x.id === made.id)
      expect(after).toMatchObject({ status: 'received', receivedBy: 'auto' })
      for (const p of prizes) expect(await prizeStatus(p.prizeId)).toBe('received')
    })

    test('two shipments of the same prizes in parallel: one ships, one fee at most', async () => {
      const { s, prizes } = await shopperWithPrizes(2, 10000)
      const addressId = await addressOf(s)
      const before = await balance(s)
      const answers = await Promise.all(Array.from({ length: 5 }, () =>
        call(s, '/api/shipmentCreate', { prizeIds: prizes.map(p => p.prizeId), addressId, idempotencyKey: newKey() })))
      expect(answers.filter(a => a.body.code === 200)).toHaveLength(1)
      const after = await balance(s)
      expect(before.cashCents + before.creditCents - after.cashCents - after.creditCents).toBe(DEFAULT_SHOP_SETTINGS.shipFeeCents)
      expect(await t.db.selectFrom('shipment_items').select('prize_id').where('prize_id', 'in', prizes.map(p => p.prizeId)).execute()).toHaveLength(2)
    })
  })
  describe('pickup points (自提)', () => {
    // far from anywhere the other tests work: Kunming, and Dali 250 km away
    const kunming = { latitude: 25.0389, longitude: 102.7183 }
    const point = (name: string, dLat: number, extra: Record<string, unknown> = {}) =>
      ({ name, address: `${name} 地址`, hours: '每天 10:00-22:00', latitude: kunming.latitude + dLat, longitude: kunming.longitude, ...extra })

    test('operators keep the points (audited, checked); shoppers see the open ones nearest first, 20 a page, widening to 50 km', async () => {
      const shopper = await makeShopper(t.app, t.db, t.clock)
      // operators only, before the body is looked at
      expect((await call(shopper, '/api/operator/pickupPointSave', { nonsense: 1 })).body.code).toBe(403)
      expect((await post(t.app, '/api/pickupPoints', kunming)).body.code).toBe(401)
      const blank = await call(operator, '/api/operator/pickupPointSave', point('  ', 0), 'zh')
      expect(blank.body).toMatchObject({ code: 400, data: { field: 'name' } })
      const far = await call(operator, '/api/operator/pickupPointSave', { ...point('坏点', 0), latitude: 91 }, 'en')
      expect(far.body).toMatchObject({ code: 400, data: { field: 'latitude' } })
      expect((await call(operator, '/api/operator/pickupPointSave', { id: 999999, ...point('无', 0) })).body).toMatchObject({ code: 404, data: { field: 'id' } })

      // 0.01 degree of latitude is about 1112 m: 22 points from 1.1 km to 4.5 km, one at 20 km
      const near: number[] = []
      for (let i = 0; i < 22; i++) near.push((await call(operator, '/api/operator/pickupPointSave', point(`近${i}`, 0.01 + (21 - i) * 0.0015))).body.data.id)
      const twenty = (await call(operator, '/api/operator/pickupPointSave', point('远', 0.18))).body.data
      const closed = (await call(operator, '/api/operator/pickupPointSave', point('最近但关了', 0.001))).body.data
      const shut = await call(operator, '/api/operator/pickupPointSave', { id: closed.id, ...point('最近但关了', 0.001), active: false })
      expect(shut.body.data).toMatchObject({ id: closed.id, active: false })
      const audit = await t.db.selectFrom('audit_log').select(['action', 'detail']).where('entity', '=', 'pickup_point').where('entity_id', '=', closed.id).orderBy('id').execute()
      expect(audit.map(a => a.action)).toEqual(['pickup.create', 'pickup.update'])
      expect(JSON.parse(audit[1].detail)).toMatchObject({ before: { active: true }, after: { active: false } })

      const page1 = (await call(shopper, '/api/pickupPoints', kunming)).body.data
      expect(page1.total).toBe(22)
      expect(page1.radius).toBe(5000)
      expect(page1.list).toHaveLength(20)
      expect(page1.list[0].id).toBe(near[21])
      const distances = page1.list.map((p: { distance: number }) => p.distance)
      expect(distances).toEqual([...distances].sort((a, b) => a - b))
      expect(distances[0]).toBeGreaterThan(1100)
      expect(distances[0]).toBeLessThan(1125)
      const page2 = (await call(shopper, '/api/pickupPoints', { ...kunming, page: 2 })).body.data
      expect(page2.list.map((p: { id: number }) => p.id)).toEqual([near[1], near[0]])
      const listed = [...page1.list, ...page2.list].map((p: { id: number }) => p.id)
      expect(listed).not.toContain(closed.id)
      expect(listed).not.toContain(twenty.id)

      // 20 km north of the last point nothing is within 5 km: the list widens to 50 km
      const north = { latitude: kunming.latitude + 0.4, longitude: kunming.longitude }
      const wide = (await call(shopper, '/api/pickupPoints', north)).body.data
      expect(wide.radius).toBe(50000)
      expect(wide.list[0].id).toBe(twenty.id)
      // Dali: nothing within 50 km either
      expect((await call(shopper, '/api/pickupPoints', { latitude: 25.6065, longitude: 100.2676 })).body.data).toMatchObject({ list: [], total: 0 })
      expect((await call(shopper, '/api/pickupPoints', { latitude: 25.6 }, 'en')).body).toMatchObject({ code: 400, data: { field: 'longitude' } })
      // the operator sees every point, open ones first
      const all = (await call(operator, '/api/operator/pickupPoints', {})).body.data
      expect(all[all.length - 1]).toMatchObject({ id: closed.id, active: false })
    })

    test('a pickup is free, waits at its point, and is received when the counter has scanned every prize\'s QR', async () => {
      const saved = await call(operator, '/api/operator/settingsSave', { shipFeeCents: 800, shipFreeFromItems: 5 })
      expect(saved.body.code).toBe(200)
      try {
        const counter = (await call(operator, '/api/operator/pickupPointSave', point('拾盒 昆明店', 2))).body.data
        const gone = (await call(operator, '/api/operator/pickupPointSave', point('已关', 2.1, { active: false }))).body.data
        const { s, prizes } = await shopperWithPrizes(3)
        const addressId = await addressOf(s)
        const before = await balance(s)
        const ids = prizes.map(p => p.prizeId)
        expect((await call(s, '/api/shipmentCreate', { prizeIds: ids, addressId, pickupPointId: gone.id, idempotencyKey: newKey() }, 'en')).body)
          .toEqual({ code: 422, message: 'The pickup point "已关" no longer hands prizes over: choose another one', data: { field: 'pickupPointId' } })
        expect((await call(s, '/api/shipmentCreate', { prizeIds: ids, addressId, pickupPointId: 999999, idempotencyKey: newKey() })).body).toMatchObject({ code: 404, data: { field: 'pickupPointId' } })
        for (const id of ids) expect(await prizeStatus(id)).toBe('warehouse')

        // two of the three at the counter: no fee although fewer than 5
        const made = await call(s, '/api/shipmentCreate', { prizeIds: ids.slice(0, 2), addressId, pickupPointId: counter.id, idempotencyKey: newKey() })
        expect(made.body.code).toBe(200)
        const shipment = made.body.data.shipment
        expect(shipment).toMatchObject({ status: 'requested', feeCents: 0, pickup: { id: counter.id, name: '拾盒 昆明店' }, address: { name: address.name, phone: address.phone, region: '拾盒 昆明店', detail: '拾盒 昆明店 地址' } })
        expect(made.body.data.balance).toEqual(before)
        // the third goes by parcel
        const parcel = (await call(s, '/api/shipmentCreate', { prizeIds: [ids[2]], addressId, idempotencyKey: newKey() })).body.data.shipment
        expect(parcel).toMatchObject({ pickup: null, feeCents: 800 })

        // no carrier for a pickup; the shopper cannot confirm it themselves
        expect((await call(operator, '/generalOrder/deliver', { shipmentId: shipment.id, carrier: 'shunfeng', trackingNo: 'SF1234567890' }, 'en')).body)
          .toMatchObject({ code: 422, data: { field: 'shipmentId' } })
        expect((await call(s, '/generalOrder/confirm', { shipmentId: shipment.id })).body.code).toBe(422)

        const slip = (await call(operator, '/api/operator/packingSlip', { shipmentId: shipment.id })).body.data
        const codes = slip.codes.map((c: { prizeId: number; verifyUrl: string }) => ({ prizeId: c.prizeId, code: new URL(c.verifyUrl).searchParams.get('verify')! }))
        // the shopper may not hand their own prizes over; a code of another prize tells nothing
        expect((await call(s, '/api/operator/pickupHand', codes[0])).body.code).toBe(403)
        expect((await call(operator, '/api/operator/pickupHand', { prizeId: codes[1].prizeId, code: codes[0].code })).body).toMatchObject({ code: 404, data: { field: 'code' } })

        const first = await call(operator, '/api/operator/pickupHand', codes[0])
        expect(first.body.data).toMatchObject({ id: shipment.id, status: 'requested', userId: s.id })
        expect(first.body.data.items.find((i: { prizeId: number }) => i.prizeId === codes[0].prizeId).handedAt).toEqual(expect.any(String))
        expect(first.body.data.items.find((i: { prizeId: number }) => i.prizeId === codes[1].prizeId).handedAt).toBeNull()
        // the same QR again: the same answer, handed once
        expect((await call(operator, '/api/operator/pickupHand', codes[0])).body.data.status).toBe('requested')
        expect(await prizeStatus(codes[0].prizeId)).toBe('shipping')

        const last = await call(operator, '/api/operator/pickupHand', codes[1])
        expect(last.body.data).toMatchObject({ status: 'received', receivedBy: 'shopper' })
        for (const id of ids.slice(0, 2)) expect(await prizeStatus(id)).toBe('received')
        expect((await call(s, '/api/shipmentDetail', { shipmentId: shipment.id })).body.data).toMatchObject({ status: 'received', pickup: { id: counter.id } })
        const hands = await t.db.selectFrom('audit_log').select('action').where('entity', '=', 'shipment').where('entity_id', '=', shipment.id).execute()
        expect(hands.map(h => h.action)).toEqual(['pickup.hand', 'pickup.hand'])

        // a parcel's QR at the counter: 422 naming its status
        const parcelCode = new URL((await call(operator, '/api/operator/packingSlip', { shipmentId: parcel.id })).body.data.codes[0].verifyUrl).searchParams.get('verify')!
        expect((await call(operator, '/api/operator/pickupHand', { prizeId: ids[2], code: parcelCode }, 'en')).body).toMatchObject({ code: 422, data: { status: 'requested' } })
      } finally {
        await call(operator, '/api/operator/settingsSave', { shipFeeCents: DEFAULT_SHOP_SETTINGS.shipFeeCents, shipFreeFromItems: DEFAULT_SHOP_SETTINGS.shipFreeFromItems })
      }
    })

    test('two counters scanning the last two prizes at once receive the shipment once', async () => {
      const counter = (await call(operator, '/api/operator/pickupPointSave', point('拾盒 并发店', 3))).body.data
      const { s, prizes } = await shopperWithPrizes(2)
      const addressId = await addressOf(s)
      const shipment = (await call(s, '/api/shipmentCreate', { prizeIds: prizes.map(p => p.prizeId), addressId, pickupPointId: counter.id, idempotencyKey: newKey() })).body.data.shipment
      const slip = (await call(operator, '/api/operator/packingSlip', { shipmentId: shipment.id })).body.data
      const codes = slip.codes.map((c: { prizeId: number; verifyUrl: string }) => ({ prizeId: c.prizeId, code: new URL(c.verifyUrl).searchParams.get('verify')! }))
      const answers = await Promise.all([...codes, ...codes].map(c => call(operator, '/api/operator/pickupHand', c)))
      expect(answers.map(a => a.body.code)).toEqual([200, 200, 200, 200])
      const row = await t.db.selectFrom('shipments').select(['status', 'received_by']).where('id', '=', shipment.id).executeTakeFirstOrThrow()
      expect(row).toEqual({ status: 'received', received_by: 'shopper' })
      const hands = await t.db.selectFrom('audit_log').select('action').where('entity', '=', 'shipment').where('entity_id', '=', shipment.id).execute()
      expect(hands).toHaveLength(2)
    })
  })
})
