/**
 * The shop's own calls: catalogue, cases and proofs, wallet, age gate, purchase, prizes, orders and
 * payment. Money is integer cents (CNY). Probabilities are parts per million (ppm, integers, rounded);
 * the server keeps the exact fractions. Every call answers the envelope of types/api.ts; errors use its
 * codes: 400 bad input (names the field), 401 not logged in, 404 unknown id, 409 conflict (slot sold,
 * idempotency key reused with another body), 422 business rule (balance, age, limit), 429 too many.
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { Code, Phone } from './accounts'
import {
  CASE_SIZE_MAX, IDEMPOTENCY_KEY_PATTERN, MAX_BOX_PRICE_CENTS, OP_ID_PATTERN, SERIES_SEARCH, SHOP_LIMITS, TOPUP_MAX_CENTS,
  TOPUP_MIN_CENTS
} from './limits'
import {
  Cents, EmptyBody, Id, Nullable, Obj, PageFields, PageQuery, PageResult, SignedCents, StringEnum, Text, Timestamp
} from './schema'

export {
  MAX_BOX_PRICE_CENTS, SHOP_LIMITS, TOPUP_MAX_CENTS, TOPUP_MIN_CENTS, TOPUP_PRODUCT_ID
} from './limits'

export const Lang = StringEnum(['zh', 'en'] as const)
export type Lang = Static<typeof Lang>
/** A text in both languages. */
export const I18nText = Type.Object({ zh: Type.String(), en: Type.String() })
export type I18nText = Static<typeof I18nText>
export const Rarity = StringEnum(['regular', 'rare', 'hidden'] as const)
export type Rarity = Static<typeof Rarity>
const Ppm = Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'parts per million' })
const SlotNumber = Type.Integer({ minimum: 1, maximum: CASE_SIZE_MAX, description: '1-based position in the case' })

// ---- catalogue ------------------------------------------------------------------------------------

export const SeriesStatus = StringEnum(['on_sale', 'retired'] as const)
export const SeriesSummary = Type.Object({
  id: Type.Integer(),
  title: I18nText,
  description: I18nText,
  cover: Type.String({ description: 'A path like /media/art/1f381.webp, or an absolute URL' }),
  priceCents: Cents,
  caseSize: Type.Integer(),
  designCount: Type.Integer(),
  /** Chance per box of each rarity. */
  oddsPpm: Type.Object({ regular: Ppm, rare: Ppm, hidden: Ppm }),
  status: SeriesStatus
})
export type SeriesSummary = Static<typeof SeriesSummary>

export const DesignInfo = Type.Object({
  id: Type.Integer(),
  name: I18nText,
  image: Type.String(),
  /** The picture described, for a screen reader (absent until the operator wrote it: the name serves). */
  alt: Type.Optional(I18nText),
  rarity: Rarity,
  referenceValueCents: Cents,
  recycleValueCents: Cents,
  /** Chance that one box holds this design. */
  oddsPpm: Ppm
})
export type DesignInfo = Static<typeof DesignInfo>

export const SeriesDetail = Type.Object({
  ...SeriesSummary.properties,
  designs: Type.Array(DesignInfo),
  /** Chance that a case carries the hidden design. */
  hiddenCasePpm: Ppm,
  /** Reference values of the cheapest and dearest design a box can hold. */
  valueRange: Type.Object({ minCents: Cents, maxCents: Cents }),
  rules: I18nText
})
export type SeriesDetail = Static<typeof SeriesDetail>

/** A theme tag operators give series (both languages), a filter on home. */
export const ThemeTag = Type.Object({ id: Type.Integer(), name: I18nText })
export type ThemeTag = Static<typeof ThemeTag>

