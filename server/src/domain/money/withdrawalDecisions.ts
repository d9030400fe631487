/** Withdrawals, the operator's side (withdrawals.ts): the queue, rejecting and approving. */
import { sql, type Kysely } from 'kysely'
import type { Logger } from '../../core/logger'
import type { OperatorWithdrawalView, OperatorWithdrawListRequest, WithdrawalStatus, WithdrawalStatusData } from '../../../../types/withdraw'
import type { PageResult } from '../../../../types/schema'
import type { Database } from '../../db/schema'
import { iso } from '../../core/clock'
import { ApiFailure, fail } from '../../core/errors'
import { writeAudit } from '../ops/audit'
import { postTransaction } from './ledger'
import { addToWallet } from './wallet'
import { isWeChat, operatorView, refundsOf, userLabel, viewOf, type WithdrawDeps } from './withdrawals'
import { driveRefunds, finishIfDone } from './withdrawalRefunds'

type Db = Kysely<Database>

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

export async function approveWithdrawal (deps: WithdrawDeps, operatorId: number, id: number, log: Logger): Promise<OperatorWithdrawalView> {
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
