/**
 * The shop's own calls (issue 4): catalogue, cases and proofs, wallet, age gate, purchase, prizes,
 * orders and payment. Shared by the app and the server. Money is integer cents (CNY). Probabilities
 * are parts per million (ppm, integers, rounded); the server keeps the exact fractions.
 * Every call answers the envelope of types/api.ts; errors use its codes:
 * 400 bad input (names the field), 401 not logged in, 404 unknown id, 409 conflict (slot sold,
 * idempotency key reused with another body), 422 business rule (balance, age, limit), 429 too many.
 */
import type { PageQuery, PageResult } from './api'

export type Lang = 'zh' | 'en'
/** A text in both languages. */
export type I18nText = Record<Lang, string>
export type Rarity = 'regular' | 'rare' | 'hidden'

/** Largest price of one box (PRODUCT.md: at most 200 yuan). */
export const MAX_BOX_PRICE_CENTS = 20000

// ---- catalogue: POST /api/seriesList, /api/seriesDetail ----------------------------------------

export interface SeriesSummary {
  id: number
  title: I18nText
  description: I18nText
  /** Path like /media/art/1f381.webp, or an absolute URL. */
  cover: string
  priceCents: number
  caseSize: number
  designCount: number
  /** Chance per box of each rarity. */
  oddsPpm: Record<Rarity, number>
  status: 'on_sale' | 'retired'
}

export interface DesignInfo {
  id: number
  name: I18nText
  image: string
  rarity: Rarity
  referenceValueCents: number
  recycleValueCents: number
  /** Chance that one box holds this design. */
  oddsPpm: number
}

export interface SeriesDetail extends SeriesSummary {
  designs: DesignInfo[]
  /** Chance that a case carries the hidden design. */
  hiddenCasePpm: number
  /** Reference values of the cheapest and dearest design a box can hold. */
  valueRange: { minCents: number; maxCents: number }
  rules: I18nText
}

export type SeriesListRequest = PageQuery
export type SeriesListResponse = PageResult<SeriesSummary>
export interface SeriesIdRequest { seriesId: number }

// ---- cases: POST /api/caseCurrent, /api/caseSwitch, /api/caseProof --------------------------------

export interface SlotView {
  /** 1-based position in the case. */
  slot: number
  sold: boolean
}

export interface CaseView {
  caseId: number
  seriesId: number
  /** sha256 hex of `${caseId}:${designId1},...,${designIdN}:${salt}`, published when the case was made. */
  commit: string
  size: number
  slots: SlotView[]
  /** Switches to another case the user has left today. */
  switchesLeft: number
}

export interface CaseProofRequest { caseId: number }

export interface CaseProof {
  caseId: number
  seriesId: number
  commit: string
  status: 'on_sale' | 'sold_out' | 'retired'
  revealed: boolean
  /** Once revealed: design id of every slot, in slot order. */
  arrangement?: number[]
  /** Once revealed: the salt (hex). */
  salt?: string
}

// ---- wallet: POST /api/walletBalance, /api/walletLedger ------------------------------------------

export interface WalletBalance { cashCents: number; creditCents: number }

export type LedgerKind = 'topup' | 'purchase' | 'refund' | 'recycle' | 'withdraw' | 'reward'

export interface LedgerEntry {
  id: number
  /** Lines of one transaction share it. */
  txId: number
  kind: LedgerKind
  account: 'cash' | 'credit'
  /** Signed, as the user sees it: + in, - out. */
  amountCents: number
  createdAt: string
  /** e.g. the order number or the case and slots. */
  reference: string
}

export type LedgerRequest = PageQuery
export type LedgerResponse = PageResult<LedgerEntry>

// ---- age gate: POST /api/ageVerify, /api/ageStatus -------------------------------------------------

export interface AgeVerifyRequest {
  /** YYYY-MM-DD */
  birthDate: string
  guardianConsent?: boolean
}