export const SERIES_SORTS = ['new', 'popular', 'price_asc', 'price_desc'] as const
export const SeriesSort = StringEnum(SERIES_SORTS, {
  description: `new: newest first; popular: most boxes sold in the last ${SERIES_SEARCH.popularDays} days; price_asc / price_desc: by the price of a box`
})
export type SeriesSort = Static<typeof SeriesSort>
const BoxPrice = Type.Integer({ minimum: 0, maximum: MAX_BOX_PRICE_CENTS })
const SearchText = Text({ minLength: 1, maxLength: SERIES_SEARCH.queryMax, description: 'Matched in the zh and en titles after NFKC, case folding and dropping spaces' })

/**
 * Without any of q, the filters and sort: every published series, on sale first, oldest first. With
 * any: the same shelf order (on sale first), then the chosen sort (newest first when none).
 */
export const SeriesListRequest = Obj({
  ...PageFields,
  q: Type.Optional(SearchText),
  priceMinCents: Type.Optional(BoxPrice),
  priceMaxCents: Type.Optional(BoxPrice),
  /** Series that have designs of this rarity. */
  rarity: Type.Optional(Rarity),
  /** Series carrying any of these tags. */
  tagIds: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: SERIES_SEARCH.tagFilterMax, uniqueItems: true })),
  /** true: series with a hidden design; false: series without. */
  hasHidden: Type.Optional(Type.Boolean()),
  sort: Type.Optional(SeriesSort)
})
export type SeriesListRequest = Static<typeof SeriesListRequest>
export const SeriesListResponse = Type.Object({
  ...PageResult(SeriesSummary).properties,
  /** On page 1: the theme tags of published series, for the filter. */
  tags: Type.Optional(Type.Array(ThemeTag))
})
export type SeriesListResponse = Static<typeof SeriesListResponse>
export const SeriesSuggestRequest = Obj({ q: SearchText })
export type SeriesSuggestRequest = Static<typeof SeriesSuggestRequest>
export const SeriesSuggestion = Type.Object({ id: Type.Integer(), title: I18nText })
export type SeriesSuggestion = Static<typeof SeriesSuggestion>
export const SeriesIdRequest = Obj({ seriesId: Id })
export type SeriesIdRequest = Static<typeof SeriesIdRequest>

// ---- cases ----------------------------------------------------------------------------------------

export const SlotView = Type.Object({ slot: SlotNumber, sold: Type.Boolean() })
export type SlotView = Static<typeof SlotView>

export const CaseView = Type.Object({
  caseId: Type.Integer(),
  seriesId: Type.Integer(),
  // eslint-disable-next-line no-template-curly-in-string -- documents the committed string's format
  commit: Type.String({ description: 'sha256 hex of `${caseId}:${designId1},...,${designIdN}:${salt}`, published when the case was made' }),
  size: Type.Integer(),
  slots: Type.Array(SlotView),
  /** Switches to another case the user has left today. */
  switchesLeft: Type.Integer({ minimum: 0 }),
  /**
   * Until when the case is held for the caller (no other shopper is shown it: a case lease, renewed while
   * they keep looking); null for a visitor, or when another shopper holds it too (the shop had no case left).
   */
  heldUntil: Nullable(Timestamp)
})
export type CaseView = Static<typeof CaseView>

export const CaseProofRequest = Obj({ caseId: Id })
export type CaseProofRequest = Static<typeof CaseProofRequest>

export const CaseProof = Type.Object({
  caseId: Type.Integer(),
  seriesId: Type.Integer(),
  commit: Type.String(),
  status: StringEnum(['on_sale', 'sold_out', 'retired'] as const),
  revealed: Type.Boolean(),
  /** Once revealed: design id of every slot, in slot order. */
  arrangement: Type.Optional(Type.Array(Type.Integer())),
  /** Once revealed: the salt (hex). */
  salt: Type.Optional(Type.String())
})
export type CaseProof = Static<typeof CaseProof>

// ---- wallet ---------------------------------------------------------------------------------------

export const WalletBalance = Type.Object({ cashCents: Cents, creditCents: Cents })
export type WalletBalance = Static<typeof WalletBalance>

