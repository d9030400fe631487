/**
 * The order flow (spec 7; types/shop.ts): POST /generalOrder/getUniqueOrderNo, /create,
 * /getPaymentParam, /getPayOrderMessage, /cancelPay; GET /generalOrder/payMethod; POST /api/sandboxPay
 * (outside production); POST /generalOrder/deliver and /confirm answer 404 until shipping exists;
 * POST /generalOrder/notify/wechat receives WeChat Pay notifications (the one route outside the envelope).
 */
import { Type } from 'typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { CreateOrderRequest, OrderView, PayChannel, PayMethod, PaymentParams } from '../../../types/shop'
import type { SandboxPayResponse } from '../../../types/server/shop'
import type { Api, AppContext } from '../context'
import { ApiFailure, fail, ok } from '../http/envelope'
import { enforceLimits, requireSession } from '../http/request'
import { strict } from '../http/schemas'
import { OpId, OpIdBody, PayChannelSchema, TopupAmount } from '../http/shopSchemas'
import { RULES } from '../security/rules'
import { NotificationRejected } from '../providers/wechatpay'
import { cancelOrder, createOrder, isWeChatChannel, issueOrderNo, orderView, ownOrder, payMethods, settleOrder } from '../domain/orders'
import { paymentParams, refreshFromWeChat, settleFromWeChat, wechatPayCall } from '../domain/payments'

const UniqueOrderNoBody = Type.Object({
  productId: Type.Optional(Type.String({ maxLength: 64 })),
  // the spec's check is on userId being present: null counts as missing
  userId: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]))
}, strict)

const CreateOrderBody = Type.Object({
  productId: Type.String({ minLength: 1, maxLength: 64 }),
  userId: Type.Integer({ minimum: 1 }),
  opId: OpId,
  amountCents: TopupAmount,
  channel: PayChannelSchema
}, strict)

function checkUser (given: number, sessionUserId: number): void {
  if (given !== sessionUserId) throw new ApiFailure(422, 'order.userMismatch', { field: 'userId' }, { field: 'userId' })
}

export function orderRoutes (app: Api, ctx: AppContext): void {
  app.post('/generalOrder/getUniqueOrderNo', { schema: { body: UniqueOrderNoBody } }, async (request) => {
    const { productId, userId } = request.body
    if (userId === undefined || userId === null) throw new ApiFailure(400, 'order.idsRequired', {}, { field: 'userId' })
    const { user } = await requireSession(request, ctx)
    checkUser(userId, Number(user.id))
    await enforceLimits(ctx, [[RULES.orderNoPerUser, String(user.id)]])
    return ok<string>(request, await issueOrderNo(ctx.db, ctx.clock, Number(user.id), productId))
  })

  app.post('/generalOrder/create', { schema: { body: CreateOrderBody } }, async (request) => {
    const { user } = await requireSession(request, ctx)
    checkUser(request.body.userId, Number(user.id))
    const body = request.body as CreateOrderRequest
    return ok<OrderView>(request, await createOrder(ctx.db, ctx.clock, ctx.config, Number(user.id), { ...body, channel: body.channel as PayChannel }))
  })

  app.post('/generalOrder/getPaymentParam', { schema: { body: OpIdBody } }, async (request) => {
    const { user } = await requireSession(request, ctx)
    const order = await ownOrder(ctx.db, Number(user.id), request.body.opId)
    return ok<PaymentParams>(request, await paymentParams(ctx, order, request.ip))
  })

  app.post('/generalOrder/getPayOrderMessage', { schema: { body: OpIdBody } }, async (request) => {
    const { user } = await requireSession(request, ctx)
    let order = await ownOrder(ctx.db, Number(user.id), request.body.opId)
    if (order.status === 'created' && isWeChatChannel(order.channel)) {
      await refreshFromWeChat(ctx, order, request.log)
      order = await ownOrder(ctx.db, Number(user.id), request.body.opId)
    }
    return ok<OrderView>(request, orderView(order))
  })

  app.post('/generalOrder/cancelPay', { schema: { body: OpIdBody } }, async (request) => {
    const { user } = await requireSession(request, ctx)
    const userId = Number(user.id)
    let order = await ownOrder(ctx.db, userId, request.body.opId)
    const notCancelable = (status: string) => fail.unprocessable('order.notCancelable', { status }, { status })
    if (order.status !== 'created') throw notCancelable(order.status)
    if (isWeChatChannel(order.channel) && order.prepay_at !== null && ctx.wechatPay) {
      const client = ctx.wechatPay
      try {
        await wechatPayCall(() => client.close(order.op_id))
      } catch (err) {
        // closing fails when the shopper has paid meanwhile: settle from the query instead
        await refreshFromWeChat(ctx, order, request.log)
        order = await ownOrder(ctx.db, userId, request.body.opId)
        if (order.status !== 'created') throw notCancelable(order.status)
        throw err
      }
    }
    const canceled = await cancelOrder(ctx.db, ctx.clock, order.op_id)
    if (!canceled) throw notCancelable((await ownOrder(ctx.db, userId, order.op_id)).status)
    return ok<OrderView>(request, orderView(canceled))
  })

  app.get('/generalOrder/payMethod', async (request) => ok<PayMethod[]>(request, payMethods(ctx.config)))

  // shipping comes with a later issue
  for (const path of ['/generalOrder/deliver', '/generalOrder/confirm']) {
    app.post(path, async () => { throw fail.notFound('order.notAvailableYet') })
  }

  if (!ctx.config.isProduction) {
    app.post('/api/sandboxPay', { schema: { body: OpIdBody } }, async (request) => {
      const { user } = await requireSession(request, ctx)
      const order = await ownOrder(ctx.db, Number(user.id), request.body.opId)
      if (order.channel !== 'sandbox') throw fail.unprocessable('order.notSandbox', {}, { field: 'opId' })
      if (order.status === 'canceled') throw fail.unprocessable('order.notPayable', { status: order.status }, { status: order.status })
      const { order: after } = await settleOrder(ctx.db, ctx.clock, order.op_id, ['created'])
      return ok<SandboxPayResponse>(request, orderView(after))
    })
  }

  app.register(async (scope) => wechatNotifyRoute(scope, ctx))
}

/** WeChat Pay's answers: 204 on success; 4xx/5xx with {code: 'FAIL', message} so that it retries. */
const failWith = (reply: FastifyReply, status: number, message: string) => reply.code(status).send({ code: 'FAIL', message })

/** The notification needs its body byte for byte (the signature covers it): a raw-string parser here only. */
function wechatNotifyRoute (scope: FastifyInstance, ctx: AppContext): void {
  scope.removeAllContentTypeParsers()
  scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body))
  scope.setErrorHandler((error: { statusCode?: number }, request, reply) => {
    request.log.warn({ err: error }, 'WeChat Pay notification failed')
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? 400 : 500
    return failWith(reply, status, status === 400 ? 'bad request' : 'internal error')
  })
  scope.post('/generalOrder/notify/wechat', async (request: FastifyRequest, reply: FastifyReply) => {
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
    if (notification.eventType !== 'TRANSACTION.SUCCESS') return reply.code(204).send()
    const outcome = await settleFromWeChat(ctx, notification.transaction, request.log)
    if (!outcome.ok) return failWith(reply, outcome.status, outcome.reason)
    return reply.code(204).send()
  })
}
