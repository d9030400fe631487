/**
 * Paying an order through a channel: the sandbox (settles at once, outside production) or WeChat Pay
 * (JSAPI in the mini-program, H5 in browsers). A WeChat payment is settled from its verified
 * notification, or from an order query when the shopper asks for the order's state.
 */
import type { Logger } from '../../core/logger'
import type { PaymentParams } from '../../../../types/shop'
import type { Db } from '../../db'
import type { Clock } from '../../core/clock'
import type { OrderRow } from '../../db/schema'
import { ApiFailure, fail } from '../../core/errors'
import { ProviderUnavailableError } from '../../providers/errors'
import { observedCall } from '../../providers/calls'
import { PREPAY_TTL_MS, WeChatPayError, type WeChatPayClient, type WeChatTransaction } from '../../providers/wechatpay'
import { PROVIDERS } from '../account/identities'
import { TOPUP_DESCRIPTION, isWeChatChannel, savePrepay, settleOrder } from './orders'

/** What paying needs of the app (AppContext has it all). */
export interface PaymentsContext {
  db: Db
  clock: Clock
  /** null: WeChat Pay is not configured. */
  wechatPay: WeChatPayClient | null
  config: { isProduction: boolean }
}

/** Reuse a prepay_id while it has this much life left; an H5 link (valid 5 minutes) for 4 minutes. */
const PREPAY_MARGIN_MS = 10 * 60 * 1000
const H5_URL_REUSE_MS = 4 * 60 * 1000

/** Runs a WeChat Pay call: refusals and outages are a 502 naming the provider. */
export async function wechatPayCall<T> (fn: () => Promise<T>): Promise<T> {
  try {
    return await observedCall('wechatpay', fn, err => err instanceof WeChatPayError)
  } catch (err) {
    if (err instanceof WeChatPayError) {
      throw new ApiFailure(502, 'provider.unavailable', { provider: '@provider.wechatpay' }, { provider: 'wechatpay', errcode: err.code }, 502)
    }
    if (err instanceof ProviderUnavailableError) throw fail.providerUnavailable('wechatpay')
    throw err
  }
}

function requireClient (ctx: PaymentsContext, order: OrderRow): WeChatPayClient {
  if (!ctx.wechatPay) throw new ApiFailure(422, 'pay.channelUnavailable', { channel: order.channel ?? '' }, { field: 'channel' })
  return ctx.wechatPay
}

export async function paymentParams (ctx: PaymentsContext, order: OrderRow, clientIp: string): Promise<PaymentParams> {
  if (order.status !== 'created') throw fail.unprocessable('order.notPayable', { status: order.status }, { status: order.status })
  const base = { opId: order.op_id, channel: order.channel! }
  const now = ctx.clock()
  const fresh = (ttl: number) => order.prepay_at !== null && Date.parse(order.prepay_at) + ttl > now
  switch (order.channel) {
    case 'sandbox':
      // the sandbox pay call exists only outside production: a sandbox order left over from
      // development cannot be paid there (it can be canceled)
      if (ctx.config.isProduction) throw fail.unprocessable('pay.sandboxOff', {}, { channel: 'sandbox' })
      return { ...base, sandbox: { payCall: '/api/sandboxPay' } }
    case 'wechat_jsapi': {
      const client = requireClient(ctx, order)
      let prepayId = order.prepay_id && fresh(PREPAY_TTL_MS - PREPAY_MARGIN_MS) ? order.prepay_id : null
      if (!prepayId) {
        const identity = await ctx.db.selectFrom('identities').select('subject')
          .where('user_id', '=', Number(order.user_id)).where('provider', '=', PROVIDERS.weapp)
          .orderBy('id', 'desc').executeTakeFirst()
        if (!identity) throw fail.unprocessable('pay.openidMissing', {}, { field: 'channel' })
        prepayId = await wechatPayCall(() => client.jsapiPrepay({
          outTradeNo: order.op_id, description: TOPUP_DESCRIPTION, amountCents: Number(order.amount_cents), openid: identity.subject
        }))
        await savePrepay(ctx.db, ctx.clock, Number(order.user_id), order.op_id, { prepayId })
      }
      return { ...base, jsapi: client.jsapiParams(prepayId) }
    }
    case 'wechat_h5': {
      const client = requireClient(ctx, order)
      let url = order.prepay_url && fresh(H5_URL_REUSE_MS) ? order.prepay_url : null
      if (!url) {
        url = await wechatPayCall(() => client.h5Prepay({
          outTradeNo: order.op_id, description: TOPUP_DESCRIPTION, amountCents: Number(order.amount_cents), clientIp
        }))
        await savePrepay(ctx.db, ctx.clock, Number(order.user_id), order.op_id, { url })
      }
      return { ...base, h5Url: url }
    }
    default:
      throw new Error(`order ${order.op_id} has no channel`)
  }
}

export type WeChatSettleOutcome = { ok: true; settled: boolean } | { ok: false; status: number; reason: string }

/** Settles an order from a verified WeChat transaction after checking it matches the order. */
export async function settleFromWeChat (ctx: PaymentsContext, tx: WeChatTransaction, log: Logger): Promise<WeChatSettleOutcome> {
  const client = ctx.wechatPay
  if (!client) return { ok: false, status: 404, reason: 'WeChat Pay is not configured' }
  const order = await ctx.db.selectFrom('orders').selectAll().where('op_id', '=', String(tx.out_trade_no)).executeTakeFirst()
  if (!order || !isWeChatChannel(order.channel)) {
    log.error({ outTradeNo: tx.out_trade_no }, 'WeChat Pay: payment for an unknown order')
    return { ok: false, status: 404, reason: 'unknown out_trade_no' }
  }
  if (tx.mchid !== client.mchId || tx.appid !== client.appId || tx.amount?.total !== Number(order.amount_cents)) {
    log.error({ opId: order.op_id, mchid: tx.mchid, appid: tx.appid, total: tx.amount?.total, expected: Number(order.amount_cents) },
      'WeChat Pay: the payment does not match the order')
    return { ok: false, status: 400, reason: 'mchid, appid or amount does not match the order' }
  }
  if (tx.trade_state !== 'SUCCESS') return { ok: true, settled: false }
  const { settled, order: after } = await settleOrder(ctx.db, ctx.clock, order.op_id, ['created', 'canceled'], tx.transaction_id ?? null)
  if (settled && order.status === 'canceled') log.warn({ opId: order.op_id }, 'WeChat Pay: a canceled order was paid; credited')
  if (!settled && after.status !== 'paid') return { ok: false, status: 409, reason: `order is ${after.status}` }
  return { ok: true, settled }
}

/** Asks WeChat Pay about a created order that went to WeChat (the notification may be late or lost). */
export async function refreshFromWeChat (ctx: PaymentsContext, order: OrderRow, log: Logger): Promise<void> {
  if (!ctx.wechatPay || order.status !== 'created' || !isWeChatChannel(order.channel) || order.prepay_at === null) return
  try {
    const tx = await ctx.wechatPay.queryByOutTradeNo(order.op_id)
    if (tx.trade_state === 'SUCCESS') await settleFromWeChat(ctx, tx, log)
  } catch (err) {
    if (err instanceof WeChatPayError && err.code === 'ORDER_NOT_EXIST') return
    log.warn({ err, opId: order.op_id }, 'WeChat Pay order query failed')
  }
}