export const LedgerKind = StringEnum(['topup', 'purchase', 'refund', 'recycle', 'withdraw', 'reward', 'shipping_fee', 'withdraw_payout', 'withdraw_release', 'prop_purchase'] as const)
export type LedgerKind = Static<typeof LedgerKind>

export const LedgerEntry = Type.Object({
  id: Type.Integer(),
  /** Lines of one transaction share it. */
  txId: Type.Integer(),
  kind: LedgerKind,
  account: StringEnum(['cash', 'credit'] as const),
  /** Signed, as the user sees it: + in, - out. */
  amountCents: SignedCents,
  createdAt: Timestamp,
  /** e.g. the order number or the case and slots. */
  reference: Type.String()
})
export type LedgerEntry = Static<typeof LedgerEntry>

export const LedgerRequest = PageQuery
export type LedgerRequest = PageQuery
export const LedgerResponse = PageResult(LedgerEntry)
export type LedgerResponse = Static<typeof LedgerResponse>

// ---- age gate -------------------------------------------------------------------------------------

export const AgeVerifyRequest = Obj({
  birthDate: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' }),
  /**
   * Ignored, accepted so that app versions still in use are not refused: a minor cannot consent for
   * their guardian. The guardian consents with the code guardianCode sends to their phone.
   */
  guardianConsent: Type.Optional(Type.Boolean({ deprecated: true, description: 'Ignored: the guardian consents through guardianCode and guardianConfirm' }))
})
export type AgeVerifyRequest = Static<typeof AgeVerifyRequest>

/**
 * A minor's guardian consent, for minors who may buy (8 to 17); null for everyone else.
 *   none     no code sent yet (or a request left unconfirmed for a week, whose number was then forgotten)
 *   pending  a code went to `phone`; the guardian tells it to the minor, who enters it (guardianConfirm)
 *   given    the guardian at `phone` consented at `consentedAt`
 */
export const GuardianState = StringEnum(['none', 'pending', 'given'] as const)
export type GuardianState = Static<typeof GuardianState>
export const GuardianView = Type.Object({
  state: GuardianState,
  /** The guardian's number, masked (138****0000): where the code went, or who consented. */
  phone: Nullable(Type.String()),
  requestedAt: Nullable(Timestamp),
  consentedAt: Nullable(Timestamp),
  /** Seconds until a code can be sent to the same number again (0: now). */
  resendInSeconds: Type.Integer({ minimum: 0 }),
  /** A code can be sent at all (false when the shop cannot send SMS now: the app says to ask the shop). */
  canRequest: Type.Boolean()
})
export type GuardianView = Static<typeof GuardianView>

export const AgeStatus = Type.Object({
  /** A birth date is recorded (it cannot be changed afterwards). */
  verified: Type.Boolean(),
  /** null until verified */
  birthDate: Nullable(Type.String()),
  age: Nullable(Type.Integer()),
  minor: Type.Boolean(),
  /** A minor's guardian has consented, by the code sent to the guardian's phone (always false for adults and the unverified). */
  guardianConsent: Type.Boolean(),
  /** Default daily spending cap of a minor; null for adults. */
  dailyCapCents: Nullable(Cents),
  /** The guardian's consent of a minor from 8 to 17; null otherwise. */
  guardian: Nullable(GuardianView)
})
export type AgeStatus = Static<typeof AgeStatus>

/** Send the code to the guardian's phone; without `phone`, again to the number of the pending request. */
export const GuardianCodeRequest = Obj({ phone: Type.Optional(Phone) })
export type GuardianCodeRequest = Static<typeof GuardianCodeRequest>
/** The code the guardian received. */
export const GuardianConfirmRequest = Obj({ code: Code })
export type GuardianConfirmRequest = Static<typeof GuardianConfirmRequest>

// ---- purchase -------------------------------------------------------------------------------------

