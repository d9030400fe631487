/**
 * Twin requests (issue 21): identical requests, with the same idempotency key and body, sent at once to
 * every idempotent money route. The rule (server/src/domain/idempotency.ts, README "The contract"):
 * every twin answers the first request's stored answer, and the work is applied once.
 *
 * SQLite runs on a file here, as the server does: only a file database has the reading connection, and
 * with the group commit a twin used to fail on what the first one changed before that was committed,
 * look the key up on the reading connection, miss it, and answer 409 "not in the warehouse" (8 of 16
 * groups). PostgreSQL runs the twins truly in parallel on its pool.
 */
import { createRecipe } from '../../server/src/domain/prizes/combine'
import { createTestApp, post, type CallResult, type TestApp } from './support/app'
import { testDialects } from './support/db'
import { invariantViolations } from './support/invariants'
import { currentCaseId, givePrizes, makeSeries, makeShopper, newKey, topUp, type Shopper } from './support/shop'

/** Groups per route, and identical requests per group. */
const GROUPS = 16
const TWINS = 3

describe.each(testDialects())('idempotent twins on %s', (dialect) => {
  let t: TestApp
  let s: Shopper
  let seriesId: number
  let regular: number[]
  let recipeId: number
  let addressId: number
  beforeAll(async () => {
    t = await createTestApp(dialect, { sqliteFile: true })
    seriesId = await makeSeries(t.db, t.clock)
    const designs = await t.db.selectFrom('designs').select(['id', 'rarity']).where('series_id', '=', seriesId).orderBy('id').execute()
    regular = designs.filter(d => d.rarity === 'regular').map(d => Number(d.id))
    recipeId = await createRecipe(t.db, t.clock.now, {
      seriesId, name: { zh: '三合一', en: 'Three in one' }, inputKind: 'rarity', inputRarity: 'regular', inputCount: 3,
      pool: designs.map(d => ({ designId: Number(d.id), weight: d.rarity === 'regular' ? 10 : 3 }))
    })
    s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 500000)
    const address = await call('/api/addressSave', { name: '张三', phone: '13800138000', region: '上海市 浦东新区', detail: '世纪大道 1 号' })
    addressId = address.body.data.id
  }, 60000)
  afterEach(async () => { expect(await invariantViolations(t.db)).toEqual([]) })
  afterAll(async () => { await t.close() })

  const call = (path: string, body: unknown) => post(t.app, path, body, { token: s.token })
  /** Prizes in the shopper's warehouse (as purchases would have left them). */
  async function give (n: number): Promise<number[]> {
    return givePrizes(t.db, t.clock, s.id, seriesId, regular.slice(0, n))
  }
  /** Sends TWINS identical requests at once; every one must answer 200 and the same as the others. */
  async function twins (path: string, body: Record<string, unknown>): Promise<CallResult> {
    const answers = await Promise.all(Array.from({ length: TWINS }, () => call(path, body)))
    expect(answers.map(a => [a.status, a.body.code, a.body.message])).toEqual(answers.map(() => [200, 200, answers[0].body.message]))
    for (const a of answers.slice(1)) expect(a.body).toEqual(answers[0].body)
    return answers[0]
  }
  const count = async (table: 'purchases' | 'shipments' | 'combines' | 'withdrawals', userId = s.id) =>
    Number((await t.db.selectFrom(table).select(eb => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow()).n)
  const ledgerKinds = async (kind: 'recycle' | 'shipping_fee' | 'purchase' | 'prop_purchase') =>
    Number((await t.db.selectFrom('ledger_transactions').select(eb => eb.fn.countAll<number>().as('n')).where('user_id', '=', s.id).where('kind', '=', kind).executeTakeFirstOrThrow()).n)

  test('prizeRecycle: every twin answers the first answer; each prize is credited once', async () => {
    const before = (await call('/api/walletBalance', {})).body.data
    for (let g = 0; g < GROUPS; g++) {
      const prizeIds = await give(1)
      const a = await twins('/api/prizeRecycle', { prizeIds, idempotencyKey: newKey('recycle') })
      expect(a.body.data.creditCents).toBe(500)
    }
    expect(await ledgerKinds('recycle')).toBe(GROUPS)
    const after = (await call('/api/walletBalance', {})).body.data
    expect(after.creditCents - before.creditCents).toBe(GROUPS * 500)
  }, 120000)

  test('shipmentCreate: every twin answers the first answer; one shipment and one fee a group', async () => {
    const shipmentsBefore = await count('shipments')
    const feesBefore = await ledgerKinds('shipping_fee')
    const ids = new Set<number>()
    for (let g = 0; g < GROUPS; g++) {
      const prizeIds = await give(1)
      const a = await twins('/api/shipmentCreate', { prizeIds, addressId, idempotencyKey: newKey('ship') })
      ids.add(a.body.data.shipment.id)
    }
    expect(ids.size).toBe(GROUPS)
    expect(await count('shipments') - shipmentsBefore).toBe(GROUPS)
    expect(await ledgerKinds('shipping_fee') - feesBefore).toBe(GROUPS)
  }, 120000)

  test('combine: every twin answers the first answer; one combine, one output and one nonce a group', async () => {
    const before = await count('combines')
    const nonceBefore = (await call('/api/fairSeed', {})).body.data.nonce
    for (let g = 0; g < GROUPS; g++) {
      const prizeIds = await give(3)
      const a = await twins('/api/combine', { recipeId, prizeIds, idempotencyKey: newKey('combine') })
      expect(a.body.data.inputPrizeIds).toEqual(prizeIds)
    }
    expect(await count('combines') - before).toBe(GROUPS)
    expect((await call('/api/fairSeed', {})).body.data.nonce - nonceBefore).toBe(GROUPS)
    const outputs = await t.db.selectFrom('prizes').select('id').where('user_id', '=', s.id).where('origin', '=', 'combine').execute()
    expect(outputs).toHaveLength(await count('combines'))
  }, 120000)

  test('casePurchase: every twin answers the first answer; one purchase and one charge a group', async () => {
    const before = await count('purchases')
    const slotsSold = new Set<string>()
    for (let g = 0; g < GROUPS; g++) {
      const caseId = await currentCaseId(t.app, seriesId, s.token)
      const view = (await call('/api/caseCurrent', { seriesId })).body.data
      const slot = view.slots.find((x: { sold: boolean }) => !x.sold).slot
      const a = await twins('/api/casePurchase', { caseId, slots: [slot], acknowledged: true, idempotencyKey: newKey('buy') })
      expect(a.body.data.prizes).toHaveLength(1)
      slotsSold.add(`${caseId}:${slot}`)
    }
    expect(slotsSold.size).toBe(GROUPS)
    expect(await count('purchases') - before).toBe(GROUPS)
    expect(await ledgerKinds('purchase')).toBe(await count('purchases'))
  }, 120000)

  test('propBuy: every twin answers the same; the cards are bought and paid once a group', async () => {
    const cards = async () => Number((await t.db.selectFrom('prop_inventory').select('count').where('user_id', '=', s.id).where('kind', '=', 'hint').executeTakeFirst())?.count ?? 0)
    const before = await cards()
    const paidBefore = await ledgerKinds('prop_purchase')
    for (let g = 0; g < GROUPS; g++) {
      const a = await twins('/api/propBuy', { kind: 'hint', quantity: 2, pay: 'cash', idempotencyKey: newKey('props') })
      expect(a.body.data.paidCents).toBe(600)
    }
    expect(await cards() - before).toBe(2 * GROUPS)
    expect(await ledgerKinds('prop_purchase') - paidBefore).toBe(GROUPS)
  }, 120000)

  test('propUse: every twin answers the same hint; one card used a group', async () => {
    const bigSeries = await makeSeries(t.db, t.clock, { regular: 20 })
    const caseId = await currentCaseId(t.app, bigSeries, s.token)
    for (let i = 0; i < 2; i++) await call('/api/propBuy', { kind: 'hint', quantity: GROUPS / 2, pay: 'cash', idempotencyKey: newKey('cards') })
    const cards = async () => Number((await t.db.selectFrom('prop_inventory').select('count').where('user_id', '=', s.id).where('kind', '=', 'hint').executeTakeFirstOrThrow()).count)
    const before = await cards()
    for (let g = 0; g < GROUPS; g++) {
      const a = await twins('/api/propUse', { kind: 'hint', caseId, slot: g + 1, idempotencyKey: newKey('use') })
      expect(a.body.data.shown).toMatchObject({ kind: 'hint', caseId, slot: g + 1 })
    }
    expect(before - await cards()).toBe(GROUPS)
    const uses = await t.db.selectFrom('prop_uses').select('id').where('user_id', '=', s.id).where('case_id', '=', caseId).execute()
    expect(uses).toHaveLength(GROUPS)
  }, 120000)

  test('withdrawRequest: every twin answers the first answer; one withdrawal held a group', async () => {
    const before = await count('withdrawals')
    const ids = new Set<number>()
    for (let g = 0; g < GROUPS; g++) {
      const a = await twins('/api/withdrawRequest', { amountCents: 100, idempotencyKey: newKey('wd') })
      ids.add(a.body.data.id)
    }
    expect(ids.size).toBe(GROUPS)
    expect(await count('withdrawals') - before).toBe(GROUPS)
  }, 120000)

  test('the same key with another body is a 409 for the one that came second, never a second application', async () => {
    for (let g = 0; g < 4; g++) {
      const [one, two] = [await give(1), await give(1)]
      const key = newKey('mixed')
      const answers = await Promise.all([
        call('/api/prizeRecycle', { prizeIds: one, idempotencyKey: key }),
        call('/api/prizeRecycle', { prizeIds: two, idempotencyKey: key })
      ])
      expect(answers.map(a => a.body.code).sort()).toEqual([200, 409])
      const recycled = await t.db.selectFrom('prizes').select('id').where('id', 'in', [...one, ...two]).where('status', '=', 'recycled').execute()
      expect(recycled).toHaveLength(1)
    }
  }, 60000)
})
