/**
 * Catalogue and cases: seriesList, seriesDetail, caseCurrent, caseSwitch (daily allowance), caseProof
 * (commit / reveal), operator changes in the audit log, the art route, the demo seed, and what the
 * generic table API must never reach.
 */
import { createHash } from 'node:crypto'
import { MAX_BOX_PRICE_CENTS } from '../../types/shop'
import { testDialects, createTestDatabase } from './support/db'
import { createTestApp, get, nextIp, post, PREFIX, type TestApp } from './support/app'
import { buy, currentCaseId, makeSeries, makeShopper, seriesInput, topUp } from './support/shop'
import { addDesign, createSeries, updateSeries } from '../../server/src/domain/catalogue/catalogue'
import { seedDemo, DEMO_SERIES } from '../../server/src/seed'

const DAY = 24 * 60 * 60 * 1000

describe.each(testDialects())('catalogue and cases on %s', (dialect) => {
  let t: TestApp
  let seriesId: number
  beforeAll(async () => {
    t = await createTestApp(dialect)
    seriesId = await makeSeries(t.db, t.clock, { priceCents: 3900, hiddenCasePpm: 83333 })
  })
  afterAll(async () => { await t.close() })

  test('seriesList: published series (on sale first), with the odds of each rarity; strict paging', async () => {
    const retired = await makeSeries(t.db, t.clock, { status: 'retired' })
    const draft = await makeSeries(t.db, t.clock, { status: 'draft' })
    const later = await makeSeries(t.db, t.clock)
    const r = await post(t.app, '/api/seriesList', { page: 1, size: 10 })
    expect(r.body.code).toBe(200)
    const ids = r.body.data.list.map((s: { id: number }) => s.id)
    expect(ids).toEqual([seriesId, later, retired])
    expect(ids).not.toContain(draft)
    expect(r.body.data.total).toBe(3)
    const first = r.body.data.list[0]
    expect(first).toEqual({
      id: seriesId,
      title: { zh: expect.any(String), en: expect.any(String) },
      description: { zh: '描述', en: 'Description' },
      cover: '/media/art/1f381.webp',
      priceCents: 3900,
      caseSize: 12,
      kind: 'case',
      designCount: 13,
      oddsPpm: { regular: Math.round(1e6 * (9 - 0.083333) / 12), rare: 250000, hidden: Math.round(83333 / 12) },
      status: 'on_sale',
      soldOut: false
    })
    expect(r.body.data.list[2].status).toBe('retired')
    expect((await post(t.app, '/api/seriesList', { page: 2, size: 2 })).body.data).toMatchObject({ total: 3, list: [{ id: retired }] })
    expect((await post(t.app, '/api/seriesList', { page: 1, size: 0 })).body).toMatchObject({ code: 400, data: { field: 'size' } })
    expect((await post(t.app, '/api/seriesList', { page: 1, size: 101 })).body).toMatchObject({ code: 400, data: { field: 'size', rule: 'maximum' } })
    expect((await post(t.app, '/api/seriesList', { page: '1', size: 10 })).body).toMatchObject({ code: 400, data: { field: 'page', rule: 'type' } })
    expect((await post(t.app, '/api/seriesList', { page: 1, size: 10, status: 'draft' })).body).toMatchObject({ code: 400, data: { field: 'status', rule: 'additionalProperties' } })
    expect((await post(t.app, '/api/seriesList', {})).body).toMatchObject({ code: 400, data: { field: 'page', rule: 'required' } })
  })

  test('seriesDetail: every design with its exact chance, the value range, rules and hidden chance', async () => {
    const r = await post(t.app, '/api/seriesDetail', { seriesId })
    expect(r.body.code).toBe(200)
    const d = r.body.data
    expect(d.hiddenCasePpm).toBe(83333)
    expect(d.rules).toEqual({ zh: '规则', en: 'Rules' })
    expect(d.valueRange).toEqual({ minCents: 3001, maxCents: 50000 })
    expect(d.designs).toHaveLength(13)
    const byRarity = (rarity: string) => d.designs.filter((x: { rarity: string }) => x.rarity === rarity)
    for (const x of byRarity('regular')) expect(x.oddsPpm).toBe(Math.round(1e6 * (1 / 12) * (1 - 0.083333 / 9)))
    for (const x of byRarity('rare')) expect(x.oddsPpm).toBe(83333)
    expect(byRarity('hidden')[0]).toMatchObject({ oddsPpm: 6944, referenceValueCents: 50000, recycleValueCents: 10000, name: { zh: 'hidden-1', en: 'hidden 1' } })
    const total = d.designs.reduce((s: number, x: { oddsPpm: number }) => s + x.oddsPpm, 0)
    expect(Math.abs(total - 1e6)).toBeLessThanOrEqual(7)
    const draft = await makeSeries(t.db, t.clock, { status: 'draft' })
    expect((await post(t.app, '/api/seriesDetail', { seriesId: draft })).body).toMatchObject({ code: 404, message: 'No such series' })
    expect((await post(t.app, '/api/seriesDetail', { seriesId: 999999 }, { lang: 'zh' })).body).toMatchObject({ code: 404, message: '系列不存在' })
    expect((await post(t.app, '/api/seriesDetail', { seriesId: 0 })).body).toMatchObject({ code: 400, data: { field: 'seriesId', rule: 'minimum' } })
  })

  test('caseCurrent: anyone sees the oldest case on sale, its commitment and which slots are sold', async () => {
    const r = await post(t.app, '/api/caseCurrent', { seriesId })
    expect(r.body.code).toBe(200)
    expect(r.body.data).toMatchObject({ seriesId, size: 12, switchesLeft: 5 })
    expect(r.body.data.commit).toMatch(/^[0-9a-f]{64}$/)
    expect(r.body.data.slots).toEqual(Array.from({ length: 12 }, (_, i) => ({ slot: i + 1, sold: false })))
    expect(JSON.stringify(r.body)).not.toMatch(/salt|arrangement|design/)
    const retired = await makeSeries(t.db, t.clock, { status: 'retired' })
    expect((await post(t.app, '/api/caseCurrent', { seriesId: retired })).body).toMatchObject({ code: 404, message: 'This series is no longer on sale' })
    expect((await post(t.app, '/api/caseCurrent', { seriesId: 424242 })).body.code).toBe(404)
  })

  test('caseSwitch: needs login; another case (made when there is none); 5 a day, then 429; again the next day', async () => {
    const s = await makeSeries(t.db, t.clock)
    expect((await post(t.app, '/api/caseSwitch', { seriesId: s })).body).toMatchObject({ code: 401 })
    const alice = await makeShopper(t.app, t.db, t.clock)
    const first = await currentCaseId(t.app, s, alice.token)
    const sw1 = await post(t.app, '/api/caseSwitch', { seriesId: s }, { token: alice.token })
    expect(sw1.body.code).toBe(200)
    expect(sw1.body.data.caseId).not.toBe(first)
    expect(sw1.body.data.switchesLeft).toBe(4)
    expect(await currentCaseId(t.app, s, alice.token)).toBe(sw1.body.data.caseId)
    // others still see the oldest
    expect(await currentCaseId(t.app, s)).toBe(first)
    // two cases now: switching goes back and forth
    const sw2 = await post(t.app, '/api/caseSwitch', { seriesId: s }, { token: alice.token })
    expect(sw2.body.data).toMatchObject({ caseId: first, switchesLeft: 3 })
    for (const left of [2, 1, 0]) {
      expect((await post(t.app, '/api/caseSwitch', { seriesId: s }, { token: alice.token })).body.data.switchesLeft).toBe(left)
    }
    const refused = await post(t.app, '/api/caseSwitch', { seriesId: s }, { token: alice.token })
    expect(refused.body).toMatchObject({ code: 429, message: 'No case switches left today (5 a day)', data: { switchesLeft: 0 } })
    expect(refused.body.data.retryAfter).toBeGreaterThan(0)
    expect((await post(t.app, '/api/caseSwitch', { seriesId: s }, { token: alice.token, lang: 'zh' })).body.message).toBe('今天的换箱次数已用完（每天 5 次）')
    expect((await post(t.app, '/api/caseCurrent', { seriesId: s }, { token: alice.token })).body.data.switchesLeft).toBe(0)
    t.clock.advance(DAY)
    const next = await post(t.app, '/api/caseSwitch', { seriesId: s }, { token: alice.token })
    expect(next.body).toMatchObject({ code: 200, data: { switchesLeft: 4 } })
    expect((await post(t.app, '/api/caseSwitch', { seriesId: s, extra: 1 }, { token: alice.token })).body).toMatchObject({ code: 400, data: { field: 'extra' } })
  })

  test('caseProof: only the commitment while on sale; arrangement and salt once sold out, and the hash recomputes', async () => {
    const s = await makeSeries(t.db, t.clock, { priceCents: 1000 })
    const caseId = await currentCaseId(t.app, s)
    const before = await post(t.app, '/api/caseProof', { caseId })
    expect(before.body.data).toEqual({ caseId, seriesId: s, commit: expect.stringMatching(/^[0-9a-f]{64}$/), status: 'on_sale', revealed: false })
    const bob = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, bob, 20000)
    const bought = await buy(t.app, bob, { caseId, wholeCase: true })
    expect(bought.body.code).toBe(200)
    expect(bought.body.data.prizes).toHaveLength(12)
    const proof = (await post(t.app, '/api/caseProof', { caseId })).body.data
    expect(proof).toMatchObject({ caseId, seriesId: s, status: 'sold_out', revealed: true, commit: before.body.data.commit })
    expect(proof.salt).toMatch(/^[0-9a-f]{32}$/)
    const recomputed = createHash('sha256').update(`${caseId}:${proof.arrangement.join(',')}:${proof.salt}`, 'utf8').digest('hex')
    expect(recomputed).toBe(proof.commit)
    // the arrangement is what the buyer got, slot by slot
    expect(bought.body.data.prizes.map((p: { design: { id: number } }) => p.design.id)).toEqual(proof.arrangement)
    // one design moved and the commitment no longer matches
    const tampered = [...proof.arrangement]
    ;[tampered[0], tampered[11]] = [tampered[11], tampered[0]]
    expect(createHash('sha256').update(`${caseId}:${tampered.join(',')}:${proof.salt}`).digest('hex')).not.toBe(proof.commit)
    // a new case took its place
    const next = await currentCaseId(t.app, s)
    expect(next).not.toBe(caseId)
    expect((await post(t.app, '/api/caseProof', { caseId: next })).body.data.revealed).toBe(false)
    expect((await post(t.app, '/api/caseProof', { caseId: 987654 })).body).toMatchObject({ code: 404, message: 'No such case' })
  })

  test('operator changes are audited; a new hidden chance or design retires the case on sale (revealed) and opens a new one', async () => {
    const s = await makeSeries(t.db, t.clock, { priceCents: 2000 })
    const oldCase = await currentCaseId(t.app, s)
    await updateSeries(t.db, t.clock.now, s, { priceCents: 2500 }, null)
    expect(await currentCaseId(t.app, s)).toBe(oldCase)
    await expect(updateSeries(t.db, t.clock.now, s, { priceCents: MAX_BOX_PRICE_CENTS + 1 })).rejects.toThrow(/price/)
    await updateSeries(t.db, t.clock.now, s, { hiddenCasePpm: 100000 })
    const retired = (await post(t.app, '/api/caseProof', { caseId: oldCase })).body.data
    expect(retired).toMatchObject({ status: 'retired', revealed: true })
    expect(createHash('sha256').update(`${oldCase}:${retired.arrangement.join(',')}:${retired.salt}`).digest('hex')).toBe(retired.commit)
    const newCase = await currentCaseId(t.app, s)
    expect(newCase).not.toBe(oldCase)
    await addDesign(t.db, t.clock.now, s, { name: { zh: '新款', en: 'New' }, image: null, rarity: 'rare', referenceValueCents: 8000, recycleValueCents: 100, stock: 10 })
    const detail = (await post(t.app, '/api/seriesDetail', { seriesId: s })).body.data
    expect(detail).toMatchObject({ caseSize: 13, designCount: 14, priceCents: 2500, hiddenCasePpm: 100000 })
    const third = await post(t.app, '/api/caseCurrent', { seriesId: s })
    expect(third.body.data.size).toBe(13)
    expect(third.body.data.caseId).not.toBe(newCase)
    const audit = await t.db.selectFrom('audit_log').selectAll().where('entity_id', '=', s).orderBy('id').execute()
    expect(audit.map(a => a.action)).toEqual(['series.create', 'series.update', 'series.update', 'design.add'])
    expect(JSON.parse(audit[1].detail)).toEqual({ before: { priceCents: 2000, hiddenCasePpm: 83333, status: 'on_sale' }, after: { priceCents: 2500, hiddenCasePpm: 83333, status: 'on_sale' } })
    expect(JSON.parse(audit[2].detail).after.hiddenCasePpm).toBe(100000)
  })

  test('a box costs at most 200 yuan: refused in code and by the database', async () => {
    await expect(createSeries(t.db, t.clock.now, { ...seriesInput(), priceCents: MAX_BOX_PRICE_CENTS + 1 })).rejects.toThrow(/price/)
    const ok = await createSeries(t.db, t.clock.now, { ...seriesInput(), priceCents: MAX_BOX_PRICE_CENTS })
    let code: unknown
    try {
      await t.db.updateTable('series').set({ price_cents: MAX_BOX_PRICE_CENTS + 1 }).where('id', '=', ok).execute()
    } catch (err) {
      code = (err as { code?: unknown }).code
    }
    expect(['SQLITE_CONSTRAINT_CHECK', '23514']).toContain(code)
  })

  test('the table API never reaches wallets, the ledger, slots, keys, orders, purchases, the age gate or the audit log', async () => {
    const tables = ['wallets', 'ledger_transactions', 'ledger_lines', 'case_slots', 'case_choices', 'idempotency_keys', 'orders', 'purchases', 'age_checks', 'audit_log', 'daily_counters']
    for (const table of tables) {
      const r = await post(t.app, `/api/data/invoke?table=${table}&method=list`, {}, { ip: nextIp() })
      expect(r.body).toMatchObject({ code: 404, message: `Table ${table} does not exist` })
    }
  })

  test('GET /media/art/<file>.webp serves the demo art as image/webp, cached for a year; other names are 404', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/media/art/1f381.webp' })
    expect(r.statusCode).toBe(200)
    expect(r.headers['content-type']).toBe('image/webp')
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(r.rawPayload.subarray(0, 4).toString()).toBe('RIFF')
    expect((await t.app.inject({ method: 'GET', url: '/media/art/2604-fe0f.webp' })).statusCode).toBe(200)
    for (const bad of ['1F381.webp', '..%2Fpackage.json', '1f381.png', 'ffff.webp', 'x.webp']) {
      expect((await t.app.inject({ method: 'GET', url: `/media/art/${bad}` })).statusCode).toBe(404)
    }
    // it lives outside the API prefix
    expect((await get(t.app, '/media/art/1f381.webp')).body.code).toBe(404)
    expect(PREFIX).toBe('/dev-api')
  })
})

