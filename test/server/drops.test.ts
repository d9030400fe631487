/**
 * Drops (issue 50 items 2 and 3) on both databases:
 *  - an operator makes a drop: every case made, shuffled and committed at once, exactly the hidden count
 *    asked for, the figures taken from the free stock, a root over the cases' commitments; refusals by
 *    field (the start, the counts, the stock), one drop selling at a time, audited
 *  - before the start nothing can be bought by any route (the case call, a switch, a purchase or its
 *    check naming a case of the drop, a prop); the series page shows the drop and its start
 *  - after the start shoppers racing buy exactly the drop's boxes; then it is sold out everywhere, every
 *    case is revealed, and the proof recomputes (root, each case, the hidden count), while a tampered
 *    proof does not
 *  - a restock is a new drop with a root of its own
 */
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import { buy, makeSeries, makeShopper, topUp, type Shopper } from './support/shop'
import { invariantViolations } from './support/invariants'
import { composeDrop } from '../../server/src/domain/catalogue/drops'
import type { DropProof } from '../../types/drop'
import { dropCheck } from '../../types/dropCheck'

const HOUR = 3_600_000

describe('composeDrop', () => {
  test('exactly the hidden count asked for, each case a full set with one regular replaced when hidden', () => {
    const designs = [
      { id: 1, rarity: 'regular' }, { id: 2, rarity: 'regular' }, { id: 3, rarity: 'regular' }, { id: 4, rarity: 'rare' }, { id: 9, rarity: 'hidden' }
    ]
    for (const [cases, hidden] of [[1, 0], [1, 1], [7, 3], [50, 0], [50, 50], [200, 17]]) {
      const made = composeDrop(designs, cases, hidden)
      expect(made).toHaveLength(cases)
      expect(made.filter(ids => ids.includes(9))).toHaveLength(hidden)
      for (const ids of made) {
        expect(ids).toHaveLength(4)
        expect(ids).toContain(4)
        expect(new Set(ids).size).toBe(4)
        expect(ids.filter(id => id <= 3)).toHaveLength(ids.includes(9) ? 2 : 3)
      }
    }
  })

  test('which cases carry the hidden design is spread over the drop', () => {
    const designs = [{ id: 1, rarity: 'regular' }, { id: 2, rarity: 'regular' }, { id: 9, rarity: 'hidden' }]
    const atPosition = new Array(10).fill(0)
    for (let run = 0; run < 2000; run++) composeDrop(designs, 10, 1).forEach((ids, i) => { if (ids.includes(9)) atPosition[i]++ })
    // 200 expected at each position; a fixed position would give 2000 at one and 0 elsewhere
    for (const n of atPosition) { expect(n).toBeGreaterThan(120); expect(n).toBeLessThan(280) }
  })
})

