/**
 * The shop's calls (shopRoutes) and the order flow's (orderRoutes).
 */
import { Type } from 'typebox'
import { route } from '../api'
import { SERIES_SEARCH, SHOP_LIMITS } from '../limits'
import { EmptyBody } from '../schema'
import { CaseProof, CaseProofRequest, CaseView, SeriesDetail, SeriesIdRequest, SeriesListRequest, SeriesListResponse, SeriesSuggestRequest, SeriesSuggestion } from './catalogue'
import { LedgerRequest, LedgerResponse, WalletBalance } from './wallet'
import { AgeStatus, AgeVerifyRequest, GuardianCodeRequest, GuardianConfirmRequest } from './age'
import { PurchaseCheckRequest, PurchaseCheckResult, PurchaseIdRequest, PurchaseRequest, PurchaseResult, PurchaseView } from './purchase'
import { FeedItem, FeedRequest, PrizeDetail, PrizeDetailRequest, PrizeListRequest, PrizeListResponse } from './prizes'
import { CreateOrderRequest, OrderRequest, OrderView, PayMethod, PaymentParams, UniqueOrderNoRequest } from './orders'

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
