/**
 * Withdrawals (issue 8) on SQLite and PostgreSQL: the shopper's request (rules, the hold, the split over
 * top-up orders, idempotency), the operator's queue and decisions (approve, reject with a reason, the
 * audit log), races under real concurrency (two withdrawals of the same cash; approve against reject),
 * sandbox refunds, WeChat Pay refunds against the local fake (signed refund requests, signed refund
 * notifications settled once, failures giving the money back), and the books after it all.
 */
import { TOPUP_PRODUCT_ID } from '../../types/shop'
import { DEFAULT_SHOP_SETTINGS } from '../../types/limits'
import { saveSettings } from '../../server/src/domain/ops/settings'
import { postTransaction } from '../../server/src/domain/money/ledger'
import { addToWallet } from '../../server/src/domain/money/wallet'
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, post, PREFIX, type TestApp } from './support/app'
import { makeShopper, newKey, topUp, type Shopper } from './support/shop'
import { invariantViolations } from './support/invariants'
import { startWeChatPay, type FakeWeChatPay } from './support/wechatpay'

interface Ctx { t: TestApp; operator: { id: number; token: string } }

async function makeOperator (t: TestApp) {
  const u = await makeUser(t.db, t.clock, { role: 'operator' })
  return { id: Number(u.id), token: await loginToken(t.app, u.user_name!, u.password) }
}

const helpers = (c: () => Ctx) => ({
  withdraw: (s: Shopper, amountCents: number, o: { key?: string; lang?: string } = {}) =>
    post(c().t.app, '/api/withdrawRequest', { amountCents, idempotencyKey: o.key ?? newKey('wd') }, { token: s.token, lang: o.lang }),
  approve: (withdrawalId: number, token = c().operator.token) => post(c().t.app, '/api/operator/withdrawApprove', { withdrawalId }, { token }),
  reject: (withdrawalId: number, reason: string, token = c().operator.token, lang?: string) =>
    post(c().t.app, '/api/operator/withdrawReject', { withdrawalId, reason }, { token, lang }),
  balance: async (s: Shopper) => (await post(c().t.app, '/api/walletBalance', {}, { token: s.token })).body.data as { cashCents: number; creditCents: number },
  mine: async (s: Shopper) => (await post(c().t.app, '/api/withdrawList', { page: 1, size: 50 }, { token: s.token })).body.data,
  order: (opId: string) => c().t.db.selectFrom('orders').select(['amount_cents', 'refunded_cents', 'status']).where('op_id', '=', opId).executeTakeFirstOrThrow()
    .then(o => ({ amount: Number(o.amount_cents), refunded: Number(o.refunded_cents), status: o.status })),
  grantCredit: (userId: number, cents: number) => c().t.db.transaction().execute(async trx => {
    await postTransaction(trx, c().t.clock.now, {
      kind: 'reward', reference: 'test credit', idempotencyKey: null, userId,
      lines: [{ account: 'house_credit', amountCents: -cents }, { account: 'user_credit', userId, amountCents: cents }]
    })
    await addToWallet(trx, c().t.clock.now, userId, { creditCents: cents })
  })
})

