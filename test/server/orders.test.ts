/**
 * The order flow with the sandbox channel (spec 7): unique order number, create, payment parameters,
 * pay, cancel, order message; the wallet and its ledger; settlement exactly once, also when the pay
 * call comes twice or concurrently.
 */
import { TOPUP_MAX_CENTS, TOPUP_MIN_CENTS, TOPUP_PRODUCT_ID } from '../../types/shop'
import { testDialects } from './support/db'
import { createTestApp, get, post, type TestApp } from './support/app'
import { makeShopper, topUp, type Shopper } from './support/shop'
import { checkLedger } from '../../server/src/domain/money/ledger'

describe.each(testDialects())('orders and wallet on %s', (dialect) => {
  let t: TestApp
  let alice: Shopper
  let bob: Shopper
  beforeAll(async () => {
    t = await createTestApp(dialect)
    alice = await makeShopper(t.app, t.db, t.clock)
    bob = await makeShopper(t.app, t.db, t.clock)
  })
  afterAll(async () => { await t.close() })

  const orderNo = async (s: Shopper) => (await post(t.app, '/generalOrder/getUniqueOrderNo', { productId: TOPUP_PRODUCT_ID, userId: s.id }, { token: s.token })).body.data as string
  const create = (s: Shopper, body: Record<string, unknown>) =>
    post(t.app, '/generalOrder/create', { productId: TOPUP_PRODUCT_ID, userId: s.id, amountCents: 5000, channel: 'sandbox', ...body }, { token: s.token })

  test('payMethod: the sandbox outside production, clearly labelled; no WeChat Pay without merchant keys', async () => {
    const r = await get(t.app, '/generalOrder/payMethod')
    expect(r.body).toEqual({
      code: 200,
      message: 'OK',
      data: [{ channel: 'sandbox', label: { zh: '沙箱支付（测试，不扣真实费用）', en: 'Sandbox (test money, no real charge)' }, sandbox: true }]
    })
  })

  test('getUniqueOrderNo: without userId the spec\'s failure naming userId; userId must be the logged-in user', async () => {
    const missing = await post(t.app, '/generalOrder/getUniqueOrderNo', { productId: TOPUP_PRODUCT_ID }, { token: alice.token, lang: 'zh' })
    expect(missing.body).toEqual({ code: 400, message: 'productId 或 userId 不能为空', data: { field: 'userId' } })
    const en = await post(t.app, '/generalOrder/getUniqueOrderNo', { productId: TOPUP_PRODUCT_ID, userId: null }, { token: alice.token })
    expect(en.body).toEqual({ code: 400, message: 'productId or userId must not be empty', data: { field: 'userId' } })
    // only userId is checked (spec 5): no productId is fine; authorization comes before validation
    expect((await post(t.app, '/generalOrder/getUniqueOrderNo', {}, { token: alice.token })).body).toMatchObject({ code: 400, data: { field: 'userId' } })
    expect((await post(t.app, '/generalOrder/getUniqueOrderNo', {})).body).toMatchObject({ code: 401 })
    expect((await post(t.app, '/generalOrder/getUniqueOrderNo', { userId: 'x', junk: true })).body).toMatchObject({ code: 401 })
    const other = await post(t.app, '/generalOrder/getUniqueOrderNo', { productId: TOPUP_PRODUCT_ID, userId: bob.id }, { token: alice.token })
    expect(other.body).toEqual({ code: 422, message: 'userId is not the logged-in user', data: { field: 'userId' } })
    expect((await post(t.app, '/generalOrder/getUniqueOrderNo', { productId: TOPUP_PRODUCT_ID, userId: String(alice.id) }, { token: alice.token })).body)
      .toMatchObject({ code: 400, data: { field: 'userId' } })
    const ok = await post(t.app, '/generalOrder/getUniqueOrderNo', { userId: alice.id }, { token: alice.token })
    expect(ok.body.code).toBe(200)
    expect(ok.body.data).toMatch(/^BB\d{14}[0-9A-F]{12}$/)
    expect(await orderNo(alice)).not.toBe(ok.body.data)
  })

  test('create: fails for a number not issued to this user (404 naming opId), a used number, a bad product, amount or channel', async () => {
    const unknown = await create(alice, { opId: 'BB20260301000000ABCDEF012345' })
    expect(unknown.body).toEqual({ code: 404, message: 'Unknown order number opId: get an order number first', data: { field: 'opId' } })
    expect((await create(alice, { opId: 'x' })).body).toMatchObject({ code: 400, data: { field: 'opId' } })
    const bobs = await orderNo(bob)
    expect((await create(alice, { opId: bobs })).body).toMatchObject({ code: 404, data: { field: 'opId' } })
    const opId = await orderNo(alice)
    expect((await create(alice, { opId, productId: 'gold_bar' })).body).toMatchObject({ code: 400, data: { field: 'productId' } })
    expect((await create(alice, { opId, amountCents: TOPUP_MIN_CENTS - 1 })).body).toMatchObject({ code: 400, data: { field: 'amountCents', rule: 'minimum' } })
    expect((await create(alice, { opId, amountCents: TOPUP_MAX_CENTS + 1 })).body).toMatchObject({ code: 400, data: { field: 'amountCents', rule: 'maximum' } })
    expect((await create(alice, { opId, amountCents: 50.5 })).body).toMatchObject({ code: 400, data: { field: 'amountCents' } })
    expect((await create(alice, { opId, channel: 'alipay' })).body).toMatchObject({ code: 400, data: { field: 'channel' } })
    expect((await create(alice, { opId, channel: 'wechat_jsapi' })).body).toMatchObject({ code: 422, data: { field: 'channel' } })
    expect((await create(alice, { opId, userId: bob.id })).body).toMatchObject({ code: 422, data: { field: 'userId' } })
    expect((await post(t.app, '/generalOrder/create', { productId: TOPUP_PRODUCT_ID, userId: alice.id, opId, amountCents: 5000, channel: 'sandbox' })).body.code).toBe(401)
    const created = await create(alice, { opId })
    expect(created.body.data).toEqual({
      opId, productId: TOPUP_PRODUCT_ID, amountCents: 5000, channel: 'sandbox', status: 'created', createdAt: new Date(t.clock.now()).toISOString(), paidAt: null
    })
    // the same creation again answers the same order; another body is refused
    expect((await create(alice, { opId })).body.data).toEqual(created.body.data)
    expect((await create(alice, { opId, amountCents: 9000 })).body).toEqual({ code: 400, message: 'The order number opId was already used', data: { field: 'opId' } })
  })

  test('end to end: number, create, payment parameters, sandbox pay, balance and ledger; paying twice settles once', async () => {
    const carol = await makeShopper(t.app, t.db, t.clock)
    const opId = await orderNo(carol)
    expect((await create(carol, { opId, amountCents: 12345 })).body.code).toBe(200)
    const params = await post(t.app, '/generalOrder/getPaymentParam', { opId }, { token: carol.token })
    expect(params.body.data).toEqual({ opId, channel: 'sandbox', sandbox: { payCall: '/api/sandboxPay' } })
    expect((await post(t.app, '/api/walletBalance', {}, { token: carol.token })).body.data).toEqual({ cashCents: 0, creditCents: 0 })
    t.clock.advance(1000)
    const paid = await post(t.app, '/api/sandboxPay', { opId }, { token: carol.token })
    expect(paid.body.data).toMatchObject({ opId, status: 'paid', paidAt: new Date(t.clock.now()).toISOString(), amountCents: 12345 })
    const again = await post(t.app, '/api/sandboxPay', { opId }, { token: carol.token })
    expect(again.body).toMatchObject({ code: 200, data: { status: 'paid', paidAt: paid.body.data.paidAt } })
    expect((await post(t.app, '/api/walletBalance', {}, { token: carol.token })).body.data).toEqual({ cashCents: 12345, creditCents: 0 })
    const ledger = await post(t.app, '/api/walletLedger', { page: 1, size: 10 }, { token: carol.token })
    expect(ledger.body.data).toEqual({
      total: 1,
      list: [{ id: expect.any(Number), txId: expect.any(Number), kind: 'topup', account: 'cash', amountCents: 12345, createdAt: paid.body.data.paidAt, reference: opId }]
    })
    expect((await post(t.app, '/generalOrder/getPayOrderMessage', { opId }, { token: carol.token })).body.data.status).toBe('paid')
    expect((await post(t.app, '/generalOrder/getPaymentParam', { opId }, { token: carol.token })).body).toMatchObject({ code: 422, message: 'An order in status paid cannot be paid' })
    expect((await post(t.app, '/generalOrder/cancelPay', { opId }, { token: carol.token })).body).toMatchObject({ code: 422, data: { status: 'paid' } })
    const txs = await t.db.selectFrom('ledger_transactions').selectAll().where('reference', '=', opId).execute()
    expect(txs).toHaveLength(1)
  })

  test('concurrent sandbox pays of one order settle it once', async () => {
    const dave = await makeShopper(t.app, t.db, t.clock)
    const opId = await orderNo(dave)
    await create(dave, { opId, amountCents: 7000 })
    const results = await Promise.all(Array.from({ length: 12 }, () => post(t.app, '/api/sandboxPay', { opId }, { token: dave.token })))
    expect(results.map(r => r.body.code)).toEqual(new Array(12).fill(200))
    expect((await post(t.app, '/api/walletBalance', {}, { token: dave.token })).body.data.cashCents).toBe(7000)
    expect(await t.db.selectFrom('ledger_transactions').select('id').where('reference', '=', opId).execute()).toHaveLength(1)
  })

  test('cancelPay cancels a created order only; a canceled order cannot be paid', async () => {
    const opId = await orderNo(alice)
    await create(alice, { opId })
    const canceled = await post(t.app, '/generalOrder/cancelPay', { opId }, { token: alice.token })
    expect(canceled.body).toMatchObject({ code: 200, data: { status: 'canceled' } })
    expect((await post(t.app, '/generalOrder/cancelPay', { opId }, { token: alice.token })).body).toMatchObject({ code: 422, message: 'An order in status canceled cannot be canceled' })
    expect((await post(t.app, '/api/sandboxPay', { opId }, { token: alice.token })).body).toMatchObject({ code: 409, data: { status: 'canceled' } })
    expect((await post(t.app, '/generalOrder/getPaymentParam', { opId }, { token: alice.token })).body.code).toBe(422)
  })

  test('orders are their owner\'s: another user, an issued-only number or nonsense is a 404; login is needed', async () => {
    const opId = await orderNo(alice)
    expect((await post(t.app, '/generalOrder/getPayOrderMessage', { opId }, { token: alice.token })).body).toMatchObject({ code: 404, message: 'No such order' })
    await create(alice, { opId })
    for (const path of ['/generalOrder/getPayOrderMessage', '/generalOrder/getPaymentParam', '/generalOrder/cancelPay', '/api/sandboxPay']) {
      expect((await post(t.app, path, { opId }, { token: bob.token })).body).toMatchObject({ code: 404, data: { field: 'opId' } })
      expect((await post(t.app, path, { opId })).body.code).toBe(401)
      expect((await post(t.app, path, {}, { token: alice.token })).body).toMatchObject({ code: 400, data: { field: 'opId', rule: 'required' } })
    }
    expect((await post(t.app, '/generalOrder/getPayOrderMessage', { opId }, { token: alice.token })).body.data.status).toBe('created')
  })

  test('wallet calls need login and take no fields; the ledger pages newest first', async () => {
    expect((await post(t.app, '/api/walletBalance', {})).body.code).toBe(401)
    expect((await post(t.app, '/api/walletLedger', { page: 1, size: 10 })).body.code).toBe(401)
    expect((await post(t.app, '/api/walletBalance', { userId: bob.id }, { token: alice.token })).body).toMatchObject({ code: 400, data: { field: 'userId' } })
    const erin = await makeShopper(t.app, t.db, t.clock)
    const first = await topUp(t.app, erin, 100)
    const second = await topUp(t.app, erin, 200)
    const third = await topUp(t.app, erin, 300)
    const page1 = await post(t.app, '/api/walletLedger', { page: 1, size: 2 }, { token: erin.token })
    expect(page1.body.data.total).toBe(3)
    expect(page1.body.data.list.map((e: { reference: string; amountCents: number }) => [e.reference, e.amountCents])).toEqual([[third, 300], [second, 200]])
    const page2 = await post(t.app, '/api/walletLedger', { page: 2, size: 2 }, { token: erin.token })
    expect(page2.body.data.list.map((e: { reference: string }) => e.reference)).toEqual([first])
    expect((await post(t.app, '/api/walletBalance', {}, { token: erin.token })).body.data.cashCents).toBe(600)
    const check = await checkLedger(t.db)
    expect(check.unbalanced).toEqual([])
    expect(check.walletMismatches).toEqual([])
  })

  test('order numbers are rate limited per user', async () => {
    const fay = await makeShopper(t.app, t.db, t.clock)
    const codes: number[] = []
    for (let i = 0; i < 31; i++) codes.push((await post(t.app, '/generalOrder/getUniqueOrderNo', { userId: fay.id }, { token: fay.token })).body.code)
    expect(codes.slice(0, 30)).toEqual(new Array(30).fill(200))
    expect(codes[30]).toBe(429)
  })
})

