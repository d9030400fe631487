/**
 * What a failure envelope of the shop's calls carries in `data`.
 */
import { Type, type Static } from 'typebox'
import { Cents, StringEnum } from '../schema'
import { OrderStatus } from './orders'

// ---- what a failure envelope carries in `data` ----------------------------------------------------

/** 400 (and some 404 / 409 / 422): the field the message is about. `rule` on schema errors. */
export const FieldFailureData = Type.Object({ field: Type.String(), rule: Type.Optional(Type.String()) })
export type FieldFailureData = Static<typeof FieldFailureData>
/** 409 on casePurchase: a slot of the request was sold (slots are 1-based); 400: a slot twice or outside the case. */
export const SlotFailureData = Type.Object({
  field: Type.Literal('slots'),
  slot: Type.Integer(),
  /** The caller bought this slot (slot.soldToYou): the purchase that did, and the slot's prize. */
  boughtByYou: Type.Optional(Type.Object({ purchaseId: Type.Integer(), prizeId: Type.Integer() }))
})
export type SlotFailureData = Static<typeof SlotFailureData>
/** 422 on casePurchase: the balances (credit + cash) do not cover the total. */
export const InsufficientBalanceData = Type.Object({ reason: Type.Literal('insufficient_balance'), shortfallCents: Cents, totalCents: Cents })
export type InsufficientBalanceData = Static<typeof InsufficientBalanceData>
/** 409 on casePurchase / purchaseCheck: the box price is no longer the one the buyer was shown. */
export const PriceChangedData = Type.Object({ field: Type.Literal('priceCents'), priceCents: Cents })
export type PriceChangedData = Static<typeof PriceChangedData>
/** 422 on casePurchase: a minor's daily cap. */
export const DailyCapData = Type.Object({ reason: Type.Literal('daily_cap'), capCents: Cents, leftCents: Cents })
export type DailyCapData = Static<typeof DailyCapData>
/** 422 on casePurchase (and ageVerify): the age gate. */
export const AgeGateData = Type.Object({
  reason: StringEnum(['age_required', 'too_young', 'guardian_consent'] as const),
  field: Type.Optional(Type.Literal('guardianConsent'))
})
export type AgeGateData = Static<typeof AgeGateData>
/**
 * 422 / 409 on guardianCode: no guardian is asked for this account (not_minor: no birth date, an adult,
 * or under 8), consent is already given (given, 409), the shop cannot send SMS now (unavailable).
 */
export const GuardianRefusalData = Type.Object({ reason: StringEnum(['not_minor', 'given', 'unavailable'] as const) })
export type GuardianRefusalData = Static<typeof GuardianRefusalData>
/** 429 on caseSwitch: no switches left today; retryAfter: seconds until the next (China) day. */
export const CaseSwitchLimitData = Type.Object({ switchesLeft: Type.Literal(0), retryAfter: Type.Integer() })
export type CaseSwitchLimitData = Static<typeof CaseSwitchLimitData>
/** 422 on getPaymentParam / cancelPay / sandboxPay: the order's status does not allow it. */
export const OrderStatusData = Type.Object({ status: OrderStatus })
export type OrderStatusData = Static<typeof OrderStatusData>
/** 502: WeChat Pay refused or could not be reached (errcode: WeChat Pay's error code when it answered). */
export const PayProviderFailureData = Type.Object({ provider: Type.Literal('wechatpay'), errcode: Type.Optional(Type.String()) })
export type PayProviderFailureData = Static<typeof PayProviderFailureData>
