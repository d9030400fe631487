/**
 * Orders and payment (spec 7 order flow): order numbers, top-up orders, payment channels and parameters.
 */
import { Type, type Static } from 'typebox'
import { OP_ID_PATTERN, TOPUP_MAX_CENTS, TOPUP_MIN_CENTS } from '../limits'
import { Cents, Id, Nullable, Obj, StringEnum, Text, Timestamp } from '../schema'
import { I18nText } from './basics'

// ---- orders and payment (spec 7 order flow) -------------------------------------------------------

export const PayChannel = StringEnum(['sandbox', 'wechat_jsapi', 'wechat_h5'] as const)
export type PayChannel = Static<typeof PayChannel>

export const PayMethod = Type.Object({
  channel: PayChannel,
  label: I18nText,
  /** Test money that settles at once: shown with a "sandbox" label. */
  sandbox: Type.Boolean()
})
export type PayMethod = Static<typeof PayMethod>

export const OpId = Type.String({ pattern: OP_ID_PATTERN, description: 'The order number from getUniqueOrderNo' })

/** POST /generalOrder/getUniqueOrderNo: data is the order number (opId). The spec's check is on userId being present: null counts as missing. */
export const UniqueOrderNoRequest = Obj({
  productId: Type.Optional(Text({ maxLength: 64 })),
  userId: Type.Optional(Nullable(Id))
})
export type UniqueOrderNoRequest = Static<typeof UniqueOrderNoRequest>

export const CreateOrderRequest = Obj({
  productId: Text({ minLength: 1, maxLength: 64 }),
  userId: Id,
  opId: OpId,
  amountCents: Type.Integer({ minimum: TOPUP_MIN_CENTS, maximum: TOPUP_MAX_CENTS }),
  channel: PayChannel
})
export type CreateOrderRequest = Static<typeof CreateOrderRequest>

export const OrderStatus = StringEnum(['created', 'paid', 'canceled'] as const)
export type OrderStatus = Static<typeof OrderStatus>

export const OrderView = Type.Object({
  opId: Type.String(),
  productId: Type.String(),
  amountCents: Cents,
  channel: PayChannel,
  status: OrderStatus,
  createdAt: Timestamp,
  paidAt: Nullable(Timestamp)
})
export type OrderView = Static<typeof OrderView>

export const OrderRequest = Obj({ opId: OpId })
export type OrderRequest = Static<typeof OrderRequest>

export const PaymentParams = Type.Object({
  opId: Type.String(),
  channel: PayChannel,
  /** sandbox: call POST /api/sandboxPay {opId} */
  sandbox: Type.Optional(Type.Object({ payCall: Type.Literal('/api/sandboxPay') })),
  /** wechat_jsapi: what Taro.requestPayment / WeixinJSBridge take */
  jsapi: Type.Optional(Type.Object({
    appId: Type.String(),
    timeStamp: Type.String(),
    nonceStr: Type.String(),
    package: Type.String(),
    signType: Type.Literal('RSA'),
    paySign: Type.String()
  })),
  /** wechat_h5: the page that opens WeChat Pay */
  h5Url: Type.Optional(Type.String())
})
export type PaymentParams = Static<typeof PaymentParams>
