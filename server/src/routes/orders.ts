/**
 * The order flow (spec 7; types/shop.ts orderRoutes): POST /generalOrder/getUniqueOrderNo, /create,
 * /getPaymentParam, /getPayOrderMessage, /cancelPay; GET /generalOrder/payMethod; POST /api/sandboxPay
 * (outside production); POST /generalOrder/notify/wechat receives WeChat Pay notifications (the one
 * route outside the envelope and the contract: WeChat Pay defines its body).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { orderRoutes as r } from '../../../types/shop'
import type { Api, AppContext } from '../context'
import { ApiFailure, fail } from '../core/errors'
import { enforceLimits } from '../http/request'
import { defineRoute } from '../http/route'
import { RULES } from '../security/rules'
import { NotificationRejected } from '../providers/wechatpay'
import { cancelOrder, createOrder, isWeChatChannel, issueOrderNo, orderView, ownOrder, payMethods, settleOrder } from '../domain/money/orders'
import { paymentParams, refreshFromWeChat, settleFromWeChat, wechatPayCall } from '../domain/money/payments'
import { applyRefundState } from '../domain/money/withdrawalRefunds'

/** 409: the order's status does not allow paying it (it was canceled). */
const notPayable = (status: string) => new ApiFailure(409, 'order.notPayable', { status }, { status })

function checkUser (given: number, sessionUserId: number): void {
  if (given !== sessionUserId) throw new ApiFailure(422, 'order.userMismatch', { field: 'userId' }, { field: 'userId' })
}

export function orderRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.uniqueOrderNo, async ({ body, userId: caller }) => {
    const { productId, userId } = body
    if (userId === undefined || userId === null) throw new ApiFailure(400, 'order.idsRequired', {}, { field: 'userId' })
    checkUser(userId, caller)
    await enforceLimits(ctx, [[RULES.orderNoPerUser, String(caller)]])
    return issueOrderNo(ctx.db, ctx.clock, caller, productId)
  })

  defineRoute(app, ctx, r.create, async ({ body, userId }) => {
    checkUser(body.userId, userId)
    return createOrder(ctx.db, ctx.clock, ctx.config, userId, body)
  })

  defineRoute(app, ctx, r.paymentParam, async ({ request, body, userId }) =>
    paymentParams(ctx, await ownOrder(ctx.db, userId, body.opId), request.ip))

  defineRoute(app, ctx, r.payOrderMessage, async ({ request, body, userId }) => {
    let order = await ownOrder(ctx.db, userId, body.opId)
    if (order.status === 'created' && isWeChatChannel(order.channel)) {
      await refreshFromWeChat(ctx, order, request.log)
      order = await ownOrder(ctx.db, userId, body.opId)
    }
    return orderView(order)
  })

  defineRoute(app, ctx, r.cancelPay, async ({ request, body, userId }) => {
    let order = await ownOrder(ctx.db, userId, body.opId)
    const notCancelable = (status: string) => fail.unprocessable('order.notCancelable', { status }, { status })
    if (order.status !== 'created') throw notCancelable(order.status)
    if (isWeChatChannel(order.channel) && order.prepay_at !== null && ctx.wechatPay) {
      const client = ctx.wechatPay
      try {
        await wechatPayCall(() => client.close(order.op_id))
      } catch (err) {
        // closing fails when the shopper has paid meanwhile: settle from the query instead
        await refreshFromWeChat(ctx, order, request.log)
        order = await ownOrder(ctx.db, userId, body.opId)
        if (order.status !== 'created') throw notCancelable(order.status)
        throw err
      }
    }
    const canceled = await cancelOrder(ctx.db, ctx.clock, order.op_id)
    if (!canceled) throw notCancelable((await ownOrder(ctx.db, userId, order.op_id)).status)
    return orderView(canceled)
  })

  defineRoute(app, ctx, r.payMethod, async () => payMethods(ctx.config))

  // outside production only (devOnly): test money that settles at once
  defineRoute(app, ctx, r.sandboxPay, async ({ body, userId }) => {
    const order = await ownOrder(ctx.db, userId, body.opId)
    if (order.channel !== 'sandbox') throw fail.unprocessable('order.notSandbox', {}, { field: 'opId' })
    // the answer is the order as the settlement left it: a cancel that won a race is a 409, never a 200
    const { order: after } = await settleOrder(ctx.db, ctx.clock, order.op_id, ['created'])
    if (after.status !== 'paid') throw notPayable(after.status)
    return orderView(after)
  })

  app.register(async (scope) => wechatNotifyRoute(scope, ctx))
}

/** WeChat Pay's answers: 204 on success; 4xx/5xx with {code: 'FAIL', message} so that it retries. */
const failWith = (reply: FastifyReply, status: number, message: string) => reply.code(status).send({ code: 'FAIL', message })

/** What OpenAPI shows of the notification route (its body is WeChat Pay's, verified byte for byte). */
const WECHAT_NOTIFY_DOC = {
  summary: 'WeChat Pay payment and refund notification (called by WeChat Pay)',
  description: 'WeChat Pay v3 notification (TRANSACTION.SUCCESS settles a top-up; REFUND.SUCCESS / REFUND.ABNORMAL / REFUND.CLOSED settle a withdrawal\'s refund): signature headers (Wechatpay-Serial, -Signature, -Timestamp, -Nonce) over the raw body, AES-256-GCM resource. Answers 204 when settled or ignored, or 4xx/5xx with {code: "FAIL", message} so that WeChat Pay retries. Outside the envelope.',
  tags: ['orders'],
  response: { 204: { description: 'Settled (or an event that needs nothing)', type: 'null' } }
}

/** The notification needs its body byte for byte (the signature covers it): a raw-string parser here only. */
function wechatNotifyRoute (scope: FastifyInstance, ctx: AppContext): void {
  scope.removeAllContentTypeParsers()
  scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body))
  scope.setErrorHandler((error: { statusCode?: number }, request, reply) => {
    request.log.warn({ err: error }, 'WeChat Pay notification failed')
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? 400 : 500
    return failWith(reply, status, status === 400 ? 'bad request' : 'internal error')
  })
  scope.post('/generalOrder/notify/wechat', { schema: WECHAT_NOTIFY_DOC }, async (request: FastifyRequest, reply: FastifyReply) => {
    const client = ctx.wechatPay
    if (!client) return failWith(reply, 404, 'WeChat Pay is not configured')
    const raw = typeof request.body === 'string' ? request.body : ''
    let notification
    try {
      notification = client.verifyNotification(request.headers, raw)
    } catch (err) {
      if (err instanceof NotificationRejected) {
        request.log.warn({ reason: err.reason }, 'WeChat Pay notification refused')
        return failWith(reply, err.status, err.reason)
      }
      throw err
    }
    if (notification.refund) {
      // a withdrawal's refund (REFUND.SUCCESS / ABNORMAL / CLOSED): settled once, like a payment
      const outcome = await applyRefundState(ctx, notification.refund, request.log)
      if (!outcome.ok) return failWith(reply, outcome.status, outcome.reason)
      return reply.code(204).send()
    }
    if (notification.eventType !== 'TRANSACTION.SUCCESS') return reply.code(204).send()
    const outcome = await settleFromWeChat(ctx, notification.transaction, request.log)
    if (!outcome.ok) return failWith(reply, outcome.status, outcome.reason)
    return reply.code(204).send()
  })
}
