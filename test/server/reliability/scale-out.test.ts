/**
 * Scale-out (issue 7): two API processes on one PostgreSQL, as behind a load balancer. Sessions, rate
 * limits, idempotency keys and slot races hold across them, because all of it lives in the database.
 */
import { testDialects } from '../support/db'
import { openDatabase } from '../../../server/src/db'
import { invariantViolations } from '../support/invariants'
import { RULES } from '../../../server/src/security/rules'
import { TOPUP_PRODUCT_ID } from '../../../types/limits'
import { call, newStore, startServer, type Answer, type ServerProcess, type Store } from '../support/server-process'

const describeOnPostgres = testDialects().includes('postgres') ? describe : describe.skip

async function ok (answer: Promise<Answer>, what: string): Promise<any> {
  const a = await answer
  if (!a.ok || a.body?.code !== 200) throw new Error(`${what}: ${JSON.stringify(a)}`)
  return a.body.data
}

describeOnPostgres('two API processes on one PostgreSQL', () => {
  let store: Store
  let a: ServerProcess
  let b: ServerProcess
  beforeAll(async () => {
    store = await newStore('postgres')
    a = await startServer(store) // migrates and seeds first
    b = await startServer(store)
  }, 120000)
  afterAll(async () => {
    await a?.stop()
    await b?.stop()
    await store?.drop()
  })

  const shopper = async (name: string, via: ServerProcess) => {
    const login = await ok(call(via.origin, 'POST', '/login/register?table=user', { user_name: name, password: 'scale-pw' }), 'register')
    await ok(call(via.origin, 'POST', '/api/ageVerify', { birthDate: '1990-01-01' }, login.token), 'ageVerify')
    const opId = await ok(call(via.origin, 'POST', '/generalOrder/getUniqueOrderNo', { productId: TOPUP_PRODUCT_ID, userId: login.user.id }, login.token), 'order number')
    await ok(call(via.origin, 'POST', '/generalOrder/create', { productId: TOPUP_PRODUCT_ID, userId: login.user.id, opId, amountCents: 100000, channel: 'sandbox' }, login.token), 'create')
    await ok(call(via.origin, 'POST', '/api/sandboxPay', { opId }, login.token), 'pay')
    return { id: login.user.id as number, token: login.token as string }
  }

  test('a session made on A works on B; logging out on either ends it on the other', async () => {
    const s = await shopper('scale_session', a)
    expect((await ok(call(b.origin, 'GET', '/getUserInfo', undefined, s.token), 'B')).id).toBe(s.id)
    await ok(call(b.origin, 'GET', '/logout', undefined, s.token), 'logout')
    expect((await call(a.origin, 'GET', '/getUserInfo', undefined, s.token)).body?.code).toBe(401)
    // and the other way round: a new session, used on B, ended on A
    const again = await ok(call(b.origin, 'POST', '/login/passwd', { user_name: 'scale_session', password: 'scale-pw' }), 'login on B')
    expect((await ok(call(a.origin, 'GET', '/getUserInfo', undefined, again.token), 'A')).id).toBe(s.id)
    expect((await ok(call(b.origin, 'POST', '/api/walletBalance', {}, again.token), 'balance on B')).cashCents).toBe(100000)
    await ok(call(a.origin, 'GET', '/logout', undefined, again.token), 'logout on A')
    expect((await call(b.origin, 'GET', '/getUserInfo', undefined, again.token)).body?.code).toBe(401)
    expect((await call(b.origin, 'POST', '/api/walletBalance', {}, again.token)).body?.code).toBe(401)
  }, 60000)

  test('one code per phone number a minute, whichever process is asked', async () => {
    const phone = '13700137000'
    const first = await call(a.origin, 'GET', `/login/sms/code?phone=${phone}`)
    expect(first.body?.code).toBe(200)
    // at once through both: the minute's budget of that number is spent, on A as on B
    const next = await Promise.all([b, a, b].map(via => call(via.origin, 'GET', `/login/sms/code?phone=${phone}`)))
    expect(next.map(x => x.body?.code)).toEqual([429, 429, 429])
  }, 60000)

  test('the password budget is one budget across both processes', async () => {
    await ok(call(a.origin, 'POST', '/login/register?table=user', { user_name: 'scale_guess', password: 'right-pw' }), 'register')
    const codes: number[] = []
    for (let i = 0; i < RULES.passwordPerAccountAndIp.limit + 3; i++) {
      const via = i % 2 === 0 ? a : b
      codes.push((await call(via.origin, 'POST', '/login/passwd', { user_name: 'scale_guess', password: `wrong-${i}` })).body!.code)
    }
    // all from 127.0.0.1: the per-account-and-IP budget (5) runs out, whichever process is asked
    expect(codes.filter(c => c === 401)).toHaveLength(RULES.passwordPerAccountAndIp.limit)
    expect(codes.slice(RULES.passwordPerAccountAndIp.limit).every(c => c === 429)).toBe(true)
  }, 60000)

  test('one idempotency key sent to A and B at once is applied once, and both answer the same purchase', async () => {
    const s = await shopper('scale_key', a)
    const seriesId = (await ok(call(a.origin, 'POST', '/api/seriesList', { page: 1, size: 10 }), 'series')).list[0].id
    for (let round = 0; round < 5; round++) {
      const current = await ok(call(a.origin, 'POST', '/api/caseCurrent', { seriesId }, s.token), 'case')
      const slot = current.slots.find((x: { sold: boolean }) => !x.sold).slot
      const body = { caseId: current.caseId, slots: [slot], acknowledged: true, idempotencyKey: `scale-key-${round}-${Date.now()}` }
      const [fromA, fromB] = await Promise.all([a, b].map(via => call(via.origin, 'POST', '/api/casePurchase', body, s.token)))
      const answers = [fromA.body!, fromB.body!]
      const applied = answers.filter(x => x.code === 200)
      expect(applied.length).toBeGreaterThanOrEqual(1)
      // a twin that lost the race answers the first result (or, while it is still running, a 409)
      for (const x of answers) if (x.code !== 200) expect(x.code).toBe(409)
      if (applied.length === 2) expect(applied[0].data.purchaseId).toBe(applied[1].data.purchaseId)
    }
    const handle = openDatabase({ databaseUrl: store.databaseUrl, poolSize: 1 })
    try {
      const purchases = await handle.db.selectFrom('purchases').select('id').where('user_id', '=', s.id).execute()
      expect(purchases).toHaveLength(5)
    } finally {
      await handle.close()
    }
  }, 60000)

  test('parallel purchases of one slot through A and B: exactly one wins, and the books hold', async () => {
    const buyers = [await shopper('scale_race_1', a), await shopper('scale_race_2', b)]
    const seriesId = (await ok(call(a.origin, 'POST', '/api/seriesList', { page: 1, size: 10 }), 'series')).list[1].id
    let wins = 0
    for (let round = 0; round < 8; round++) {
      const current = await ok(call(a.origin, 'POST', '/api/caseCurrent', { seriesId }, buyers[0].token), 'case')
      const slot = current.slots.find((x: { sold: boolean }) => !x.sold)?.slot
      if (!slot) continue
      const answers = await Promise.all(buyers.map((s, i) => call((i === 0 ? a : b).origin, 'POST', '/api/casePurchase',
        { caseId: current.caseId, slots: [slot], acknowledged: true, idempotencyKey: `scale-race-${round}-${i}-${Date.now()}` }, s.token)))
      const codes = answers.map(x => x.body!.code).sort()
      expect(codes).toEqual([200, 409])
      wins++
    }
    expect(wins).toBeGreaterThan(0)
    const handle = openDatabase({ databaseUrl: store.databaseUrl, poolSize: 1 })
    try {
      expect(await invariantViolations(handle.db)).toEqual([])
    } finally {
      await handle.close()
    }
  }, 60000)
})
