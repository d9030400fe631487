/**
 * A drop's waiting room (issue 50 item 4) on both databases:
 *  - one place per account however many times (or devices) it joins; arrivals before the start and in
 *    the window get no place until the window closes, then are put in order by their lots, which anyone
 *    can recompute from the seed revealed then (its hash was published with the drop); arrival order
 *    counts for nothing
 *  - later arrivals queue in order of arrival, racing ones each get a place of their own
 *  - at most shoppersAtOnce shop at a time (never more than the cases with a box left), for minutesEach: the case call, a purchase and its check and
 *    a prop are refused (409 drop.queue) to anyone not let in, then open when their turn comes; a buyer's
 *    place goes to the next in line, and the buyer may still buy until their time ends
 *  - when the drop sells out, everyone still waiting is told so at once
 *  - held answers (waitMs): a caller there before the order is drawn is answered when it is drawn, with
 *    their place; a caller in line is answered when let in, when every box left comes to be
 *    held by shoppers, when the drop sells out, or at the end of the hold with pollMs 0; the room's turn is taken while they are held; closing the server
 *    answers them at once; asking again at once, a caller let in meanwhile is told so (the row kept from
 *    their last answer is not trusted past the room's frontier)
 */
import { createHmac, createHash } from 'node:crypto'
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import { buy, makeSeries, makeShopper, topUp, type Shopper } from './support/shop'
import { invariantViolations } from './support/invariants'
import { statementsSent } from './support/statements'
import { lookAtRoom } from '../../server/src/domain/catalogue/dropQueue'

const HOUR = 3_600_000

