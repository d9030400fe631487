/**
 * Raffle drops (issue 51 item 4) on both databases:
 *  - an operator makes a raffle drop: refusals by field (entries closing before they open, no cap per
 *    account, a waiting room as well); the seed's hash and the places shown with the drop
 *  - entries: not before they open, once per account (every phone holds the one entry), a verified phone
 *    when asked, not after they close
 *  - the draw at the close: as many winners as places; only winners may see a case or buy, within their
 *    time and the cap; the places of winners who bought nothing go to a second round among the others
 *  - 1,000 entries: the draw recomputed in the test with Node's own HMAC, independently of the app's
 *    code; the phone's check (types/raffleCheck.ts) agrees, and catches a changed list or winners
 */
import { createHash, createHmac } from 'node:crypto'
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import { buy, makeSeries, makeShopper, topUp, type Shopper } from './support/shop'
import { invariantViolations } from './support/invariants'
import { raffleEnter } from '../../server/src/domain/catalogue/raffle'
import { raffleCheck } from '../../types/raffleCheck'
import type { RaffleProof, RaffleView } from '../../types/raffle'

const MINUTE = 60_000

/** The draw as published, recomputed from its words alone: pick i among the codes left, 32-bit words, rejection above the largest multiple. */
function recompute (seed: string, key: string, codes: readonly string[], k: number): string[] {
  const left = [...codes]
  const won: string[] = []
  for (let i = 0; i < k && left.length; i++) {
    let chosen: number | null = null
    for (let round = 0; chosen === null; round++) {
      const digest = createHmac('sha256', seed).update(round === 0 ? `${key}:${i}` : `${key}:${i}:${round}`).digest()
      for (let w = 0; w < 8 && chosen === null; w++) {
        const word = digest.readUInt32BE(w * 4)
        if (word < Math.floor(2 ** 32 / left.length) * left.length) chosen = word % left.length
      }
    }
    won.push(left.splice(chosen, 1)[0])
  }
  return won
}