describe.each(testDialects())('withdrawals on %s', (dialect) => {
  const ctx = {} as Ctx
  const { withdraw, approve, reject, balance, mine, order, grantCredit } = helpers(() => ctx)
  beforeAll(async () => {
    ctx.t = await createTestApp(dialect)
    ctx.operator = await makeOperator(ctx.t)
  })
  afterAll(async () => {
    expect(await invariantViolations(ctx.t.db)).toEqual([])
    await ctx.t.close()
  })

  test('login needed (401) on every call; the operator calls are 403 for a shopper, before validation', async () => {
    const { t } = ctx
    for (const url of ['/api/withdrawInfo', '/api/withdrawRequest', '/api/withdrawList', '/api/operator/withdrawList', '/api/operator/withdrawApprove', '/api/operator/withdrawReject']) {
      expect([url, (await post(t.app, url, {})).body.code]).toEqual([url, 401])
    }
    const s = await makeShopper(t.app, t.db, t.clock)
    for (const [url, body] of [['/api/operator/withdrawList', { page: 0 }], ['/api/operator/withdrawApprove', { withdrawalId: 'x' }], ['/api/operator/withdrawReject', {}]] as const) {
      const r = await post(t.app, url, body, { token: s.token, lang: 'zh' })
      expect([url, r.body.code, r.body.message]).toEqual([url, 403, '只有运营人员可以这样做'])
    }
  })

  test('the form\'s figures: withdrawable cash (credit not counted), minimum, daily maximum, what is left today', async () => {
    const { t } = ctx
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 3000)
    await grantCredit(s.id, 5000)
    const info = await post(t.app, '/api/withdrawInfo', {}, { token: s.token })
    expect(info.body).toEqual({
      code: 200, message: 'OK',
      data: { cashCents: 3000, minCents: DEFAULT_SHOP_SETTINGS.withdrawMinCents, dailyMaxCents: DEFAULT_SHOP_SETTINGS.withdrawDailyMaxCents, usedTodayCents: 0, availableCents: 3000 }
    })
  })

  test('bad input names the field (400); below the minimum, over the cash (credit never counts) are 422 with the rule', async () => {
    const { t } = ctx
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 2000)
    await grantCredit(s.id, 10000)
    for (const [body, field] of [
      [{ amountCents: 0, idempotencyKey: newKey() }, 'amountCents'],
      [{ amountCents: 12.5, idempotencyKey: newKey() }, 'amountCents'],
      [{ amountCents: '500', idempotencyKey: newKey() }, 'amountCents'],
      [{ amountCents: 500 }, 'idempotencyKey'],
      [{ amountCents: 500, idempotencyKey: 'short' }, 'idempotencyKey'],
      [{ amountCents: 500, idempotencyKey: newKey(), account: 'credit' }, 'account']
    ] as const) {
      const r = await post(t.app, '/api/withdrawRequest', body, { token: s.token })
      expect([field, r.body.code, r.body.data?.field]).toEqual([field, 400, field])
    }
    const low = await withdraw(s, 99)
    expect(low.body).toEqual({ code: 422, message: 'The smallest withdrawal is ¥1.00', data: { reason: 'below_min', minCents: 100 } })
    const over = await withdraw(s, 2001, { lang: 'zh' })
    expect(over.body).toEqual({ code: 422, message: '提现金额超过可提现余额（¥20.00）；赠送余额不能提现', data: { reason: 'over_cash', cashCents: 2000 } })
    // cash 2000 + credit 10000: still only the cash
    expect((await withdraw(s, 5000)).body.data).toEqual({ reason: 'over_cash', cashCents: 2000 })
    expect(await balance(s)).toEqual({ cashCents: 2000, creditCents: 10000 })
    // a shopper who never topped up has nothing to withdraw
    const broke = await makeShopper(t.app, t.db, t.clock)
    expect((await withdraw(broke, 100)).body.data).toEqual({ reason: 'over_cash', cashCents: 0 })
    expect(await t.db.selectFrom('withdrawals').select('id').where('user_id', 'in', [s.id, broke.id]).execute()).toEqual([])
  })

  test('a request holds the cash: ledger withdraw (user_cash -x, withdraw_pending +x), the split over the newest paid top-ups first', async () => {
    const { t } = ctx
    const s = await makeShopper(t.app, t.db, t.clock)
    const older = await topUp(t.app, s, 1000)
    t.clock.advance(1000)
    const newer = await topUp(t.app, s, 2000)
    const r = await withdraw(s, 2500)
    expect(r.body.code).toBe(200)
    expect(r.body.data).toMatchObject({
      amountCents: 2500, status: 'requested', reason: null, returnedCents: 0, decidedAt: null, finishedAt: null,
      refunds: [{ opId: newer, channel: 'sandbox', amountCents: 2000, status: 'pending' }, { opId: older, channel: 'sandbox', amountCents: 500, status: 'pending' }]
    })
    expect(await balance(s)).toEqual({ cashCents: 500, creditCents: 0 })
    expect(await order(newer)).toEqual({ amount: 2000, refunded: 2000, status: 'paid' })
    expect(await order(older)).toEqual({ amount: 1000, refunded: 500, status: 'paid' })
    const lines = await t.db.selectFrom('ledger_lines').innerJoin('ledger_transactions', 'ledger_transactions.id', 'ledger_lines.tx_id')
      .select(['ledger_lines.account', 'ledger_lines.amount_cents', 'ledger_lines.user_id']).where('ledger_transactions.kind', '=', 'withdraw')
      .where('ledger_transactions.user_id', '=', s.id).orderBy('ledger_lines.id').execute()
    expect(lines.map(l => [l.account, Number(l.amount_cents), l.user_id === null ? null : Number(l.user_id)])).toEqual([['user_cash', -2500, s.id], ['withdraw_pending', 2500, null]])
    const ledger = await post(t.app, '/api/walletLedger', { page: 1, size: 5 }, { token: s.token })
    expect(ledger.body.data.list[0]).toMatchObject({ kind: 'withdraw', account: 'cash', amountCents: -2500 })
    // the shopper sees it
    expect((await mine(s)).list).toEqual([r.body.data])
    // the database refuses refunding an order above what it was paid
    // (the message, not toThrow: better-sqlite3's native addon is shared by Jest's realms, so its error
    // may come from another realm's Error class and fail an instanceof check)
    const refused = await t.db.updateTable('orders').set({ refunded_cents: 1001 }).where('op_id', '=', older).execute()
      .then(() => 'no error', (e: unknown) => String((e as { message?: unknown }).message))
    expect(refused).toMatch(/orders_refunded_check/)
  })

  test('the idempotency key: a replay answers the first result and holds nothing more; the key with another amount is a 409', async () => {
    const { t } = ctx
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 5000)
    const key = newKey('replay')
    const first = await withdraw(s, 1000, { key })
    const again = await withdraw(s, 1000, { key })
    expect(again.body).toEqual(first.body)
    expect(await balance(s)).toEqual({ cashCents: 4000, creditCents: 0 })
    const other = await withdraw(s, 1500, { key })
    expect(other.body).toMatchObject({ code: 409, data: { field: 'idempotencyKey' } })
    // twins at the same moment: one withdrawal
    const twinKey = newKey('twin')
    const twins = await Promise.all(Array.from({ length: 6 }, () => withdraw(s, 700, { key: twinKey })))
    expect(new Set(twins.map(r => r.body.code === 200 ? r.body.data.id : r.body.code)).size).toBe(1)
    expect(await balance(s)).toEqual({ cashCents: 3300, creditCents: 0 })
    expect((await mine(s)).total).toBe(2)
  })

  test('the daily maximum: summed per China day over withdrawals not rejected; the next day starts afresh', async () => {
    const { t } = ctx
    await saveSettings(t.db, t.clock.now, ctx.operator.id, { withdrawDailyMaxCents: 3000 })
    try {
      const s = await makeShopper(t.app, t.db, t.clock)
      await topUp(t.app, s, 10000)
      // 2026-03-01T08:00Z is 16:00 in China: the day ends at 16:00Z
      const a = await withdraw(s, 2000)
      expect(a.body.code).toBe(200)
      const over = await withdraw(s, 1500)
      expect(over.body).toEqual({ code: 422, message: 'At most ¥30.00 can be withdrawn a day; ¥10.00 left today', data: { reason: 'daily_limit', dailyMaxCents: 3000, leftTodayCents: 1000 } })
      expect((await post(t.app, '/api/withdrawInfo', {}, { token: s.token })).body.data).toMatchObject({ usedTodayCents: 2000, availableCents: 1000 })
      // a rejected one no longer counts
      expect((await reject(a.body.data.id, 'Bank details missing')).body.code).toBe(200)
      expect((await withdraw(s, 3000)).body.code).toBe(200)
      expect((await withdraw(s, 100)).body.data.reason).toBe('daily_limit')
      t.clock.advance(8 * 60 * 60 * 1000) // 16:00Z: midnight in China
      expect((await withdraw(s, 3000)).body.code).toBe(200)
    } finally {
      await saveSettings(t.db, t.clock.now, ctx.operator.id, { withdrawDailyMaxCents: DEFAULT_SHOP_SETTINGS.withdrawDailyMaxCents })
    }
  })

  test('approve (sandbox): refunded at once, status paid, ledger withdraw_payout once, an audit row; approving again is a 409', async () => {
    const { t } = ctx
    const s = await makeShopper(t.app, t.db, t.clock)
    const opId = await topUp(t.app, s, 5000)
    const w = (await withdraw(s, 3000)).body.data
    const r = await approve(w.id)
    expect(r.body.code).toBe(200)
    expect(r.body.data).toMatchObject({ id: w.id, status: 'paid', userId: s.id, userLabel: `Tester (${s.userName})`, refunds: [{ opId, status: 'success', amountCents: 3000 }] })
    expect(r.body.data.decidedAt).not.toBeNull()
    expect(r.body.data.finishedAt).not.toBeNull()
    expect(await balance(s)).toEqual({ cashCents: 2000, creditCents: 0 })
    expect(await order(opId)).toEqual({ amount: 5000, refunded: 3000, status: 'paid' })
    const payout = await t.db.selectFrom('ledger_lines').innerJoin('ledger_transactions', 'ledger_transactions.id', 'ledger_lines.tx_id')
      .select(['ledger_lines.account', 'ledger_lines.amount_cents']).where('ledger_transactions.idempotency_key', '=', `withdraw-payout:${w.id}`).orderBy('ledger_lines.id').execute()
    expect(payout.map(l => [l.account, Number(l.amount_cents)])).toEqual([['withdraw_pending', -3000], ['payment_clearing', 3000]])
    const audit = await t.db.selectFrom('audit_log').selectAll().where('entity', '=', 'withdrawal').where('entity_id', '=', w.id).execute()
    expect(audit).toHaveLength(1)
    expect(audit[0]).toMatchObject({ actor_id: ctx.operator.id, action: 'withdrawal.approve' })
    expect(JSON.parse(audit[0].detail)).toMatchObject({ userId: s.id, amountCents: 3000 })
    for (const again of [await approve(w.id), await reject(w.id, 'late')]) {
      expect(again.body).toEqual({ code: 409, message: 'This withdrawal was already decided (paid)', data: { status: 'paid' } })
    }
    expect((await mine(s)).list[0]).toMatchObject({ id: w.id, status: 'paid' })
    // the remaining cash can still be withdrawn from the same order, never beyond it
    expect((await withdraw(s, 2000)).body.data.refunds).toEqual([{ opId, channel: 'sandbox', amountCents: 2000, status: 'pending' }])
    expect(await order(opId)).toEqual({ amount: 5000, refunded: 5000, status: 'paid' })
  })

  test('reject with a reason: the cash goes back (ledger withdraw_release), the order\'s part freed, the shopper sees the reason', async () => {
    const { t } = ctx
    const s = await makeShopper(t.app, t.db, t.clock)
    const opId = await topUp(t.app, s, 4000)
    const w = (await withdraw(s, 4000)).body.data
    expect(await balance(s)).toEqual({ cashCents: 0, creditCents: 0 })
    for (const reason of ['', '   ', '\u3000', 'x'.repeat(201), 'line\nbreak']) {
      expect((await reject(w.id, reason)).body).toMatchObject({ code: 400, data: { field: 'reason' } })
    }
    // nothing changed by the refusals
    expect((await mine(s)).list[0]).toMatchObject({ id: w.id, status: 'requested', reason: null })
    const r = await reject(w.id, 'Suspicious activity: please contact support', ctx.operator.token, 'zh')
    expect(r.body).toMatchObject({ code: 200, message: '操作成功', data: { id: w.id, status: 'rejected', reason: 'Suspicious activity: please contact support', returnedCents: 4000, refunds: [{ opId, status: 'canceled' }] } })
    expect(await balance(s)).toEqual({ cashCents: 4000, creditCents: 0 })
    expect(await order(opId)).toEqual({ amount: 4000, refunded: 0, status: 'paid' })
    const release = await t.db.selectFrom('ledger_lines').innerJoin('ledger_transactions', 'ledger_transactions.id', 'ledger_lines.tx_id')
      .select(['ledger_lines.account', 'ledger_lines.amount_cents', 'ledger_transactions.kind']).where('ledger_transactions.idempotency_key', '=', `withdraw-release:${w.id}`).orderBy('ledger_lines.id').execute()
    expect(release.map(l => [l.kind, l.account, Number(l.amount_cents)])).toEqual([['withdraw_release', 'withdraw_pending', -4000], ['withdraw_release', 'user_cash', 4000]])
    const audit = await t.db.selectFrom('audit_log').selectAll().where('entity', '=', 'withdrawal').where('entity_id', '=', w.id).execute()
    expect(audit.map(a => [a.action, JSON.parse(a.detail).after.reason])).toEqual([['withdrawal.reject', 'Suspicious activity: please contact support']])
    expect((await approve(w.id, ctx.operator.token)).body).toMatchObject({ code: 409, data: { status: 'rejected' } })
    const zh = await post(t.app, '/api/operator/withdrawApprove', { withdrawalId: w.id }, { token: ctx.operator.token, lang: 'zh' })
    expect(zh.body.message).toBe('该提现申请已处理（已拒绝）')
    expect((await mine(s)).list[0]).toMatchObject({ status: 'rejected', reason: 'Suspicious activity: please contact support', returnedCents: 4000 })
  })

  test('unknown ids are 404; ids out of range are 400', async () => {
    for (const call of [approve(999999), reject(999999, 'no')]) {
      expect((await call).body).toEqual({ code: 404, message: 'No such withdrawal', data: null })
    }
    expect((await approve(0)).body).toMatchObject({ code: 400, data: { field: 'withdrawalId' } })
    expect((await post(ctx.t.app, '/api/operator/withdrawList', { page: 1, size: 10, status: 'lost' }, { token: ctx.operator.token })).body).toMatchObject({ code: 400, data: { field: 'status' } })
  })

  test('the operator\'s queue: requested first (oldest first), then the decided (newest first); paging and a status filter', async () => {
    const { t } = ctx
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 10000)
    const ids: number[] = []
    for (let i = 0; i < 4; i++) ids.push((await withdraw(s, 1000 + i)).body.data.id)
    await approve(ids[1])
    const all: Array<{ id: number; status: string }> = []
    for (let page = 1; ; page++) {
      const r = await post(t.app, '/api/operator/withdrawList', { page, size: 3 }, { token: ctx.operator.token })
      expect(r.body.code).toBe(200)
      all.push(...r.body.data.list)
      if (all.length >= r.body.data.total) break
    }
    const requested = all.filter(w => w.status === 'requested').map(w => w.id)
    const firstDecided = all.findIndex(w => w.status !== 'requested')
    expect(all.slice(firstDecided).every(w => w.status !== 'requested')).toBe(true)
    expect(requested).toEqual([...requested].sort((a, b) => a - b))
    const decided = all.slice(firstDecided).map(w => w.id)
    expect(decided).toEqual([...decided].sort((a, b) => b - a))
    for (const id of [ids[0], ids[2], ids[3]]) expect(requested).toContain(id)
    const onlyPaid = await post(t.app, '/api/operator/withdrawList', { page: 1, size: 100, status: 'paid' }, { token: ctx.operator.token })
    expect(onlyPaid.body.data.list.every((w: { status: string }) => w.status === 'paid')).toBe(true)
    expect(onlyPaid.body.data.list.map((w: { id: number }) => w.id)).toContain(ids[1])
    expect(onlyPaid.body.data.total).toBe(onlyPaid.body.data.list.length)
  })

  test('race: parallel withdrawals of the same cash: only what the balance covers succeeds, never negative', async () => {
    const { t } = ctx
    for (let round = 0; round < 3; round++) {
      const s = await makeShopper(t.app, t.db, t.clock)
      await topUp(t.app, s, 1000)
      const two = await Promise.all([withdraw(s, 800), withdraw(s, 800)])
      expect(two.map(r => r.body.code).sort()).toEqual([200, 422])
      expect(two.find(r => r.body.code === 422)!.body.data.reason).toBe('over_cash')
      const ten = await Promise.all(Array.from({ length: 10 }, () => withdraw(s, 100)))
      expect(ten.filter(r => r.body.code === 200)).toHaveLength(2)
      expect(await balance(s)).toEqual({ cashCents: 0, creditCents: 0 })
    }
    expect(await invariantViolations(t.db)).toEqual([])
  })

  test('race: approve against reject of the same withdrawal: exactly one wins, the other is a 409, one decision in the books', async () => {
    const { t } = ctx
    const s = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, s, 20000)
    const outcomes: string[] = []
    for (let round = 0; round < 6; round++) {
      const w = (await withdraw(s, 1000)).body.data
      const calls = [() => approve(w.id), () => reject(w.id, 'race')]
      const [a, b] = round % 2 ? await Promise.all([calls[1](), calls[0]()]).then(([r, p]) => [p, r]) : await Promise.all([calls[0](), calls[1]()])
      expect([a.body.code, b.body.code].sort()).toEqual([200, 409])
      const winner = a.body.code === 200 ? 'paid' : 'rejected'
      outcomes.push(winner)
      expect((a.body.code === 200 ? b : a).body.data).toEqual({ status: winner })
      const decisions = await t.db.selectFrom('ledger_transactions').select('kind')
        .where('idempotency_key', 'in', [`withdraw-payout:${w.id}`, `withdraw-release:${w.id}`]).execute()
      expect(decisions).toHaveLength(1)
      expect((await t.db.selectFrom('audit_log').select('id').where('entity', '=', 'withdrawal').where('entity_id', '=', w.id).execute())).toHaveLength(1)
    }
    const rejected = outcomes.filter(o => o === 'rejected').length
    expect(await balance(s)).toEqual({ cashCents: 20000 - 6000 + rejected * 1000, creditCents: 0 })
    expect(await invariantViolations(t.db)).toEqual([])
  })
})