describe.each(testDialects())('drop waiting room on %s', (dialect) => {
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
  const shoppers = async (n: number) => {
    const out: Shopper[] = []
    for (let i = 0; i < n; i++) {
      const s = await makeShopper(t.app, t.db, t.clock)
      await topUp(t.app, s, 100_000)
      out.push(s)
    }
    return out
  }
  const join = async (s: Shopper, dropId: number) => {
    const r = await as(s.token, '/api/dropQueue', { dropId })
    expect(r.body.code).toBe(200)
    return r.body.data
  }
  const makeDrop = async (cases: number, room: Record<string, number> | null, startsIn = HOUR) => {
    const seriesId = await makeSeries(t.db, t.clock, { regular: 3, rare: 1, hidden: false, stock: 50 })
    const r = await as(op, '/api/operator/dropCreate', { seriesId, cases, hiddenCases: 0, startsAt: iso(t.clock.now() + startsIn), ...(room ? { waitingRoom: room } : {}) })
    expect(r.body.code).toBe(200)
    return { seriesId, drop: r.body.data }
  }

  test('one place per account; the window\'s arrivals in the order of their lots; two shop at a time; refused until let in; sold out told to all', async () => {
    const { seriesId, drop } = await makeDrop(3, { windowSeconds: 10, shoppersAtOnce: 2, minutesEach: 1 })
    expect(drop.waitingRoom).toMatchObject({ windowSeconds: 10, shoppersAtOnce: 2, minutesEach: 1 })
    expect(drop.waitingRoom.seedHash).toMatch(/^[0-9a-f]{64}$/)
    const start = Date.parse(drop.startsAt)
    const people = await shoppers(8)

    // before the start: everyone joins (the first twice, as from a second phone) and has no place yet
    for (const s of people) expect(await join(s, drop.dropId)).toMatchObject({ state: 'early', position: null, seed: null, seedHash: drop.waitingRoom.seedHash })
    expect((await join(people[0], drop.dropId)).state).toBe('early')
    expect(await t.db.selectFrom('drop_queue').select('user_id').where('drop_id', '=', drop.dropId).execute()).toHaveLength(8)
    // in the window the sale has started but nobody is let in yet
    t.clock.ms = start + 5000
    const inWindow = await as(people[0].token, '/api/caseCurrent', { seriesId })
    expect([inWindow.body.code, inWindow.body.data.reason]).toEqual([409, 'queue'])
    expect((await join(people[7], drop.dropId)).state).toBe('early')

    // the window closes: the first call draws the order by lots, and lets the first two in
    t.clock.ms = start + 11_000
    const first = await join(people[3], drop.dropId)
    expect(first.seed).toMatch(/^[0-9a-f]{64}$/)
    expect(createHash('sha256').update(first.seed).digest('hex')).toBe(drop.waitingRoom.seedHash)
    const views = []
    for (const s of people) views.push(await join(s, drop.dropId))
    // each lot recomputes from the seed, and the places follow the lots, not the order of arrival
    views.forEach((v, i) => expect(v.lot).toBe(createHmac('sha256', first.seed).update(`${drop.dropId}:${people[i].id}`).digest('hex')))
    const byLot = [...views].sort((a, b) => a.lot < b.lot ? -1 : 1)
    expect(byLot.map(v => v.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    const shopping = views.filter(v => v.state === 'shopping')
    expect(shopping.map(v => v.position).sort()).toEqual([1, 2])
    expect(views.filter(v => v.state === 'waiting').map(v => [v.position, v.ahead])).toEqual(
      views.filter(v => v.state === 'waiting').map(v => [v.position, v.position - 3]))
    for (const v of views.filter(x => x.state === 'waiting')) expect(v.waitSeconds).toBe(Math.ceil((v.ahead + 1) / 2) * 60)

    // a late arrival queues at the back
    const [late] = await shoppers(1)
    expect(await join(late, drop.dropId)).toMatchObject({ state: 'waiting', position: 9, ahead: 6 })

    // those waiting are refused the case, a purchase, its check and a prop; those let in buy
    const proof = (await as(undefined, '/api/dropProof', { dropId: drop.dropId })).body.data
    const caseId = proof.caseProofs[0].caseId
    const waiter = people[views.findIndex(v => v.position === 3)]
    for (const [url, body] of [
      ['/api/caseCurrent', { seriesId }], ['/api/caseSwitch', { seriesId }],
      ['/api/purchaseCheck', { caseId, slots: [1], acknowledged: true }],
      ['/api/propUse', { caseId, slot: 1, kind: 'shake', idempotencyKey: 'queue-prop-1' }]
    ] as const) {
      const r = await as(waiter.token, url, body, 'zh-CN')
      expect([url, r.body.code, r.body.data?.reason]).toEqual([url, 409, 'queue'])
      expect(r.body.message).toMatch(/正在排队/)
    }
    expect((await buy(t.app, waiter, { caseId, slots: [1] })).body.data.reason).toBe('queue')
    const inside = people[views.findIndex(v => v.position === 1)]
    const current = await as(inside.token, '/api/caseCurrent', { seriesId })
    expect(current.body.code).toBe(200)
    expect((await buy(t.app, inside, { caseId: current.body.data.caseId, wholeCase: true })).body.code).toBe(200)
    // a buyer's place goes to the next in line at once; the buyer keeps their time to buy more
    t.clock.ms = start + 12_000
    expect(await join(waiter, drop.dropId)).toMatchObject({ state: 'shopping', position: 3 })
    expect(await t.db.selectFrom('drop_queue').select('position').where('drop_id', '=', drop.dropId).where('state', '=', 'shopping').execute()).toHaveLength(2)
    expect((await join(inside, drop.dropId)).state).toBe('shopping')
    expect((await as(inside.token, '/api/caseCurrent', { seriesId })).body.code).toBe(200)

    // a minute on, the times of 2 and 3 are up (the buyer's too): the next two are let in (once a second
    // at most, for the whole drop)
    t.clock.ms = start + 11_000 + 61_000
    const next = await join(people[views.findIndex(v => v.position === 4)], drop.dropId)
    expect(next.state).toBe('shopping')
    expect((await join(inside, drop.dropId)).state).toBe('waiting')
    const nowShopping = await t.db.selectFrom('drop_queue').select('position').where('drop_id', '=', drop.dropId).where('state', '=', 'shopping').execute()
    expect(nowShopping.map(r => r.position).sort()).toEqual([4, 5])

    // the two let in buy the rest: everyone still waiting is told it is sold out
    for (const pos of [4, 5]) {
      const s = people[views.findIndex(v => v.position === pos)]
      const c = await as(s.token, '/api/caseCurrent', { seriesId })
      if (c.body.code === 200 && c.body.data.slots.some((x: { sold: boolean }) => !x.sold)) expect((await buy(t.app, s, { caseId: c.body.data.caseId, wholeCase: true })).body.code).toBe(200)
    }
    const rest = await t.db.selectFrom('cases').select('id').where('drop_id', '=', drop.dropId).where('status', '=', 'on_sale').execute()
    const finisher = people[views.findIndex(v => v.position === 4)]
    for (const c of rest) expect((await buy(t.app, finisher, { caseId: Number(c.id), wholeCase: true })).body.code).toBe(200)
    for (const s of [late, people[views.findIndex(v => v.position === 8)]]) {
      expect(await join(s, drop.dropId)).toMatchObject({ state: 'sold_out', boxesLeft: 0 })
      // and the case call says sold out, not "in the queue"
      expect((await as(s.token, '/api/caseCurrent', { seriesId })).body.data.reason).toBe('sold_out')
    }
  })

  test('held answers: at the end of the hold, at once when let in, when every box left is held and when sold out; the turn taken while nobody asks', async () => {
    const { seriesId, drop } = await makeDrop(1, { windowSeconds: 0, shoppersAtOnce: 1, minutesEach: 1 })
    const start = Date.parse(drop.startsAt)
    t.clock.ms = start + 1000
    const [a, b, c] = await shoppers(3)
    for (const s of [a, b, c]) await join(s, drop.dropId)
    expect((await join(a, drop.dropId)).state).toBe('shopping')
    const held = (s: Shopper, waitMs: number) => {
      const asked = Date.now()
      return as(s.token, '/api/dropQueue', { dropId: drop.dropId, waitMs }).then(r => {
        expect(r.body.code).toBe(200)
        return { view: r.body.data, ms: Date.now() - asked }
      })
    }
    // nothing changes for b: answered at the end of the hold, still in line, asked to ask again at once
    const quiet = await held(b, 600)
    expect(quiet.view).toMatchObject({ state: 'waiting', position: 2, ahead: 0, pollMs: 0 })
    expect(quiet.ms).toBeGreaterThanOrEqual(280)
    // shopping (or not yet in line) is never held
    expect((await held(a, 10_000)).view.state).toBe('shopping')
    // b and c wait, held; a buys all boxes but one, and the room's next turn (a second on) lets b in: b
    // is answered without asking again; c is told at once that the one box left is held by a shopper
    const bHeld = held(b, 15_000)
    const cHeld = held(c, 15_000)
    const shown = (await as(a.token, '/api/caseCurrent', { seriesId })).body.data
    const caseId = shown.caseId
    const slots = shown.slots.map((x: { slot: number }) => x.slot)
    expect((await buy(t.app, a, { caseId, slots: slots.slice(0, -1) })).body.code).toBe(200)
    t.clock.ms = start + 2500
    const letIn = await bHeld
    expect(letIn.view).toMatchObject({ state: 'shopping', position: 2 })
    expect(letIn.ms).toBeLessThan(10_000)
    const held1 = await cHeld
    expect(held1.view).toMatchObject({ state: 'waiting', allHeld: true, boxesLeft: 1 })
    expect(held1.view.pollMs).toBeGreaterThanOrEqual(250)
    expect(held1.ms).toBeLessThan(10_000)
    // asking again, c is held (nothing changed), until b buys the last box: told it is sold out at once
    const cAgain = held(c, 15_000)
    await new Promise(resolve => setTimeout(resolve, 700))
    expect((await buy(t.app, b, { caseId, slots: slots.slice(-1) })).body.code).toBe(200)
    const told = await cAgain
    expect(told.view).toMatchObject({ state: 'sold_out', boxesLeft: 0 })
    expect(told.ms).toBeGreaterThanOrEqual(650)
    expect(told.ms).toBeLessThan(10_000)
  })

  test('asking again at once after a held answer: the row kept from that answer is not taken once the room has let them in', async () => {
    const { seriesId, drop } = await makeDrop(1, { windowSeconds: 0, shoppersAtOnce: 1, minutesEach: 1 })
    t.clock.ms = Date.parse(drop.startsAt) + 1000
    const [a, b] = await shoppers(2)
    for (const s of [a, b]) await join(s, drop.dropId)
    expect((await join(a, drop.dropId)).state).toBe('shopping')
    const heldB = async () => {
      const r = await as(b.token, '/api/dropQueue', { dropId: drop.dropId, waitMs: 400 })
      expect(r.body.code).toBe(200)
      return r.body.data
    }
    // held to the end: still in line, ask again at once (their row is kept for that ask)
    expect(await heldB()).toMatchObject({ state: 'waiting', position: 2, ahead: 0, pollMs: 0 })
    expect(await heldB()).toMatchObject({ state: 'waiting', position: 2, ahead: 0, pollMs: 0 })
    // a buys, and their place goes to b at once: b's next ask says so (the kept row said 'waiting')
    const shown = (await as(a.token, '/api/caseCurrent', { seriesId })).body.data
    expect((await buy(t.app, a, { caseId: shown.caseId, slots: [shown.slots[0].slot] })).body.code).toBe(200)
    expect(await heldB()).toMatchObject({ state: 'shopping', position: 2 })
  })

  test('early: asked to ask again at once (held until the draw); a held ask by a caller given a place they were not told is answered at once; with it, held', async () => {
    const { drop } = await makeDrop(1, { windowSeconds: 5, shoppersAtOnce: 1, minutesEach: 1 })
    const start = Date.parse(drop.startsAt)
    t.clock.ms = start - 1000
    const people = await shoppers(2)
    const early = []
    for (const s of people) early.push(await join(s, drop.dropId))
    expect(early.map(v => v.state)).toEqual(['early', 'early'])
    // no place yet: the next ask is held (told at the draw), so it comes at once
    for (const v of early) expect(v).toMatchObject({ position: null, pollMs: 0 })
    // an early caller's held ask ends at its time when nothing is drawn: still early, ask again at once
    const asked0 = Date.now()
    const still = await as(people[0].token, '/api/dropQueue', { dropId: drop.dropId, waitMs: 600, seenPosition: null })
    expect(still.body.data).toMatchObject({ state: 'early', position: null, pollMs: 0 })
    expect(Date.now() - asked0).toBeGreaterThanOrEqual(400)
    // the window closes while nobody is held; each asks held, last told no place (early)
    t.clock.ms = start + 6000
    const views = []
    for (const s of people) {
      const asked = Date.now()
      const r = await as(s.token, '/api/dropQueue', { dropId: drop.dropId, waitMs: 20_000, seenPosition: null })
      expect(r.body.code).toBe(200)
      expect(Date.now() - asked).toBeLessThan(5_000)
      views.push(r.body.data)
    }
    expect(views.map(v => v.position).sort()).toEqual([1, 2])
    const i = views.findIndex(v => v.state === 'waiting')
    expect(views[i]).toMatchObject({ position: 2, pollMs: 0 })
    // told their place, they are held with it: answered at the end of the hold
    const asked = Date.now()
    const again = await as(people[i].token, '/api/dropQueue', { dropId: drop.dropId, waitMs: 600, seenPosition: 2 })
    expect(again.body.data).toMatchObject({ state: 'waiting', position: 2, pollMs: 0 })
    expect(Date.now() - asked).toBeGreaterThanOrEqual(400)
    // a place given must be a place: 0 is refused, and nothing changes
    const bad = await as(people[i].token, '/api/dropQueue', { dropId: drop.dropId, waitMs: 600, seenPosition: 0 })
    expect(bad.body.code).toBe(400)
    expect(bad.body.data.field).toBe('seenPosition')
  })

  test('held before the order is drawn: given their place when it is drawn, without asking again', async () => {
    const { drop } = await makeDrop(1, { windowSeconds: 5, shoppersAtOnce: 1, minutesEach: 1 })
    const start = Date.parse(drop.startsAt)
    t.clock.ms = start - 1000
    const people = await shoppers(3)
    for (const s of people) expect((await join(s, drop.dropId)).state).toBe('early')
    const asked = Date.now()
    const answeredAt: number[] = []
    const held = people.map(s => as(s.token, '/api/dropQueue', { dropId: drop.dropId, waitMs: 15_000 }).then(r => { answeredAt.push(Date.now()); return r }))
    await new Promise(resolve => setTimeout(resolve, 300))
    // the window closes; nobody asks: the room's tick draws the order and answers them
    t.clock.ms = start + 6000
    const views = (await Promise.all(held)).map(r => r.body.data)
    expect(Date.now() - asked).toBeLessThan(10_000)
    expect(views.map(v => v.position).sort()).toEqual([1, 2, 3])
    expect(views.filter(v => v.state === 'shopping')).toHaveLength(1)
    expect(views.every(v => /^[0-9a-f]{64}$/.test(v.seed))).toBe(true)
    // told together (spread over a second before: the back of a crowd learned its place seconds late),
    // and those still in line ask again front first
    expect(Math.max(...answeredAt) - Math.min(...answeredAt)).toBeLessThan(300)
    const waiting = views.filter(v => v.state === 'waiting').sort((a, b) => a.position - b.position)
    expect(waiting).toHaveLength(2)
    expect(waiting[0].pollMs).toBeLessThanOrEqual(waiting[1].pollMs)
  })

  test('never more shopping at once than cases with a box left', async () => {
    const { seriesId, drop } = await makeDrop(2, { windowSeconds: 0, shoppersAtOnce: 5, minutesEach: 5 })
    const start = Date.parse(drop.startsAt)
    const people = await shoppers(4)
    for (const s of people) await join(s, drop.dropId)
    // the order drawn: five places in the room, but two cases, so two let in
    t.clock.ms = start + 1000
    const views: Array<{ position: number; state: string }> = []
    for (const s of people) views.push(await join(s, drop.dropId))
    expect(views.map(v => [v.position, v.state]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([[1, 'shopping'], [2, 'shopping'], [3, 'waiting'], [4, 'waiting']])
    // each of the two is shown a case of their own
    const inside = people.filter((_, i) => views[i].state === 'shopping')
    const shown = await Promise.all(inside.map(s => as(s.token, '/api/caseCurrent', { seriesId })))
    expect(new Set(shown.map(r => r.body.data.caseId)).size).toBe(2)
    // one case bought whole: one case left, and still one shopping, so nobody more is let in
    expect((await buy(t.app, inside[0], { caseId: shown[0].body.data.caseId, wholeCase: true })).body.code).toBe(200)
    t.clock.ms = start + 3000
    const next = people.find((_, i) => views[i].position === 3)!
    expect((await join(next, drop.dropId)).state).toBe('waiting')
  })

  test('purchases at once each give their place on at once', async () => {
    const { seriesId, drop } = await makeDrop(8, { windowSeconds: 0, shoppersAtOnce: 4, minutesEach: 5 })
    const start = Date.parse(drop.startsAt)
    const people = await shoppers(8)
    for (const s of people) await join(s, drop.dropId)
    t.clock.ms = start + 1000
    const views: Array<{ position: number; state: string }> = []
    for (const s of people) views.push(await join(s, drop.dropId))
    const inside = people.filter((_, i) => views[i].state === 'shopping')
    expect(inside).toHaveLength(4)
    const cases = await Promise.all(inside.map(s => as(s.token, '/api/caseCurrent', { seriesId })))
    // the four buy together, within the room's second: no turn is due, each purchase takes its own
    const bought = await Promise.all(inside.map((s, i) => buy(t.app, s, { caseId: cases[i].body.data.caseId, slots: [1] })))
    expect(bought.map(r => r.body.code)).toEqual([200, 200, 200, 200])
    const rows = await t.db.selectFrom('drop_queue').select(['position', 'state']).where('drop_id', '=', drop.dropId).orderBy('position').execute()
    expect(rows.map(r => r.state)).toEqual(['left', 'left', 'left', 'left', 'shopping', 'shopping', 'shopping', 'shopping'])
  })

  test('before the draw an arrival joins and has its row in one statement; its held ask then reads and writes no row', async () => {
    const { drop } = await makeDrop(2, { windowSeconds: 10, shoppersAtOnce: 5, minutesEach: 5 })
    const [first, s] = await shoppers(2)
    // the room looked at (kept for a moment): what follows is the arrival's own cost
    await join(first, drop.dropId)
    // a caller's row (the room's own looks count those shopping)
    const rowStatements = (texts: string[]) => texts.filter(q => /"drop_queue"/.test(q) && !/count\(\*\)/.test(q))
    const joined = await statementsSent(async () => expect((await join(s, drop.dropId)).state).toBe('early'))
    const held = await statementsSent(async () => {
      const r = await as(s.token, '/api/dropQueue', { dropId: drop.dropId, waitMs: 400 })
      expect([r.body.code, r.body.data.state, r.body.data.position]).toEqual([200, 'early', null])
    })
    expect(await t.db.selectFrom('drop_queue').select('user_id').where('drop_id', '=', drop.dropId).where('user_id', '=', s.id).execute()).toHaveLength(1)
    // (PostgreSQL: the statements are seen; SQLite is called in the process)
    if (dialect !== 'postgres') return
    expect(rowStatements(joined)).toHaveLength(1)
    expect(rowStatements(joined)[0]).toMatch(/^insert into "drop_queue"/)
    expect(rowStatements(held)).toEqual([])
  })

  test('asks that find the room\'s look stale while it is being read wait for that read instead of each reading the room', async () => {
    const { drop } = await makeDrop(2, { windowSeconds: 0, shoppersAtOnce: 5, minutesEach: 5 })
    // past any look kept so far
    const now = t.clock.now() + 60_000
    const looks = await Promise.all(Array.from({ length: 20 }, () => lookAtRoom(t.db, drop.dropId, now)))
    expect(looks[0]?.d.id).toBe(drop.dropId)
    expect(new Set(looks).size).toBe(1)
    // kept: a later ask within its freshness takes it; past it, the room is read again
    expect(await lookAtRoom(t.db, drop.dropId, now + 100)).toBe(looks[0])
    expect(await lookAtRoom(t.db, drop.dropId, now + 1000)).not.toBe(looks[0])
  })

  test('closing the server answers held callers at once', async () => {
    const own = await createTestApp(dialect)
    try {
      const u = await makeUser(own.db, own.clock, { role: 'operator' })
      const token = await loginToken(own.app, u.user_name!, u.password)
      const seriesId = await makeSeries(own.db, own.clock, { regular: 3, rare: 1, hidden: false, stock: 5 })
      const made = await post(own.app, '/api/operator/dropCreate', { seriesId, cases: 1, hiddenCases: 0, startsAt: iso(own.clock.now() + 1000), waitingRoom: { windowSeconds: 0, shoppersAtOnce: 1, minutesEach: 1 } }, { token, ip: nextIp() })
      const dropId = made.body.data.dropId
      own.clock.ms = own.clock.now() + 2000
      const [a, b] = [await makeShopper(own.app, own.db, own.clock), await makeShopper(own.app, own.db, own.clock)]
      for (const s of [a, b]) await post(own.app, '/api/dropQueue', { dropId }, { token: s.token, ip: nextIp() })
      const asked = Date.now()
      const heldB = post(own.app, '/api/dropQueue', { dropId, waitMs: 20_000 }, { token: b.token, ip: nextIp() })
      await new Promise(resolve => setTimeout(resolve, 200))
      await own.app.close()
      const r = await heldB
      expect(r.body.data).toMatchObject({ state: 'waiting', pollMs: 0 })
      expect(Date.now() - asked).toBeLessThan(5000)
    } finally {
      await own.close()
    }
  })

  test('racing arrivals each hold one place, before and after the draw, and a drop without a room answers 409', async () => {
    const { drop } = await makeDrop(6, { windowSeconds: 0, shoppersAtOnce: 5, minutesEach: 5 })
    const start = Date.parse(drop.startsAt)
    const early = await shoppers(12)
    // each joins three times at once
    await Promise.all(early.flatMap(s => [join(s, drop.dropId), join(s, drop.dropId), join(s, drop.dropId)]))
    t.clock.ms = start + 1000
    const late = await shoppers(10)
    const all = await Promise.all([...early, ...late].flatMap(s => [join(s, drop.dropId), join(s, drop.dropId)]))
    const rows = await t.db.selectFrom('drop_queue').select(['user_id', 'position']).where('drop_id', '=', drop.dropId).execute()
    expect(rows).toHaveLength(22)
    const places = rows.map(r => Number(r.position))
    expect(new Set(places).size).toBe(22)
    // the early ones first, in lot order; the late ones after them
    const earlyIds = new Set(early.map(s => s.id))
    expect(Math.max(...rows.filter(r => earlyIds.has(Number(r.user_id))).map(r => Number(r.position)))).toBe(12)
    expect(all.filter(v => v.state === 'shopping').map(v => v.position).filter((p, i, a) => a.indexOf(p) === i).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5])

    const { drop: open } = await makeDrop(1, null, 0)
    const r = await as(early[0].token, '/api/dropQueue', { dropId: open.dropId })
    expect([r.body.code, r.body.data.reason]).toEqual([409, 'no_queue'])
    expect((await as(undefined, '/api/dropQueue', { dropId: open.dropId })).body.code).toBe(401)
  })
})