describe.each(testDialects())('raffle drops on %s', (dialect) => {
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
  const shopper = async (): Promise<Shopper> => {
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 100_000)
    return s
  }
  const status = async (dropId: number, s?: Shopper): Promise<RaffleView> => {
    const r = await as(s?.token, '/api/raffleStatus', { dropId })
    expect(r.body.code).toBe(200)
    return r.body.data
  }
  const proof = async (dropId: number): Promise<RaffleProof> => {
    const r = await as(undefined, '/api/raffleProof', { dropId })
    expect(r.body.code).toBe(200)
    return r.body.data
  }
  /** A raffle drop of `cases` cases of 4 boxes, `cap` boxes an account: entries open in a minute, close in an hour. */
  const raffleDrop = async (cases: number, cap: number, extra: Record<string, unknown> = {}) => {
    const seriesId = await makeSeries(t.db, t.clock, { regular: 3, rare: 1, stock: cases + 2 })
    const now = t.clock.now()
    const r = await as(op, '/api/operator/dropCreate', {
      seriesId, cases, hiddenCases: 0, startsAt: iso(now + MINUTE), limits: { boxesPerAccount: cap }, raffle: { closesAt: iso(now + 60 * MINUTE), claimMinutes: 30 }, ...extra
    })
    expect(r.body.code).toBe(200)
    return { seriesId, drop: r.body.data }
  }

  test('an operator makes a raffle drop: refusals by field; the seed\'s hash and the places are shown before the sale', async () => {
    const seriesId = await makeSeries(t.db, t.clock, { regular: 3, rare: 1, stock: 5 })
    const now = t.clock.now()
    const base = { seriesId, cases: 2, hiddenCases: 0, startsAt: iso(now + MINUTE), limits: { boxesPerAccount: 2 } }
    const early = await as(op, '/api/operator/dropCreate', { ...base, raffle: { closesAt: iso(now), claimMinutes: 30 } }, 'zh')
    expect(early.body).toMatchObject({ code: 400, data: { field: 'raffle.closesAt' } })
    expect(early.body.message).toContain('报名截止')
    const noCap = await as(op, '/api/operator/dropCreate', { ...base, limits: undefined, raffle: { closesAt: iso(now + 60 * MINUTE), claimMinutes: 30 } })
    expect(noCap.body).toMatchObject({ code: 400, data: { field: 'limits.boxesPerAccount' } })
    const both = await as(op, '/api/operator/dropCreate', { ...base, raffle: { closesAt: iso(now + 60 * MINUTE), claimMinutes: 30 }, waitingRoom: { windowSeconds: 10, shoppersAtOnce: 5, minutesEach: 5 } })
    expect(both.body).toMatchObject({ code: 400, data: { field: 'raffle' } })
    const tooShort = await as(op, '/api/operator/dropCreate', { ...base, raffle: { closesAt: iso(now + 60 * MINUTE), claimMinutes: 1 } })
    expect(tooShort.body.code).toBe(400)
    // nothing was made by the refusals
    expect(await t.db.selectFrom('drops').select('id').where('series_id', '=', seriesId).execute()).toHaveLength(0)
    const made = await as(op, '/api/operator/dropCreate', { ...base, raffle: { closesAt: iso(now + 60 * MINUTE), claimMinutes: 30 } })
    expect(made.body.data.raffle).toMatchObject({ places: 4, claimMinutes: 30, seedHash: expect.stringMatching(/^[0-9a-f]{64}$/) })
    const detail = await as(undefined, '/api/seriesDetail', { seriesId })
    expect(detail.body.data.drop.raffle.seedHash).toBe(made.body.data.raffle.seedHash)
  })

  test('entries once per account in the window; only winners buy, within their time; unclaimed places go to a second round', async () => {
    const { seriesId, drop } = await raffleDrop(1, 2)
    const shoppers = await Promise.all(Array.from({ length: 6 }, () => shopper()))
    // before the start: not open
    const before = await as(shoppers[0].token, '/api/raffleEnter', { dropId: drop.dropId })
    expect(before.body).toMatchObject({ code: 409, data: { reason: 'raffle_not_open' } })
    t.clock.advance(2 * MINUTE)
    for (const s of shoppers) expect((await as(s.token, '/api/raffleEnter', { dropId: drop.dropId })).body.data).toMatchObject({ state: 'open', mine: 'entered' })
    // entering again (another phone) keeps the one entry and its code
    const code = (await status(drop.dropId, shoppers[0])).myCode
    expect((await as(shoppers[0].token, '/api/raffleEnter', { dropId: drop.dropId })).body.data.myCode).toBe(code)
    expect((await status(drop.dropId)).entries).toBe(6)
    // nobody buys or sees a case before the draw
    const caseId = (await t.db.selectFrom('cases').select('id').where('drop_id', '=', drop.dropId).executeTakeFirstOrThrow()).id
    expect((await buy(t.app, shoppers[0], { caseId, slots: [1] })).body.code).toBe(409)
    expect((await as(shoppers[0].token, '/api/caseCurrent', { seriesId })).body.code).toBe(409)
    // the proof shows no list or seed yet
    expect(await proof(drop.dropId)).toMatchObject({ seed: null, codes: null, listHash: null, rounds: [] })

    // the close: the draw is made by the first look after it
    t.clock.advance(60 * MINUTE)
    const late = await shopper()
    expect((await as(late.token, '/api/raffleEnter', { dropId: drop.dropId }, 'zh')).body).toMatchObject({ code: 409, message: expect.stringContaining('截止') })
    const views = await Promise.all(shoppers.map(s => status(drop.dropId, s)))
    const winners = shoppers.filter((_, i) => views[i].mine === 'won')
    const losers = shoppers.filter((_, i) => views[i].mine !== 'won')
    expect(winners).toHaveLength(2)
    expect(views.every(v => v.state === 'drawn' && v.rounds === 1 && v.seed !== null)).toBe(true)
    expect(losers.map(s => views[shoppers.indexOf(s)].mine)).toEqual(['entered', 'entered', 'entered', 'entered'])

    // a loser cannot buy, in words; a winner buys within the cap (2 boxes), not beyond
    const refused = await buy(t.app, losers[0], { caseId, slots: [1] }, 'zh')
    expect(refused.body).toMatchObject({ code: 409, message: expect.stringContaining('中签') })
    expect((await as(winners[0].token, '/api/caseCurrent', { seriesId })).body.code).toBe(200)
    expect((await buy(t.app, winners[0], { caseId, slots: [1, 2] })).body.code).toBe(200)
    expect((await buy(t.app, winners[0], { caseId, slots: [3] })).body.code).toBe(409)

    // the second winner lets the time run out: their place goes to a second round, among the other four
    t.clock.advance(31 * MINUTE)
    expect((await buy(t.app, winners[1], { caseId, slots: [3] })).body).toMatchObject({ code: 409 })
    const after = await Promise.all(shoppers.map(s => status(drop.dropId, s)))
    expect(after[shoppers.indexOf(winners[1])].mine).toBe('expired')
    const second = losers.filter(s => after[shoppers.indexOf(s)].mine === 'won')
    expect(second).toHaveLength(1)
    expect(after[shoppers.indexOf(second[0])]).toMatchObject({ wonRound: 2, rounds: 2 })
    expect(losers.filter(s => after[shoppers.indexOf(s)].mine === 'lost')).toHaveLength(3)
    expect((await buy(t.app, second[0], { caseId, slots: [3, 4] })).body.code).toBe(200)

    // the phone's check: the list, the seed, both rounds; each entrant finds their own code
    const p = await proof(drop.dropId)
    expect(p.rounds.map(r => r.places)).toEqual([2, 1])
    for (const v of after) expect(raffleCheck(p, v.myCode)).toMatchObject({ holds: true, included: true })
    expect(raffleCheck(p, 'not-a-code')).toMatchObject({ included: false, holds: false })
  })

  test('1,000 entries: the draw recomputed independently; a changed list or winners are caught', async () => {
    const { drop } = await raffleDrop(5, 2) // 20 boxes, 2 an account: 10 places
    t.clock.advance(2 * MINUTE)
    for (let i = 0; i < 1000; i++) {
      const u = await makeUser(t.db, t.clock)
      await raffleEnter(t.db, t.clock.now, drop.dropId, u.id)
    }
    t.clock.advance(60 * MINUTE)
    const p = await proof(drop.dropId)
    expect(p.codes).toHaveLength(1000)
    expect(p.rounds).toHaveLength(1)
    // independently: the seed against the hash published with the drop, the list's hash, the winners
    expect(createHash('sha256').update(p.seed!).digest('hex')).toBe(drop.raffle.seedHash)
    const sorted = [...p.codes!].sort()
    expect(p.codes).toEqual(sorted)
    const listHash = createHash('sha256').update(`raffle:${drop.dropId}:${sorted.join(',')}`).digest('hex')
    expect(p.listHash).toBe(listHash)
    const winners = recompute(p.seed!, listHash, sorted, 10)
    expect([...p.rounds[0].winners].sort()).toEqual([...winners].sort())
    expect(new Set(winners).size).toBe(10)
    const rows = await t.db.selectFrom('raffle_entries').select(['code', 'won_round']).where('drop_id', '=', drop.dropId).where('won_round', 'is not', null).execute()
    expect(rows.map(r => r.code).sort()).toEqual([...winners].sort())
    // the phone's check agrees, and refuses a list with one code swapped, or another winner
    expect(raffleCheck(p)).toMatchObject({ holds: true, seedMatches: true, listMatches: true, listOrdered: true, winnersMatch: true })
    const swapped = [...p.codes!]
    swapped[0] = '0000000000000000'
    expect(raffleCheck({ ...p, codes: swapped })!.holds).toBe(false)
    const loser = p.codes!.find(c => !winners.includes(c))!
    expect(raffleCheck({ ...p, rounds: [{ ...p.rounds[0], winners: [loser, ...p.rounds[0].winners.slice(1)] }] })!.holds).toBe(false)
  })

  test('a verified phone when the drop asks for one; a drop without a raffle has none', async () => {
    const { drop } = await raffleDrop(1, 2, { limits: { boxesPerAccount: 2, verifiedPhone: true } })
    t.clock.advance(2 * MINUTE)
    const s = await shopper()
    const noPhone = await as(s.token, '/api/raffleEnter', { dropId: drop.dropId })
    expect(noPhone.body).toMatchObject({ code: 409, data: { rule: 'verified_phone' } })
    expect((await status(drop.dropId, s))).toMatchObject({ mine: 'none', needsPhone: true })
    const plain = await makeSeries(t.db, t.clock, { regular: 3, rare: 1, stock: 2 })
    const d = await as(op, '/api/operator/dropCreate', { seriesId: plain, cases: 1, hiddenCases: 0, startsAt: iso(t.clock.now()) })
    expect(d.body.data.raffle).toBeNull()
    expect((await as(s.token, '/api/raffleEnter', { dropId: d.body.data.dropId })).body.code).toBe(409)
  })
})
