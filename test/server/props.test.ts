/**
 * Props on SQLite and PostgreSQL (issue 9): buying cards through the ledger, three shakes a day, one
 * hint card per slot, the X-ray hold and its expiry, and the truth of everything shown, checked
 * against the arrangement the case reveals when it sells out.
 */
import { DEFAULT_SHOP_SETTINGS, PROP_LIMITS } from '../../types/limits'
import { DAY_MS } from '../../server/src/core/days'
import { createTestApp, loginToken, makeUser, post, type TestApp } from './support/app'
import { testDialects } from './support/db'
import { invariantViolations } from './support/invariants'
import { currentCaseId, makeSeries, makeShopper, newKey, topUp, type Shopper } from './support/shop'

describe.each(testDialects())('props on %s', (dialect) => {
  let t: TestApp
  beforeAll(async () => { t = await createTestApp(dialect) })
  afterEach(async () => { expect(await invariantViolations(t.db)).toEqual([]) })
  afterAll(async () => { await t.close() })

  /** A shopper who can log in again after the clock moves on. */
  async function shopper (): Promise<Shopper & { login: () => Promise<void> }> {
    const u = await makeUser(t.db, t.clock)
    const s = { id: Number(u.id), token: await loginToken(t.app, u.user_name!, u.password), userName: u.user_name! }
    await post(t.app, '/api/ageVerify', { birthDate: '1990-01-01' }, { token: s.token })
    return Object.assign(s, { login: async () => { s.token = await loginToken(t.app, u.user_name!, u.password) } })
  }
  const call = (s: Shopper, path: string, body: unknown, lang = 'en') => post(t.app, path, body, { token: s.token, lang })
  const use = (s: Shopper, kind: string, caseId: number, slot: number) => call(s, '/api/propUse', { kind, caseId, slot, idempotencyKey: newKey() })
  const truth = async (caseId: number, slot: number) =>
    Number((await t.db.selectFrom('case_slots').select('design_id').where('case_id', '=', caseId).where('slot', '=', slot).executeTakeFirstOrThrow()).design_id)
  const giveCards = async (s: Shopper, kind: 'hint' | 'xray', n: number) => {
    await topUp(t.app, s, 10000)
    const r = await call(s, '/api/propBuy', { kind, quantity: n, pay: 'cash', idempotencyKey: newKey() })
    expect(r.body.code).toBe(200)
  }

  test('state, and buying cards with credit or cash through the ledger (idempotent; a shortfall changes nothing)', async () => {
    const s = await shopper()
    expect((await call(s, '/api/props', {})).body.data).toEqual({
      cards: { hint: 0, xray: 0 }, shakesLeft: 3, shakesPerDay: 3,
      prices: { hint: DEFAULT_SHOP_SETTINGS.hintCardPriceCents, xray: DEFAULT_SHOP_SETTINGS.xrayCardPriceCents }, reservations: []
    })
    const poor = await call(s, '/api/propBuy', { kind: 'xray', quantity: 1, pay: 'cash', idempotencyKey: newKey() })
    expect(poor.body).toMatchObject({ code: 422, data: { reason: 'insufficient_balance', shortfallCents: DEFAULT_SHOP_SETTINGS.xrayCardPriceCents } })
    await topUp(t.app, s, 5000)
    const key = newKey()
    const bought = await call(s, '/api/propBuy', { kind: 'hint', quantity: 2, pay: 'cash', idempotencyKey: key })
    expect(bought.body.data).toMatchObject({ paidCents: 2 * DEFAULT_SHOP_SETTINGS.hintCardPriceCents, balance: { cashCents: 5000 - 600, creditCents: 0 } })
    expect(bought.body.data.state.cards).toEqual({ hint: 2, xray: 0 })
    // the replay buys nothing more
    expect((await call(s, '/api/propBuy', { kind: 'hint', quantity: 2, pay: 'cash', idempotencyKey: key })).body.data.paidCents).toBe(600)
    expect((await call(s, '/api/props', {})).body.data.cards.hint).toBe(2)
    // credit alone pays when asked to: none here
    expect((await call(s, '/api/propBuy', { kind: 'hint', quantity: 1, pay: 'credit', idempotencyKey: newKey() })).body.code).toBe(422)
    const lines = await t.db.selectFrom('ledger_lines').innerJoin('ledger_transactions', 'ledger_transactions.id', 'ledger_lines.tx_id')
      .select(['ledger_lines.account', 'ledger_lines.amount_cents']).where('ledger_transactions.kind', '=', 'prop_purchase').where('ledger_transactions.user_id', '=', s.id).execute()
    expect(lines.map(l => [l.account, Number(l.amount_cents)]).sort()).toEqual([['house_props', 600], ['user_cash', -600]])
    expect((await call(s, '/api/propBuy', { kind: 'hint', quantity: 11, pay: 'cash', idempotencyKey: newKey() })).body).toMatchObject({ code: 400, data: { field: 'quantity' } })
  })

  test('buying cards passes the age gate of a box purchase (a birth date; under 8 never; a minor with a guardian\'s consent), and a refusal takes nothing', async () => {
    const asking = async (birthDate: string | null) => {
      const s = await makeShopper(t.app, t.db, t.clock, null)
      // the check answers 422 for a child (under 8, or without consent yet) and records the date all the same
      if (birthDate) expect((await call(s, '/api/ageVerify', { birthDate })).body.code).toBe(422)
      await topUp(t.app, s, 5000)
      return s
    }
    const today = new Date(t.clock.now())
    const born = (years: number) => `${today.getUTCFullYear() - years}-01-01`
    const cases: Array<[string | null, string, string]> = [
      [null, 'age_required', 'Verify your age (birth date) before your first purchase'],
      [born(7), 'too_young', ''],
      [born(12), 'guardian_consent', '']
    ]
    for (const [birthDate, reason, message] of cases) {
      const s = await asking(birthDate)
      const r = await call(s, '/api/propBuy', { kind: 'xray', quantity: 1, pay: 'cash', idempotencyKey: newKey() })
      expect(r.body).toMatchObject({ code: 422, data: { reason } })
      if (message) expect(r.body.message).toBe(message)
      expect((await call(s, '/api/walletBalance', {})).body.data).toEqual({ cashCents: 5000, creditCents: 0 })
      expect((await call(s, '/api/props', {})).body.data.cards).toEqual({ hint: 0, xray: 0 })
    }
    // a minor whose guardian consented buys, under the minor's daily cap
    const minor = await makeShopper(t.app, t.db, t.clock, born(12), true)
    await topUp(t.app, minor, 5000)
    expect((await call(minor, '/api/propBuy', { kind: 'hint', quantity: 1, pay: 'cash', idempotencyKey: newKey() })).body.code).toBe(200)
  })

  test('shakes: three a day, each shows a design the slot is not; the next day there are three again', async () => {
    const s = await shopper()
    const seriesId = await makeSeries(t.db, t.clock)
    const caseId = await currentCaseId(t.app, seriesId, s.token)
    for (let i = 0; i < PROP_LIMITS.shakesPerDay; i++) {
      const r = await use(s, 'shake', caseId, 1)
      expect(r.body.data.shown).toMatchObject({ kind: 'shake', caseId, slot: 1, isNot: true, reservedUntil: null })
      expect(r.body.data.shown.design.id).not.toBe(await truth(caseId, 1))
      expect(r.body.data.state.shakesLeft).toBe(PROP_LIMITS.shakesPerDay - 1 - i)
    }
    const none = await use(s, 'shake', caseId, 2)
    expect(none.body).toMatchObject({ code: 429, message: 'No free shakes left today (3 a day)', data: { retryAfter: expect.any(Number) } })
    const shown = (await call(s, '/api/caseHints', { caseId })).body.data
    expect(new Set(shown.map((x: { design: { id: number } }) => x.design.id)).size).toBe(3)
    t.clock.advance(DAY_MS)
    await s.login()
    expect((await use(s, 'shake', caseId, 2)).body.code).toBe(200)
  })

  test('hint cards: one needed, one per slot, two at once on one slot: one wins and one card is spent', async () => {
    const s = await shopper()
    const seriesId = await makeSeries(t.db, t.clock)
    const caseId = await currentCaseId(t.app, seriesId, s.token)
    expect((await use(s, 'hint', caseId, 3)).body).toMatchObject({ code: 422, message: 'You have no hint card: buy one first' })
    await giveCards(s, 'hint', 3)
    const answers = await Promise.all([use(s, 'hint', caseId, 3), use(s, 'hint', caseId, 3)])
    expect(answers.map(a => a.body.code).sort()).toEqual([200, 409])
    const ok = answers.find(a => a.body.code === 200)!
    expect(ok.body.data.shown.design.id).not.toBe(await truth(caseId, 3))
    expect((await call(s, '/api/props', {})).body.data.cards.hint).toBe(2)
    expect((await use(s, 'hint', caseId, 3)).body).toMatchObject({ code: 409, message: 'A hint card was already used on box 3' })
    expect((await use(s, 'hint', caseId, 4)).body.code).toBe(200)
  })

  test('X-ray: the design the slot is, held 10 minutes against other X-rays, then free again; sold and unknown slots refused', async () => {
    const a = await shopper()
    const b = await shopper()
    const seriesId = await makeSeries(t.db, t.clock)
    const caseId = await currentCaseId(t.app, seriesId, a.token)
    await giveCards(a, 'xray', 1)
    await giveCards(b, 'xray', 2)
    const r = await use(a, 'xray', caseId, 5)
    expect(r.body.data.shown).toMatchObject({ kind: 'xray', isNot: false, design: { id: await truth(caseId, 5) } })
    expect(Date.parse(r.body.data.shown.reservedUntil) - t.clock.now()).toBe(10 * 60_000)
    expect(r.body.data.state.reservations).toEqual([{ caseId, slot: 5, expiresAt: r.body.data.shown.reservedUntil }])
    expect((await use(b, 'xray', caseId, 5)).body).toMatchObject({ code: 409, data: { field: 'slot', slot: 5 } })
    expect((await call(b, '/api/props', {})).body.data.cards.xray).toBe(2)
    t.clock.advance(10 * 60_000 + 1)
    expect((await use(b, 'xray', caseId, 5)).body.data.shown.design.id).toBe(await truth(caseId, 5))
    expect((await use(b, 'xray', caseId, 99)).body).toMatchObject({ code: 400, data: { field: 'slot' } })
    expect((await use(b, 'xray', 999999, 1)).body.code).toBe(404)
  })

  test('everything props showed is true: checked against the arrangement revealed at sell-out', async () => {
    const s = await shopper()
    const seriesId = await makeSeries(t.db, t.clock)
    const caseId = await currentCaseId(t.app, seriesId, s.token)
    await giveCards(s, 'hint', 6)
    await giveCards(s, 'xray', 2)
    for (const slot of [1, 2, 3]) expect((await use(s, 'shake', caseId, slot)).body.code).toBe(200)
    for (const slot of [1, 4, 5, 6, 7, 8]) expect((await use(s, 'hint', caseId, slot)).body.code).toBe(200)
    for (const slot of [9, 10]) expect((await use(s, 'xray', caseId, slot)).body.code).toBe(200)
    await topUp(t.app, s, 50000)
    const bought = await call(s, '/api/casePurchase', { caseId, wholeCase: true, acknowledged: true, idempotencyKey: newKey() })
    expect(bought.body.code).toBe(200)
    const proof = (await post(t.app, '/api/caseProof', { caseId })).body.data
    expect(proof.revealed).toBe(true)
    const shown = (await call(s, '/api/caseHints', { caseId })).body.data as Array<{ slot: number; isNot: boolean; design: { id: number } }>
    expect(shown).toHaveLength(11)
    for (const x of shown) {
      const actual = proof.arrangement[x.slot - 1]
      if (x.isNot) expect(x.design.id).not.toBe(actual)
      else expect(x.design.id).toBe(actual)
    }
    const history = (await call(s, '/api/propHistory', { page: 1, size: 50 })).body.data
    expect(history.total).toBe(11)
    // a sold slot takes no prop
    expect((await use(s, 'shake', caseId, 1)).body.code).toBe(409)
  })

  test('an X-ray hold against another shopper\'s purchase: 409 reserved; the holder buys it; expired, anyone can', async () => {
    const a = await shopper()
    const b = await shopper()
    const seriesId = await makeSeries(t.db, t.clock)
    const caseId = await currentCaseId(t.app, seriesId, a.token)
    await giveCards(a, 'xray', 2)
    await topUp(t.app, b, 20000)
    await use(a, 'xray', caseId, 2)
    const buy = (s: Shopper, slots: number[] | null) => call(s, '/api/casePurchase', { caseId, ...(slots ? { slots } : { wholeCase: true }), acknowledged: true, idempotencyKey: newKey() })
    expect((await buy(b, [1, 2])).body).toEqual({ code: 409, message: 'Box 2 is held by another shopper\'s X-ray card for up to 10 minutes', data: { field: 'slots', slot: 2 } })
    expect((await call(b, '/api/purchaseCheck', { caseId, slots: [2], acknowledged: true })).body.code).toBe(409)
    // a whole case takes every unsold slot: the held one too, so it is refused as well
    expect((await buy(b, null)).body).toMatchObject({ code: 409, data: { slot: 2 } })
    expect((await buy(b, [1])).body.code).toBe(200)
    const mine = await buy(a, [2])
    expect(mine.body.code).toBe(200)
    expect(await t.db.selectFrom('slot_reservations').selectAll().where('case_id', '=', caseId).execute()).toEqual([])
    await use(a, 'xray', caseId, 3)
    t.clock.advance(10 * 60_000 + 1)
    await a.login()
    await b.login()
    expect((await buy(b, [3])).body.code).toBe(200)
  })

  test('an X-ray and another shopper\'s purchase of the same slot at once: never both', async () => {
    for (let round = 0; round < 6; round++) {
      const a = await shopper()
      const b = await shopper()
      const seriesId = await makeSeries(t.db, t.clock)
      const caseId = await currentCaseId(t.app, seriesId, a.token)
      await giveCards(a, 'xray', 1)
      await topUp(t.app, b, 5000)
      const [x, p] = await Promise.all([
        use(a, 'xray', caseId, 4),
        call(b, '/api/casePurchase', { caseId, slots: [4], acknowledged: true, idempotencyKey: newKey() })
      ])
      expect([x.body.code, p.body.code].sort()).toEqual([200, 409])
      const sold = await t.db.selectFrom('case_slots').select('sold_to').where('case_id', '=', caseId).where('slot', '=', 4).executeTakeFirstOrThrow()
      const holds = await t.db.selectFrom('slot_reservations').select('user_id').where('case_id', '=', caseId).execute()
      if (x.body.code === 200) {
        expect(sold.sold_to).toBeNull()
        expect(holds.map(h => Number(h.user_id))).toEqual([a.id])
      } else {
        expect(Number(sold.sold_to)).toBe(b.id)
        expect(holds).toEqual([])
        expect((await call(a, '/api/props', {})).body.data.cards.xray).toBe(1)
      }
    }
  })

  test('a whole-case purchase earns an X-ray card', async () => {
    const s = await shopper()
    const seriesId = await makeSeries(t.db, t.clock)
    const caseId = await currentCaseId(t.app, seriesId, s.token)
    await topUp(t.app, s, 20000)
    const r = await call(s, '/api/casePurchase', { caseId, wholeCase: true, acknowledged: true, idempotencyKey: newKey() })
    expect(r.body.data.xrayCardsEarned).toBe(1)
    expect((await call(s, '/api/props', {})).body.data.cards.xray).toBe(1)
    const next = await currentCaseId(t.app, seriesId, s.token)
    const some = await call(s, '/api/casePurchase', { caseId: next, slots: [1], acknowledged: true, idempotencyKey: newKey() })
    expect(some.body.data.xrayCardsEarned).toBe(0)
  })
})
