/** After the draw (types/afterDraw.ts): addresses, collection, recycle, shipments, authenticity, operator. */
import type {
  AddressSaveRequest, DeliverRequest, PickupHandRequest, PickupNearbyRequest, PickupPointSaveRequest, PrizeVerifyRequest, RecycleRequest, ShipmentCreateRequest, ShipmentListRequest,
  ShopSettingsUpdate, addressRoutes, afterDrawRoutes, operatorRoutes
} from '~types/afterDraw'
import type { PageQuery } from '~types/schema'
import type { ShipmentStatus } from '~types/afterDraw'
import { postRoute } from './request'

type A = typeof addressRoutes
type R = typeof afterDrawRoutes
type O = typeof operatorRoutes

export const addressApi = {
  list: () => postRoute<A['list']>('/api/addressList', {}),
  save: (body: AddressSaveRequest) => postRoute<A['save']>('/api/addressSave', body),
  remove: (id: number) => postRoute<A['remove']>('/api/addressDelete', { id }),
  setDefault: (id: number) => postRoute<A['setDefault']>('/api/addressSetDefault', { id })
}

export const afterDrawApi = {
  collection: () => postRoute<R['collection']>('/api/collectionSummary', {}),
  recycle: (body: RecycleRequest) => postRoute<R['recycle']>('/api/prizeRecycle', body),
  shippingRule: () => postRoute<R['shippingRule']>('/api/shippingRule', {}),
  shipmentCreate: (body: ShipmentCreateRequest) => postRoute<R['shipmentCreate']>('/api/shipmentCreate', body),
  shipmentList: (body: ShipmentListRequest) => postRoute<R['shipmentList']>('/api/shipmentList', body),
  shipmentDetail: (shipmentId: number) => postRoute<R['shipmentDetail']>('/api/shipmentDetail', { shipmentId }),
  /** The spec's order call: the shopper confirms receipt. */
  confirm: (shipmentId: number) => postRoute<R['confirm']>('/generalOrder/confirm', { shipmentId }),
  prizeVerify: (body: PrizeVerifyRequest) => postRoute<R['prizeVerify']>('/api/prizeVerify', body),
  /** Open pickup points near a point, nearest first (5 km, else 50 km; 20 a page). */
  pickupNearby: (body: PickupNearbyRequest) => postRoute<R['pickupNearby']>('/api/pickupPoints', body),
  /** Every open pickup point by city: for a shopper whose position is unknown. */
  pickupDirectory: () => postRoute<R['pickupDirectory']>('/api/pickupDirectory', {})
}

export const operatorApi = {
  /** The spec's order call: the operator enters carrier and tracking number. */
  deliver: (body: DeliverRequest) => postRoute<O['deliver']>('/generalOrder/deliver', body),
  shipments: (q: PageQuery & { status?: ShipmentStatus }) => postRoute<O['shipments']>('/api/operator/shipments', q),
  packingSlip: (shipmentId: number) => postRoute<O['packingSlip']>('/api/operator/packingSlip', { shipmentId }),
  settings: () => postRoute<O['settings']>('/api/operator/settings', {}),
  saveSettings: (body: ShopSettingsUpdate) => postRoute<O['saveSettings']>('/api/operator/settingsSave', body),
  pickupPoints: () => postRoute<O['pickupPoints']>('/api/operator/pickupPoints', {}),
  savePickupPoint: (body: PickupPointSaveRequest) => postRoute<O['pickupPointSave']>('/api/operator/pickupPointSave', body),
  /** The counter scanned a prize's authenticity QR: hand it over. */
  pickupHand: (body: PickupHandRequest) => postRoute<O['pickupHand']>('/api/operator/pickupHand', body)
}

export { combineApi } from './combine'
