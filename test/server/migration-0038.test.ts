/**
 * Migration 0038 (stock) on a shop that already sold: each design's committed count starts at what its
 * rows hold (unsold slots of cases on sale, prizes in the warehouse or in a parcel not yet sent, not a
 * recycled one), its stock at the same count, so nothing sold or shown is lost and no new case opens
 * until an operator counts the warehouse. Run as the migration down and up again over real rows.
 */
import { Migrator, type Kysely } from 'kysely'
import { migrateToLatest, migrations } from '../../server/src/db/migrate'
import { committedCounts } from '../../server/src/domain/catalogue/stock'
import { testDialects } from './support/db'
import { createTestApp, post, type TestApp } from './support/app'
import { buy, currentCaseId, makeSeries, makeShopper, newKey, topUp } from './support/shop'

describe.each(testDialects())('migration 0038 on %s', (dialect) => {
  let t: TestApp
  beforeAll(async () => { t = await createTestApp(dialect) })
  afterAll(async () => { await t.close() })

  test('the counts start at what the rows hold, and the series waits for an operator\'s count', async () => {
    const seriesId = await makeSeries(t.db, t.clock, { regular: 3, rare: 1, hidden: false })
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 100_000)
    const caseId = await currentCaseId(t.app, seriesId, s.token)
    const bought = await buy(t.app, s, { caseId, slots: [1, 2, 3] })
    expect(bought.body.code).toBe(200)
    const [recycled, parcelled] = bought.body.data.prizes.map((p: { prizeId: number }) => p.prizeId)
    expect((await post(t.app, '/api/prizeRecycle', { prizeIds: [recycled], idempotencyKey: newKey() }, { token: s.token })).body.code).toBe(200)
    const address = (await post(t.app, '/api/addressSave', { name: '张三', phone: '13800138000', region: '上海市 浦东新区', detail: '世纪大道 100 号' }, { token: s.token })).body.data
    expect((await post(t.app, '/api/shipmentCreate', { prizeIds: [parcelled], addressId: address.id, idempotencyKey: newKey() }, { token: s.token })).body.code).toBe(200)

    const db = t.db as Kysely<any>
    const all = migrations(dialect)
    const migrator = new Migrator({ db, provider: { getMigrations: async () => all } })
    expect((await migrator.migrateTo('0037_address_region_parts')).error).toBeUndefined()
    await migrateToLatest(t.db, dialect)

    // 4 slots: 1 unsold, 1 prize in the warehouse, 1 in a parcel not yet sent, 1 recycled (free)
    const designs = await t.db.selectFrom('designs').select(['id', 'stock', 'committed']).where('series_id', '=', seriesId).execute()
    const counted = await committedCounts(t.db, seriesId)
    expect(designs.reduce((n, d) => n + Number(d.committed), 0)).toBe(3)
    for (const d of designs) expect([Number(d.stock), Number(d.committed)]).toEqual([counted.get(Number(d.id)) ?? 0, counted.get(Number(d.id)) ?? 0])
    // the series still shows its case; once it sells out, the next one waits for the warehouse's count
    expect((await post(t.app, '/api/caseCurrent', { seriesId }, { token: s.token })).body.data.caseId).toBe(caseId)
    expect((await buy(t.app, s, { caseId, slots: [4] })).body.code).toBe(200)
    expect((await post(t.app, '/api/seriesDetail', { seriesId })).body.data.soldOut).toBe(true)
  })
})
