/**
 * Opening cases ahead of a launch (POST /api/operator/casesOpenAhead) on both databases: an operator
 * opens cases of a series on sale, each shuffled and committed like any other and audited; the series'
 * cap of open cases holds; a draft or retired series, a shopper, and bad counts are refused with
 * nothing made; and shoppers who then arrive at once are given those cases, no new one made.
 */
import { createHash } from 'node:crypto'
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import { makeSeries, makeShopper, type Shopper } from './support/shop'
import { CASE_SPREAD } from '../../server/src/domain/catalogue/cases'
import { CASES_AHEAD_MAX } from '../../types/limits'

describe.each(testDialects())('opening cases ahead on %s', (dialect) => {
  let t: TestApp
  let op: string
  let shopper: Shopper
  beforeAll(async () => {
    t = await createTestApp(dialect)
    const u = await makeUser(t.db, t.clock, { role: 'operator' })
    op = await loginToken(t.app, u.user_name!, u.password)
    shopper = await makeShopper(t.app, t.db, t.clock)
  })
  afterAll(async () => { await t?.close() })

  const openAhead = (body: unknown, token = op, lang = 'en') => post(t.app, '/api/operator/casesOpenAhead', body, { token, lang, ip: nextIp() })
  const onSale = async (seriesId: number) => (await t.db.selectFrom('cases').select(['id', 'commit_hash', 'arrangement', 'salt', 'sold_count'])
    .where('series_id', '=', seriesId).where('status', '=', 'on_sale').orderBy('id').execute())

  test('an operator opens cases of a series on sale: each committed with its slots, audited', async () => {
    const seriesId = await makeSeries(t.db, t.clock)
    expect(await onSale(seriesId)).toHaveLength(1)
    const r = await openAhead({ seriesId, count: 130 })
    expect(r.body).toMatchObject({ code: 200, data: { opened: 130, open: 131, max: CASE_SPREAD.maxOpenCases } })
    const cases = await onSale(seriesId)
    expect(cases).toHaveLength(131)
    for (const c of cases) {
      const arrangement = JSON.parse(c.arrangement) as number[]
      expect(createHash('sha256').update(`${c.id}:${arrangement.join(',')}:${c.salt}`).digest('hex')).toBe(c.commit_hash)
      expect(Number(c.sold_count)).toBe(0)
    }
    const slots = await t.db.selectFrom('case_slots').select(eb => eb.fn.countAll<number>().as('n'))
      .where('case_id', 'in', cases.map(c => c.id)).executeTakeFirstOrThrow()
    expect(Number(slots.n)).toBe(cases.reduce((n, c) => n + JSON.parse(c.arrangement).length, 0))
    // two batches (100, then 30), each audited with the cases it opened
    const audit = await t.db.selectFrom('audit_log').select('detail').where('action', '=', 'series.openCasesAhead')
      .where('entity_id', '=', seriesId).orderBy('id').execute()
    const details = audit.map(a => JSON.parse(a.detail as string))
    expect(details.map(d => d.opened.length)).toEqual([100, 30])
    expect(details[1].after).toEqual({ openCases: 131 })
  })

  test('the cap of open cases holds: the call opens what fits and says so', async () => {
    const cap = CASE_SPREAD.maxOpenCases
    CASE_SPREAD.maxOpenCases = 6
    try {
      const seriesId = await makeSeries(t.db, t.clock)
      expect((await openAhead({ seriesId, count: 10 })).body.data).toEqual({ opened: 5, open: 6, max: 6, stockShort: false })
      expect((await openAhead({ seriesId, count: 3 })).body.data).toEqual({ opened: 0, open: 6, max: 6, stockShort: false })
      expect(await onSale(seriesId)).toHaveLength(6)
    } finally {
      CASE_SPREAD.maxOpenCases = cap
    }
  })

  test('refused with nothing made: a series not on sale, a shopper, a count out of range', async () => {
    const draft = await makeSeries(t.db, t.clock, { status: 'draft' })
    const r = await openAhead({ seriesId: draft, count: 5 }, op, 'zh')
    expect(r.body).toMatchObject({ code: 422, message: '只有在售的系列可以提前开箱' })
    const seriesId = await makeSeries(t.db, t.clock)
    // authorization before validation: a shopper is refused whatever the body
    expect((await openAhead({ seriesId, count: 5 }, shopper.token)).body.code).toBe(403)
    expect((await openAhead({ nonsense: true }, shopper.token)).body.code).toBe(403)
    for (const count of [0, -1, CASES_AHEAD_MAX + 1, 2.5, '5']) {
      const bad = await openAhead({ seriesId, count })
      expect(bad.body.code).toBe(400)
      expect(bad.body.message).toContain('count')
    }
    expect((await openAhead({ seriesId: 99999999, count: 1 })).body.code).toBe(404)
    expect(await onSale(seriesId)).toHaveLength(1)
    expect(await onSale(draft)).toHaveLength(0)
  })

  test('shoppers arriving at once after cases were opened ahead are each given one of them, no new case made', async () => {
    const seriesId = await makeSeries(t.db, t.clock)
    await openAhead({ seriesId, count: 29 })
    const ready = (await onSale(seriesId)).map(c => Number(c.id))
    expect(ready).toHaveLength(30)
    const shoppers: Shopper[] = []
    for (let i = 0; i < 30; i++) shoppers.push(await makeShopper(t.app, t.db, t.clock))
    const views = await Promise.all(shoppers.map(s => post(t.app, '/api/caseCurrent', { seriesId }, { token: s.token })))
    const given = views.map(v => v.body.data.caseId as number)
    expect(new Set(given).size).toBe(30)
    expect([...given].sort((a, b) => a - b)).toEqual(ready)
    expect((await onSale(seriesId)).map(c => Number(c.id))).toEqual(ready)
  })
})
