/**
 * Orders (spec 7 order flow): a unique order number (opId) is issued to a user, then an order is
 * created with it (a wallet top-up of amountCents through a channel), paid, or canceled.
 *   issued -> created -> paid
 *                     -> canceled (-> paid, only when WeChat Pay reports money received anyway)
 * Settlement credits the cash balance exactly once: the status moves created -> paid in one
 * conditional UPDATE, and the ledger transaction carries the unique key order:<opId>, both in one
 * database transaction; a second (or concurrent) settlement finds nothing to move.
 */
import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import {
  TOPUP_PRODUCT_ID,
  type CreateOrderRequest, type OrderView, type PayChannel, type PayMethod
} from '../../../../types/shop'
import type { Database, OrderRow, OrderStatusRow } from '../../db/schema'
import type { Config } from '../../config'
import { iso, type Clock } from '../../core/clock'
import { ApiFailure } from '../../core/errors'
import { postTransaction } from './ledger'
import { addToWallet } from './wallet'
import { lockLiveAccount } from '../account/users'

type Db = Kysely<Database>

/** Order numbers: "BB" + China time yyyyMMddHHmmss + 12 random hex digits (28 characters; OP_ID_PATTERN). */
export function newOpId (ms: number): string {
  const stamp = new Date(ms + 8 * 3600_000).toISOString().replace(/[-:T]/g, '').slice(0, 14)
  return `BB${stamp}${randomBytes(6).toString('hex').toUpperCase()}`
}

/** The description WeChat Pay shows the payer. */
export const TOPUP_DESCRIPTION = '拾盒-余额充值'

export function payMethods (config: Config): PayMethod[] {
  const methods: PayMethod[] = []
  if (!config.isProduction) {
    methods.push({ channel: 'sandbox', label: { zh: '沙箱支付（测试，不扣真实费用）', en: 'Sandbox (test money, no real charge)' }, sandbox: true })
  }
  if (config.wechatPay) {
    methods.push({ channel: 'wechat_jsapi', label: { zh: '微信支付', en: 'WeChat Pay' }, sandbox: false })
    methods.push({ channel: 'wechat_h5', label: { zh: '微信支付（浏览器）', en: 'WeChat Pay (browser)' }, sandbox: false })
  }
  return methods
}

export function orderView (o: OrderRow): OrderView {
  return {
    opId: o.op_id,
    productId: o.product_id ?? '',
    amountCents: Number(o.amount_cents ?? 0),
    channel: o.channel ?? 'sandbox',
    status: o.status === 'issued' ? 'created' : o.status,
    createdAt: o.created_at ?? o.issued_at,
    paidAt: o.paid_at
  }
}

const opIdFailure = (code: number, key: 'order.unknownOpId' | 'order.opIdUsed') => new ApiFailure(code, key, { field: 'opId' }, { field: 'opId' })

export async function issueOrderNo (db: Db, clock: Clock, userId: number, productId: string | undefined): Promise<string> {
  const now = clock()
  const opId = newOpId(now)
  await db.insertInto('orders').values({
    op_id: opId, user_id: userId, product_id: productId ?? null, amount_cents: null, channel: null, status: 'issued',
    prepay_id: null, prepay_url: null, prepay_at: null, transaction_id: null,
    issued_at: iso(now), created_at: null, paid_at: null, updated_at: iso(now)
  }).execute()
  return opId
}

/** A created (or later) order of the user; issued numbers and other users' orders are 404. */
export async function ownOrder (db: Db, userId: number, opId: string): Promise<OrderRow> {
  const o = await db.selectFrom('orders').selectAll().where('op_id', '=', opId).executeTakeFirst()
  if (!o || Number(o.user_id) !== userId || o.status === 'issued') throw new ApiFailure(404, 'order.notFound', {}, { field: 'opId' })
  return o
}

const sameOrder = (o: OrderRow, r: CreateOrderRequest) =>
  o.product_id === r.productId && Number(o.amount_cents) === r.amountCents && o.channel === r.channel

/**
 * Creates the order of an issued number. Replaying the same creation answers the same order; another
 * body with a used number is a 400 naming opId.
 */