export const IdempotencyKey = Type.String({ pattern: IDEMPOTENCY_KEY_PATTERN, description: 'A replay with the same key and body answers the first result' })

/** What is bought: shared by casePurchase and purchaseCheck. */
const purchaseFields = {
  caseId: Id,
  /** The slots to buy (1-based); or wholeCase: true for every unsold slot. */
  slots: Type.Optional(Type.Array(SlotNumber, { minItems: 1, maxItems: CASE_SIZE_MAX })),
  wholeCase: Type.Optional(Type.Literal(true)),
  /** The buyer has seen the designs, odds, value range and rules. Must be true. */
  acknowledged: Type.Literal(true),
  /** The box price the buyer was shown; when given and the price has changed since: 409 with PriceChangedData. */
  priceCents: Type.Optional(Cents)
}
export const PurchaseRequest = Obj({ ...purchaseFields, idempotencyKey: IdempotencyKey })
export type PurchaseRequest = Static<typeof PurchaseRequest>

/** purchaseCheck: the body of casePurchase without the idempotency key (nothing is bought). */
export const PurchaseCheckRequest = Obj(purchaseFields)
export type PurchaseCheckRequest = Static<typeof PurchaseCheckRequest>

/**
 * What casePurchase would do now: the slots it would sell, the total, the credit and cash it would
 * spend (credit first), and the cash missing from the wallet (shortfallCents, 0 when the balances cover
 * it; a top-up of at least that lets the purchase go through). dailyLeftCents: what a minor may still
 * spend today (after this purchase), null without a cap.
 */
export const PurchaseCheckResult = Type.Object({
  caseId: Type.Integer(),
  seriesId: Type.Integer(),
  slots: Type.Array(SlotNumber),
  priceCents: Cents,
  totalCents: Cents,
  creditCents: Cents,
  cashCents: Cents,
  shortfallCents: Cents,
  balance: WalletBalance,
  dailyLeftCents: Nullable(Cents)
})
export type PurchaseCheckResult = Static<typeof PurchaseCheckResult>

export const PrizeResult = Type.Object({
  prizeId: Type.Integer(),
  caseId: Type.Integer(),
  slot: SlotNumber,
  design: DesignInfo
})
export type PrizeResult = Static<typeof PrizeResult>

export const PurchaseResult = Type.Object({
  purchaseId: Type.Integer(),
  caseId: Type.Integer(),
  seriesId: Type.Integer(),
  totalCents: Cents,
  spentCreditCents: Cents,
  spentCashCents: Cents,
  prizes: Type.Array(PrizeResult),
  balance: WalletBalance,
  /** X-ray cards this purchase earned (a whole case earns one). */
  xrayCardsEarned: Type.Integer({ minimum: 0 })
})
export type PurchaseResult = Static<typeof PurchaseResult>

/**
 * One of the caller's purchases as its result pages show it (prize_show, open_chest_animation): what it
 * cost and the prizes it drew, whatever became of them since. Owner only: the prizes of a case still on
 * sale tell what is left in it (what an X-ray card sells), so a purchase is nobody else's to read.
 */
export const PurchaseView = Type.Object({
  purchaseId: Type.Integer(),
  caseId: Type.Integer(),
  seriesId: Type.Integer(),
  totalCents: Cents,
  spentCreditCents: Cents,
  spentCashCents: Cents,
  prizes: Type.Array(PrizeResult),
  createdAt: Timestamp
})
export type PurchaseView = Static<typeof PurchaseView>
export const PurchaseIdRequest = Obj({ purchaseId: Id })
export type PurchaseIdRequest = Static<typeof PurchaseIdRequest>

// ---- prizes and the live feed ---------------------------------------------------------------------

export const PrizeStatus = StringEnum(['warehouse', 'shipping', 'received', 'combined', 'recycled'] as const)
export type PrizeStatus = Static<typeof PrizeStatus>