export interface AgeStatus {
  /** A birth date is recorded (it cannot be changed afterwards). */
  verified: boolean
  /** null until verified */
  birthDate: string | null
  age: number | null
  minor: boolean
  /** A minor's guardian has consented (always false for adults and the unverified). */
  guardianConsent: boolean
  /** Default daily spending cap of a minor; null for adults. */
  dailyCapCents: number | null
}

// ---- purchase: POST /api/casePurchase ----------------------------------------------------------------

export interface PurchaseRequest {
  caseId: number
  /** The slots to buy (1-based); or wholeCase: true for every unsold slot. */
  slots?: number[]
  wholeCase?: true
  /** The buyer has seen the designs, odds, value range and rules. Must be true. */
  acknowledged: true
  /** 8-64 characters [A-Za-z0-9_-]; a replay returns the first result. */
  idempotencyKey: string
}

export interface PrizeResult {
  prizeId: number
  caseId: number
  slot: number
  design: DesignInfo
}

export interface PurchaseResult {
  purchaseId: number
  caseId: number
  seriesId: number
  totalCents: number
  spentCreditCents: number
  spentCashCents: number
  prizes: PrizeResult[]
  balance: WalletBalance
}

// ---- prizes and the live feed: POST /api/prizeList, /api/prizeDetail, /api/liveFeed -------------

export type PrizeStatus = 'warehouse' | 'shipping' | 'received' | 'combined' | 'recycled'

export interface PrizeItem {
  prizeId: number
  status: PrizeStatus
  seriesId: number
  seriesTitle: I18nText
  caseId: number
  slot: number
  design: DesignInfo
  createdAt: string
}

export interface PrizeListRequest extends PageQuery { status?: PrizeStatus }
export type PrizeListResponse = PageResult<PrizeItem>
export interface PrizeDetailRequest { prizeId: number }
export interface PrizeDetail extends PrizeItem { proof: CaseProof }

export interface FeedRequest { limit?: number }
export interface FeedItem {
  id: number
  /** e.g. 'a***y' */
  maskedName: string
  seriesTitle: I18nText
  design: Pick<DesignInfo, 'name' | 'image' | 'rarity'>
  at: string
}

// ---- orders and payment (spec 7 order flow) ---------------------------------------------------------

export type PayChannel = 'sandbox' | 'wechat_jsapi' | 'wechat_h5'

/** GET /generalOrder/payMethod */
export interface PayMethod {
  channel: PayChannel
  label: I18nText
  /** Test money that settles at once: shown with a "sandbox" label. */
  sandbox: boolean
}

/** POST /generalOrder/getUniqueOrderNo: data is the order number (opId). */
export interface UniqueOrderNoRequest { productId: string; userId?: number }

/** What can be ordered: a wallet top-up of amountCents. */
export const TOPUP_PRODUCT_ID = 'wallet_topup'
export const TOPUP_MIN_CENTS = 100
export const TOPUP_MAX_CENTS = 500000

/** POST /generalOrder/create */
export interface CreateOrderRequest {
  productId: string
  userId: number
  opId: string
  amountCents: number
  channel: PayChannel
}

export type OrderStatus = 'created' | 'paid' | 'canceled'

export interface OrderView {
  opId: string
  productId: string
  amountCents: number
  channel: PayChannel
  status: OrderStatus
  createdAt: string
  paidAt: string | null
}

export interface OrderRequest { opId: string }

/** POST /generalOrder/getPaymentParam */
export interface PaymentParams {
  opId: string
  channel: PayChannel
  /** sandbox: call POST /api/sandboxPay {opId} */
  sandbox?: { payCall: '/api/sandboxPay' }
  /** wechat_jsapi: what Taro.requestPayment / WeixinJSBridge take */
  jsapi?: { appId: string; timeStamp: string; nonceStr: string; package: string; signType: 'RSA'; paySign: string }
  /** wechat_h5: the page that opens WeChat Pay */
  h5Url?: string
}
