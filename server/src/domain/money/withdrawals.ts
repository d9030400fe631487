/**
 * Withdrawals (issue 8; types/withdraw.ts). Only unspent top-up cash, back through the orders it came
 * from (PRODUCT.md "Money"):
 *
 *   request   one transaction under the request's idempotency key: the wallet row locked, the rules
 *             checked (minimum, cash, daily maximum per China day over withdrawals not rejected), cash
 *             taken by a conditional UPDATE, ledger `withdraw` user_cash -x / withdraw_pending +x, and
 *             the amount split over the user's paid top-up orders with money not yet refunded (newest
 *             first; each order's refunded_cents grows by its part, never above what it was paid: a
 *             conditional UPDATE and a database check)
 *   reject    requested -> rejected (one conditional UPDATE: an approve racing it finds nothing to
 *             move); ledger `withdraw_release` withdraw_pending -x / user_cash +x, the cash and the
 *             orders' parts given back, the refunds canceled, the reason kept, an audit row
 *   approve   requested -> approved likewise; ledger `withdraw_payout` withdraw_pending -x /
 *             payment_clearing +x (the money leaves through the payment channels); sandbox refunds
 *             succeed at once, WeChat Pay refunds are sent after the commit (POST
 *             /v3/refund/domestic/refunds) and settle from their answer, their notification or a query
 *   settle    a refund moves pending|processing -> success|failed once (conditional UPDATE, under the
 *             withdrawal's row lock); a failed one gives its part back: ledger `withdraw_release`
 *             payment_clearing -y / user_cash +y, the order's refunded_cents lowered. When no refund
 *             is left under way the withdrawal is paid (all succeeded) or failed (some came back).
 *
 * Locks are taken withdrawal row, then refund rows, then wallet, then orders, so decisions and
 * settlements cannot deadlock one another; a request locks the wallet, then orders.
 */
import { randomBytes } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import type { FastifyBaseLogger } from 'fastify'
import { TOPUP_PRODUCT_ID, WITHDRAW_LIMITS } from '../../../../types/limits'
import type {
  OperatorWithdrawalView, OperatorWithdrawListRequest, WithdrawalStatus, WithdrawalStatusData, WithdrawalView,
  WithdrawInfo, WithdrawRequest, WithdrawRuleData
} from '../../../../types/withdraw'
import type { PageResult } from '../../../../types/schema'
import type { Database, PayChannelRow, RefundStatusRow, WithdrawalRefundsTable, WithdrawalsTable } from '../../db/schema'
import type { Selectable } from 'kysely'
import type { Dialect } from '../../db/dialect'
import { forUpdate } from '../../db/lock'
import { iso, type Clock } from '../../core/clock'
import { ApiFailure, fail } from '../../core/errors'
import { ProviderUnavailableError } from '../../providers/errors'
import { observedCall } from '../../providers/calls'
import { WeChatPayError, type WeChatPayClient, type WeChatRefund } from '../../providers/wechatpay'
import { writeAudit } from '../ops/audit'
import { DAY_MS, shopDayStart } from '../../core/days'
import { idempotent } from './idempotency'
import { postTransaction } from './ledger'
import { yuan } from '../../core/money'
import { settingsOf } from '../ops/settings'
import { addToWallet, balanceOf, lockBalance, takeFromWallet } from './wallet'

type Db = Kysely<Database>
type WithdrawalRow = Selectable<WithdrawalsTable>
type RefundRow = Selectable<WithdrawalRefundsTable>

export interface WithdrawDeps { db: Db; dialect: Dialect; clock: Clock; wechatPay: WeChatPayClient | null }

const isWeChat = (channel: PayChannelRow) => channel === 'wechat_jsapi' || channel === 'wechat_h5'

/**
 * WeChat Pay refusals after which the refund can never go through (the payer's account, the order, the
 * request itself): the refund fails and its money goes back to cash. Others (NOT_ENOUGH: the merchant's
 * balance, FREQUENCY_LIMITED, SYSTEM_ERROR ...) leave it unsent; approving again sends it again.
 */
