/**
 * The operator's sales report (issue 48) on SQLite and PostgreSQL: a known set of top-ups, purchases
 * (two series, on both sides of a China midnight) and withdrawals (one paid, one rejected) gives exact
 * totals per day, in all and per series, equal to the ledger's own sums; the range is checked (a 400
 * names the field in the caller's language); the spreadsheet holds the same figures in yuan; shoppers
 * get 403 and anonymous callers 401, before their body is looked at.
 */
import ExcelJS from 'exceljs'
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, post, type TestApp } from './support/app'
import { buy, currentCaseId, makeSeries, makeShopper, newKey, topUp } from './support/shop'
import { invariantViolations } from './support/invariants'

const ROUTES = ['/api/operator/salesReport', '/api/operator/salesReportExport']

describe.each(testDialects())('sales report on %s', (dialect) => {
  let t: TestApp
  let operator: string
  let seriesA: number
  let seriesB: number
  beforeAll(async () => {
    t = await createTestApp(dialect)
    const u = await makeUser(t.db, t.clock, { role: 'operator' })
    operator = await loginToken(t.app, u.user_name!, u.password)

    // 2026-03-01 16:00 in China
    t.clock.ms = Date.parse('2026-03-01T08:00:00.000Z')
    seriesA = await makeSeries(t.db, t.clock, { priceCents: 1234 })
    seriesB = await makeSeries(t.db, t.clock, { priceCents: 999 })
    const s1 = await makeShopper(t.app, t.db, t.clock)
    const s2 = await makeShopper(t.app, t.db, t.clock)
    const ok = (r: { body: { code: number } }) => expect(r.body).toMatchObject({ code: 200 })
    await topUp(t.app, s1, 10000)
    ok(await buy(t.app, s1, { caseId: await currentCaseId(t.app, seriesA, s1.token), slots: [1, 2] }))
    // the last millisecond of 2026-03-01 in China
    t.clock.ms = Date.parse('2026-03-01T15:59:59.999Z')
    ok(await buy(t.app, s1, { caseId: await currentCaseId(t.app, seriesB, s1.token), slots: [1] }))
    // midnight: 2026-03-02 in China
    t.clock.ms = Date.parse('2026-03-01T16:00:00.000Z')
    await topUp(t.app, s2, 5001)
    ok(await buy(t.app, s2, { caseId: await currentCaseId(t.app, seriesA, s2.token), slots: [3] }))
    const paid = await post(t.app, '/api/withdrawRequest', { amountCents: 3000, idempotencyKey: newKey('wd') }, { token: s1.token })
    ok(paid)
    ok(await post(t.app, '/api/operator/withdrawApprove', { withdrawalId: paid.body.data.id }, { token: operator }))
    const rejected = await post(t.app, '/api/withdrawRequest', { amountCents: 1000, idempotencyKey: newKey('wd') }, { token: s2.token })
    ok(rejected)
    ok(await post(t.app, '/api/operator/withdrawReject', { withdrawalId: rejected.body.data.id, reason: 'test' }, { token: operator }))
  })
  afterAll(async () => {
    expect(await invariantViolations(t.db)).toEqual([])
    await t.close()
  })

  const report = (body: unknown, lang = 'en', token = operator) => post(t.app, '/api/operator/salesReport', body, { token, lang })
  const none = { purchases: 0, salesCents: 0, topUps: 0, topUpCents: 0, withdrawals: 0, withdrawalCents: 0, propsCents: 0, shippingCents: 0 }

  test('per day, in all and per series, to the cent; the quiet day is there with zeros', async () => {
    const r = await report({ from: '2026-03-01', to: '2026-03-03' })
    expect(r.body.code).toBe(200)
    expect(r.body.data.days).toEqual([
      { day: '2026-03-01', ...none, purchases: 2, salesCents: 2468 + 999, topUps: 1, topUpCents: 10000 },
      { day: '2026-03-02', ...none, purchases: 1, salesCents: 1234, topUps: 1, topUpCents: 5001, withdrawals: 1, withdrawalCents: 3000 },
      { day: '2026-03-03', ...none }
    ])
    expect(r.body.data.totals).toEqual({ ...none, purchases: 3, salesCents: 4701, topUps: 2, topUpCents: 15001, withdrawals: 1, withdrawalCents: 3000 })
    expect(r.body.data.series).toEqual([
      { seriesId: seriesA, name: expect.stringMatching(/^测试系列/), nameEn: expect.stringMatching(/^Test series/), purchases: 2, boxes: 3, salesCents: 3702 },
      { seriesId: seriesB, name: expect.stringMatching(/^测试系列/), nameEn: expect.stringMatching(/^Test series/), purchases: 1, boxes: 1, salesCents: 999 }
    ])
    // the same sums as the books themselves
    const sumOf = async (account: 'house_sales' | 'payment_clearing', kind: 'purchase' | 'topup' | 'withdraw_payout') => Number((await t.db.selectFrom('ledger_lines as l')
      .innerJoin('ledger_transactions as x', 'x.id', 'l.tx_id')
      .select(eb => eb.fn.sum<number>('l.amount_cents').as('s')).where('l.account', '=', account).where('x.kind', '=', kind)
      .executeTakeFirstOrThrow()).s)
    expect(r.body.data.totals.salesCents).toBe(await sumOf('house_sales', 'purchase'))
    expect(r.body.data.totals.topUpCents).toBe(-await sumOf('payment_clearing', 'topup'))
    expect(r.body.data.totals.withdrawalCents).toBe(await sumOf('payment_clearing', 'withdraw_payout'))
  })

  test('one day alone; a range with nothing in it', async () => {
    const r = await report({ from: '2026-03-02', to: '2026-03-02' })
    expect(r.body.data.totals).toEqual({ ...none, purchases: 1, salesCents: 1234, topUps: 1, topUpCents: 5001, withdrawals: 1, withdrawalCents: 3000 })
    expect(r.body.data.series.map((s: { seriesId: number }) => s.seriesId)).toEqual([seriesA])
    const empty = await report({ from: '2025-01-01', to: '2025-01-02' })
    expect(empty.body.data).toEqual({ from: '2025-01-01', to: '2025-01-02', days: [{ day: '2025-01-01', ...none }, { day: '2025-01-02', ...none }], totals: none, series: [] })
  })

  test('a bad range is a 400 naming the field, in the caller\'s language, on both calls', async () => {
    for (const url of ROUTES) {
      const ask = (body: unknown, lang: string) => post(t.app, url, body, { token: operator, lang })
      expect((await ask({ from: '2026-02-30', to: '2026-03-01' }, 'zh')).body).toMatchObject({ code: 400, message: '开始日期不是有效日期' })
      expect((await ask({ from: '2026-03-05', to: '2026-03-01' }, 'en')).body).toMatchObject({ code: 400, message: 'To cannot be before the start date' })
      expect((await ask({ from: '2026-03-05', to: '2026-03-01' }, 'zh')).body).toMatchObject({ code: 400, message: '结束日期不能早于开始日期' })
      expect((await ask({ from: '2025-01-01', to: '2026-03-01' }, 'zh')).body).toMatchObject({ code: 400, message: '一次最多查询 366 天' })
      expect((await ask({ from: '2026-3-1', to: '2026-03-01' }, 'en')).body.code).toBe(400)
      expect((await ask({ from: '2026-03-01' }, 'en')).body.code).toBe(400)
      expect((await ask({ from: '2026-03-01', to: '2026-03-01', extra: 1 }, 'en')).body.code).toBe(400)
    }
  })

  test('shoppers get 403 and anonymous callers 401, before validation', async () => {
    const s = await makeShopper(t.app, t.db, t.clock)
    for (const url of ROUTES) {
      for (const body of [{ from: '2026-03-01', to: '2026-03-02' }, { from: 'x' }, {}]) {
        expect([url, (await post(t.app, url, body, { token: s.token, lang: 'zh' })).body]).toMatchObject([url, { code: 403, message: '只有运营人员可以这样做' }])
        expect([url, (await post(t.app, url, body)).body.code]).toEqual([url, 401])
      }
    }
  })

  test('the spreadsheet: days and series in the caller\'s language, money in yuan, a total row', async () => {
    for (const [lang, header, total] of [['zh', '销售额（元）', '合计'], ['en', 'Sales (yuan)', 'Total']] as const) {
      const res = await t.app.inject({
        method: 'POST', url: '/dev-api/api/operator/salesReportExport', payload: { from: '2026-03-01', to: '2026-03-03' },
        headers: { authorization: `Bearer ${operator}`, 'accept-language': lang }
      })
      expect(res.headers['content-type']).toContain('spreadsheetml')
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="sales-2026-03-01-2026-03-03-[0-9a-f]{8}\.xlsx"$/)
      const book = new ExcelJS.Workbook()
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer)
      const [days, series] = book.worksheets
      const row = (n: number) => (days.getRow(n).values as unknown[]).slice(1)
      expect(row(1)).toContain(header)
      expect(days.rowCount).toBe(5)
      expect(row(2)).toEqual(['2026-03-01', 2, 34.67, 1, 100, 0, 0, 0, 0])
      expect(row(3)).toEqual(['2026-03-02', 1, 12.34, 1, 50.01, 1, 30, 0, 0])
      expect(row(5)).toEqual([total, 3, 47.01, 2, 150.01, 1, 30, 0, 0])
      const first = (series.getRow(2).values as unknown[]).slice(1)
      expect(first).toEqual([expect.stringMatching(lang === 'zh' ? /^测试系列/ : /^Test series/), 2, 3, 37.02])
    }
  })
})
