/**
 * POST /api/purchaseCheck: every rule of casePurchase, checked before any money is asked for, and
 * nothing moved. Each refusal is answered exactly as casePurchase answers it (same code, message and
 * data: one set of rules); a balance that does not cover the total is not a refusal but a shortfall,
 * and after a top-up of that shortfall the purchase goes through with the figures the check gave.
 * Every check leaves the database as it found it: wallets, ledger, orders, slots, cases, purchases,
 * prizes, idempotency keys.
 */
import { testDialects } from './support/db'
import { post, type TestApp, createTestApp } from './support/app'
import { buy, currentCaseId, makeSeries, makeShopper, newKey, topUp, type Shopper } from './support/shop'
import { postTransaction } from '../../server/src/domain/money/ledger'
import { addToWallet } from '../../server/src/domain/money/wallet'
import { updateSeries } from '../../server/src/domain/catalogue/catalogue'

const DAY = 24 * 60 * 60 * 1000

describe.each(testDialects())('purchaseCheck on %s', (dialect) => {
  let t: TestApp
  beforeAll(async () => { t = await createTestApp(dialect) })
  afterAll(async () => { await t.close() })

  const check = (s: Shopper | null, body: Record<string, unknown>, lang?: string) =>
    post(t.app, '/api/purchaseCheck', { acknowledged: true, ...body }, { token: s?.token, lang })
  const grantCredit = (userId: number, cents: number) => t.db.transaction().execute(async trx => {
    await postTransaction(trx, t.clock.now, {
      kind: 'reward', reference: 'test credit', idempotencyKey: null, userId,
      lines: [{ account: 'house_credit', amountCents: -cents }, { account: 'user_credit', userId, amountCents: cents }]
    })
    await addToWallet(trx, t.clock.now, userId, { creditCents: cents })
  })

  /** Every row that a purchase or a top-up could move, in a stable order. */
  const snapshot = async () => {
    const db = t.db
    return {
      wallets: await db.selectFrom('wallets').selectAll().orderBy('user_id').execute(),
      transactions: await db.selectFrom('ledger_transactions').selectAll().orderBy('id').execute(),
      lines: await db.selectFrom('ledger_lines').selectAll().orderBy('id').execute(),
      orders: await db.selectFrom('orders').selectAll().orderBy('op_id').execute(),
      slots: await db.selectFrom('case_slots').select(['case_id', 'slot', 'sold_to', 'sold_at']).orderBy('case_id').orderBy('slot').execute(),
      cases: await db.selectFrom('cases').select(['id', 'status', 'sold_count', 'revealed_at']).orderBy('id').execute(),
      purchases: await db.selectFrom('purchases').selectAll().orderBy('id').execute(),
      prizes: await db.selectFrom('prizes').select(['id', 'status']).orderBy('id').execute(),
      keys: await db.selectFrom('idempotency_keys').select(['user_id', 'key']).orderBy('user_id').orderBy('key').execute()
    }
  }

  test('answers the plan: slots, total, credit first then cash, and the shortfall; a top-up of it lets the same purchase through', async () => {
    const series = await makeSeries(t.db, t.clock, { priceCents: 1500 })
    const caseId = await currentCaseId(t.app, series)
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 1000)
    await grantCredit(s.id, 800)
    const before = await snapshot()
    const r = await check(s, { caseId, slots: [5, 2], priceCents: 1500 })
    expect(r.body).toEqual({
      code: 200,
      message: expect.any(String),
      data: {
        caseId, seriesId: series, slots: [5, 2], priceCents: 1500, totalCents: 3000, creditCents: 800, cashCents: 2200,
        shortfallCents: 1200, balance: { cashCents: 1000, creditCents: 800 }, dailyLeftCents: null
      }
    })
    expect(await snapshot()).toEqual(before)
    // the purchase itself refuses the same shortfall
    expect((await buy(t.app, s, { caseId, slots: [5, 2] })).body).toMatchObject({ code: 422, data: { reason: 'insufficient_balance', shortfallCents: 1200, totalCents: 3000 } })
    await topUp(t.app, s, r.body.data.shortfallCents)
    const again = await check(s, { caseId, slots: [5, 2], priceCents: 1500 })
    expect(again.body.data).toMatchObject({ shortfallCents: 0, creditCents: 800, cashCents: 2200, balance: { cashCents: 2200, creditCents: 800 } })
    const bought = await buy(t.app, s, { caseId, slots: [5, 2], priceCents: 1500 })
    expect(bought.body.data).toMatchObject({ totalCents: 3000, spentCreditCents: 800, spentCashCents: 2200, balance: { cashCents: 0, creditCents: 0 } })
    expect(bought.body.data.prizes.map((p: { slot: number }) => p.slot)).toEqual([2, 5])

    // a whole case: the unsold slots, in order
    const whole = await check(s, { caseId, wholeCase: true })
    expect(whole.body.data).toMatchObject({ slots: [1, 3, 4, 6, 7, 8, 9, 10, 11, 12], totalCents: 15000, creditCents: 0, cashCents: 15000, shortfallCents: 15000 })
  })

  test('each refusal is answered before any money, exactly as casePurchase answers it, and changes nothing', async () => {
    const series = await makeSeries(t.db, t.clock, { priceCents: 1000 })
    const caseId = await currentCaseId(t.app, series)
    const adult = await makeShopper(t.app, t.db, t.clock)
    const other = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, adult, 5000)
    await topUp(t.app, other, 5000)
    expect((await buy(t.app, other, { caseId, slots: [3] })).body.code).toBe(200)
    const unverified = await makeShopper(t.app, t.db, t.clock, null)
    const child = await makeShopper(t.app, t.db, t.clock, null)
    expect((await post(t.app, '/api/ageVerify', { birthDate: '2019-03-02', guardianConsent: true }, { token: child.token })).body.code).toBe(422)
    // a minor without a guardian's consent: ageVerify records the birth date and answers 422
    const teenNoConsent = await makeShopper(t.app, t.db, t.clock, null)
    expect((await post(t.app, '/api/ageVerify', { birthDate: '2012-06-01' }, { token: teenNoConsent.token })).body.code).toBe(422)
    const retiredSeries = await makeSeries(t.db, t.clock, { priceCents: 1000 })
    const retiredCase = await currentCaseId(t.app, retiredSeries)
    await updateSeries(t.db, t.clock.now, retiredSeries, { status: 'retired' })

    const refusals: Array<[string, Shopper | null, Record<string, unknown>, { code: number; message?: string; data?: unknown }]> = [
      ['logged out', null, { caseId, slots: [1] }, { code: 401 }],
      ['not acknowledged', adult, { caseId, slots: [1], acknowledged: false }, { code: 400, data: { field: 'acknowledged' } }],
      ['neither slots nor wholeCase', adult, { caseId }, { code: 400, data: { field: 'slots' } }],
      ['both slots and wholeCase', adult, { caseId, slots: [1], wholeCase: true }, { code: 400, data: { field: 'slots' } }],
      ['a slot twice', adult, { caseId, slots: [1, 1] }, { code: 400, message: 'Slot 1 appears twice in slots', data: { field: 'slots', slot: 1 } }],
      ['a slot outside the case', adult, { caseId, slots: [13] }, { code: 400, message: 'Slot 13 in slots does not exist (this case has 12 slots)', data: { field: 'slots', slot: 13 } }],
      ['an unknown field', adult, { caseId, slots: [12], idempotencyKey: newKey() }, { code: 400, data: { field: 'idempotencyKey' } }],
      ['no birth date', unverified, { caseId, slots: [1] }, { code: 422, message: 'Verify your age (birth date) before your first purchase', data: { reason: 'age_required' } }],
      ['under 8', child, { caseId, slots: [1] }, { code: 422, message: 'Children under 8 cannot buy blind boxes', data: { reason: 'too_young' } }],
      ['a minor without consent', teenNoConsent, { caseId, slots: [1] }, { code: 422, message: 'Minors need a guardian\'s consent to buy', data: { reason: 'guardian_consent', field: 'guardianConsent' } }],
      ['an unknown case', adult, { caseId: 99999999, slots: [1] }, { code: 404, message: 'No such case' }],
      ['a retired series', adult, { caseId: retiredCase, slots: [1] }, { code: 409, message: 'This case is sold out or retired; switch to another case' }],
      ['a slot sold', adult, { caseId, slots: [1, 3] }, { code: 409, message: 'Slot 3 already sold', data: { field: 'slots', slot: 3 } }],
      ['another price shown', adult, { caseId, slots: [1], priceCents: 900 }, { code: 409, message: 'The price is now ¥10.00 a box; check it and buy again', data: { field: 'priceCents', priceCents: 1000 } }]
    ]
    for (const [name, who, body, expected] of refusals) {
      const before = await snapshot()
      const checked = await check(who, body)
      expect({ name, ...checked.body }).toMatchObject({ name, ...expected })
      expect({ name, unchanged: await snapshot() }).toEqual({ name, unchanged: before })
      // casePurchase refuses it the same way (idempotencyKey added unless the case is about it)
      const purchaseBody = { acknowledged: true, ...body, ...('idempotencyKey' in body ? {} : { idempotencyKey: newKey() }) }
      const bought = await post(t.app, '/api/casePurchase', purchaseBody, { token: who?.token })
      if (name === 'an unknown field') {
        expect(bought.body.code).toBe(200) // the key belongs to casePurchase's body
        continue
      }
      expect({ name, ...bought.body }).toEqual({ name, ...checked.body })
      expect({ name, unchanged: await snapshot() }).toEqual({ name, unchanged: before })
    }
    // the messages follow Accept-Language
    expect((await check(adult, { caseId, slots: [4], priceCents: 900 }, 'zh')).body.message).toBe('价格已变更为每盒 ¥10.00，请确认后再购买')
  })

  test('a minor over the daily cap with an empty wallet is refused on the cap (not asked for a top-up); nothing moves; the next day it fits', async () => {
    const series = await makeSeries(t.db, t.clock, { regular: 30, rare: 0, hidden: false, priceCents: 6900 })
    const caseId = await currentCaseId(t.app, series)
    const teen = await makeShopper(t.app, t.db, t.clock, '2010-01-01', true)
    const before = await snapshot()
    const r = await check(teen, { caseId, slots: [1, 2] })
    expect(r.body).toEqual({
      code: 422,
      message: 'Minors may spend at most ¥100.00 a day; ¥100.00 left today',
      data: { reason: 'daily_cap', capCents: 10000, leftCents: 10000 }
    })
    expect(await snapshot()).toEqual(before)
    // within the cap: the shortfall of the empty wallet, and what is left of the day
    const one = await check(teen, { caseId, slots: [1] })
    expect(one.body.data).toMatchObject({ totalCents: 6900, shortfallCents: 6900, dailyLeftCents: 3100, balance: { cashCents: 0, creditCents: 0 } })
    await topUp(t.app, teen, 6900)
    expect((await buy(t.app, teen, { caseId, slots: [1] })).body.code).toBe(200)
    expect((await check(teen, { caseId, slots: [2] })).body.data).toEqual({ reason: 'daily_cap', capCents: 10000, leftCents: 3100 })
    t.clock.advance(DAY)
    expect((await check(teen, { caseId, slots: [2] })).body.data).toMatchObject({ shortfallCents: 6900, dailyLeftCents: 3100 })
  })

  test('a sold-out case, and a price changed by the operator after the page was shown', async () => {
    const series = await makeSeries(t.db, t.clock, { priceCents: 1000 })
    const caseId = await currentCaseId(t.app, series)
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 20000)
    expect((await check(s, { caseId, slots: [1], priceCents: 1000 })).body.code).toBe(200)
    await updateSeries(t.db, t.clock.now, series, { priceCents: 1200 })
    const before = await snapshot()
    expect((await check(s, { caseId, slots: [1], priceCents: 1000 })).body).toMatchObject({ code: 409, data: { field: 'priceCents', priceCents: 1200 } })
    expect((await buy(t.app, s, { caseId, slots: [1], priceCents: 1000 })).body).toMatchObject({ code: 409, data: { field: 'priceCents', priceCents: 1200 } })
    expect(await snapshot()).toEqual(before)
    expect((await check(s, { caseId, slots: [1], priceCents: 1200 })).body.data).toMatchObject({ totalCents: 1200, shortfallCents: 0 })
    expect((await buy(t.app, s, { caseId, wholeCase: true, priceCents: 1200 })).body.code).toBe(200)
    const soldOut = await snapshot()
    expect((await check(s, { caseId, wholeCase: true })).body).toMatchObject({ code: 409, message: 'This case is sold out or retired; switch to another case' })
    expect((await check(s, { caseId, slots: [2] })).body).toMatchObject({ code: 409 })
    expect(await snapshot()).toEqual(soldOut)
  })
})