describe.each(testDialects())('orders in production on %s', (dialect) => {
  test('no sandbox: the pay call does not exist and the channel is refused', async () => {
    const t = await createTestApp(dialect, { env: { NODE_ENV: 'production' } })
    try {
      const s = await makeShopper(t.app, t.db, t.clock)
      expect((await get(t.app, '/generalOrder/payMethod')).body.data).toEqual([])
      const opId = (await post(t.app, '/generalOrder/getUniqueOrderNo', { userId: s.id }, { token: s.token })).body.data
      const created = await post(t.app, '/generalOrder/create', { productId: TOPUP_PRODUCT_ID, userId: s.id, opId, amountCents: 5000, channel: 'sandbox' }, { token: s.token })
      expect(created.body).toMatchObject({ code: 422, message: 'The payment method sandbox is not available' })
      expect((await post(t.app, '/api/sandboxPay', { opId }, { token: s.token })).body).toMatchObject({ code: 404, message: 'No such API' })
    } finally {
      await t.close()
    }
  })

  test('a sandbox order left over from development is not offered a pay call; it can be canceled', async () => {
    const t = await createTestApp(dialect, { env: { NODE_ENV: 'production' } })
    try {
      const s = await makeShopper(t.app, t.db, t.clock)
      const opId = (await post(t.app, '/generalOrder/getUniqueOrderNo', { userId: s.id }, { token: s.token })).body.data
      // what development left behind: the issued number, made into a created sandbox order
      await t.db.updateTable('orders').set({ status: 'created', channel: 'sandbox', amount_cents: 5000, product_id: TOPUP_PRODUCT_ID }).where('op_id', '=', opId).execute()
      const params = await post(t.app, '/generalOrder/getPaymentParam', { opId }, { token: s.token, lang: 'en' })
      expect(params.body).toEqual({ code: 422, message: 'Sandbox payments are off in production: this test order cannot be paid; cancel it and top up another way', data: { channel: 'sandbox' } })
      expect(JSON.stringify(params.body)).not.toContain('/api/sandboxPay')
      const zh = await post(t.app, '/generalOrder/getPaymentParam', { opId }, { token: s.token, lang: 'zh-CN' })
      expect(zh.body).toEqual({ code: 422, message: '生产环境已关闭沙箱支付：这笔测试订单不能支付，请取消后用其他方式重新充值', data: { channel: 'sandbox' } })
      // the pay call it would have named does not exist here
      expect((await post(t.app, '/api/sandboxPay', { opId }, { token: s.token })).body.code).toBe(404)
      expect((await post(t.app, '/generalOrder/getPayOrderMessage', { opId }, { token: s.token })).body.data).toMatchObject({ opId, status: 'created', channel: 'sandbox' })
      const canceled = await post(t.app, '/generalOrder/cancelPay', { opId }, { token: s.token })
      expect(canceled.body).toMatchObject({ code: 200, data: { opId, status: 'canceled' } })
      expect((await post(t.app, '/generalOrder/getPayOrderMessage', { opId }, { token: s.token })).body.data.status).toBe('canceled')
      expect(await t.db.selectFrom('ledger_transactions').select('id').where('reference', '=', opId).execute()).toHaveLength(0)
      expect((await post(t.app, '/api/walletBalance', {}, { token: s.token })).body.data).toEqual({ cashCents: 0, creditCents: 0 })
    } finally {
      await t.close()
    }
  })
})

