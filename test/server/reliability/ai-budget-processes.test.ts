/**
 * The daily AI budget across API processes (issue 48): two processes on one PostgreSQL, as behind a
 * load balancer, each with the AI (a local Dify fake). A burst of one account's calls through both
 * takes its budget and no more; a burst of several accounts through both takes what is left of the
 * shop's budget and no more. The counts live in the database (domain/aiBudget.ts), so the processes
 * agree.
 */
import { testDialects } from '../support/db'
import * as dify from '../../support/providers/dify'
import { call, newStore, ok, startServer, type ServerProcess, type Store } from '../support/server-process'

const describeOnPostgres = testDialects().includes('postgres') ? describe : describe.skip

describeOnPostgres('the daily AI budget on two API processes', () => {
  let store: Store
  let fake: Awaited<ReturnType<typeof dify.start>>
  let a: ServerProcess
  let b: ServerProcess
  beforeAll(async () => {
    fake = await dify.start()
    store = await newStore('postgres')
    a = await startServer(store, dify.envFor(fake)) // migrates and seeds first
    b = await startServer(store, dify.envFor(fake))
  }, 120000)
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    await store?.drop()
    await fake?.close()
  })

  test('a burst through both processes never takes more than the account\'s or the shop\'s budget', async () => {
    const operator = (await ok(call(a.origin, 'POST', '/login/passwd', { user_name: 'operator', password: 'operator123' }), 'operator login')).token as string
    await ok(call(a.origin, 'POST', '/api/operator/settingsSave', { aiDailyPerAccount: 4, aiDailyPerShop: 7 }, operator), 'budgets')
    // a process reads the settings again within 5 s (domain/settings.ts): B may have read them before the save
    await new Promise(resolve => setTimeout(resolve, 5_500))
    const shopper = async (name: string) => (await ok(call(b.origin, 'POST', '/login/register?table=user', { user_name: name, password: 'budget-pw' }), 'register')).token as string
    const one = await shopper('ai_budget_one')
    const before = fake.calls.length
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => call([a, b][i % 2].origin, 'POST', '/api/text/text2text', { text: `one ${i}` }, one)))
    expect(burst.map(r => r.body?.code).filter(c => c === 200)).toHaveLength(4)
    expect(burst.filter(r => r.body?.code === 422 && r.body.data.scope === 'account')).toHaveLength(8)
    // three left for the shop: two accounts' eight calls through both processes take three
    const others = [await shopper('ai_budget_two'), operator]
    const shop = await Promise.all(others.flatMap(tok => Array.from({ length: 4 }, (_, i) => call([a, b][i % 2].origin, 'POST', '/api/text/text2text', { text: `shop ${i}` }, tok))))
    expect(shop.filter(r => r.body?.code === 200)).toHaveLength(3)
    expect(shop.filter(r => r.body?.code === 422 && r.body.data.scope === 'shop')).toHaveLength(5)
    expect(fake.calls.length - before).toBe(7)
    expect(await ok(call(b.origin, 'POST', '/api/operator/aiUsage', {}, operator), 'usage')).toMatchObject({ shopUsed: 7, perShop: 7, perAccount: 4, accountMostUsed: 4, accountsAtBudget: 1 })
  }, 90000)
})