const FINAL_REFUND_ERRORS = new Set(['USER_ACCOUNT_ABNORMAL', 'NO_AUTH', 'RESOURCE_NOT_EXISTS', 'INVALID_REQUEST', 'PARAM_ERROR'])

// ---- views -----------------------------------------------------------------------------------------

function viewOf (w: WithdrawalRow, refunds: RefundRow[]): WithdrawalView {
  return {
    id: Number(w.id),
    amountCents: Number(w.amount_cents),
    status: w.status,
    reason: w.reason,
    returnedCents: Number(w.returned_cents),
    createdAt: w.created_at,
    decidedAt: w.decided_at,
    finishedAt: w.finished_at,
    refunds: refunds.map(r => ({ opId: r.op_id, channel: r.channel, amountCents: Number(r.amount_cents), status: r.status }))
  }
}

async function refundsOf (db: Db, ids: number[]): Promise<Map<number, RefundRow[]>> {
  const out = new Map<number, RefundRow[]>()
  if (!ids.length) return out
  const rows = await db.selectFrom('withdrawal_refunds').selectAll().where('withdrawal_id', 'in', ids).orderBy('id').execute()
  for (const r of rows) out.set(Number(r.withdrawal_id), [...(out.get(Number(r.withdrawal_id)) ?? []), r])
  return out
}

async function viewById (db: Db, id: number): Promise<WithdrawalView> {
  const w = await db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  return viewOf(w, (await refundsOf(db, [id])).get(id) ?? [])
}

const userLabel = (u: { nickname: string; user_name: string | null; phone: string | null; email: string | null; id: number }) =>
  `${u.nickname} (${u.user_name ?? u.phone ?? u.email ?? `#${u.id}`})`

export async function operatorView (db: Db, id: number): Promise<OperatorWithdrawalView> {
  const view = await viewById(db, id)
  const u = await db.selectFrom('withdrawals').innerJoin('users', 'users.id', 'withdrawals.user_id')
    .select(['users.id', 'users.nickname', 'users.user_name', 'users.phone', 'users.email'])
    .where('withdrawals.id', '=', id).executeTakeFirstOrThrow()
  return { ...view, userId: Number(u.id), userLabel: userLabel({ ...u, id: Number(u.id) }) }
}

// ---- the shopper's side ----------------------------------------------------------------------------

/** Asked today (China day) in the user's withdrawals that were not rejected. */
async function usedToday (db: Db, userId: number, now: number): Promise<number> {
  const row = await db.selectFrom('withdrawals').select(eb => eb.fn.sum<number>('amount_cents').as('s'))
    .where('user_id', '=', userId).where('status', '!=', 'rejected').where('created_at', '>=', iso(shopDayStart(now)))
    .executeTakeFirst()
  return Number(row?.s ?? 0)
}

export async function withdrawInfo (deps: WithdrawDeps, userId: number): Promise<WithdrawInfo> {
  const settings = await settingsOf(deps.db)
  const { cashCents } = await balanceOf(deps.db, userId)
  const used = await usedToday(deps.db, userId, deps.clock())
  return {
    cashCents,
    minCents: settings.withdrawMinCents,
    dailyMaxCents: settings.withdrawDailyMaxCents,
    usedTodayCents: used,
    availableCents: Math.max(0, Math.min(cashCents, settings.withdrawDailyMaxCents - used))
  }
}

const rule = (key: 'withdraw.belowMin' | 'withdraw.overCash' | 'withdraw.dailyLimit' | 'withdraw.noRefundableOrder',
  params: Record<string, string>, data: WithdrawRuleData) => fail.unprocessable(key, params, data)

/** A refund number WeChat Pay accepts (out_refund_no: at most 64 of [A-Za-z0-9_-|*@]), unique. */
const refundNo = (withdrawalId: number, index: number) => `WD${withdrawalId}R${index + 1}${randomBytes(4).toString('hex').toUpperCase()}`

