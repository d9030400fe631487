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
 * Here: the views and the shopper's side; the operator's side is in withdrawalDecisions.ts, the refunds
 * in withdrawalRefunds.ts.
 *
 * Locks are taken withdrawal row, then refund rows, then wallet, then orders, so decisions and
 * settlements cannot deadlock one another; a request locks the wallet, then orders.
 */
import { randomBytes } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import { TOPUP_PRODUCT_ID, WITHDRAW_LIMITS } from '../../../../types/limits'
import type { OperatorWithdrawalView, WithdrawalView, WithdrawInfo, WithdrawRequest, WithdrawRuleData } from '../../../../types/withdraw'
import type { PageResult } from '../../../../types/schema'
import type { Database, PayChannelRow, WithdrawalRefundsTable, WithdrawalsTable } from '../../db/schema'
import type { Selectable } from 'kysely'
import type { Dialect } from '../../db/dialect'
import { iso, type Clock } from '../../core/clock'
import { fail } from '../../core/errors'
import type { WeChatPayClient } from '../../providers/wechatpay'
import { DAY_MS, shopDayStart } from '../../core/days'
import { idempotent } from './idempotency'
import { postTransaction } from './ledger'
import { yuan } from '../../core/money'
import { settingsOf } from '../ops/settings'
import { balanceOf, lockBalance, takeFromWallet } from './wallet'

type Db = Kysely<Database>
type WithdrawalRow = Selectable<WithdrawalsTable>
type RefundRow = Selectable<WithdrawalRefundsTable>

export interface WithdrawDeps { db: Db; dialect: Dialect; clock: Clock; wechatPay: WeChatPayClient | null }

export const isWeChat = (channel: PayChannelRow) => channel === 'wechat_jsapi' || channel === 'wechat_h5'

// ---- views -----------------------------------------------------------------------------------------

export function viewOf (w: WithdrawalRow, refunds: RefundRow[]): WithdrawalView {
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

export async function refundsOf (db: Db, ids: number[]): Promise<Map<number, RefundRow[]>> {
  const out = new Map<number, RefundRow[]>()
  if (!ids.length) return out
  const rows = await db.selectFrom('withdrawal_refunds').selectAll().where('withdrawal_id', 'in', ids).orderBy('id').execute()
  for (const r of rows) out.set(Number(r.withdrawal_id), [...(out.get(Number(r.withdrawal_id)) ?? []), r])
  return out
}

export async function viewById (db: Db, id: number): Promise<WithdrawalView> {
  const w = await db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  return viewOf(w, (await refundsOf(db, [id])).get(id) ?? [])
}

export const userLabel = (u: { nickname: string; user_name: string | null; phone: string | null; email: string | null; id: number }) =>
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