export const PrizeItem = Type.Object({
  prizeId: Type.Integer(),
  status: PrizeStatus,
  seriesId: Type.Integer(),
  seriesTitle: I18nText,
  /** 'case': drawn from a case (caseId, slot); 'combine': made by combining (combineId; caseId and slot 0). */
  origin: StringEnum(['case', 'combine'] as const),
  caseId: Type.Integer(),
  slot: Type.Integer({ minimum: 0, maximum: CASE_SIZE_MAX }),
  combineId: Nullable(Type.Integer()),
  design: DesignInfo,
  /**
   * The state of the parcel a 'shipping' prize is in: 'requested' (waiting to be sent) or 'shipping'
   * (on its way); null for a prize in no parcel. The app and the export name the prize by it, so a
   * prize never reads "on its way" while its parcel waits.
   */
  parcelStatus: Nullable(StringEnum(['requested', 'shipping', 'received'] as const)),
  createdAt: Timestamp
})
export type PrizeItem = Static<typeof PrizeItem>

export const PrizeListRequest = Obj({ ...PageFields, status: Type.Optional(PrizeStatus) })
export type PrizeListRequest = Static<typeof PrizeListRequest>
export const PrizeListResponse = PageResult(PrizeItem)
export type PrizeListResponse = Static<typeof PrizeListResponse>
export const PrizeDetailRequest = Obj({ prizeId: Id })
export type PrizeDetailRequest = Static<typeof PrizeDetailRequest>
/**
 * The proof of a combine's draw (types/fair.ts): HMAC-SHA256(serverSeed, `${clientSeed}:${nonce}`...)
 * over the pool, checkable once the server seed is revealed. (Also re-exported by types/combine.ts.)
 */
export const CombineProof = Type.Object({
  serverSeedHash: Type.String(),
  /** Once the seed is rotated. */
  serverSeed: Nullable(Type.String()),
  clientSeed: Type.String(),
  nonce: Type.Integer({ minimum: 0 }),
  /** The pool drawn from: design ids and weights in order. */
  designIds: Type.Array(Type.Integer()),
  weights: Type.Array(Type.Integer({ minimum: 1 })),
  /** The integer drawn in [0, total), which digest and word gave it, and the entry it fell in. */
  value: Type.Integer({ minimum: 0 }),
  round: Type.Integer({ minimum: 0 }),
  word: Type.Integer({ minimum: 0 }),
  index: Type.Integer({ minimum: 0 })
})
export type CombineProof = Static<typeof CombineProof>

/**
 * proof: the case's commitment, for a prize drawn from a case; combineProof: the combine's draw, for a
 * prize made by combining (see combineId). Exactly one of them is set.
 */
export const PrizeDetail = Type.Object({ ...PrizeItem.properties, proof: Nullable(CaseProof), combineProof: Nullable(CombineProof) })
export type PrizeDetail = Static<typeof PrizeDetail>

export const FeedRequest = Obj({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: SHOP_LIMITS.liveFeedMax })) })
export type FeedRequest = Static<typeof FeedRequest>
export const FeedItem = Type.Object({
  id: Type.Integer(),
  /** e.g. 'a***y' */
  maskedName: Type.String(),
  /** The series it was drawn from (a tap on the row opens it). */
  seriesId: Type.Integer(),
  seriesTitle: I18nText,
  design: Type.Object({ name: I18nText, image: Type.String(), rarity: Rarity }),
  at: Timestamp
})
export type FeedItem = Static<typeof FeedItem>

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

// ---- the calls ------------------------------------------------------------------------------------