export async function requestWithdrawal (deps: WithdrawDeps, userId: number, request: WithdrawRequest): Promise<{ result: WithdrawalView; replayed: boolean }> {
  const { db, clock } = deps
  const { idempotencyKey, amountCents: amount } = request
  const settings = await settingsOf(db)
  return idempotent(db, clock, { userId, key: idempotencyKey, scope: 'withdrawRequest', body: { amountCents: amount } }, async trx => {
    const now = clock()
    const at = iso(now)
    // the wallet row first: the user's withdrawals (and purchases) take turns from here on
    const balance = await lockBalance(trx, userId)
    if (amount < settings.withdrawMinCents) {
      throw rule('withdraw.belowMin', { min: yuan(settings.withdrawMinCents) }, { reason: 'below_min', minCents: settings.withdrawMinCents })
    }
    const left = Math.max(0, settings.withdrawDailyMaxCents - await usedToday(trx, userId, now))
    if (amount > left) {
      throw rule('withdraw.dailyLimit', { max: yuan(settings.withdrawDailyMaxCents), left: yuan(left) },
        { reason: 'daily_limit', dailyMaxCents: settings.withdrawDailyMaxCents, leftTodayCents: left })
    }
    const overCash = () => rule('withdraw.overCash', { cash: yuan(balance.cashCents) }, { reason: 'over_cash', cashCents: balance.cashCents })
    if (amount > balance.cashCents) throw overCash()
    if (!await takeFromWallet(trx, clock, userId, { cashCents: amount, creditCents: 0 })) throw overCash()

    // the split: paid top-ups with money not yet refunded, newest first (WeChat Pay refunds within a year)
    const oldestWeChat = iso(now - WITHDRAW_LIMITS.wechatRefundableDays * DAY_MS)
    const orders = await trx.selectFrom('orders').select(['op_id', 'channel', 'amount_cents', 'refunded_cents', 'paid_at'])
      .where('user_id', '=', userId).where('status', '=', 'paid').where('product_id', '=', TOPUP_PRODUCT_ID)
      .where(sql<boolean>`refunded_cents < amount_cents`)
      .orderBy('paid_at', 'desc').orderBy('id', 'desc').execute()
    const parts: Array<{ opId: string; channel: PayChannelRow; amount: number }> = []
    let rest = amount
    for (const o of orders) {
      if (rest === 0) break
      if (!o.channel || (isWeChat(o.channel) && (o.paid_at === null || o.paid_at < oldestWeChat))) continue
      const part = Math.min(rest, Number(o.amount_cents) - Number(o.refunded_cents))
      if (part <= 0) continue
      parts.push({ opId: o.op_id, channel: o.channel, amount: part })
      rest -= part
    }
    if (rest > 0) throw rule('withdraw.noRefundableOrder', {}, { reason: 'no_refundable_order' })

    const { id } = await trx.insertInto('withdrawals').values({
      user_id: userId, amount_cents: amount, status: 'requested', reason: null, hold_tx_id: null, decision_tx_id: null,
      decided_by: null, created_at: at, decided_at: null, finished_at: null, updated_at: at
    }).returning('id').executeTakeFirstOrThrow()
    const withdrawalId = Number(id)
    const holdTx = await postTransaction(trx, clock, {
      kind: 'withdraw',
      reference: `withdrawal ${withdrawalId}`,
      idempotencyKey: `withdraw:${userId}:${idempotencyKey}`,
      userId,
      lines: [
        { account: 'user_cash', userId, amountCents: -amount },
        { account: 'withdraw_pending', amountCents: amount }
      ]
    })
    await trx.updateTable('withdrawals').set({ hold_tx_id: holdTx }).where('id', '=', withdrawalId).execute()
    for (const [i, p] of parts.entries()) {
      const held = await trx.updateTable('orders').set({ refunded_cents: sql<number>`refunded_cents + ${p.amount}` })
        .where('op_id', '=', p.opId).where('status', '=', 'paid').where(sql<boolean>`refunded_cents + ${p.amount} <= amount_cents`)
        .returning('op_id').executeTakeFirst()
      if (!held) throw fail.conflict('withdraw.busy')
      await trx.insertInto('withdrawal_refunds').values({
        withdrawal_id: withdrawalId, op_id: p.opId, channel: p.channel, amount_cents: p.amount, out_refund_no: refundNo(withdrawalId, i),
        status: 'pending', provider_refund_id: null, failure: null, settle_tx_id: null, created_at: at, sent_at: null, settled_at: null, updated_at: at
      }).execute()
    }
    return viewById(trx, withdrawalId)
  })
}