describe.each(testDialects())('demo seed on %s', (dialect) => {
  test('three blind-box series and a kuji series on sale with real art, their first cases and set committed; a second run changes nothing', async () => {
    const d = await createTestDatabase(dialect)
    try {
      const clock = () => Date.parse('2026-03-01T08:00:00.000Z')
      await seedDemo(d.handle.db, clock)
      await seedDemo(d.handle.db, clock)
      const series = await d.handle.db.selectFrom('series').selectAll().orderBy('id').execute()
      expect(series.map(s => [s.name, s.name_en, Number(s.price_cents), s.case_size, s.status])).toEqual([
        ['萌宠乐园', 'Pet Party', 3900, 12, 'on_sale'],
        ['甜品派对', 'Sweet Treats', 5900, 12, 'on_sale'],
        ['太空漫游', 'Space Trip', 6900, 12, 'on_sale'],
        ['龙腾一番赏', 'Dragon Kuji', 3900, 24, 'on_sale']
      ])
      expect(series.map(s => s.kind)).toEqual(['case', 'case', 'case', 'kuji'])
      const cases = await d.handle.db.selectFrom('cases').selectAll().orderBy('id').execute()
      expect(cases).toHaveLength(4)
      // the kuji set: 24 tickets, then the Last One
      expect(JSON.parse(cases[3].arrangement)).toHaveLength(25)
      const designs = await d.handle.db.selectFrom('designs').selectAll().execute()
      expect(designs).toHaveLength(45)
      expect(designs.filter(x => x.rarity === 'hidden').map(x => x.image)).toEqual(['/media/art/1f984.webp', '/media/art/1f48e.webp', '/media/art/1f47e.webp'])
      expect(DEMO_SERIES.map(s => s.hiddenOneIn)).toEqual([12, 24, 72])
      const wallets = await d.handle.db.selectFrom('wallets').selectAll().execute()
      expect(wallets).toEqual([])
    } finally {
      await d.drop()
    }
  })
})