describe.each(testDialects())('withdrawals through WeChat Pay on %s', (dialect) => {
  const ctx = {} as Ctx
  const { withdraw, approve, balance, order } = helpers(() => ctx)
  let wx: FakeWeChatPay
  let s: Shopper
  beforeAll(async () => {
    wx = await startWeChatPay()
    ctx.t = await createTestApp(dialect, { env: wx.env })
    wx.now = ctx.t.clock.now
    ctx.operator = await makeOperator(ctx.t)
    s = await makeShopper(ctx.t.app, ctx.t.db, ctx.t.clock)
    await ctx.t.db.insertInto('identities').values({ provider: 'weapp', subject: 'oWithdrawShopper00000000000', user_id: s.id, created_at: new Date(ctx.t.clock.now()).toISOString() }).execute()
  })
  afterAll(async () => {
    expect(await invariantViolations(ctx.t.db)).toEqual([])
    await ctx.t.close()
    await wx.close()
  })

  const notify = (n: { headers: Record<string, string>; body: string }) =>
    ctx.t.app.inject({ method: 'POST', url: `${PREFIX}/generalOrder/notify/wechat`, headers: n.headers, payload: n.body })
  /** A top-up paid with WeChat Pay (JSAPI), settled by its notification. */
  const wechatTopUp = async (amountCents: number) => {
    const { t } = ctx
    const opId = (await post(t.app, '/generalOrder/getUniqueOrderNo', { productId: TOPUP_PRODUCT_ID, userId: s.id }, { token: s.token })).body.data as string
    expect((await post(t.app, '/generalOrder/create', { productId: TOPUP_PRODUCT_ID, userId: s.id, opId, amountCents, channel: 'wechat_jsapi' }, { token: s.token })).body.code).toBe(200)
    expect((await post(t.app, '/generalOrder/getPaymentParam', { opId }, { token: s.token })).body.code).toBe(200)
    wx.paid.add(opId)
    expect((await notify(wx.notification({ out_trade_no: opId, amount: { total: amountCents } }))).statusCode).toBe(204)
    t.clock.advance(1000)
    return opId
  }
  const refundRow = (withdrawalId: number) => ctx.t.db.selectFrom('withdrawal_refunds').selectAll().where('withdrawal_id', '=', withdrawalId).orderBy('id').execute()

  test('approve sends a signed refund of the original order; the verified REFUND.SUCCESS notification pays it, once', async () => {
    const { t } = ctx
    const opId = await wechatTopUp(6600)
    const cashBefore = (await balance(s)).cashCents
    const w = (await withdraw(s, 5000)).body.data
    expect(w.refunds).toEqual([{ opId, channel: 'wechat_jsapi', amountCents: 5000, status: 'pending' }])
    // a signed refund result for a refund the shop has not sent (the withdrawal is not approved): nothing moves
    const [unsent] = await refundRow(w.id)
    expect((await notify(wx.refundNotification(unsent.out_refund_no, { status: 'SUCCESS', refund: 5000, outTradeNo: opId }))).statusCode).toBe(204)
    expect((await refundRow(w.id))[0].status).toBe('pending')
    const before = wx.requests.length
    const r = await approve(w.id)
    expect(r.body.code).toBe(200)
    expect(r.body.data).toMatchObject({ status: 'approved', refunds: [{ opId, status: 'processing' }] })
    const seen = wx.requests.slice(before)
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({ method: 'POST', path: '/v3/refund/domestic/refunds', signatureOk: true })
    const [row] = await refundRow(w.id)
    expect(JSON.parse(seen[0].body)).toEqual({
      out_trade_no: opId, out_refund_no: row.out_refund_no, reason: expect.any(String),
      notify_url: wx.env.WECHATPAY_NOTIFY_URL, amount: { refund: 5000, total: 6600, currency: 'CNY' }
    })
    expect(row.provider_refund_id).toBe(wx.refunds.get(row.out_refund_no)!.refundId)
    expect((await post(t.app, '/api/withdrawList', { page: 1, size: 5 }, { token: s.token })).body.data.list[0]).toMatchObject({ id: w.id, status: 'approved' })

    // notifications that must not settle: tampered body, broken tag, a stranger's key, a wrong amount, another order
    expect((await notify(wx.refundNotification(row.out_refund_no, {}, { tamperBody: true }))).statusCode).toBe(401)
    expect((await notify(wx.refundNotification(row.out_refund_no, {}, { badTag: true }))).statusCode).toBe(400)
    expect((await notify(wx.refundNotification(row.out_refund_no, {}, { wrongKey: true }))).statusCode).toBe(401)
    expect((await notify(wx.refundNotification(row.out_refund_no, { refund: 6600 }))).statusCode).toBe(400)
    expect((await notify(wx.refundNotification(row.out_refund_no, { outTradeNo: 'BB20260301000000FFFFFFFFFFFF' }))).statusCode).toBe(400)
    expect((await notify(wx.refundNotification('WD999999R1ABCDEF', { status: 'SUCCESS' }))).statusCode).toBe(404)
    expect((await refundRow(w.id))[0].status).toBe('processing')

    const n = wx.refundNotification(row.out_refund_no, { status: 'SUCCESS' })
    const burst = await Promise.all([notify(n), notify(n), notify(wx.refundNotification(row.out_refund_no, { status: 'SUCCESS' }))])
    expect(burst.map(x => x.statusCode)).toEqual([204, 204, 204])
    const after = (await post(t.app, '/api/withdrawList', { page: 1, size: 5 }, { token: s.token })).body.data.list[0]
    expect(after).toMatchObject({ id: w.id, status: 'paid', returnedCents: 0, refunds: [{ status: 'success' }] })
    expect((await balance(s)).cashCents).toBe(cashBefore - 5000)
    expect(await order(opId)).toEqual({ amount: 6600, refunded: 5000, status: 'paid' })
    // a late ABNORMAL for a refund already settled changes nothing
    expect((await notify(wx.refundNotification(row.out_refund_no, { status: 'ABNORMAL' }))).statusCode).toBe(204)
    expect((await refundRow(w.id))[0].status).toBe('success')
    expect(await invariantViolations(t.db)).toEqual([])
  })

  test('a split over a WeChat order and a sandbox order: the sandbox part at once, the WeChat part on its notification', async () => {
    const wechatOp = await wechatTopUp(1500)
    const sandboxOp = await topUp(ctx.t.app, s, 1000)
    ctx.t.clock.advance(1000)
    const w = (await withdraw(s, 2000)).body.data
    expect(w.refunds.map((r: { opId: string; amountCents: number }) => [r.opId, r.amountCents])).toEqual([[sandboxOp, 1000], [wechatOp, 1000]])
    const r = await approve(w.id)
    expect(r.body.data).toMatchObject({ status: 'approved', refunds: [{ opId: sandboxOp, status: 'success' }, { opId: wechatOp, status: 'processing' }] })
    const rows = await refundRow(w.id)
    expect((await notify(wx.refundNotification(rows[1].out_refund_no, { status: 'SUCCESS' }))).statusCode).toBe(204)
    expect((await post(ctx.t.app, '/api/withdrawList', { page: 1, size: 1 }, { token: s.token })).body.data.list[0]).toMatchObject({ id: w.id, status: 'paid' })
  })

  test('REFUND.ABNORMAL (and CLOSED): the withdrawal fails and its money goes back to cash (ledger withdraw_release from payment_clearing)', async () => {
    const { t } = ctx
    for (const status of ['ABNORMAL', 'CLOSED'] as const) {
      const opId = await wechatTopUp(3000)
      const w = (await withdraw(s, 3000)).body.data
      await approve(w.id)
      const cashBefore = (await balance(s)).cashCents
      const [row] = await refundRow(w.id)
      expect((await notify(wx.refundNotification(row.out_refund_no, { status }))).statusCode).toBe(204)
      expect((await notify(wx.refundNotification(row.out_refund_no, { status }))).statusCode).toBe(204)
      const view = (await post(t.app, '/api/withdrawList', { page: 1, size: 1 }, { token: s.token })).body.data.list[0]
      expect(view).toMatchObject({ id: w.id, status: 'failed', returnedCents: 3000, refunds: [{ status: 'failed' }] })
      expect((await balance(s)).cashCents).toBe(cashBefore + 3000)
      expect(await order(opId)).toEqual({ amount: 3000, refunded: 0, status: 'paid' })
      const back = await t.db.selectFrom('ledger_lines').innerJoin('ledger_transactions', 'ledger_transactions.id', 'ledger_lines.tx_id')
        .select(['ledger_lines.account', 'ledger_lines.amount_cents', 'ledger_transactions.kind'])
        .where('ledger_transactions.idempotency_key', '=', `withdraw-refund-failed:${row.out_refund_no}`).orderBy('ledger_lines.id').execute()
      expect(back.map(l => [l.kind, l.account, Number(l.amount_cents)])).toEqual([['withdraw_release', 'payment_clearing', -3000], ['withdraw_release', 'user_cash', 3000]])
    }
  })

  test('WeChat Pay answering SUCCESS at once pays at approval; a final refusal fails it and gives the cash back', async () => {
    await wechatTopUp(2000)
    wx.refundAnswer = 'SUCCESS'
    try {
      const w = (await withdraw(s, 1000)).body.data
      expect((await approve(w.id)).body.data).toMatchObject({ status: 'paid', refunds: [{ status: 'success' }] })
    } finally {
      wx.refundAnswer = 'PROCESSING'
    }
    const w2 = (await withdraw(s, 1000)).body.data
    const cashBefore = (await balance(s)).cashCents
    wx.failNext = { status: 403, code: 'USER_ACCOUNT_ABNORMAL', message: 'the payer\'s account is abnormal' }
    expect((await approve(w2.id)).body.data).toMatchObject({ status: 'failed', returnedCents: 1000, refunds: [{ status: 'failed' }] })
    expect((await balance(s)).cashCents).toBe(cashBefore + 1000)
  })

  test('WeChat Pay unreachable: approved, the refund stays unsent; approving again sends it; again asks about it (query)', async () => {
    await wechatTopUp(2500)
    const w = (await withdraw(s, 2500)).body.data
    wx.failNext = { status: 500, code: 'SYSTEM_ERROR', message: 'try later' }
    const first = await approve(w.id)
    expect(first.body.data).toMatchObject({ status: 'approved', refunds: [{ status: 'pending' }] })
    const second = await approve(w.id)
    expect(second.body.data).toMatchObject({ status: 'approved', refunds: [{ status: 'processing' }] })
    const [row] = await refundRow(w.id)
    wx.refunds.get(row.out_refund_no)!.status = 'SUCCESS'
    const before = wx.requests.length
    const third = await approve(w.id)
    expect(wx.requests.slice(before).map(x => `${x.method} ${x.path}`)).toEqual([`GET /v3/refund/domestic/refunds/${row.out_refund_no}`])
    expect(third.body.data).toMatchObject({ status: 'paid', refunds: [{ status: 'success' }] })
    // one payout in the books for the three approvals, one audit row
    expect(await ctx.t.db.selectFrom('ledger_transactions').select('id').where('idempotency_key', '=', `withdraw-payout:${w.id}`).execute()).toHaveLength(1)
    expect(await ctx.t.db.selectFrom('audit_log').select('id').where('entity', '=', 'withdrawal').where('entity_id', '=', w.id).execute()).toHaveLength(1)
  })

  test('without WeChat Pay keys a WeChat refund cannot be approved: 422 provider not configured, nothing moves', async () => {
    const plain = await createTestApp(dialect)
    try {
      const shopper = await makeShopper(plain.app, plain.db, plain.clock)
      const opId = await topUp(plain.app, shopper, 1000)
      // an order WeChat Pay once paid (the keys since removed)
      await plain.db.updateTable('orders').set({ channel: 'wechat_jsapi' }).where('op_id', '=', opId).execute()
      const w = (await post(plain.app, '/api/withdrawRequest', { amountCents: 1000, idempotencyKey: newKey() }, { token: shopper.token })).body.data
      const op = await makeOperator(plain)
      const r = await post(plain.app, '/api/operator/withdrawApprove', { withdrawalId: w.id }, { token: op.token })
      expect(r.body).toEqual({ code: 422, message: 'WeChat Pay is not available in this shop', data: { provider: 'wechatpay' } })
      expect((await plain.db.selectFrom('withdrawals').select('status').where('id', '=', w.id).executeTakeFirstOrThrow()).status).toBe('requested')
      expect(await invariantViolations(plain.db)).toEqual([])
    } finally {
      await plain.close()
    }
  })

  test('a whole WeChat order withdrawn: refunded exactly what it was paid, and the order takes no more', async () => {
    const opId = await wechatTopUp(1000)
    const w1 = (await withdraw(s, 1000)).body.data
    expect(w1.refunds.map((r: { opId: string }) => r.opId)).toEqual([opId])
    await approve(w1.id)
    const refunded = [...wx.refunds.values()].filter(r => r.outTradeNo === opId).reduce((a, r) => a + r.refund, 0)
    expect(refunded).toBe(1000)
    expect(await order(opId)).toEqual({ amount: 1000, refunded: 1000, status: 'paid' })
    const next = (await withdraw(s, 100)).body.data
    expect(next.refunds.map((r: { opId: string }) => r.opId)).not.toContain(opId)
  })
})