describe.each(testDialects())('drops on %s', (dialect) => {
  let t: TestApp
  let op: string
  beforeAll(async () => {
    t = await createTestApp(dialect)
    const u = await makeUser(t.db, t.clock, { role: 'operator' })
    op = await loginToken(t.app, u.user_name!, u.password)
  })
  afterEach(async () => { expect(await invariantViolations(t.db)).toEqual([]) })
  afterAll(async () => { await t.close() })

  const as = (token: string | undefined, url: string, body: unknown, lang = 'en') => post(t.app, url, body, { token, lang, ip: nextIp() })
  const iso = (ms: number) => new Date(ms).toISOString()
  const shopper = async (cashCents = 100_000) => {
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, cashCents)
    return s
  }
  const committedOf = async (seriesId: number) => (await t.db.selectFrom('designs').select(['rarity', 'stock', 'committed'])
    .where('series_id', '=', seriesId).orderBy('sort').orderBy('id').execute()).map(d => [d.rarity, Number(d.stock), Number(d.committed)])
  const proofOf = async (dropId: number): Promise<DropProof> => {
    const r = await as(undefined, '/api/dropProof', { dropId })
    expect(r.body.code).toBe(200)
    return r.body.data
  }

  test('an operator makes a drop: refusals by field, every case committed at once, exactly the hidden count, the stock taken', async () => {
    // 3 regular, 1 rare, a hidden one: cases of 4; 10 of each regular and rare, 3 hidden figures
    const seriesId = await makeSeries(t.db, t.clock, { regular: 3, rare: 1, hidden: true, hiddenCasePpm: 200_000, stock: 10 })
    await t.db.updateTable('designs').set({ stock: 3 }).where('series_id', '=', seriesId).where('rarity', '=', 'hidden').execute()
    const onDemand = await t.db.selectFrom('cases').select(['id', 'status']).where('series_id', '=', seriesId).execute()
    expect(onDemand.map(c => c.status)).toEqual(['on_sale'])
    const startsAt = iso(t.clock.now() + HOUR)
    const create = (body: Record<string, unknown>, token: string | undefined = op, lang = 'en') =>
      as(token, '/api/operator/dropCreate', { seriesId, cases: 6, hiddenCases: 2, startsAt, ...body }, lang)

    // who may: operators only, before the body is looked at
    expect((await as(undefined, '/api/operator/dropCreate', { seriesId, cases: 'x' })).body.code).toBe(401)
    const s = await shopper()
    expect((await create({}, s.token)).body.code).toBe(403)
    // by field, in the caller's language
    const invalid = await create({ cases: 0 })
    expect([invalid.body.code, invalid.body.data.field]).toEqual([400, 'cases'])
    const over = await create({ hiddenCases: 7 })
    expect([over.body.code, over.body.data.field]).toEqual([400, 'hiddenCases'])
    const past = await create({ startsAt: iso(t.clock.now() - 2 * HOUR) }, op, 'zh-CN')
    expect([past.body.code, past.body.data.field, past.body.message]).toEqual([400, 'startsAt', '开售时间已经过了：请填现在或以后的时间'])
    const late = await create({ startsAt: iso(t.clock.now() + 91 * 24 * HOUR) })
    expect([late.body.code, late.body.data.field]).toEqual([400, 'startsAt'])
    // the warehouse: 10 of each regular and rare (one a case), 3 hidden
    const short = await create({ cases: 11 })
    expect([short.body.code, short.body.data.field, short.body.data.free, short.body.data.need]).toEqual([422, 'cases', 10, 11])
    expect(short.body.message).toMatch(/has 10 free in the warehouse and this drop needs 11/)
    const hiddenShort = await create({ hiddenCases: 4 })
    expect([hiddenShort.body.code, hiddenShort.body.data.field]).toEqual([422, 'hiddenCases'])
    // nothing changed by any refusal: the case made on demand still on sale, no drop
    expect((await t.db.selectFrom('cases').select('status').where('series_id', '=', seriesId).execute()).map(c => c.status)).toEqual(['on_sale'])
    expect(await t.db.selectFrom('drops').selectAll().where('series_id', '=', seriesId).execute()).toEqual([])

    // the screen counts what the open case made on demand holds as free (a drop retires it first)
    expect((await as(op, '/api/operator/drops', { seriesId })).body.data).toMatchObject({ casesFillable: 10, hiddenFree: 3, hasHidden: true, drops: [] })
    const made = await create({})
    expect(made.body.code).toBe(200)
    const drop = made.body.data
    expect(drop).toMatchObject({ seriesId, status: 'scheduled', startsAt, cases: 6, hiddenCases: 2, boxes: 24, casesLeft: 6, boxesLeft: 24 })
    expect(drop.root).toMatch(/^[0-9a-f]{64}$/)
    // the case made on demand is retired and revealed; six scheduled cases, two of them with the hidden design
    const cases = await t.db.selectFrom('cases').select(['id', 'status', 'drop_id', 'arrangement', 'revealed_at']).where('series_id', '=', seriesId).orderBy('id').execute()
    expect(cases[0]).toMatchObject({ id: onDemand[0].id, status: 'retired' })
    expect(cases[0].revealed_at).not.toBeNull()
    const dropCases = cases.slice(1)
    expect(dropCases.map(c => [c.status, Number(c.drop_id)])).toEqual(new Array(6).fill(['scheduled', drop.dropId]))
    const hiddenId = Number((await t.db.selectFrom('designs').select('id').where('series_id', '=', seriesId).where('rarity', '=', 'hidden').executeTakeFirstOrThrow()).id)
    expect(dropCases.filter(c => (JSON.parse(c.arrangement) as number[]).includes(hiddenId))).toHaveLength(2)
    // every figure of the drop is held: 6 of the rare, 2 hidden, and 6 x 3 - 2 regular over the three
    const after = await committedOf(seriesId)
    expect(after.filter(d => d[0] === 'rare').map(d => d[2])).toEqual([6])
    expect(after.filter(d => d[0] === 'hidden').map(d => d[2])).toEqual([2])
    expect(after.filter(d => d[0] === 'regular').reduce((n, d) => n + Number(d[2]), 0)).toBe(16)
    // audited
    const audit = await t.db.selectFrom('audit_log').select(['action', 'entity_id', 'detail']).where('action', '=', 'drop.create').where('entity_id', '=', seriesId).execute()
    expect(audit).toHaveLength(1)
    expect(JSON.parse(audit[0].detail).after).toMatchObject({ dropId: drop.dropId, cases: 6, hiddenCases: 2, root: drop.root })
    // nothing to open ahead: a drop's cases are all made
    const ahead = await as(op, '/api/operator/casesOpenAhead', { seriesId, count: 5 })
    expect([ahead.body.code, ahead.body.message]).toEqual([422, 'This series sells by drops: every case of a drop is made when the drop is created, so there is nothing to open ahead'])
    // one drop selling at a time
    const again = await create({ cases: 1, hiddenCases: 0 })
    expect([again.body.code, again.body.data.dropId]).toEqual([409, drop.dropId])
    // the operator's screen lists it
    const screen = await as(op, '/api/operator/drops', { seriesId })
    expect(screen.body.data).toMatchObject({ seriesId, hasHidden: true, hiddenFree: 1, casesFillable: 4, drops: [{ dropId: drop.dropId, status: 'scheduled' }] })
  })

  test('before the start nothing can be bought by any route; at the start shoppers race for exactly its boxes; sold out, revealed and provable', async () => {
    const seriesId = await makeSeries(t.db, t.clock, { regular: 3, rare: 1, hidden: true, hiddenCasePpm: 200_000, stock: 20 })
    const startsAt = t.clock.now() + 2 * HOUR
    const made = await as(op, '/api/operator/dropCreate', { seriesId, cases: 4, hiddenCases: 1, startsAt: iso(startsAt) })
    expect(made.body.code).toBe(200)
    const { dropId, root } = made.body.data
    const shoppers: Shopper[] = []
    for (let i = 0; i < 10; i++) shoppers.push(await shopper(50_000))
    const early = shoppers[0]

    // the page: the drop, its start and what is left; not sold out
    const detail = await as(undefined, '/api/seriesDetail', { seriesId })
    expect(detail.body.data).toMatchObject({ soldOut: false, drop: { dropId, status: 'scheduled', cases: 4, hiddenCases: 1, casesLeft: 4, boxesLeft: 16, root } })
    // the case call, logged in or not, and a switch: 409 with the start
    for (const token of [undefined, early.token]) {
      const r = await as(token, '/api/caseCurrent', { seriesId }, 'zh-CN')
      expect([r.body.code, r.body.data.reason, r.body.data.startsAt]).toEqual([409, 'not_started', iso(startsAt)])
      expect(r.body.message).toMatch(/还没开售/)
    }
    expect((await as(early.token, '/api/caseSwitch', { seriesId })).body.data.reason).toBe('not_started')
    // a purchase, its check and a prop naming a case of the drop (its ids are public in the proof)
    const before = await proofOf(dropId)
    expect(before.caseProofs.map(c => [c.status, c.revealed, c.arrangement])).toEqual(new Array(4).fill(['scheduled', false, undefined]))
    const caseId = before.caseProofs[0].caseId
    for (const body of [{ caseId, slots: [1] }, { caseId, wholeCase: true }]) {
      const r = await buy(t.app, early, body)
      expect([r.body.code, r.body.message]).toEqual([409, 'This case is sold out or retired; switch to another case'])
      const check = await as(early.token, '/api/purchaseCheck', body)
      expect(check.body.code).not.toBe(200)
    }
    const prop = await as(early.token, '/api/propUse', { caseId, slot: 1, kind: 'shake', idempotencyKey: `k-${caseId}` })
    expect(prop.body.code).not.toBe(200)
    expect(await t.db.selectFrom('prizes').select('id').where('series_id', '=', seriesId).execute()).toEqual([])
    // the proof before the sale: the root recomputes from the commitments; nothing is revealed yet
    expect(dropCheck(before)).toMatchObject({ rootMatches: true, revealed: false, hiddenCounted: null, holds: true })

    // the start: everyone races, each buying whole cases or single boxes until the drop is gone
    t.clock.advance(2 * HOUR)
    let boxes = 0
    await Promise.all(shoppers.map(async (s, i) => {
      for (let attempt = 0; attempt < 20; attempt++) {
        const current = await post(t.app, '/api/caseCurrent', { seriesId }, { token: s.token })
        if (current.body.code === 409) { expect(current.body.data.reason).toBe('sold_out'); return }
        // anything else is a defect: say what it was, with the server's last error lines
        if (current.body.code !== 200) throw new Error(`caseCurrent: ${JSON.stringify(current.body)}; ${t.logs.filter(l => /"level":(50|60)/.test(l)).slice(-3).join(' | ')}`)
        const free = current.body.data.slots.filter((x: { sold: boolean }) => !x.sold).map((x: { slot: number }) => x.slot)
        if (free.length === 0) {
          // their case sold out under them: the next one (switches are limited a day; being given one is not a switch)
          await post(t.app, '/api/caseSwitch', { seriesId }, { token: s.token })
          continue
        }
        const body = i % 2 ? { caseId: current.body.data.caseId, wholeCase: true } : { caseId: current.body.data.caseId, slots: [free[0]] }
        const r = await buy(t.app, s, body)
        expect([200, 409, 429]).toContain(r.body.code)
        if (r.body.code === 200) boxes += r.body.data.prizes.length
      }
    }))
    // every shopper gave up only at sold out (or a spent switch allowance): the last cases may need a last buyer
    const rest = await t.db.selectFrom('cases').select(['id', 'status']).where('drop_id', '=', dropId).where('status', '=', 'on_sale').execute()
    for (const c of rest) {
      const r = await buy(t.app, shoppers[1], { caseId: Number(c.id), wholeCase: true })
      if (r.body.code === 200) boxes += r.body.data.prizes.length
    }
    expect(boxes).toBe(16)
    expect(await t.db.selectFrom('prizes').select('id').where('series_id', '=', seriesId).execute()).toHaveLength(16)

    // sold out everywhere at once, and no case is made on demand
    const list = await as(undefined, '/api/seriesList', { page: 1, size: 100 })
    expect(list.body.data.list.find((x: { id: number }) => x.id === seriesId).soldOut).toBe(true)
    const afterDetail = await as(undefined, '/api/seriesDetail', { seriesId })
    expect(afterDetail.body.data).toMatchObject({ soldOut: true, drop: { dropId, status: 'sold_out', casesLeft: 0, boxesLeft: 0 } })
    expect((await as(shoppers[2].token, '/api/caseCurrent', { seriesId })).body.data.reason).toBe('sold_out')
    expect(await t.db.selectFrom('cases').select('id').where('series_id', '=', seriesId).where('drop_id', 'is', null).where('status', '=', 'on_sale').execute()).toEqual([])

    // everything revealed: the root, every case and the hidden count recompute
    const proof = await proofOf(dropId)
    expect(dropCheck(proof)).toEqual({ root, rootMatches: true, revealed: true, casesMatching: 4, casesRevealed: 4, hiddenCounted: 1, holds: true })
    // a tampered proof does not hold: a case swapped, a hidden count changed, an arrangement changed
    const swapped = { ...proof, caseProofs: [proof.caseProofs[1], proof.caseProofs[0], ...proof.caseProofs.slice(2)] }
    expect(dropCheck(swapped)).toMatchObject({ rootMatches: false, holds: false })
    expect(dropCheck({ ...proof, hiddenCases: 2 })).toMatchObject({ hiddenCounted: 1, holds: false })
    const edited = { ...proof, caseProofs: proof.caseProofs.map((c, i) => i ? c : { ...c, arrangement: [...c.arrangement!].reverse() }) }
    expect(dropCheck(edited)).toMatchObject({ casesMatching: 3, holds: false })
    expect(dropCheck({ ...proof, caseProofs: proof.caseProofs.slice(1) })).toMatchObject({ rootMatches: false, holds: false })

    // a restock is a new drop, with a root of its own, starting now
    const next = await as(op, '/api/operator/dropCreate', { seriesId, cases: 2, hiddenCases: 0, startsAt: iso(t.clock.now()) })
    expect(next.body.data).toMatchObject({ status: 'on_sale', cases: 2, hiddenCases: 0, casesLeft: 2 })
    expect(next.body.data.root).not.toBe(root)
    expect((await as(shoppers[3].token, '/api/caseCurrent', { seriesId })).body.code).toBe(200)
    expect((await as(undefined, '/api/seriesDetail', { seriesId })).body.data).toMatchObject({ soldOut: false, drop: { dropId: next.body.data.dropId, status: 'on_sale' } })
  })

  test('a drop of a series not on sale, or with no hidden design, is refused; retiring the series ends its drop and frees its figures', async () => {
    const draft = await makeSeries(t.db, t.clock, { regular: 3, rare: 1, hidden: false, status: 'draft', stock: 5 })
    const r = await as(op, '/api/operator/dropCreate', { seriesId: draft, cases: 1, hiddenCases: 0, startsAt: iso(t.clock.now()) })
    expect([r.body.code, r.body.data.field]).toEqual([422, 'seriesId'])
    const plain = await makeSeries(t.db, t.clock, { regular: 3, rare: 1, hidden: false, stock: 5 })
    const noHidden = await as(op, '/api/operator/dropCreate', { seriesId: plain, cases: 2, hiddenCases: 1, startsAt: iso(t.clock.now() + HOUR) })
    expect([noHidden.body.code, noHidden.body.data.field]).toEqual([422, 'hiddenCases'])
    const made = await as(op, '/api/operator/dropCreate', { seriesId: plain, cases: 5, hiddenCases: 0, startsAt: iso(t.clock.now() + HOUR) })
    expect(made.body.code).toBe(200)
    expect((await committedOf(plain)).map(d => d[2])).toEqual([5, 5, 5, 5])
    expect((await as(op, '/api/operator/seriesRetire', { seriesId: plain })).body.code).toBe(200)
    expect((await committedOf(plain)).map(d => d[2])).toEqual([0, 0, 0, 0])
    const proof = await proofOf(made.body.data.dropId)
    expect(proof.status).toBe('ended')
    expect(dropCheck(proof)).toMatchObject({ revealed: true, casesMatching: 5, hiddenCounted: 0, holds: true })
  })

  test('limits per account hold under races: boxes, whole cases, a verified phone, the account\'s age; refusals say what is left', async () => {
    const seriesId = await makeSeries(t.db, t.clock, { regular: 3, rare: 1, hidden: false, stock: 30 })
    const made = await as(op, '/api/operator/dropCreate', { seriesId, cases: 6, hiddenCases: 0, startsAt: iso(t.clock.now()), limits: { boxesPerAccount: 3 } })
    expect(made.body.data.limits).toEqual({ boxesPerAccount: 3, casesPerAccount: null, verifiedPhone: false, accountHoursMin: null })
    const proof = await proofOf(made.body.data.dropId)
    const [a, b] = [await shopper(), await shopper()]
    const caseA = proof.caseProofs[0].caseId
    expect((await buy(t.app, a, { caseId: caseA, slots: [1, 2] })).body.code).toBe(200)
    const over = await buy(t.app, a, { caseId: caseA, slots: [3, 4] }, 'zh-CN')
    expect([over.body.code, over.body.data.rule, over.body.data.left, over.body.message]).toEqual([409, 'boxes', 1, '这次发售每个账号最多买 3 盒，你还能买 1 盒'])
    expect((await as(a.token, '/api/purchaseCheck', { caseId: caseA, slots: [3, 4], acknowledged: true })).body.data.rule).toBe('boxes')
    // a whole case of 4 is over 3 on its own
    expect((await buy(t.app, b, { caseId: proof.caseProofs[1].caseId, wholeCase: true })).body.data.left).toBe(3)
    // eight single boxes at once, over two cases: exactly three are bought
    const caseB = proof.caseProofs[2].caseId
    const caseC = proof.caseProofs[3].caseId
    const raced = await Promise.all([1, 2, 3, 4].flatMap(slot => [buy(t.app, b, { caseId: caseB, slots: [slot] }), buy(t.app, b, { caseId: caseC, slots: [slot] })]))
    expect(raced.filter(r => r.body.code === 200)).toHaveLength(3)
    expect(raced.filter(r => r.body.code !== 200).every(r => r.body.data.rule === 'boxes')).toBe(true)
    const counted = await t.db.selectFrom('drop_buys').select(['user_id', 'boxes']).where('drop_id', '=', made.body.data.dropId).orderBy('user_id').execute()
    expect(counted.map(r => Number(r.boxes))).toEqual([2, 3])
    // a refused purchase (a slot already sold) gives its reservation back
    expect((await buy(t.app, a, { caseId: caseA, slots: [1] })).body.code).toBe(409)
    expect((await buy(t.app, a, { caseId: caseA, slots: [3] })).body.code).toBe(200)

    // whole cases, a verified phone and the account's age
    const other = await makeSeries(t.db, t.clock, { regular: 3, rare: 1, hidden: false, stock: 30 })
    const strict = await as(op, '/api/operator/dropCreate', { seriesId: other, cases: 4, hiddenCases: 0, startsAt: iso(t.clock.now()), limits: { casesPerAccount: 1, verifiedPhone: true, accountHoursMin: 24 } })
    const cases = (await proofOf(strict.body.data.dropId)).caseProofs.map(c => c.caseId)
    const c = await shopper()
    expect((await buy(t.app, c, { caseId: cases[0], wholeCase: true })).body.data.rule).toBe('verified_phone')
    await t.db.updateTable('users').set({ phone: '13800138123' }).where('id', '=', c.id).execute()
    const young = await buy(t.app, c, { caseId: cases[0], wholeCase: true })
    expect([young.body.data.rule, young.body.message]).toEqual(['account_age', 'This drop sells only to accounts at least 24 hours old'])
    t.clock.advance(25 * HOUR)
    expect((await buy(t.app, c, { caseId: cases[0], wholeCase: true })).body.code).toBe(200)
    expect((await buy(t.app, c, { caseId: cases[1], wholeCase: true })).body.data.rule).toBe('cases')
    // single boxes are not cases
    expect((await buy(t.app, c, { caseId: cases[1], slots: [1] })).body.code).toBe(200)
  })
})
