/**
 * The daily AI budget (domain/aiBudget.ts, http/aiBudget.ts): every call that reaches a paid AI,
 * picture, video or music provider takes one unit from its account and one from the shop per China
 * day; at either budget the shopper is told so in their language (no setting named) and the provider
 * is not called. Operators set both budgets and see today's use. A burst of concurrent calls, on
 * PostgreSQL as on SQLite, never takes more than the budget; a call that never reached the provider
 * gives its unit back, one the provider answered (even with an error) does not.
 */
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, type TestApp } from './support/app'
import * as dify from '../support/providers/dify'
import { AI_BUDGET, DEFAULT_SHOP_SETTINGS } from '../../types/limits'
import { providerNeverReached } from '../../server/src/domain/ops/aiBudget'
import { ProviderUnavailableError } from '../../server/src/providers/errors'
import { DAY_MS } from '../../server/src/core/days'

test('the defaults are named constants and the settings start from them', () => {
  expect(DEFAULT_SHOP_SETTINGS).toMatchObject({ aiDailyPerAccount: AI_BUDGET.perAccountDefault, aiDailyPerShop: AI_BUDGET.perShopDefault })
  expect(AI_BUDGET.perAccountDefault).toBeLessThan(AI_BUDGET.perShopDefault)
})

test('providerNeverReached: no connection made, read along the causes', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })
  expect(providerNeverReached(new Error('ai: fetch failed', { cause: new TypeError('fetch failed', { cause: refused }) }))).toBe(true)
  expect(providerNeverReached(Object.assign(new Error('x'), { code: 'ENOTFOUND' }))).toBe(true)
  expect(providerNeverReached(new Error('ai: HTTP 500'))).toBe(false)
  // the picture was made, its download found nobody: the work was done
  expect(providerNeverReached(new ProviderUnavailableError('imageGen', 'picture download', { cause: refused, afterWork: true }))).toBe(false)
  expect(providerNeverReached(new Error('timeout', { cause: Object.assign(new Error('aborted'), { name: 'TimeoutError', code: 23 }) }))).toBe(false)
})

