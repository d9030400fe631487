/**
 * Migration 0039 (drops) over real rows, down and up again on both databases: on SQLite the cases table
 * is rebuilt (a CHECK cannot change in place), so the cases, their slots, the prizes and leases that
 * name them must all come through with their ids; down takes a scheduled drop's cases away with their
 * figures freed, and the books of the warehouse hold at every step.
 */
import { Migrator, type Kysely } from 'kysely'
import { migrateToLatest, migrations } from '../../server/src/db/migrate'
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, post, type TestApp } from './support/app'
import { buy, currentCaseId, makeSeries, makeShopper, topUp } from './support/shop'
import { stockViolations } from './support/invariants'

describe.each(testDialects())('migration 0039 on %s', (dialect) => {
  let t: TestApp
  beforeAll(async () => { t = await createTestApp(dialect) })
  afterAll(async () => { await t.close() })

  test('cases, slots and prizes come through down and up; a scheduled drop goes down with its figures freed', async () => {
    const sold = await makeSeries(t.db, t.clock, { regular: 3, rare: 1, hidden: false, stock: 10 })
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 100_000)
    const caseId = await currentCaseId(t.app, sold, s.token)
    expect((await buy(t.app, s, { caseId, slots: [1, 2] })).body.code).toBe(200)
    const opUser = await makeUser(t.db, t.clock, { role: 'operator' })
    const op = await loginToken(t.app, opUser.user_name!, opUser.password)
    const dropped = await makeSeries(t.db, t.clock, { regular: 3, rare: 1, hidden: false, stock: 10 })
    const made = await post(t.app, '/api/operator/dropCreate', { seriesId: dropped, cases: 3, hiddenCases: 0, startsAt: new Date(t.clock.now() + 3_600_000).toISOString() }, { token: op })
    expect(made.body.code).toBe(200)
    const snapshot = async () => ({
      cases: (await t.db.selectFrom('cases').select(['id', 'series_id', 'status', 'commit_hash', 'sold_count']).where('series_id', '=', sold).orderBy('id').execute()).map(r => ({ ...r, id: Number(r.id), series_id: Number(r.series_id) })),
      slots: (await t.db.selectFrom('case_slots').select(['case_id', 'slot', 'design_id', 'sold_to']).where('case_id', '=', caseId).orderBy('slot').execute()).map(r => [Number(r.case_id), r.slot, Number(r.design_id), r.sold_to === null ? null : Number(r.sold_to)]),
      prizes: (await t.db.selectFrom('prizes').select(['id', 'case_id']).where('series_id', '=', sold).orderBy('id').execute()).map(r => [Number(r.id), Number(r.case_id)])
    })
    const before = await snapshot()
    expect(before.prizes).toHaveLength(2)

    const db = t.db as Kysely<any>
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(dialect) } })
    expect((await migrator.migrateTo('0038_stock')).error).toBeUndefined()
    expect(await snapshot()).toEqual(before)
    // the drop's scheduled cases went with it, and their figures are free again
    expect((await t.db.selectFrom('cases').select('id').where('series_id', '=', dropped).where('status', '=', 'on_sale').execute())).toEqual([])
    expect(await stockViolations(t.db)).toEqual([])
    // the old CHECK is back
    // (matched on the message: in a Jest worker's later files a driver's error is not instanceof Error)
    const refused = await t.db.updateTable('cases').set({ status: 'scheduled' as 'on_sale' }).where('id', '=', caseId).execute().then(() => 'written', (e: unknown) => String((e as { message?: string }).message ?? e))
    expect(refused).toMatch(/check/i)

    await migrateToLatest(t.db, dialect)
    expect(await snapshot()).toEqual(before)
    expect(await stockViolations(t.db)).toEqual([])
    // the cases still answer to their slots and prizes (the foreign keys point at the rebuilt table)
    expect((await post(t.app, '/api/caseCurrent', { seriesId: sold }, { token: s.token })).body.data.caseId).toBe(caseId)
    expect((await buy(t.app, s, { caseId, slots: [3] })).body.code).toBe(200)
    const again = await post(t.app, '/api/operator/dropCreate', { seriesId: dropped, cases: 2, hiddenCases: 0, startsAt: new Date(t.clock.now() + 3_600_000).toISOString() }, { token: op })
    expect(again.body.data).toMatchObject({ status: 'scheduled', cases: 2 })
  })
})
