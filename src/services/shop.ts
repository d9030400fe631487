/** The shop's calls (types/shop.ts): catalogue, cases, wallet, age gate, purchase, prizes, orders. */
import type { PageQuery } from '~types/api'
import type {
  AgeStatus, AgeVerifyRequest, CaseProof, CaseView, CreateOrderRequest, FeedItem, LedgerResponse,
  OrderView, PayMethod, PaymentParams, PrizeDetail, PrizeListRequest, PrizeListResponse, PurchaseRequest,
  PurchaseResult, SeriesDetail, SeriesListResponse, WalletBalance
} from '~types/shop'
import { get, post } from './request'

export const shopApi = {
  seriesList: (q: PageQuery) => post<SeriesListResponse>('/api/seriesList', q),
  seriesDetail: (seriesId: number) => post<SeriesDetail>('/api/seriesDetail', { seriesId }),
  caseCurrent: (seriesId: number) => post<CaseView>('/api/caseCurrent', { seriesId }),
  caseSwitch: (seriesId: number) => post<CaseView>('/api/caseSwitch', { seriesId }),
  caseProof: (caseId: number) => post<CaseProof>('/api/caseProof', { caseId }),
  walletBalance: () => post<WalletBalance>('/api/walletBalance', {}),
  walletLedger: (q: PageQuery) => post<LedgerResponse>('/api/walletLedger', q),
  ageStatus: () => post<AgeStatus>('/api/ageStatus', {}),
  ageVerify: (body: AgeVerifyRequest) => post<AgeStatus>('/api/ageVerify', body),
  casePurchase: (body: PurchaseRequest) => post<PurchaseResult>('/api/casePurchase', body),
  prizeList: (q: PrizeListRequest) => post<PrizeListResponse>('/api/prizeList', q),
  prizeDetail: (prizeId: number) => post<PrizeDetail>('/api/prizeDetail', { prizeId }),
  liveFeed: (limit = 20) => post<FeedItem[]>('/api/liveFeed', { limit })
}

/** The order flow of spec 7: unique number, create, payment parameters, pay, status, cancel. */
export const orderApi = {
  uniqueOrderNo: (productId: string, userId?: number) =>
    post<string>('/generalOrder/getUniqueOrderNo', userId === undefined ? { productId } : { productId, userId }),
  create: (body: CreateOrderRequest) => post<OrderView>('/generalOrder/create', body),
  paymentParams: (opId: string) => post<PaymentParams>('/generalOrder/getPaymentParam', { opId }),
  status: (opId: string) => post<OrderView>('/generalOrder/getPayOrderMessage', { opId }),
  cancel: (opId: string) => post<OrderView>('/generalOrder/cancelPay', { opId }),
  payMethods: () => get<PayMethod[]>('/generalOrder/payMethod'),
  sandboxPay: (opId: string) => post<OrderView>('/api/sandboxPay', { opId })
}