describe.each(testDialects())('the daily AI budget on %s', (dialect) => {
  let t: TestApp
  let fake: Awaited<ReturnType<typeof dify.start>>
  let operator: string
  const login = async () => {
    const u = await makeUser(t.db, t.clock)
    return loginToken(t.app, u.user_name!, u.password)
  }
  const ask = (token: string, text: string, lang = 'en') => post(t.app, '/api/text/text2text', { text }, { token, lang, ip: nextIp() })
  const budgets = async (b: { aiDailyPerAccount?: number; aiDailyPerShop?: number }) => {
    const r = await post(t.app, '/api/operator/settingsSave', b, { token: operator, ip: nextIp() })
    expect(r.body.code).toBe(200)
    return r
  }
  const usage = async () => (await post(t.app, '/api/operator/aiUsage', {}, { token: operator, ip: nextIp() })).body

  beforeAll(async () => {
    fake = await dify.start()
    t = await createTestApp(dialect, { env: dify.envFor(fake) })
    const op = await makeUser(t.db, t.clock, { role: 'operator' })
    operator = await loginToken(t.app, op.user_name!, op.password)
  })
  afterAll(async () => { await t?.close(); await fake.close() })
  beforeEach(async () => {
    // a day of its own for each test
    t.clock.advance(DAY_MS)
    await budgets({ aiDailyPerAccount: AI_BUDGET.perAccountDefault, aiDailyPerShop: AI_BUDGET.perShopDefault })
  })

  test('an account at its budget is told so, in its language, without the provider; others go on; the next day it may again', async () => {
    await budgets({ aiDailyPerAccount: 3 })
    const a = await login()
    const b = await login()
    for (let i = 0; i < 3; i++) expect((await ask(a, `n${i}`)).body.code).toBe(200)
    const before = fake.calls.length
    const over = await ask(a, 'one more')
    expect(over.status).toBe(200)
    expect(over.body).toEqual({ code: 422, message: "You have used all of today's AI requests. Please come back tomorrow", data: { reason: 'dailyBudget', scope: 'account' } })
    expect((await ask(a, 'one more', 'zh')).body.message).toBe('你今天的 AI 使用次数已用完，请明天再来')
    // the picture call counts against the same budget
    expect((await post(t.app, '/api/pic/pic2word', { file: 'https://cdn.example/a.png' }, { token: a, ip: nextIp() })).body.data).toEqual({ reason: 'dailyBudget', scope: 'account' })
    expect(fake.calls.length).toBe(before)
    expect((await ask(b, 'mine')).body.code).toBe(200)
    expect(await usage()).toMatchObject({ code: 200, data: { shopUsed: 4, perAccount: 3, accountMostUsed: 3, accountsAtBudget: 1 } })
    t.clock.advance(DAY_MS)
    expect((await ask(a, 'a new day')).body.code).toBe(200)
    expect((await usage()).data).toMatchObject({ shopUsed: 1, accountMostUsed: 1, accountsAtBudget: 0 })
  })

  test('the shop at its budget: every account is told so; raising the budget lets them go on', async () => {
    await budgets({ aiDailyPerShop: 4 })
    const tokens = [await login(), await login(), await login()]
    let ok = 0
    for (const tok of tokens) for (let i = 0; i < 2; i++) if ((await ask(tok, `x${i}`)).body.code === 200) ok++
    expect(ok).toBe(4)
    const over = await ask(tokens[2], 'more', 'zh')
    expect(over.body).toEqual({ code: 422, message: '本店今天的 AI 使用次数已用完，请明天再来', data: { reason: 'dailyBudget', scope: 'shop' } })
    expect(over.body.message).not.toMatch(/setting|budget|配置|设置/i)
    // refused by the shop: the account's own unit was not spent
    expect((await usage()).data).toMatchObject({ shopUsed: 4, perShop: 4, accountMostUsed: 2 })
    await budgets({ aiDailyPerShop: 5 })
    expect((await ask(tokens[2], 'more')).body.code).toBe(200)
    await budgets({ aiDailyPerShop: 0 })
    expect((await ask(tokens[0], 'off')).body.data).toEqual({ reason: 'dailyBudget', scope: 'shop' })
  })

  test('a concurrent burst never takes more than the budget: one account, and many accounts against the shop', async () => {
    await budgets({ aiDailyPerAccount: 5 })
    const a = await login()
    const one = await Promise.all(Array.from({ length: 15 }, (_, i) => ask(a, `burst ${i}`)))
    expect(one.filter(r => r.body.code === 200)).toHaveLength(5)
    expect(one.filter(r => r.body.code === 422 && r.body.data.scope === 'account')).toHaveLength(10)
    await budgets({ aiDailyPerAccount: 100, aiDailyPerShop: 12 })
    const many = await Promise.all(Array.from({ length: 6 }, () => login()))
    const answers = await Promise.all(many.flatMap(tok => Array.from({ length: 4 }, (_, i) => ask(tok, `many ${i}`))))
    expect(answers.filter(r => r.body.code === 200)).toHaveLength(12 - 5)
    expect(answers.filter(r => r.body.code === 422 && r.body.data.scope === 'shop')).toHaveLength(24 - 7)
    const today = (await usage()).data
    expect(today).toMatchObject({ shopUsed: 12 })
    // the counts as stored: no account past its budget, the shop exactly at its own
    const rows = await t.db.selectFrom('ai_usage').selectAll().where('day', '=', today.day).execute()
    expect(rows.find(r => r.subject === 'shop')!.used).toBe(12)
    expect(rows.filter(r => r.subject !== 'shop').reduce((n, r) => n + Number(r.used), 0)).toBe(12)
  })

  test("the provider's error counts (it was called); a provider never reached gives the unit back", async () => {
    await budgets({ aiDailyPerAccount: 2 })
    const a = await login()
    fake.next = 'http500'
    expect((await ask(a, 'broken')).status).toBe(502)
    expect((await usage()).data).toMatchObject({ shopUsed: 1, accountMostUsed: 1 })
    // an AI whose address nobody answers on: the connection is refused, nothing was spent
    const closed = await dify.start()
    await closed.close()
    const gone = await createTestApp(dialect, { env: dify.envFor(closed) })
    try {
      const u = await makeUser(gone.db, gone.clock)
      const tok = await loginToken(gone.app, u.user_name!, u.password)
      const r = await post(gone.app, '/api/text/text2text', { text: 'hello' }, { token: tok, ip: nextIp() })
      expect(r.status).toBe(502)
      const rows = await gone.db.selectFrom('ai_usage').selectAll().execute()
      expect(rows.map(x => Number(x.used))).toEqual(rows.map(() => 0))
      expect(rows.length).toBe(2)
    } finally {
      await gone.close()
    }
  })

  test('operators set the budgets within their range (400 naming the field); shoppers may not see or set them', async () => {
    const shopper = await login()
    expect((await post(t.app, '/api/operator/aiUsage', {}, { token: shopper, ip: nextIp() })).body.code).toBe(403)
    expect((await post(t.app, '/api/operator/settingsSave', { aiDailyPerShop: 10 }, { token: shopper, ip: nextIp() })).body.code).toBe(403)
    for (const [body, field] of [
      [{ aiDailyPerShop: -1 }, 'aiDailyPerShop'], [{ aiDailyPerShop: AI_BUDGET.perShopMax + 1 }, 'aiDailyPerShop'],
      [{ aiDailyPerAccount: 1.5 }, 'aiDailyPerAccount'], [{ aiDailyPerAccount: AI_BUDGET.perAccountMax + 1 }, 'aiDailyPerAccount']
    ] as const) {
      const r = await post(t.app, '/api/operator/settingsSave', body, { token: operator, ip: nextIp(), lang: 'zh' })
      expect([r.body.code, r.body.data]).toMatchObject([400, { field }])
      expect(r.body.message).toContain(field === 'aiDailyPerShop' ? '全店每天的 AI 次数' : '每个账号每天的 AI 次数')
    }
    const saved = await budgets({ aiDailyPerAccount: 7, aiDailyPerShop: 70 })
    expect(saved.body.data).toMatchObject({ aiDailyPerAccount: 7, aiDailyPerShop: 70 })
    expect((await usage()).data).toMatchObject({ perAccount: 7, perShop: 70, shopUsed: 0 })
  })
})
