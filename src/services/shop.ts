/** The shop's calls (types/shop.ts): catalogue, cases, wallet, age gate, purchase, prizes, orders. */
import type { PageQuery } from '~types/schema'
import type { AgeVerifyRequest, CreateOrderRequest, SeriesListRequest, GuardianCodeRequest, GuardianConfirmRequest, PayChannel, PayMethod, PrizeListRequest, PurchaseCheckRequest, PurchaseRequest, orderRoutes, shopRoutes } from '~types/shop'
import { getRoute, postRoute } from './request'

type S = typeof shopRoutes
type O = typeof orderRoutes

export const shopApi = {
  seriesList: (q: SeriesListRequest) => postRoute<S['seriesList']>('/api/seriesList', q),
  seriesSuggest: (q: string) => postRoute<S['seriesSuggest']>('/api/seriesSuggest', { q }),
  seriesDetail: (seriesId: number) => postRoute<S['seriesDetail']>('/api/seriesDetail', { seriesId }),
  caseCurrent: (seriesId: number) => postRoute<S['caseCurrent']>('/api/caseCurrent', { seriesId }),
  caseSwitch: (seriesId: number) => postRoute<S['caseSwitch']>('/api/caseSwitch', { seriesId }),
  caseProof: (caseId: number) => postRoute<S['caseProof']>('/api/caseProof', { caseId }),
  walletBalance: () => postRoute<S['walletBalance']>('/api/walletBalance', {}),
  walletLedger: (q: PageQuery) => postRoute<S['walletLedger']>('/api/walletLedger', q),
  ageStatus: () => postRoute<S['ageStatus']>('/api/ageStatus', {}),
  ageVerify: (body: AgeVerifyRequest) => postRoute<S['ageVerify']>('/api/ageVerify', body),
  guardianCode: (body: GuardianCodeRequest) => postRoute<S['guardianCode']>('/api/guardianCode', body),
  guardianConfirm: (body: GuardianConfirmRequest) => postRoute<S['guardianConfirm']>('/api/guardianConfirm', body),
  purchaseCheck: (body: PurchaseCheckRequest) => postRoute<S['purchaseCheck']>('/api/purchaseCheck', body),
  casePurchase: (body: PurchaseRequest) => postRoute<S['casePurchase']>('/api/casePurchase', body),
  prizeList: (q: PrizeListRequest) => postRoute<S['prizeList']>('/api/prizeList', q),
  prizeDetail: (prizeId: number) => postRoute<S['prizeDetail']>('/api/prizeDetail', { prizeId }),
  purchaseDetail: (purchaseId: number) => postRoute<S['purchaseDetail']>('/api/purchaseDetail', { purchaseId }),
  liveFeed: (limit = 20) => postRoute<S['liveFeed']>('/api/liveFeed', { limit })
}

/**
 * The channels that can be paid on this platform: WeChat Pay's JSAPI needs the mini-program (its
 * openid and wx.requestPayment), H5 pay a mobile browser. The server offers every configured one.
 */
export function channelsForPlatform (methods: PayMethod[], platform: string | undefined = process.env.TARO_ENV): PayMethod[] {
  const unusable: PayChannel = platform === 'weapp' ? 'wechat_h5' : 'wechat_jsapi'
  return methods.filter(m => m.channel !== unusable)
}

/** The order flow of spec 7: unique number, create, payment parameters, pay, status, cancel. */
export const orderApi = {
  uniqueOrderNo: (productId: string, userId?: number) =>
    postRoute<O['uniqueOrderNo']>('/generalOrder/getUniqueOrderNo', userId === undefined ? { productId } : { productId, userId }),
  create: (body: CreateOrderRequest) => postRoute<O['create']>('/generalOrder/create', body),
  paymentParams: (opId: string) => postRoute<O['paymentParam']>('/generalOrder/getPaymentParam', { opId }),
  status: (opId: string) => postRoute<O['payOrderMessage']>('/generalOrder/getPayOrderMessage', { opId }),
  cancel: (opId: string) => postRoute<O['cancelPay']>('/generalOrder/cancelPay', { opId }),
  /** The server's payment channels that work on this platform. */
  payMethods: async () => channelsForPlatform(await getRoute<O['payMethod']>('/generalOrder/payMethod')),
  sandboxPay: (opId: string) => postRoute<O['sandboxPay']>('/api/sandboxPay', { opId })
}