export async function listWithdrawals (db: Db, userId: number, page: number, size: number): Promise<PageResult<WithdrawalView>> {
  const { total } = await db.selectFrom('withdrawals').where('user_id', '=', userId)
    .select(eb => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()
  const rows = await db.selectFrom('withdrawals').selectAll().where('user_id', '=', userId)
    .orderBy('id', 'desc').limit(size).offset((page - 1) * size).execute()
  const refunds = await refundsOf(db, rows.map(r => Number(r.id)))
  return { list: rows.map(r => viewOf(r, refunds.get(Number(r.id)) ?? [])), total: Number(total) }
}

// ---- the operator's side ---------------------------------------------------------------------------

export async function operatorQueue (db: Db, q: OperatorWithdrawListRequest): Promise<PageResult<OperatorWithdrawalView>> {
  let count = db.selectFrom('withdrawals').select(eb => eb.fn.countAll<number>().as('total'))
  if (q.status) count = count.where('status', '=', q.status)
  const { total } = await count.executeTakeFirstOrThrow()
  let rows = db.selectFrom('withdrawals').innerJoin('users', 'users.id', 'withdrawals.user_id')
    .selectAll('withdrawals')
    .select(['users.nickname', 'users.user_name', 'users.phone', 'users.email'])
  if (q.status) rows = rows.where('withdrawals.status', '=', q.status)
  // the queue: requested ones first, oldest first; then the decided ones, newest first
  const list = await rows
    .orderBy(sql`case when withdrawals.status = 'requested' then 0 else 1 end`)
    .orderBy(sql`case when withdrawals.status = 'requested' then withdrawals.id else -withdrawals.id end`)
    .limit(q.size).offset((q.page - 1) * q.size).execute()
  const refunds = await refundsOf(db, list.map(r => Number(r.id)))
  return {
    list: list.map(r => ({
      ...viewOf(r, refunds.get(Number(r.id)) ?? []),
      userId: Number(r.user_id),
      userLabel: userLabel({ id: Number(r.user_id), nickname: r.nickname, user_name: r.user_name, phone: r.phone, email: r.email })
    })),
    total: Number(total)
  }
}

const notPending = (status: WithdrawalStatus) =>
  new ApiFailure(409, 'withdraw.decided', { status: `@withdraw.status.${status}` }, { status } satisfies WithdrawalStatusData)

async function decidedFailure (db: Db, id: number): Promise<ApiFailure> {
  const w = await db.selectFrom('withdrawals').select('status').where('id', '=', id).executeTakeFirst()
  return w ? notPending(w.status) : fail.notFound('withdraw.notFound')
}

export async function rejectWithdrawal (deps: WithdrawDeps, operatorId: number, id: number, reason: string): Promise<OperatorWithdrawalView> {
  const { db, clock } = deps
  await db.transaction().execute(async trx => {
    const at = iso(clock())
    // the decision: one conditional UPDATE (an approve of the same withdrawal waits for it, then finds nothing)
    const w = await trx.updateTable('withdrawals')
      .set({ status: 'rejected', reason, decided_by: operatorId, decided_at: at, finished_at: at, updated_at: at })
      .where('id', '=', id).where('status', '=', 'requested')
      .returningAll().executeTakeFirst()
    if (!w) throw await decidedFailure(trx, id)
    const userId = Number(w.user_id)
    const amount = Number(w.amount_cents)
    const txId = await postTransaction(trx, clock, {
      kind: 'withdraw_release',
      reference: `withdrawal ${id} rejected`,
      idempotencyKey: `withdraw-release:${id}`,
      userId,
      lines: [
        { account: 'withdraw_pending', amountCents: -amount },
        { account: 'user_cash', userId, amountCents: amount }
      ]
    })
    await addToWallet(trx, clock, userId, { cashCents: amount })
    const refunds = await trx.selectFrom('withdrawal_refunds').selectAll().where('withdrawal_id', '=', id).where('status', '=', 'pending').execute()
    for (const r of refunds) {
      await trx.updateTable('orders').set({ refunded_cents: sql<number>`refunded_cents - ${Number(r.amount_cents)}` }).where('op_id', '=', r.op_id).execute()
    }
    await trx.updateTable('withdrawal_refunds').set({ status: 'canceled', settled_at: at, updated_at: at })
      .where('withdrawal_id', '=', id).where('status', '=', 'pending').execute()
    await trx.updateTable('withdrawals').set({ decision_tx_id: txId, returned_cents: amount }).where('id', '=', id).execute()
    await writeAudit(trx, clock, {
      actorId: operatorId, action: 'withdrawal.reject', entity: 'withdrawal', entityId: id,
      detail: { before: { status: 'requested' }, after: { status: 'rejected', reason, returnedCents: amount }, userId, amountCents: amount }
    })
  })
  return operatorView(db, id)
}

/** When none of its refunds is under way any more: paid (all succeeded) or failed (some came back). */
async function finishIfDone (trx: Db, clock: Clock, id: number): Promise<void> {
  const refunds = await trx.selectFrom('withdrawal_refunds').select('status').where('withdrawal_id', '=', id).execute()
  if (refunds.some(r => r.status === 'pending' || r.status === 'processing')) return
  const at = iso(clock())
  await trx.updateTable('withdrawals')
    .set({ status: refunds.some(r => r.status === 'failed') ? 'failed' : 'paid', finished_at: at, updated_at: at })
    .where('id', '=', id).where('status', '=', 'approved').execute()
}

export async function approveWithdrawal (deps: WithdrawDeps, operatorId: number, id: number, log: FastifyBaseLogger): Promise<OperatorWithdrawalView> {
  const { db, clock } = deps
  const current = await db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirst()
  if (!current) throw fail.notFound('withdraw.notFound')
  if (current.status !== 'requested' && current.status !== 'approved') throw notPending(current.status)
  const open = await db.selectFrom('withdrawal_refunds').select(['channel', 'status']).where('withdrawal_id', '=', id)
    .where('status', 'in', ['pending', 'processing']).execute()
  // nothing moves when WeChat Pay is needed but not configured
  if (open.some(r => isWeChat(r.channel)) && !deps.wechatPay) throw fail.providerNotConfigured('wechatpay')

  if (current.status === 'requested') {
    await db.transaction().execute(async trx => {
      const at = iso(clock())
      const w = await trx.updateTable('withdrawals')
        .set({ status: 'approved', decided_by: operatorId, decided_at: at, updated_at: at })
        .where('id', '=', id).where('status', '=', 'requested')
        .returningAll().executeTakeFirst()
      if (!w) throw await decidedFailure(trx, id)
      const amount = Number(w.amount_cents)
      const txId = await postTransaction(trx, clock, {
        kind: 'withdraw_payout',
        reference: `withdrawal ${id} approved`,
        idempotencyKey: `withdraw-payout:${id}`,
        userId: Number(w.user_id),
        lines: [
          { account: 'withdraw_pending', amountCents: -amount },
          { account: 'payment_clearing', amountCents: amount }
        ]
      })
      await trx.updateTable('withdrawals').set({ decision_tx_id: txId }).where('id', '=', id).execute()
      // test money goes back at once
      await trx.updateTable('withdrawal_refunds').set({ status: 'success', sent_at: at, settled_at: at, updated_at: at })
        .where('withdrawal_id', '=', id).where('channel', '=', 'sandbox').where('status', '=', 'pending').execute()
      await writeAudit(trx, clock, {
        actorId: operatorId, action: 'withdrawal.approve', entity: 'withdrawal', entityId: id,
        detail: { before: { status: 'requested' }, after: { status: 'approved' }, userId: Number(w.user_id), amountCents: amount }
      })
      await finishIfDone(trx, clock, id)
    })
  }
  await driveRefunds(deps, id, log)
  return operatorView(db, id)
}

/** Sends the approved withdrawal's unsent WeChat Pay refunds, and asks about those under way. */
async function driveRefunds (deps: WithdrawDeps, id: number, log: FastifyBaseLogger): Promise<void> {
  const client = deps.wechatPay
  if (!client) return
  const refunds = await deps.db.selectFrom('withdrawal_refunds').innerJoin('orders', 'orders.op_id', 'withdrawal_refunds.op_id')
    .selectAll('withdrawal_refunds').select('orders.amount_cents as order_cents')
    .where('withdrawal_refunds.withdrawal_id', '=', id).where('withdrawal_refunds.status', 'in', ['pending', 'processing'])
    .orderBy('withdrawal_refunds.id').execute()
  for (const r of refunds) {
    if (!isWeChat(r.channel)) continue
    try {
      const answer = await observedCall('wechatpay', () => r.status === 'pending'
        ? client.refund({ outTradeNo: r.op_id, outRefundNo: r.out_refund_no, refundCents: Number(r.amount_cents), totalCents: Number(r.order_cents), reason: '余额提现' })
        : client.queryRefund(r.out_refund_no), err => err instanceof WeChatPayError)
      await applyRefundState(deps, answer, log)
    } catch (err) {
      const final = err instanceof WeChatPayError && FINAL_REFUND_ERRORS.has(err.code)
      if (final) {
        log.warn({ outRefundNo: r.out_refund_no, code: (err as WeChatPayError).code }, 'WeChat Pay refused a refund: its money goes back to cash')
        await settleRefund(deps, r.out_refund_no, 'failed', { failure: `${(err as WeChatPayError).code}: ${(err as WeChatPayError).detail}` })
      } else if (err instanceof WeChatPayError || err instanceof ProviderUnavailableError) {
        log.warn({ err, outRefundNo: r.out_refund_no }, 'WeChat Pay refund not sent; approving again sends it again')
        await deps.db.updateTable('withdrawal_refunds').set({ failure: err.message.slice(0, 200), updated_at: iso(deps.clock()) })
          .where('id', '=', r.id).execute()
      } else {
        throw err
      }
    }
  }
}

export type RefundOutcome = { ok: true; settled: boolean } | { ok: false; status: number; reason: string }

/** Applies a refund's state as WeChat Pay reports it (answer, query or verified notification). */
export async function applyRefundState (deps: WithdrawDeps, refund: WeChatRefund, log: FastifyBaseLogger): Promise<RefundOutcome> {
  const row = await deps.db.selectFrom('withdrawal_refunds').selectAll().where('out_refund_no', '=', refund.out_refund_no).executeTakeFirst()
  if (!row || !isWeChat(row.channel)) {
    log.warn({ outRefundNo: refund.out_refund_no }, 'WeChat Pay: a refund this shop does not know')
    return { ok: false, status: 404, reason: 'unknown out_refund_no' }
  }
  const client = deps.wechatPay
  const amount = refund.amount?.refund
  if ((refund.out_trade_no !== undefined && refund.out_trade_no !== row.op_id) ||
    (refund.mchid !== undefined && client && refund.mchid !== client.mchId) ||
    (amount !== undefined && amount !== Number(row.amount_cents))) {
    log.error({ outRefundNo: row.out_refund_no, outTradeNo: refund.out_trade_no, mchid: refund.mchid, refund: amount, expected: Number(row.amount_cents) },
      'WeChat Pay: the refund does not match the withdrawal')
    return { ok: false, status: 400, reason: 'out_trade_no, mchid or amount does not match the refund' }
  }
  const refundId = refund.refund_id ?? null
  switch (refund.status) {
    case 'SUCCESS':
      return { ok: true, settled: await settleRefund(deps, row.out_refund_no, 'success', { refundId }) }
    case 'CLOSED':
    case 'ABNORMAL':
      return { ok: true, settled: await settleRefund(deps, row.out_refund_no, 'failed', { refundId, failure: `refund ${refund.status}` }) }
    default: {
      const at = iso(deps.clock())
      // only a refund the shop sent: its withdrawal was approved
      await deps.db.updateTable('withdrawal_refunds').set({ status: 'processing', provider_refund_id: refundId, sent_at: at, failure: null, updated_at: at })
        .where('id', '=', row.id).where('status', 'in', ['pending', 'processing'])
        .where('withdrawal_id', 'in', deps.db.selectFrom('withdrawals').select('id').where('id', '=', Number(row.withdrawal_id)).where('status', '=', 'approved'))
        .execute()
      return { ok: true, settled: false }
    }
  }
}

/**
 * A refund's outcome, exactly once (pending|processing -> success|failed); a failed refund's money goes
 * back to the shopper's cash. Answers whether this call settled it.
 */
export async function settleRefund (deps: WithdrawDeps, outRefundNo: string, outcome: 'success' | 'failed', info: { refundId?: string | null; failure?: string }): Promise<boolean> {
  const { db, clock } = deps
  return db.transaction().execute(async trx => {
    const ref = await trx.selectFrom('withdrawal_refunds').select(['withdrawal_id']).where('out_refund_no', '=', outRefundNo).executeTakeFirst()
    if (!ref) return false
    const withdrawalId = Number(ref.withdrawal_id)
    // the withdrawal's row first (the lock order of decisions); only an approved withdrawal's refunds settle
    const w = await forUpdate(deps.dialect, trx.selectFrom('withdrawals').select(['user_id', 'status']).where('id', '=', withdrawalId)).executeTakeFirstOrThrow()
    if (w.status !== 'approved') return false
    const at = iso(clock())
    const status: RefundStatusRow = outcome
    const r = await trx.updateTable('withdrawal_refunds')
      .set({ status, provider_refund_id: info.refundId ?? null, failure: info.failure?.slice(0, 200) ?? null, settled_at: at, updated_at: at })
      .where('out_refund_no', '=', outRefundNo).where('status', 'in', ['pending', 'processing'])
      .returningAll().executeTakeFirst()
    if (!r) return false
    if (outcome === 'failed') {
      const userId = Number(w.user_id)
      const part = Number(r.amount_cents)
      const txId = await postTransaction(trx, clock, {
        kind: 'withdraw_release',
        reference: `withdrawal ${withdrawalId} refund ${outRefundNo} failed`,
        idempotencyKey: `withdraw-refund-failed:${outRefundNo}`,
        userId,
        lines: [
          { account: 'payment_clearing', amountCents: -part },
          { account: 'user_cash', userId, amountCents: part }
        ]
      })
      await addToWallet(trx, clock, userId, { cashCents: part })
      await trx.updateTable('orders').set({ refunded_cents: sql<number>`refunded_cents - ${part}` }).where('op_id', '=', r.op_id).execute()
      await trx.updateTable('withdrawal_refunds').set({ settle_tx_id: txId }).where('id', '=', r.id).execute()
      await trx.updateTable('withdrawals').set({ returned_cents: sql<number>`returned_cents + ${part}`, updated_at: at }).where('id', '=', withdrawalId).execute()
    }
    await finishIfDone(trx, clock, withdrawalId)
    return true
  })
}