export const shopRoutes = {
  seriesList: route({
    method: 'POST', url: '/api/seriesList', auth: 'none', tag: 'catalogue', body: SeriesListRequest, data: SeriesListResponse,
    summary: 'Published series: searched, filtered and sorted',
    description: 'On sale first. A search text matches the zh or en title anywhere in it, after NFKC, case folding and dropping spaces. priceMaxCents below priceMinCents is a 400 naming priceMaxCents.'
  }),
  seriesSuggest: route({
    method: 'POST', url: '/api/seriesSuggest', auth: 'none', tag: 'catalogue', body: SeriesSuggestRequest, data: Type.Array(SeriesSuggestion),
    summary: `Titles of published series that contain a text, as it is typed (at most ${SERIES_SEARCH.suggestionsMax}, on sale and popular first)`
  }),
  seriesDetail: route({ method: 'POST', url: '/api/seriesDetail', auth: 'none', tag: 'catalogue', body: SeriesIdRequest, data: SeriesDetail, summary: 'A series: designs, odds, value range and rules' }),
  caseCurrent: route({
    method: 'POST', url: '/api/caseCurrent', auth: 'optional', tag: 'cases', body: SeriesIdRequest, data: CaseView,
    summary: 'The case of a series shown to the caller', description: 'A logged-in shopper keeps seeing the case they were shown (until it sells out or they switch).'
  }),
  caseSwitch: route({
    method: 'POST', url: '/api/caseSwitch', auth: 'user', tag: 'cases', body: SeriesIdRequest, data: CaseView,
    summary: 'Switch to another case', description: `At most ${SHOP_LIMITS.caseSwitchesPerDay} switches a (China) day; 429 with CaseSwitchLimitData after that.`
  }),
  caseProof: route({ method: 'POST', url: '/api/caseProof', auth: 'none', tag: 'cases', body: CaseProofRequest, data: CaseProof, summary: 'A case\'s commitment, and its arrangement and salt once revealed' }),
  walletBalance: route({ method: 'POST', url: '/api/walletBalance', auth: 'user', tag: 'wallet', body: EmptyBody, data: WalletBalance, summary: 'Cash and credit balances' }),
  walletLedger: route({ method: 'POST', url: '/api/walletLedger', auth: 'user', tag: 'wallet', body: LedgerRequest, data: LedgerResponse, summary: 'The caller\'s ledger entries, newest first' }),
  ageVerify: route({
    method: 'POST', url: '/api/ageVerify', auth: 'user', tag: 'purchase', body: AgeVerifyRequest, data: AgeStatus,
    summary: 'Record the birth date', description: 'Under 8 cannot buy; 8-17 need a guardian\'s consent (guardianCode, guardianConfirm) and get a daily cap. The birth date is recorded once. `guardianConsent` is ignored.'
  }),
  guardianCode: route({
    method: 'POST', url: '/api/guardianCode', auth: 'user', tag: 'purchase', body: GuardianCodeRequest, data: AgeStatus,
    summary: 'Ask a guardian\'s consent: an SMS code to the guardian\'s phone',
    description: 'For a minor from 8 to 17 (422 GuardianRefusalData not_minor otherwise, 409 given once consent is given). The number must not be the account\'s own phone (422 naming `phone`); without `phone` the code goes again to the pending number (422 naming `phone` when there is none). The SMS says what is agreed to; the code rules of the code logins apply (6 digits, 5 minutes, 5 attempts, one a minute and ten a day per number, ten an hour per address), and at most 5 requests a day per account. 422 GuardianRefusalData unavailable when the shop cannot send SMS now (the server log tells operators what to set). Answers the age status, pending.'
  }),
  guardianConfirm: route({
    method: 'POST', url: '/api/guardianConfirm', auth: 'user', tag: 'purchase', body: GuardianConfirmRequest, data: AgeStatus,
    summary: 'Record the guardian\'s consent with the code sent to the guardian',
    description: 'The code must be the last one guardianCode sent for this account to the pending number (422 naming `code` when wrong, used, expired or out of attempts). Records the masked number and the time; purchases are allowed from then on.'
  }),
  ageStatus: route({ method: 'POST', url: '/api/ageStatus', auth: 'user', tag: 'purchase', body: EmptyBody, data: AgeStatus, summary: 'The caller\'s age check' }),
  casePurchase: route({
    method: 'POST', url: '/api/casePurchase', auth: 'user', tag: 'purchase', body: PurchaseRequest, data: PurchaseResult,
    summary: 'Buy slots of a case (credit first, then cash)',
    description: '409 with SlotFailureData when a slot is sold (slot.soldToYou with boughtByYou when the caller bought it), PriceChangedData when the price changed; 422 with InsufficientBalanceData, DailyCapData or AgeGateData; a replay of the idempotency key answers the first result, the key with another body is a 409.'
  }),
  purchaseCheck: route({
    method: 'POST', url: '/api/purchaseCheck', auth: 'user', tag: 'purchase', body: PurchaseCheckRequest, data: PurchaseCheckResult,
    summary: 'Check a purchase without buying (before asking for money)',
    description: 'Runs every check of casePurchase (age gate, daily cap, case and slots, price, acknowledgement) and fails the same way, but moves nothing; a balance that does not cover the total is not a failure here: it answers shortfallCents, the cash to top up first.'
  }),
  prizeList: route({ method: 'POST', url: '/api/prizeList', auth: 'user', tag: 'prizes', body: PrizeListRequest, data: PrizeListResponse, summary: 'The caller\'s prizes' }),
  purchaseDetail: route({ method: 'POST', url: '/api/purchaseDetail', auth: 'user', tag: 'purchase', body: PurchaseIdRequest, data: PurchaseView, summary: 'One of the caller\'s purchases with the prizes it drew (a result page reloaded or opened on another device)' }),
  prizeDetail: route({ method: 'POST', url: '/api/prizeDetail', auth: 'user', tag: 'prizes', body: PrizeDetailRequest, data: PrizeDetail, summary: 'One of the caller\'s prizes, with the proof of its case' }),
  liveFeed: route({ method: 'POST', url: '/api/liveFeed', auth: 'none', tag: 'prizes', body: FeedRequest, data: Type.Array(FeedItem), summary: 'Recent rare and hidden wins, with masked names' })
}