describe.each(testDialects())('sandboxPay raced with cancelPay on %s', (dialect) => {
  test('15 rounds: every answer is the true outcome, and the money follows the final row', async () => {
    const t = await createTestApp(dialect)
    try {
      const s = await makeShopper(t.app, t.db, t.clock)
      const outcomes: Record<string, number> = {}
      let credited = 0
      for (let round = 0; round < 15; round++) {
        const opId = (await post(t.app, '/generalOrder/getUniqueOrderNo', { userId: s.id }, { token: s.token })).body.data
        await post(t.app, '/generalOrder/create', { productId: TOPUP_PRODUCT_ID, userId: s.id, opId, amountCents: 1000, channel: 'sandbox' }, { token: s.token })
        // which call starts first alternates, so that each can win on SQLite too (one transaction at a time)
        const payCall = () => post(t.app, '/api/sandboxPay', { opId }, { token: s.token })
        const cancelCall = () => post(t.app, '/generalOrder/cancelPay', { opId }, { token: s.token })
        const [pay, cancel] = round % 2 === 0
          ? await Promise.all([payCall(), cancelCall()])
          : await Promise.all([cancelCall(), payCall()]).then(([c, p]) => [p, c])
        const row = await t.db.selectFrom('orders').select('status').where('op_id', '=', opId).executeTakeFirstOrThrow()
        const txs = await t.db.selectFrom('ledger_transactions').select('id').where('reference', '=', opId).execute()
        if (row.status === 'paid') {
          expect(pay.body).toMatchObject({ code: 200, data: { status: 'paid' } })
          expect(cancel.body).toMatchObject({ code: 422, data: { status: 'paid' } })
          expect(txs).toHaveLength(1)
          credited += 1000
        } else {
          expect(row.status).toBe('canceled')
          expect(pay.body).toMatchObject({ code: 409, data: { status: 'canceled' } })
          expect(cancel.body).toMatchObject({ code: 200, data: { status: 'canceled' } })
          expect(txs).toHaveLength(0)
        }
        outcomes[row.status] = (outcomes[row.status] ?? 0) + 1
      }
      expect((outcomes.paid ?? 0) + (outcomes.canceled ?? 0)).toBe(15)
      expect((await post(t.app, '/api/walletBalance', {}, { token: s.token })).body.data.cashCents).toBe(credited)
      const books = await checkLedger(t.db)
      expect(books.unbalanced).toEqual([])
      expect(books.walletMismatches).toEqual([])
    } finally {
      await t.close()
    }
  })
})
