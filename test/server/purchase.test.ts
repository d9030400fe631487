/**
 * Buying boxes: the age gate, validation, credit-then-cash, 409 for a sold slot, 422 for the balance,
 * whole cases (sell-out, reveal, next case), idempotency, races under real concurrency (PostgreSQL),
 * the books balancing after it all; then prizes and the live feed.
 */
import { createHash } from 'node:crypto'
import { testDialects } from './support/db'
import { makeUser, post, type TestApp, createTestApp } from './support/app'
import { buy, currentCaseId, makeSeries, makeShopper, newKey, topUp, type Shopper } from './support/shop'
import { checkLedger, postTransaction } from '../../server/src/domain/money/ledger'
import { addToWallet } from '../../server/src/domain/money/wallet'
import { createCase } from '../../server/src/domain/catalogue/cases'
import { addDesign, updateSeries } from '../../server/src/domain/catalogue/catalogue'

const DAY = 24 * 60 * 60 * 1000

describe.each(testDialects())('purchases on %s', (dialect) => {
  let t: TestApp
  let seriesId: number
  beforeAll(async () => {
    t = await createTestApp(dialect)
    seriesId = await makeSeries(t.db, t.clock, { priceCents: 1000 })
  })
  afterAll(async () => { await t.close() })

  const balance = async (s: Shopper) => (await post(t.app, '/api/walletBalance', {}, { token: s.token })).body.data
  const grantCredit = (userId: number, cents: number) => t.db.transaction().execute(async trx => {
    await postTransaction(trx, t.clock.now, {
      kind: 'reward', reference: 'test credit', idempotencyKey: null, userId,
      lines: [{ account: 'house_credit', amountCents: -cents }, { account: 'user_credit', userId, amountCents: cents }]
    })
    await addToWallet(trx, t.clock.now, userId, { creditCents: cents })
  })
  const soldSlots = async (caseId: number) => {
    const c = await post(t.app, '/api/caseProof', { caseId })
    const series = c.body.data.seriesId
    const view = await post(t.app, '/api/caseCurrent', { seriesId: series })
    return view.body.data.caseId === caseId ? view.body.data.slots.filter((s: { sold: boolean }) => s.sold).map((s: { slot: number }) => s.slot) : null
  }

  test('the age gate: login first; a birth date before the first purchase; under 8 refused; 8-17 need a guardian', async () => {
    const caseId = await currentCaseId(t.app, seriesId)
    expect((await post(t.app, '/api/casePurchase', { caseId, slots: [1], acknowledged: true, idempotencyKey: newKey() })).body.code).toBe(401)
    expect((await post(t.app, '/api/ageStatus', {})).body.code).toBe(401)
    const newcomer = await makeShopper(t.app, t.db, t.clock, null)
    await topUp(t.app, newcomer, 5000)
    expect((await post(t.app, '/api/ageStatus', {}, { token: newcomer.token })).body.data).toEqual({ verified: false, birthDate: null, age: null, minor: false, guardianConsent: false, dailyCapCents: null, guardian: null })
    const gated = await buy(t.app, newcomer, { caseId, slots: [1] })
    expect(gated.body).toMatchObject({ code: 422, message: 'Verify your age (birth date) before your first purchase' })
    expect((await buy(t.app, newcomer, { caseId, slots: [1] }, 'zh')).body.message).toBe('首次购买前请先完成年龄验证（填写出生日期）')
    // the test clock says 2026-03-01
    for (const [birthDate, rule] of [['1990-13-01', 'format'], ['1990-02-30', 'format'], ['19900101', 'pattern'], ['2027-01-01', 'invalid'], ['1850-01-01', 'invalid']]) {
      const r = await post(t.app, '/api/ageVerify', { birthDate }, { token: newcomer.token })
      expect(r.body).toMatchObject({ code: 400, data: { field: 'birthDate' } })
      if (rule === 'pattern') expect(r.body.data.rule).toBe('pattern')
    }
    expect((await post(t.app, '/api/ageVerify', { birthDate: '1990-01-01', guardianConsent: 'yes' }, { token: newcomer.token })).body).toMatchObject({ code: 400, data: { field: 'guardianConsent' } })
    expect((await post(t.app, '/api/ageVerify', { birthDate: '1990-01-01', admin: true }, { token: newcomer.token })).body).toMatchObject({ code: 400, data: { field: 'admin' } })
    const adult = await post(t.app, '/api/ageVerify', { birthDate: '2008-03-01' }, { token: newcomer.token })
    expect(adult.body.data).toEqual({ verified: true, birthDate: '2008-03-01', age: 18, minor: false, guardianConsent: false, dailyCapCents: null, guardian: null })
    expect((await buy(t.app, newcomer, { caseId, slots: [1] })).body.code).toBe(200)

    const child = await makeShopper(t.app, t.db, t.clock, null)
    const tooYoung = await post(t.app, '/api/ageVerify', { birthDate: '2019-03-02', guardianConsent: true }, { token: child.token })
    expect(tooYoung.body).toMatchObject({ code: 422, message: 'Children under 8 cannot buy blind boxes' })
    expect((await post(t.app, '/api/ageStatus', {}, { token: child.token })).body.data).toEqual({ verified: true, birthDate: '2019-03-02', age: 6, minor: true, guardianConsent: false, dailyCapCents: 10000, guardian: null })
    expect((await buy(t.app, child, { caseId, slots: [2] })).body).toMatchObject({ code: 422, message: 'Children under 8 cannot buy blind boxes' })
    // the birth date is recorded once
    expect((await post(t.app, '/api/ageVerify', { birthDate: '1990-01-01' }, { token: child.token })).body).toMatchObject({ code: 422, data: { field: 'birthDate' } })

    const teen = await makeShopper(t.app, t.db, t.clock, null)
    await topUp(t.app, teen, 5000)
    const noConsent = await post(t.app, '/api/ageVerify', { birthDate: '2012-06-01' }, { token: teen.token, lang: 'zh' })
    expect(noConsent.body).toMatchObject({ code: 422, message: '未成年人购买需要监护人同意', data: { field: 'guardianConsent' } })
    expect((await post(t.app, '/api/ageStatus', {}, { token: teen.token })).body.data).toMatchObject({ verified: true, birthDate: '2012-06-01', minor: true, guardianConsent: false })
    expect((await buy(t.app, teen, { caseId, slots: [2] })).body).toMatchObject({ code: 422, message: 'Minors need a guardian\'s consent to buy' })
    // a minor cannot consent for the guardian: the tick an older app sends is ignored (guardian-consent.test.ts)
    const ticked = await post(t.app, '/api/ageVerify', { birthDate: '2012-06-01', guardianConsent: true }, { token: teen.token })
    expect(ticked.body).toMatchObject({ code: 422, data: { reason: 'guardian_consent', status: { guardianConsent: false, guardian: { state: 'none' } } } })
    expect((await buy(t.app, teen, { caseId, slots: [2] })).body).toMatchObject({ code: 422, data: { reason: 'guardian_consent' } })
    const consenting = await makeShopper(t.app, t.db, t.clock, '2012-06-01', true)
    await topUp(t.app, consenting, 5000)
    expect((await post(t.app, '/api/ageStatus', {}, { token: consenting.token })).body.data).toMatchObject({ age: 13, minor: true, guardianConsent: true, dailyCapCents: 10000, guardian: { state: 'given', phone: '139****0000' } })
    expect((await buy(t.app, consenting, { caseId, slots: [2] })).body.code).toBe(200)
  })

  test('first age checks at once with different birth dates: one date is kept, the others are refused, none answers a date it did not keep', async () => {
    for (let round = 0; round < 4; round++) {
      const s = await makeShopper(t.app, t.db, t.clock, null)
      const dates = ['1990-01-01', '1991-02-02', '1992-03-03', '1993-04-04']
      const answers = await Promise.all(dates.map(birthDate => post(t.app, '/api/ageVerify', { birthDate }, { token: s.token })))
      expect(answers.map(a => a.status)).toEqual(answers.map(() => 200))
      const kept = (await t.db.selectFrom('age_checks').select('birth_date').where('user_id', '=', s.id).executeTakeFirstOrThrow()).birth_date
      answers.forEach((a, i) => expect(a.body.code).toBe(dates[i] === kept ? 200 : 422))
      expect(answers.filter(a => a.body.code === 200)).toHaveLength(1)
    }
  })

  test('a minor\'s daily cap (100 yuan) holds across purchases and resets the next day', async () => {
    const big = await makeSeries(t.db, t.clock, { regular: 30, rare: 0, hidden: false, priceCents: 1000 })
    const caseId = await currentCaseId(t.app, big)
    const teen = await makeShopper(t.app, t.db, t.clock, '2010-01-01', true)
    await topUp(t.app, teen, 50000)
    expect((await buy(t.app, teen, { caseId, slots: [1, 2, 3, 4, 5, 6] })).body.code).toBe(200)
    const over = await buy(t.app, teen, { caseId, slots: [7, 8, 9, 10, 11] })
    expect(over.body).toEqual({
      code: 422,
      message: 'Minors may spend at most ¥100.00 a day; ¥40.00 left today',
      data: { reason: 'daily_cap', capCents: 10000, leftCents: 4000 }
    })
    expect((await buy(t.app, teen, { caseId, slots: [7, 8, 9, 10] })).body.code).toBe(200)
    expect((await buy(t.app, teen, { caseId, slots: [11] })).body).toMatchObject({ code: 422, data: { leftCents: 0 } })
    t.clock.advance(DAY)
    expect((await buy(t.app, teen, { caseId, slots: [11] })).body.code).toBe(200)
    expect((await balance(teen)).cashCents).toBe(50000 - 11000)
  })

  test('strict body: acknowledged must be true; exactly one of slots and wholeCase; distinct slots within the case; a well-formed key', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 5000)
    const caseId = await currentCaseId(t.app, seriesId)
    const cases: Array<[Record<string, unknown>, string, string?]> = [
      [{ acknowledged: false }, 'acknowledged'],
      [{ acknowledged: undefined }, 'acknowledged', 'required'],
      [{ slots: undefined }, 'slots'],
      [{ wholeCase: true }, 'slots'],
      [{ slots: undefined, wholeCase: false }, 'wholeCase'],
      [{ slots: [] }, 'slots', 'minItems'],
      [{ slots: [0] }, 'slots.0', 'minimum'],
      [{ slots: [1, '2'] }, 'slots.1', 'type'],
      [{ slots: [3, 4, 3] }, 'slots'],
      [{ slots: [13] }, 'slots'],
      [{ idempotencyKey: 'short' }, 'idempotencyKey', 'pattern'],
      [{ idempotencyKey: 'has space in it' }, 'idempotencyKey', 'pattern'],
      [{ caseId: '1' }, 'caseId', 'type'],
      [{ price: 1 }, 'price', 'additionalProperties']
    ]
    for (const [patch, field, rule] of cases) {
      const body: Record<string, unknown> = { caseId, slots: [1], acknowledged: true, idempotencyKey: newKey(), ...patch }
      for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k]
      const r = await post(t.app, '/api/casePurchase', body, { token: s.token })
      expect({ patch, code: r.body.code, field: r.body.data?.field }).toEqual({ patch, code: 400, field })
      if (rule) expect(r.body.data.rule).toBe(rule)
    }
    expect((await buy(t.app, s, { caseId, slots: [3, 4, 3] })).body.message).toBe('Slot 3 appears twice in slots')
    expect((await buy(t.app, s, { caseId, slots: [13] })).body.message).toBe('Slot 13 in slots does not exist (this case has 12 slots)')
    expect((await balance(s)).cashCents).toBe(5000)
  })

  test('buying slots: credit first, then cash; prizes with their full design; slots shown sold; ledger lines signed', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 5000)
    await grantCredit(s.id, 1500)
    const caseId = await currentCaseId(t.app, seriesId)
    const before = await soldSlots(caseId)
    const free = Array.from({ length: 12 }, (_, i) => i + 1).filter(n => !before!.includes(n)).slice(0, 2)
    const r = await buy(t.app, s, { caseId, slots: free })
    expect(r.body.code).toBe(200)
    const result = r.body.data
    expect(result).toMatchObject({ caseId, seriesId, totalCents: 2000, spentCreditCents: 1500, spentCashCents: 500, balance: { cashCents: 4500, creditCents: 0 } })
    expect(result.prizes.map((p: { slot: number }) => p.slot)).toEqual(free)
    for (const p of result.prizes) {
      expect(p.design).toEqual({
        id: expect.any(Number), name: { zh: expect.any(String), en: expect.any(String) }, image: expect.any(String),
        rarity: expect.stringMatching(/^(regular|rare|hidden)$/), referenceValueCents: expect.any(Number), recycleValueCents: expect.any(Number), oddsPpm: expect.any(Number)
      })
    }
    expect(await soldSlots(caseId)).toEqual([...before!, ...free].sort((a, b) => a - b))
    const ledger = (await post(t.app, '/api/walletLedger', { page: 1, size: 10 }, { token: s.token })).body.data.list
    expect(ledger.slice(0, 2).map((e: { kind: string; account: string; amountCents: number; reference: string }) => [e.kind, e.account, e.amountCents, e.reference])).toEqual([
      ['purchase', 'cash', -500, `case ${caseId} slots ${free.join(',')}`],
      ['purchase', 'credit', -1500, `case ${caseId} slots ${free.join(',')}`]
    ])
    expect(ledger[0].txId).toBe(ledger[1].txId)
    // a second purchase is paid from cash alone
    const more = await buy(t.app, s, { caseId, slots: [Array.from({ length: 12 }, (_, i) => i + 1).find(n => ![...before!, ...free].includes(n))!] })
    expect(more.body.data).toMatchObject({ spentCreditCents: 0, spentCashCents: 1000, balance: { cashCents: 3500, creditCents: 0 } })
  })

  test('purchaseDetail: the buyer reads a purchase again as it was answered (prizes in slot order, even recycled since); nobody else can', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 5000)
    const caseId = await currentCaseId(t.app, seriesId)
    const sold = await soldSlots(caseId)
    const slots = Array.from({ length: 12 }, (_, i) => i + 1).filter(n => !sold!.includes(n)).slice(0, 2).reverse()
    const bought = (await buy(t.app, s, { caseId, slots })).body.data
    const r = await post(t.app, '/api/purchaseDetail', { purchaseId: bought.purchaseId }, { token: s.token })
    expect(r.body.code).toBe(200)
    const { balance, xrayCardsEarned, ...answered } = bought
    void balance; void xrayCardsEarned
    expect(r.body.data).toEqual({ ...answered, createdAt: expect.any(String) })
    expect(r.body.data.prizes.map((p: { slot: number }) => p.slot)).toEqual([...slots].sort((a, b) => a - b))
    // a prize recycled since still shows as drawn
    const recycled = await post(t.app, '/api/prizeRecycle', { prizeIds: [bought.prizes[0].prizeId], idempotencyKey: `view-recycle-${bought.purchaseId}` }, { token: s.token })
    expect(recycled.body.code).toBe(200)
    expect((await post(t.app, '/api/purchaseDetail', { purchaseId: bought.purchaseId }, { token: s.token })).body.data.prizes).toEqual(answered.prizes)
    // another shopper, no session, an id that does not exist, a bad id
    const other = await makeShopper(t.app, t.db, t.clock)
    expect((await post(t.app, '/api/purchaseDetail', { purchaseId: bought.purchaseId }, { token: other.token, lang: 'zh' })).body).toMatchObject({ code: 404, message: '没有这笔购买记录', data: null })
    expect((await post(t.app, '/api/purchaseDetail', { purchaseId: bought.purchaseId })).body.code).toBe(401)
    expect((await post(t.app, '/api/purchaseDetail', { purchaseId: 999999 }, { token: s.token })).body).toMatchObject({ code: 404, message: 'No such purchase' })
    for (const bad of [{ purchaseId: 'x' }, { purchaseId: 0 }, {}, { purchaseId: 1, extra: 1 }]) {
      expect((await post(t.app, '/api/purchaseDetail', bad, { token: s.token })).body).toMatchObject({ code: 400, data: { field: expect.any(String) } })
    }
  })

  test('422 when the balance does not cover it, with the shortfall; nothing is sold or charged', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 1500)
    await grantCredit(s.id, 200)
    const fresh = await makeSeries(t.db, t.clock, { priceCents: 1000 })
    const caseId = await currentCaseId(t.app, fresh)
    const r = await buy(t.app, s, { caseId, slots: [1, 2] })
    expect(r.body).toEqual({ code: 422, message: 'Insufficient balance: ¥3.00 short', data: { reason: 'insufficient_balance', shortfallCents: 300, totalCents: 2000 } })
    expect((await buy(t.app, s, { caseId, slots: [1, 2] }, 'zh')).body.message).toBe('余额不足，还差 ¥3.00')
    expect(await balance(s)).toEqual({ cashCents: 1500, creditCents: 200 })
    expect(await soldSlots(caseId)).toEqual([])
    expect((await post(t.app, '/api/prizeList', { page: 1, size: 10 }, { token: s.token })).body.data.total).toBe(0)
  })

  test('409 names the slot already sold, and the whole purchase is undone; sold-out cases and unknown cases', async () => {
    const fresh = await makeSeries(t.db, t.clock, { priceCents: 1000 })
    const caseId = await currentCaseId(t.app, fresh)
    const alice = await makeShopper(t.app, t.db, t.clock)
    const bob = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, alice, 20000)
    await topUp(t.app, bob, 20000)
    expect((await buy(t.app, alice, { caseId, slots: [1, 2] })).body.code).toBe(200)
    const taken = await buy(t.app, bob, { caseId, slots: [4, 2] })
    expect(taken.body).toEqual({ code: 409, message: 'Slot 2 already sold', data: { field: 'slots', slot: 2 } })
    expect((await buy(t.app, bob, { caseId, slots: [2] }, 'zh')).body.message).toBe('2 号盒已被买走')
    expect(await soldSlots(caseId)).toEqual([1, 2])
    expect((await balance(bob)).cashCents).toBe(20000)
    const rest = await buy(t.app, bob, { caseId, wholeCase: true })
    expect(rest.body.data.prizes.map((p: { slot: number }) => p.slot)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    expect((await buy(t.app, alice, { caseId, slots: [3] })).body).toMatchObject({ code: 409, message: 'This case is sold out or retired; switch to another case' })
    expect((await buy(t.app, alice, { caseId, wholeCase: true })).body.code).toBe(409)
    expect((await buy(t.app, alice, { caseId: 999999, slots: [1] })).body).toMatchObject({ code: 404, message: 'No such case' })
  })

  test('wholeCase: every unsold slot; the case sells out, is revealed, and a new case opens', async () => {
    const fresh = await makeSeries(t.db, t.clock, { priceCents: 1500 })
    const caseId = await currentCaseId(t.app, fresh)
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 30000)
    await buy(t.app, s, { caseId, slots: [5] })
    const whole = await buy(t.app, s, { caseId, wholeCase: true })
    expect(whole.body.data).toMatchObject({ totalCents: 11 * 1500, balance: { cashCents: 30000 - 12 * 1500 } })
    const proof = (await post(t.app, '/api/caseProof', { caseId })).body.data
    expect(proof).toMatchObject({ status: 'sold_out', revealed: true })
    expect(createHash('sha256').update(`${caseId}:${proof.arrangement.join(',')}:${proof.salt}`).digest('hex')).toBe(proof.commit)
    // a whole case is a full set of the regular and rare designs (one regular maybe swapped for the hidden)
    const got = whole.body.data.prizes.map((p: { design: { id: number } }) => p.design.id)
    expect(new Set(got).size).toBe(11)
    const next = await post(t.app, '/api/caseCurrent', { seriesId: fresh })
    expect(next.body.data.caseId).not.toBe(caseId)
    expect(next.body.data.slots.every((x: { sold: boolean }) => !x.sold)).toBe(true)
  })

  test('after an operator change the purchase answers the new designs and odds (no stale cache)', async () => {
    const fresh = await makeSeries(t.db, t.clock, { priceCents: 1000, regular: 3, rare: 0, hidden: false })
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 20000)
    const first = await buy(t.app, s, { caseId: await currentCaseId(t.app, fresh), wholeCase: true })
    expect(first.body.data.prizes.map((p: { design: { oddsPpm: number } }) => p.design.oddsPpm)).toEqual([333333, 333333, 333333])
    const added = await addDesign(t.db, t.clock.now, fresh, { name: { zh: '新', en: 'New' }, image: null, rarity: 'rare', referenceValueCents: 1, recycleValueCents: 1, stock: 10 })
    await updateSeries(t.db, t.clock.now, fresh, { priceCents: 1100 })
    const second = await buy(t.app, s, { caseId: await currentCaseId(t.app, fresh), wholeCase: true })
    expect(second.body.data.totalCents).toBe(4 * 1100)
    const designs = second.body.data.prizes.map((p: { design: { id: number; oddsPpm: number; name: { en: string } } }) => p.design)
    expect(designs.find((d: { id: number }) => d.id === added)).toMatchObject({ name: { en: 'New' }, oddsPpm: 250000 })
    expect(designs.every((d: { oddsPpm: number }) => d.oddsPpm === 250000)).toBe(true)
  })

  test('the slot race: two shoppers, one slot, in parallel: exactly one wins, the other gets 409 naming it', async () => {
    const fresh = await makeSeries(t.db, t.clock, { priceCents: 1000 })
    const alice = await makeShopper(t.app, t.db, t.clock)
    const bob = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, alice, 20000)
    await topUp(t.app, bob, 20000)
    const caseId = await currentCaseId(t.app, fresh)
    let aliceWins = 0
    for (let slot = 1; slot <= 10; slot++) {
      const [a, b] = await Promise.all([buy(t.app, alice, { caseId, slots: [slot] }), buy(t.app, bob, { caseId, slots: [slot] })])
      const codes = [a.body.code, b.body.code].sort()
      expect(codes).toEqual([200, 409])
      const loser = a.body.code === 409 ? a : b
      expect(loser.body).toEqual({ code: 409, message: `Slot ${slot} already sold`, data: { field: 'slots', slot } })
      if (a.body.code === 200) aliceWins++
    }
    const spent = (20000 - (await balance(alice)).cashCents) + (20000 - (await balance(bob)).cashCents)
    expect(spent).toBe(10 * 1000)
    expect((20000 - (await balance(alice)).cashCents) / 1000).toBe(aliceWins)
    const owners = await t.db.selectFrom('prizes').select(['slot']).where('case_id', '=', caseId).execute()
    expect(owners.map(o => o.slot).sort((x, y) => Number(x) - Number(y))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
  })

  test('idempotency: a replay answers the first result and charges once; the key with another body is a 409; concurrent replays charge once', async () => {
    const fresh = await makeSeries(t.db, t.clock, { regular: 40, rare: 0, hidden: false, priceCents: 1000 })
    const caseId = await currentCaseId(t.app, fresh)
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 20000)
    const body = { caseId, slots: [1, 2], acknowledged: true, idempotencyKey: newKey('replay') }
    const first = await post(t.app, '/api/casePurchase', body, { token: s.token })
    expect(first.body.code).toBe(200)
    const replay = await post(t.app, '/api/casePurchase', body, { token: s.token })
    expect(replay.body).toEqual(first.body)
    expect((await balance(s)).cashCents).toBe(18000)
    const other = await post(t.app, '/api/casePurchase', { ...body, slots: [3] }, { token: s.token })
    expect(other.body).toEqual({ code: 409, message: 'idempotencyKey was already used for a different request', data: { field: 'idempotencyKey' } })
    // keys are per user: another user may use the same key
    const u = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, u, 5000)
    expect((await post(t.app, '/api/casePurchase', { ...body, slots: [3] }, { token: u.token })).body.code).toBe(200)
    // a failed request stores nothing: the key can be used again once it can succeed
    const poor = await makeShopper(t.app, t.db, t.clock)
    const key = newKey('retry')
    expect((await post(t.app, '/api/casePurchase', { caseId, slots: [4], acknowledged: true, idempotencyKey: key }, { token: poor.token })).body.code).toBe(422)
    await topUp(t.app, poor, 1000)
    expect((await post(t.app, '/api/casePurchase', { caseId, slots: [4], acknowledged: true, idempotencyKey: key }, { token: poor.token })).body.code).toBe(200)
    // the same request sent 10 times at once: charged once, every answer the same
    const concurrent = { caseId, slots: [5, 6, 7], acknowledged: true, idempotencyKey: newKey('burst') }
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(t.app, '/api/casePurchase', concurrent, { token: s.token })))
    expect(answers.map(a => a.body.code)).toEqual(new Array(10).fill(200))
    for (const a of answers) expect(a.body.data).toEqual(answers[0].body.data)
    expect((await balance(s)).cashCents).toBe(18000 - 3000)
    const purchases = await t.db.selectFrom('purchases').select('id').where('user_id', '=', s.id).execute()
    expect(purchases).toHaveLength(2)
  })

  test('50 parallel purchases on one wallet that affords 10 (50 different cases): never overdrawn, money and prizes add up', async () => {
    const fresh = await makeSeries(t.db, t.clock, { priceCents: 1000 })
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 10500)
    const caseIds: number[] = []
    for (let i = 0; i < 50; i++) caseIds.push((await t.db.transaction().execute(trx => createCase(trx, t.clock.now, fresh)))!)
    const results = await Promise.all(caseIds.map(caseId => buy(t.app, s, { caseId, slots: [1] })))
    const ok = results.filter(r => r.body.code === 200)
    const refused = results.filter(r => r.body.code !== 200)
    expect(ok).toHaveLength(10)
    for (const r of refused) expect(r.body).toMatchObject({ code: 422, data: { reason: 'insufficient_balance' } })
    const after = await balance(s)
    expect(after).toEqual({ cashCents: 500, creditCents: 0 })
    const spent = ok.reduce((sum, r) => sum + r.body.data.totalCents, 0)
    expect(after.cashCents + spent).toBe(10500)
    const prizes = await t.db.selectFrom('prizes').select('id').where('user_id', '=', s.id).execute()
    expect(prizes).toHaveLength(ok.length)
  })

  test('50 parallel purchases of distinct slots of one case, on one wallet that affords 10', async () => {
    const fresh = await makeSeries(t.db, t.clock, { regular: 60, rare: 0, hidden: false, priceCents: 1000 })
    const caseId = await currentCaseId(t.app, fresh)
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 10000)
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => buy(t.app, s, { caseId, slots: [i + 1] })))
    const ok = results.filter(r => r.body.code === 200)
    expect(ok).toHaveLength(10)
    expect(results.filter(r => r.body.code === 422)).toHaveLength(40)
    expect(await balance(s)).toEqual({ cashCents: 0, creditCents: 0 })
    const sold = await t.db.selectFrom('case_slots').select('slot').where('case_id', '=', caseId).where('sold_to', 'is not', null).execute()
    expect(sold).toHaveLength(10)
  })

  test('many shoppers race for the last slots of cases: every case sells out once, revealed, and one case stays on sale', async () => {
    const fresh = await makeSeries(t.db, t.clock, { regular: 3, rare: 0, hidden: false, priceCents: 1000 })
    const shoppers = await Promise.all(Array.from({ length: 6 }, () => makeShopper(t.app, t.db, t.clock)))
    for (const s of shoppers) await topUp(t.app, s, 20000)
    for (let i = 0; i < 4; i++) await t.db.transaction().execute(trx => createCase(trx, t.clock.now, fresh))
    const open = await t.db.selectFrom('cases').select('id').where('series_id', '=', fresh).where('status', '=', 'on_sale').execute()
    expect(open).toHaveLength(5)
    // every shopper tries to buy the whole of every case at once
    const attempts = open.flatMap(c => shoppers.map(s => buy(t.app, s, { caseId: Number(c.id), wholeCase: true })))
    const results = await Promise.all(attempts)
    expect(results.filter(r => r.body.code === 200)).toHaveLength(5)
    for (const r of results.filter(r => r.body.code !== 200)) expect(r.body.code).toBe(409)
    const states = await t.db.selectFrom('cases').select(['status', 'revealed_at']).where('series_id', '=', fresh).execute()
    expect(states.filter(c => c.status === 'sold_out' && c.revealed_at)).toHaveLength(5)
    expect(states.filter(c => c.status === 'on_sale').length).toBeGreaterThanOrEqual(1)
    expect(await currentCaseId(t.app, fresh)).toBeGreaterThan(0)
  })

  test('the books: every transaction sums to zero and every wallet equals its ledger lines after the mixed workload', async () => {
    const check = await checkLedger(t.db)
    expect(check.transactions).toBeGreaterThan(50)
    expect(check.unbalanced).toEqual([])
    expect(check.walletMismatches).toEqual([])
    expect(check.totalCents).toBe(0)
    // and the check does notice a broken book
    const tx = await t.db.selectFrom('ledger_transactions').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()
    await t.db.insertInto('ledger_lines').values({ tx_id: Number(tx.id), account: 'house_sales', user_id: null, amount_cents: 1 }).execute()
    expect((await checkLedger(t.db)).unbalanced).toEqual([{ txId: Number(tx.id), sumCents: 1 }])
    await t.db.deleteFrom('ledger_lines').where('tx_id', '=', Number(tx.id)).where('amount_cents', '=', 1).where('account', '=', 'house_sales').execute()
    expect((await checkLedger(t.db)).unbalanced).toEqual([])
  })

  test('balances can never go negative: the database refuses it', async () => {
    const u = await makeUser(t.db, t.clock)
    await t.db.insertInto('wallets').values({ user_id: Number(u.id), cash_cents: 0, credit_cents: 0, updated_at: new Date(t.clock.now()).toISOString() }).execute()
    for (const column of ['cash_cents', 'credit_cents'] as const) {
      let code: unknown
      try {
        await t.db.updateTable('wallets').set({ [column]: -1 }).where('user_id', '=', Number(u.id)).execute()
      } catch (err) {
        code = (err as { code?: unknown }).code
      }
      expect(['SQLITE_CONSTRAINT_CHECK', '23514']).toContain(code)
    }
  })
})