const orders = 'orders'
export const orderRoutes = {
  uniqueOrderNo: route({
    method: 'POST', url: '/generalOrder/getUniqueOrderNo', auth: 'user', tag: orders, body: UniqueOrderNoRequest, data: Type.String(),
    summary: 'A new order number (opId)', description: 'userId is required (spec 5: "productId or userId must not be empty") and must be the caller\'s (login needed).'
  }),
  create: route({ method: 'POST', url: '/generalOrder/create', auth: 'user', tag: orders, body: CreateOrderRequest, data: OrderView, summary: 'Create a top-up order' }),
  paymentParam: route({ method: 'POST', url: '/generalOrder/getPaymentParam', auth: 'user', tag: orders, body: OrderRequest, data: PaymentParams, summary: 'What the client needs to pay an order' }),
  payOrderMessage: route({ method: 'POST', url: '/generalOrder/getPayOrderMessage', auth: 'user', tag: orders, body: OrderRequest, data: OrderView, summary: 'An order (asks WeChat Pay for news of an unpaid WeChat order)' }),
  cancelPay: route({ method: 'POST', url: '/generalOrder/cancelPay', auth: 'user', tag: orders, body: OrderRequest, data: OrderView, summary: 'Cancel an unpaid order' }),
  payMethod: route({ method: 'GET', url: '/generalOrder/payMethod', auth: 'none', tag: orders, data: Type.Array(PayMethod), summary: 'The payment channels this shop offers' }),
  sandboxPay: route({
    method: 'POST', url: '/api/sandboxPay', auth: 'user', tag: orders, body: OrderRequest, data: OrderView, devOnly: true,
    summary: 'Pay a sandbox order (test money; outside production only)', description: 'Paying twice answers the same paid order; a canceled order is a 409.'
  })
}
