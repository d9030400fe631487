/**
 * Stock (issue 50) on both databases: a shop sells only what its warehouse holds.
 *  - a new case takes one figure of each design it may hold; sold slots stay held as prizes; a retire
 *    frees the unsold ones
 *  - shoppers racing for a series stocked for three cases buy exactly those three cases' boxes, never
 *    more, and then see 已售罄 / Sold out everywhere at once (list, search, detail, the case)
 *  - figures move as physical ones do: a recycle frees one, a parcel sent and a pickup hand-over take
 *    one out, a combine frees its inputs and takes its output, a deleted account's prizes are freed
 *  - the stock screen: operators only, by field, never below what is held, a stale count refused,
 *    audited, and a sold-out series reopens the moment the warehouse can fill a case
 * After every test the warehouse books hold (support/invariants.ts stockViolations) with the money ones.
 */
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import { buy, currentCaseId, givePrizes, makeSeries, makeShopper, newKey, topUp, type Shopper } from './support/shop'
import { invariantViolations, stockViolations } from './support/invariants'
import { createRecipe } from '../../server/src/domain/prizes/combine'

describe.each(testDialects())('stock on %s', (dialect) => {
  let t: TestApp
  let op: string
  beforeAll(async () => {
    t = await createTestApp(dialect)
    const u = await makeUser(t.db, t.clock, { role: 'operator' })
    op = await loginToken(t.app, u.user_name!, u.password)
  })
  afterEach(async () => { expect(await invariantViolations(t.db)).toEqual([]) })
  afterAll(async () => { await t.close() })

  const as = (token: string, url: string, body: unknown, lang = 'en') => post(t.app, url, body, { token, lang, ip: nextIp() })
  const stockOf = async (seriesId: number) => (await as(op, '/api/operator/stock', { seriesId })).body.data
  const designsOf = async (seriesId: number) => (await t.db.selectFrom('designs').select(['id', 'rarity', 'stock', 'committed'])
    .where('series_id', '=', seriesId).orderBy('sort').execute()).map(d => ({ id: Number(d.id), rarity: d.rarity, stock: Number(d.stock), committed: Number(d.committed) }))
  const shopper = async (cashCents = 100_000) => {
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, cashCents)
    return s
  }

  test('a new case takes one figure of each design in it; sold slots stay held as prizes; a retire frees the unsold', async () => {
    // 3 regular and 1 rare, no hidden: a case of 4; two cases' worth of each
    const seriesId = await makeSeries(t.db, t.clock, { regular: 3, rare: 1, hidden: false, stock: 2 })
    expect((await designsOf(seriesId)).map(d => [d.stock, d.committed])).toEqual([[2, 1], [2, 1], [2, 1], [2, 1]])
    expect(await stockOf(seriesId)).toMatchObject({ casesFillable: 1, openCases: 1, soldOut: false })

    const s = await shopper()
    const caseId = await currentCaseId(t.app, seriesId, s.token)
    expect((await buy(t.app, s, { caseId, slots: [1, 2] })).body.code).toBe(200)
    // sold: the figures are the buyer's prizes now, still in the warehouse and still held
    expect((await designsOf(seriesId)).map(d => d.committed)).toEqual([1, 1, 1, 1])

    expect((await as(op, '/api/operator/seriesRetire', { seriesId })).body.code).toBe(200)
    // the two unsold slots are free again; the two prizes stay held
    const sold = await t.db.selectFrom('case_slots').select('design_id').where('case_id', '=', caseId).where('sold_to', 'is not', null).execute()
    const soldDesigns = new Set(sold.map(r => Number(r.design_id)))
    expect((await designsOf(seriesId)).map(d => d.committed)).toEqual((await designsOf(seriesId)).map(d => soldDesigns.has(d.id) ? 1 : 0))
  })

  test('shoppers racing for a series stocked for three cases buy exactly its fifteen boxes, then everyone sees it sold out', async () => {
    // 4 regular, 1 rare and a hidden one with a 50 % chance: a case of 5; the rare design (one a case)
    // and the hidden one (needed free for a case to be made) allow three cases, and no more
    const seriesId = await makeSeries(t.db, t.clock, { regular: 4, rare: 1, hidden: true, hiddenCasePpm: 500_000, stock: 3 })
    const shoppers: Shopper[] = []
    for (let i = 0; i < 24; i++) shoppers.push(await shopper(50_000))
    const outcomes: string[] = []
    // each shopper keeps trying for a box until the series says it is sold out (or 12 tries)
    await Promise.all(shoppers.map(async (s, i) => {
      for (let attempt = 0; attempt < 12; attempt++) {
        const current = await post(t.app, '/api/caseCurrent', { seriesId }, { token: s.token })
        if (current.body.code === 409) { outcomes.push(current.body.data.reason); return }
        expect(current.body.code).toBe(200)
        const free = current.body.data.slots.filter((x: { sold: boolean }) => !x.sold).map((x: { slot: number }) => x.slot)
        if (free.length === 0) continue
        const body = i % 3 === 0 ? { caseId: current.body.data.caseId, wholeCase: true } : { caseId: current.body.data.caseId, slots: [free[(i + attempt) % free.length]] }
        const r = await buy(t.app, s, body)
        outcomes.push(r.body.code === 200 ? 'bought' : String(r.body.code))
        // never a server error, never anything but a purchase or a refusal of a sold or closed box
        expect([200, 409]).toContain(r.body.code)
      }
    }))
    expect(outcomes).toContain('sold_out')
    const boxes = await t.db.selectFrom('prizes').select(eb => eb.fn.countAll<number>().as('n')).where('series_id', '=', seriesId).executeTakeFirstOrThrow()
    expect(Number(boxes.n)).toBe(15)
    const cases = await t.db.selectFrom('cases').select(['status']).where('series_id', '=', seriesId).execute()
    expect(cases.map(c => c.status)).toEqual(['sold_out', 'sold_out', 'sold_out'])
    // every figure sold is one the warehouse held
    for (const d of await designsOf(seriesId)) {
      expect(d.committed).toBeLessThanOrEqual(d.stock)
      const prizes = await t.db.selectFrom('prizes').select(eb => eb.fn.countAll<number>().as('n')).where('design_id', '=', d.id).executeTakeFirstOrThrow()
      expect(Number(prizes.n)).toBe(d.committed)
    }
    // sold out, everywhere at once, in the shopper's language
    const list = (await post(t.app, '/api/seriesList', { page: 1, size: 50 })).body.data.list
    expect(list.find((x: { id: number }) => x.id === seriesId)).toMatchObject({ status: 'on_sale', soldOut: true })
    const searched = (await post(t.app, '/api/seriesList', { page: 1, size: 50, sort: 'new' })).body.data.list
    expect(searched.find((x: { id: number }) => x.id === seriesId)).toMatchObject({ soldOut: true })
    expect((await post(t.app, '/api/seriesDetail', { seriesId })).body.data).toMatchObject({ status: 'on_sale', soldOut: true })
    for (const [lang, words] of [['zh', '已售罄'], ['en', 'Sold out']] as const) {
      const visitor = await post(t.app, '/api/caseCurrent', { seriesId }, { lang })
      expect(visitor.body).toMatchObject({ code: 409, data: { reason: 'sold_out' } })
      expect(visitor.body.message).toContain(words)
    }
    const s = shoppers[0]
    expect((await post(t.app, '/api/caseSwitch', { seriesId }, { token: s.token })).body).toMatchObject({ code: 409, data: { reason: 'sold_out' } })
    expect(await stockOf(seriesId)).toMatchObject({ casesFillable: 0, openCases: 0, soldOut: true })
    // the other series are not sold out
    expect(list.filter((x: { soldOut: boolean }) => x.soldOut).map((x: { id: number }) => x.id)).toEqual([seriesId])

    // a restock (the stock screen) reopens the series for everyone at once
    const view = await stockOf(seriesId)
    const saved = await as(op, '/api/operator/stockSave', { seriesId, designs: view.designs.map((d: { designId: number; stock: number }) => ({ designId: d.designId, stock: d.stock + 1, was: d.stock })) })
    expect(saved.body.data).toMatchObject({ openCases: 1, soldOut: false })
    expect((await post(t.app, '/api/seriesDetail', { seriesId })).body.data.soldOut).toBe(false)
    expect((await post(t.app, '/api/caseCurrent', { seriesId }, { token: s.token })).body.code).toBe(200)
  }, 120_000)

  test('figures move as the real ones do: recycled back in, sent out, handed over, combined, lapsed with an account', async () => {
    const seriesId = await makeSeries(t.db, t.clock, { regular: 3, rare: 1, hidden: false, stock: 10 })
    const [r1, r2, r3, rare] = (await designsOf(seriesId)).map(d => d.id)
    const committed = async (id: number) => (await designsOf(seriesId)).find(d => d.id === id)!.committed
    const stock = async (id: number) => (await designsOf(seriesId)).find(d => d.id === id)!.stock
    const s = await shopper()

    // recycled: the shop buys it back, the figure never left, it is free again
    const [recycled] = await givePrizes(t.db, t.clock, s.id, seriesId, [r1])
    const before = await committed(r1)
    expect((await as(s.token, '/api/prizeRecycle', { prizeIds: [recycled], idempotencyKey: newKey() })).body.code).toBe(200)
    expect(await committed(r1)).toBe(before - 1)
    expect(await stock(r1)).toBe(10)

    // a parcel: held while it waits, out of stock and no longer held once sent
    const [parcelled] = await givePrizes(t.db, t.clock, s.id, seriesId, [r2])
    const address = (await as(s.token, '/api/addressSave', {
      name: '张三', phone: '13800138000', region: '上海市 浦东新区', detail: '世纪大道 100 号'
    })).body.data
    const made = await as(s.token, '/api/shipmentCreate', { prizeIds: [parcelled], addressId: address.id, idempotencyKey: newKey() })
    expect(made.body.code).toBe(200)
    const waiting = await committed(r2)
    expect((await as(op, '/generalOrder/deliver', { shipmentId: made.body.data.shipment.id, carrier: 'shunfeng', trackingNo: 'SF1234567890' })).body.code).toBe(200)
    expect([await stock(r2), await committed(r2)]).toEqual([9, waiting - 1])

    // a combine: its three inputs go back on the shelf, its output comes off it
    const recipeId = await createRecipe(t.db, t.clock.now, {
      seriesId, name: { zh: '三合一', en: 'Three in one' }, inputKind: 'rarity', inputRarity: 'regular', inputCount: 3,
      pool: [{ designId: rare, weight: 1 }]
    })
    const inputs = await givePrizes(t.db, t.clock, s.id, seriesId, [r1, r2, r3])
    const held = await Promise.all([r1, r2, r3, rare].map(committed))
    const combined = await as(s.token, '/api/combine', { recipeId, prizeIds: inputs, idempotencyKey: newKey() })
    expect(combined.body.code).toBe(200)
    expect(await Promise.all([r1, r2, r3, rare].map(committed))).toEqual([held[0] - 1, held[1] - 1, held[2] - 1, held[3] + 1])

    // the warehouse has no free rare figure left: the combine is refused and uses nothing
    const free = 10 - await committed(rare)
    await t.db.updateTable('designs').set({ stock: await committed(rare) }).where('id', '=', rare).execute()
    const more = await givePrizes(t.db, t.clock, s.id, seriesId, [r1, r2, r3])
    for (const [lang, words] of [['zh', '仓库'], ['en', 'warehouse']] as const) {
      const refused = await as(s.token, '/api/combine', { recipeId, prizeIds: more, idempotencyKey: newKey() }, lang)
      expect(refused.body).toMatchObject({ code: 409, data: { reason: 'out_of_stock' } })
      expect(refused.body.message).toContain(words)
    }
    const still = await t.db.selectFrom('prizes').select('status').where('id', 'in', more).execute()
    expect(still.map(p => p.status)).toEqual(['warehouse', 'warehouse', 'warehouse'])
    await t.db.updateTable('designs').set({ stock: 10 }).where('id', '=', rare).execute()
    expect(free).toBeGreaterThan(0)

    // an account deleted with its prizes forfeited: they lapse, their figures are free again
    const leaving = await makeUser(t.db, t.clock)
    const leavingToken = await loginToken(t.app, leaving.user_name!, leaving.password)
    const lapsing = await givePrizes(t.db, t.clock, Number(leaving.id), seriesId, [r3, r3])
    const r3Held = await committed(r3)
    const deleted = await as(leavingToken, '/api/security/deleteAccount', { password: leaving.password, forfeit: true })
    if (deleted.body.code !== 200) throw new Error(JSON.stringify(deleted.body))
    expect(await committed(r3)).toBe(r3Held - lapsing.length)
  })

  test('the stock screen: operators only, counts by field, never below what is held, a stale count refused, audited', async () => {
    const seriesId = await makeSeries(t.db, t.clock, { regular: 3, rare: 1, hidden: false, stock: 5 })
    const view = await stockOf(seriesId)
    expect(view.designs.map((d: { stock: number; committed: number; free: number; inEveryCase: boolean }) => [d.stock, d.committed, d.free, d.inEveryCase]))
      .toEqual([[5, 1, 4, true], [5, 1, 4, true], [5, 1, 4, true], [5, 1, 4, true]])
    const [a, b] = view.designs
    const s = await shopper()

    // a shopper is refused before the body is looked at, and so is a visitor
    expect((await as(s.token, '/api/operator/stockSave', { nonsense: true })).body.code).toBe(403)
    expect((await post(t.app, '/api/operator/stock', { seriesId })).body.code).toBe(401)
    // bad counts name their field, in the operator's language
    const negative = await as(op, '/api/operator/stockSave', { seriesId, designs: [{ designId: a.designId, stock: -1, was: 5 }] }, 'zh')
    expect(negative.body).toMatchObject({ code: 400, data: { field: 'designs.0.stock' } })
    const below = await as(op, '/api/operator/stockSave', { seriesId, designs: [{ designId: a.designId, stock: 8, was: 5 }, { designId: b.designId, stock: 0, was: 5 }] }, 'zh')
    expect(below.body).toMatchObject({ code: 422, data: { field: 'designs.1.stock', committed: 1 } })
    expect(below.body.message).toContain('1')
    const stale = await as(op, '/api/operator/stockSave', { seriesId, designs: [{ designId: a.designId, stock: 8, was: 4 }] })
    expect(stale.body).toMatchObject({ code: 409, data: { field: 'designs.0.stock', stock: 5 } })
    const other = await makeSeries(t.db, t.clock, { regular: 3, rare: 1, hidden: false })
    const foreign = (await designsOf(other))[0].id
    expect((await as(op, '/api/operator/stockSave', { seriesId, designs: [{ designId: foreign, stock: 8, was: 100_000 }] })).body)
      .toMatchObject({ code: 400, data: { field: 'designs.0.designId' } })
    // none of that changed anything
    expect((await designsOf(seriesId)).map(d => d.stock)).toEqual([5, 5, 5, 5])

    const saved = await as(op, '/api/operator/stockSave', { seriesId, designs: [{ designId: a.designId, stock: 12, was: 5 }, { designId: b.designId, stock: 1, was: 5 }] })
    expect(saved.body.code).toBe(200)
    expect(saved.body.data.designs.slice(0, 2).map((d: { stock: number; free: number }) => [d.stock, d.free])).toEqual([[12, 11], [1, 0]])
    // the design with nothing free limits the series to no new case
    expect(saved.body.data.casesFillable).toBe(0)
    const audit = await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'series.stock').where('entity_id', '=', seriesId).execute()
    expect(audit).toHaveLength(1)
    expect(JSON.parse(audit[0].detail)).toMatchObject({ before: { stock: { [a.designId]: 5, [b.designId]: 5 } }, after: { stock: { [a.designId]: 12, [b.designId]: 1 } } })
    // the database itself refuses a count below what is held, whatever code tried it
    // (matched by its message: better-sqlite3's error class comes from the first test file's realm in a worker)
    await expect(t.db.updateTable('designs').set({ stock: 0 }).where('id', '=', b.designId).execute())
      .rejects.toMatchObject({ message: expect.stringMatching(/check constraint/i) })
    expect(await stockViolations(t.db)).toEqual([])
  })

  test('a draft cannot be published until the warehouse holds a case of it', async () => {
    const seriesId = await makeSeries(t.db, t.clock, { regular: 3, rare: 1, hidden: false, status: 'draft', stock: 0 })
    const blocked = await as(op, '/api/operator/seriesPublish', { seriesId })
    expect(blocked.body.code).toBe(422)
    expect(blocked.body.data.problems.map((p: { field: string }) => p.field)).toEqual(['designs.0.stock', 'designs.1.stock', 'designs.2.stock', 'designs.3.stock'])
    const view = await stockOf(seriesId)
    expect((await as(op, '/api/operator/stockSave', { seriesId, designs: view.designs.map((d: { designId: number }) => ({ designId: d.designId, stock: 1, was: 0 })) })).body.code).toBe(200)
    expect((await as(op, '/api/operator/seriesPublish', { seriesId })).body.code).toBe(200)
    // one case's worth: the first case took it all
    expect(await stockOf(seriesId)).toMatchObject({ casesFillable: 0, openCases: 1, soldOut: false })
    // opening cases ahead stops where the warehouse does, and says so
    expect((await as(op, '/api/operator/casesOpenAhead', { seriesId, count: 5 })).body.data).toMatchObject({ opened: 0, open: 1, stockShort: true })
  })
})