describe.each(testDialects())('prizes and the live feed on %s', (dialect) => {
  let t: TestApp
  let seriesId: number
  let alice: Shopper
  let bob: Shopper
  beforeAll(async () => {
    t = await createTestApp(dialect)
    // every case hidden: the feed has hidden and rare wins
    seriesId = await makeSeries(t.db, t.clock, { priceCents: 1000, hiddenCasePpm: 1_000_000 })
    alice = await makeShopper(t.app, t.db, t.clock)
    bob = await makeShopper(t.app, t.db, t.clock)
    await t.db.updateTable('users').set({ nickname: '小明同学' }).where('id', '=', alice.id).execute()
    await t.db.updateTable('users').set({ nickname: '' }).where('id', '=', bob.id).execute()
    await topUp(t.app, alice, 50000)
    await topUp(t.app, bob, 50000)
  })
  afterAll(async () => { await t.close() })

  test('prizeList: own prizes, newest first, status filter, paging; prizeDetail with the proof of its case', async () => {
    const caseId = await currentCaseId(t.app, seriesId)
    const first = await buy(t.app, alice, { caseId, slots: [1, 2] })
    t.clock.advance(1000)
    const second = await buy(t.app, alice, { caseId, slots: [3] })
    await buy(t.app, bob, { caseId, slots: [4] })
    const list = await post(t.app, '/api/prizeList', { page: 1, size: 10 }, { token: alice.token })
    expect(list.body.data.total).toBe(3)
    const items = list.body.data.list
    expect(items.map((p: { slot: number }) => p.slot)).toEqual([3, 2, 1])
    expect(items[0]).toEqual({
      prizeId: second.body.data.prizes[0].prizeId, status: 'warehouse', origin: 'case', combineId: null, parcelStatus: null, seriesId, seriesTitle: { zh: expect.any(String), en: expect.any(String) },
      caseId, slot: 3, design: second.body.data.prizes[0].design, createdAt: new Date(t.clock.now()).toISOString()
    })
    expect((await post(t.app, '/api/prizeList', { page: 2, size: 2 }, { token: alice.token })).body.data.list.map((p: { slot: number }) => p.slot)).toEqual([1])
    expect((await post(t.app, '/api/prizeList', { page: 1, size: 10, status: 'shipping' }, { token: alice.token })).body.data).toEqual({ list: [], total: 0 })
    expect((await post(t.app, '/api/prizeList', { page: 1, size: 10, status: 'lost' }, { token: alice.token })).body).toMatchObject({ code: 400, data: { field: 'status' } })
    expect((await post(t.app, '/api/prizeList', { page: 1, size: 10 })).body.code).toBe(401)
    const prizeId = first.body.data.prizes[0].prizeId
    const detail = await post(t.app, '/api/prizeDetail', { prizeId }, { token: alice.token })
    expect(detail.body.data).toMatchObject({ prizeId, caseId, slot: 1, proof: { caseId, revealed: false, commit: expect.any(String) } })
    expect(detail.body.data.proof.arrangement).toBeUndefined()
    expect((await post(t.app, '/api/prizeDetail', { prizeId }, { token: bob.token })).body).toMatchObject({ code: 404, message: 'No such prize' })
    // once the case is sold out, the proof reveals it, and the prize's design is in its slot
    await buy(t.app, bob, { caseId, wholeCase: true })
    const revealed = (await post(t.app, '/api/prizeDetail', { prizeId }, { token: alice.token })).body.data
    expect(revealed.proof.revealed).toBe(true)
    expect(revealed.proof.arrangement[0]).toBe(revealed.design.id)
  })

  test('liveFeed: real rare and hidden wins only, newest first, names masked; limit at most 50', async () => {
    const r = await post(t.app, '/api/liveFeed', {})
    expect(r.body.code).toBe(200)
    const feed = r.body.data
    expect(feed.length).toBeGreaterThan(0)
    for (const item of feed) {
      expect(['rare', 'hidden']).toContain(item.design.rarity)
      expect(Object.keys(item).sort()).toEqual(['at', 'design', 'id', 'maskedName', 'seriesId', 'seriesTitle'])
      expect(Object.keys(item.design).sort()).toEqual(['image', 'name', 'rarity'])
    }
    const ids = feed.map((f: { id: number }) => f.id)
    expect([...ids].sort((a, b) => b - a)).toEqual(ids)
    const rows = await t.db.selectFrom('prizes').innerJoin('designs', 'designs.id', 'prizes.design_id')
      .select(['prizes.id', 'prizes.user_id']).where('designs.rarity', 'in', ['rare', 'hidden']).execute()
    expect(feed.length).toBe(Math.min(rows.length, 20))
    const names = new Set(feed.map((f: { maskedName: string }) => f.maskedName))
    for (const n of names) expect(['小***学', `${bob.userName[0]}***${bob.userName[bob.userName.length - 1]}`]).toContain(n)
    expect(JSON.stringify(feed)).not.toContain(bob.userName)
    expect((await post(t.app, '/api/liveFeed', { limit: 1 })).body.data).toHaveLength(1)
    expect((await post(t.app, '/api/liveFeed', { limit: 51 })).body).toMatchObject({ code: 400, data: { field: 'limit', rule: 'maximum' } })
  })
})
