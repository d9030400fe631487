/** Withdrawals, the refunds (withdrawals.ts): sending them to WeChat Pay, their states, settling them. */
import { sql, type Kysely } from 'kysely'
import type { Logger } from '../../core/logger'
import type { Database, RefundStatusRow } from '../../db/schema'
import { forUpdate } from '../../db/lock'
import { iso, type Clock } from '../../core/clock'
import { ProviderUnavailableError } from '../../providers/errors'
import { observedCall } from '../../providers/calls'
import { WeChatPayError, type WeChatRefund } from '../../providers/wechatpay'
import { postTransaction } from './ledger'
import { addToWallet } from './wallet'
import { isWeChat, type WithdrawDeps } from './withdrawals'

type Db = Kysely<Database>

/**
 * WeChat Pay refusals after which the refund can never go through (the payer's account, the order, the
 * request itself): the refund fails and its money goes back to cash. Others (NOT_ENOUGH: the merchant's
 * balance, FREQUENCY_LIMITED, SYSTEM_ERROR ...) leave it unsent; approving again sends it again.
 */
const FINAL_REFUND_ERRORS = new Set(['USER_ACCOUNT_ABNORMAL', 'NO_AUTH', 'RESOURCE_NOT_EXISTS', 'INVALID_REQUEST', 'PARAM_ERROR'])

/** When none of its refunds is under way any more: paid (all succeeded) or failed (some came back). */
export async function finishIfDone (trx: Db, clock: Clock, id: number): Promise<void> {
  const refunds = await trx.selectFrom('withdrawal_refunds').select('status').where('withdrawal_id', '=', id).execute()
  if (refunds.some(r => r.status === 'pending' || r.status === 'processing')) return
  const at = iso(clock())
  await trx.updateTable('withdrawals')
    .set({ status: refunds.some(r => r.status === 'failed') ? 'failed' : 'paid', finished_at: at, updated_at: at })
    .where('id', '=', id).where('status', '=', 'approved').execute()
}

/** Sends the approved withdrawal's unsent WeChat Pay refunds, and asks about those under way. */
export async function driveRefunds (deps: WithdrawDeps, id: number, log: Logger): Promise<void> {
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
export async function applyRefundState (deps: WithdrawDeps, refund: WeChatRefund, log: Logger): Promise<RefundOutcome> {
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
