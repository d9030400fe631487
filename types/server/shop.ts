/**
 * The shop calls beyond types/shop.ts: what a failure envelope carries in `data`, and the calls whose
 * answer types/shop.ts leaves implicit. Shared by the app and the server.
 */
import type { OrderRequest, OrderView } from '../shop'

/** POST /api/sandboxPay {opId} (outside production, sandbox orders only): the order, paid. Paying twice answers the same paid order. */
export type SandboxPayRequest = OrderRequest
export type SandboxPayResponse = OrderView

/** 400 (and some 404 / 409 / 422): the field the message is about. `rule` on schema errors. */
export interface FieldFailureData { field: string; rule?: string }

/** 409 on casePurchase: a slot of the request was sold (slots are 1-based); 400: a slot twice or outside the case. */
export interface SlotFailureData { field: 'slots'; slot: number }

/** 422 on casePurchase: the balances (credit + cash) do not cover the total. */
export interface InsufficientBalanceData { reason: 'insufficient_balance'; shortfallCents: number; totalCents: number }

/** 422 on casePurchase: a minor's daily cap. */
export interface DailyCapData { reason: 'daily_cap'; capCents: number; leftCents: number }

/** 422 on casePurchase (and ageVerify): the age gate. */
export interface AgeGateData { reason: 'age_required' | 'too_young' | 'guardian_consent'; field?: 'guardianConsent' }

/** 429 on caseSwitch: no switches left today; retryAfter: seconds until the next (China) day. */
export interface CaseSwitchLimitData { switchesLeft: 0; retryAfter: number }

/** 422 on getPaymentParam / cancelPay / sandboxPay: the order's status does not allow it. */
export interface OrderStatusData { status: 'created' | 'paid' | 'canceled' }

/** 502: WeChat Pay refused or could not be reached (errcode: WeChat Pay's error code when it answered). */
export interface PayProviderFailureData { provider: 'wechatpay'; errcode?: string }

/** The limits of the shop calls (the server enforces them; the app may show them). */
export const SHOP_LIMITS = {
  /** Case switches per user per China day. */
  caseSwitchesPerDay: 5,
  /** Default daily spending cap of a minor (8-17), in cents. */
  minorDailyCapCents: 10000,
  minPurchaseAge: 8,
  adultAge: 18,
  /** Order numbers per user per minute. */
  orderNumbersPerMinute: 30,
  liveFeedMax: 50
} as const