export async function createOrder (db: Db, clock: Clock, config: Config, userId: number, r: CreateOrderRequest): Promise<OrderView> {
  const issued = await db.selectFrom('orders').selectAll().where('op_id', '=', r.opId).executeTakeFirst()
  if (!issued || Number(issued.user_id) !== userId) throw opIdFailure(404, 'order.unknownOpId')
  if (issued.status !== 'issued') {
    if (sameOrder(issued, r)) return orderView(issued)
    throw opIdFailure(400, 'order.opIdUsed')
  }
  if (r.productId !== TOPUP_PRODUCT_ID) throw new ApiFailure(400, 'order.unknownProduct', { field: 'productId' }, { field: 'productId' })
  if (issued.product_id !== null && issued.product_id !== r.productId) {
    throw new ApiFailure(400, 'order.productMismatch', { field: 'productId' }, { field: 'productId' })
  }
  if (!payMethods(config).some(m => m.channel === r.channel)) {
    throw new ApiFailure(422, 'pay.channelUnavailable', { channel: r.channel }, { field: 'channel' })
  }
  const now = iso(clock())
  const created = await db.updateTable('orders')
    .set({ status: 'created', product_id: r.productId, amount_cents: r.amountCents, channel: r.channel, created_at: now, updated_at: now })
    .where('op_id', '=', r.opId).where('status', '=', 'issued')
    .returningAll().executeTakeFirst()
  if (created) return orderView(created)
  // a concurrent creation with the same number won
  const raced = await db.selectFrom('orders').selectAll().where('op_id', '=', r.opId).executeTakeFirstOrThrow()
  if (sameOrder(raced, r)) return orderView(raced)
  throw opIdFailure(400, 'order.opIdUsed')
}

export interface Settlement {
  /** The order was paid by this call (false: it was already paid, or is not payable). */
  settled: boolean
  order: OrderRow
}

/**
 * Marks an order paid and credits its amount to the user's cash balance, exactly once.
 * `from`: the statuses it may be paid from (a WeChat notification may pay a canceled order: the
 * money was taken).
 */
export async function settleOrder (db: Db, clock: Clock, opId: string, from: OrderStatusRow[], transactionId: string | null = null): Promise<Settlement> {
  const result = await db.transaction().execute(async trx => {
    const now = iso(clock())
    const paid = await trx.updateTable('orders')
      .set({ status: 'paid', paid_at: now, updated_at: now, transaction_id: transactionId })
      .where('op_id', '=', opId).where('status', 'in', from)
      .returningAll().executeTakeFirst()
    if (!paid) return null
    const userId = Number(paid.user_id)
    const amount = Number(paid.amount_cents)
    await postTransaction(trx, clock, {
      kind: 'topup',
      reference: opId,
      idempotencyKey: `order:${opId}`,
      userId,
      lines: [
        { account: 'payment_clearing', amountCents: -amount },
        { account: 'user_cash', userId, amountCents: amount }
      ]
    })
    await addToWallet(trx, clock, userId, { cashCents: amount })
    return paid
  })
  if (result) return { settled: true, order: result }
  const order = await db.selectFrom('orders').selectAll().where('op_id', '=', opId).executeTakeFirstOrThrow()
  return { settled: false, order }
}

/** created -> canceled; answers the order as it is afterwards (null: it was not created any more). */
export async function cancelOrder (db: Db, clock: Clock, opId: string): Promise<OrderRow | null> {
  const now = iso(clock())
  const row = await db.updateTable('orders').set({ status: 'canceled', updated_at: now })
    .where('op_id', '=', opId).where('status', '=', 'created')
    .returningAll().executeTakeFirst()
  return row ?? null
}

/**
 * Records a prepay, with the account row locked (a recorded prepay holds a deletion back for its
 * lifetime: security.ts): an account deleted since the request's session was read gets none (401).
 */
export async function savePrepay (db: Db, clock: Clock, userId: number, opId: string, prepay: { prepayId?: string; url?: string }): Promise<void> {
  await db.transaction().execute(async trx => {
    await lockLiveAccount(trx, userId)
    await trx.updateTable('orders')
      .set({ prepay_id: prepay.prepayId ?? null, prepay_url: prepay.url ?? null, prepay_at: iso(clock()), updated_at: iso(clock()) })
      .where('op_id', '=', opId).execute()
  })
}

export function isWeChatChannel (channel: PayChannel | null): boolean {
  return channel === 'wechat_jsapi' || channel === 'wechat_h5'
}
