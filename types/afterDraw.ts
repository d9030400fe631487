/**
 * After the draw (issue 8, PRODUCT.md "After the draw"): the shopper's address book, the collection by
 * series, recycling for credit, shipments (the spec's /generalOrder/deliver and /confirm), the
 * authenticity check of a shipped prize, and the operator's shipment queue and shop settings.
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { AFTER_DRAW_LIMITS, AI_BUDGET, IDEMPOTENCY_KEY_PATTERN, LOGIN_LIMITS, PICKUP_LIMITS } from './limits'
import { Cents, EmptyBody, Id, Nullable, Obj, PageFields, PageResult, StringEnum, Text, Timestamp } from './schema'
import { RegionParts } from './regions'
import { CombineProof, DesignInfo, I18nText, PrizeStatus, WalletBalance } from './shop'

const IdempotencyKey = Type.String({ pattern: IDEMPOTENCY_KEY_PATTERN, description: 'A replay with the same key and body answers the first result' })
const PrizeIds = Type.Array(Id, { minItems: 1, maxItems: AFTER_DRAW_LIMITS.itemsPerRequestMax, description: 'Prizes of the caller, each once' })

// ---- addresses ------------------------------------------------------------------------------------

export const AddressFields = {
  name: Text({ minLength: 1, maxLength: 50, description: 'The receiver: at least one letter or Chinese character (ADDRESS_NAME_LETTER)' }),
  phone: Type.String({ pattern: LOGIN_LIMITS.phonePattern, description: 'A mainland mobile number (11 digits, 1[3-9]...)' }),
  region: Text({ minLength: 1, maxLength: 100, description: 'Province, city, district' }),
  detail: Text({ minLength: 1, maxLength: 200, description: 'Street, building, room' })
}
export const Address = Type.Object({
  id: Type.Integer(),
  ...AddressFields,
  /** The region's parts as picked; null for an address saved with its region typed as free text (before issue 48). */
  area: Nullable(RegionParts),
  isDefault: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp
})
export type Address = Static<typeof Address>

export const AddressSaveRequest = Obj({
  /** Absent: a new address (at most 20); present: that address is changed. */
  id: Type.Optional(Id),
  ...AddressFields,
  /** The region picked from a list: when present, `region` is written from it (the text sent is not kept). */
  area: Type.Optional(RegionParts),
  isDefault: Type.Optional(Type.Boolean())
})
export type AddressSaveRequest = Static<typeof AddressSaveRequest>
export const AddressIdRequest = Obj({ id: Id })
export type AddressIdRequest = Static<typeof AddressIdRequest>

// ---- collection -----------------------------------------------------------------------------------

export const CollectionSeries = Type.Object({
  seriesId: Type.Integer(),
  title: I18nText,
  cover: Type.String(),
  /** Every design of the series, with how many the caller owns now (in warehouse, shipping or received). */
  designs: Type.Array(Type.Object({ design: DesignInfo, owned: Type.Integer({ minimum: 0 }) })),
  /** Designs owned at least once (the 7 of "7/12"). */
  collected: Type.Integer({ minimum: 0 }),
  /** Designs in the series (the 12). */
  total: Type.Integer({ minimum: 0 })
})
export type CollectionSeries = Static<typeof CollectionSeries>

export const CollectionSummary = Type.Object({
  /** Prizes per status, and all of them. */
  counts: Type.Object({
    all: Type.Integer(), warehouse: Type.Integer(), shipping: Type.Integer(), received: Type.Integer(), combined: Type.Integer(), recycled: Type.Integer()
  }),
  series: Type.Array(CollectionSeries)
})
export type CollectionSummary = Static<typeof CollectionSummary>

export const PrizeExportRequest = Obj({ status: Type.Optional(PrizeStatus) })
export type PrizeExportRequest = Static<typeof PrizeExportRequest>

// ---- recycle --------------------------------------------------------------------------------------

export const RecycleRequest = Obj({ prizeIds: PrizeIds, idempotencyKey: IdempotencyKey })
export type RecycleRequest = Static<typeof RecycleRequest>
export const RecycleResult = Type.Object({
  prizeIds: Type.Array(Type.Integer()),
  /** Credit given: the sum of the designs' published recycle values. Credit is never withdrawable. */
  creditCents: Cents,
  balance: WalletBalance
})
export type RecycleResult = Static<typeof RecycleResult>
/** 409 on recycle or shipment: a prize is not in the warehouse any more (status: what it is now). */
export const PrizeStateFailureData = Type.Object({ field: Type.Literal('prizeIds'), prizeId: Type.Integer(), status: Type.Optional(PrizeStatus) })
export type PrizeStateFailureData = Static<typeof PrizeStateFailureData>

// ---- shipments ------------------------------------------------------------------------------------

export const ShipmentStatus = StringEnum(['requested', 'shipping', 'received'] as const)
export type ShipmentStatus = Static<typeof ShipmentStatus>

export const ShippingRule = Type.Object({
  /** A shipment of at least this many prizes is free. */
  freeFromItems: Type.Integer({ minimum: 1 }),
  /** Otherwise this fee, from the balance (credit first, then cash). */
  feeCents: Cents
})
export type ShippingRule = Static<typeof ShippingRule>

export const ShipmentItem = Type.Object({
  prizeId: Type.Integer(),
  seriesTitle: I18nText,
  design: DesignInfo,
  /** Where it was drawn: its case and slot; a prize made by combining has none (0) and its combineId. */
  caseId: Type.Integer(),
  slot: Type.Integer(),
  combineId: Nullable(Type.Integer()),
  /** A pickup: when the counter handed this prize over (its QR scanned); null until then, and for a parcel. */
  handedAt: Nullable(Timestamp)
})
export type ShipmentItem = Static<typeof ShipmentItem>

// ---- pickup points (自提) ---------------------------------------------------------------------------

const PickupFields = {
  name: Text({ minLength: 1, maxLength: PICKUP_LIMITS.nameMax, description: 'What the counter is called, e.g. 拾盒 国贸店' }),
  address: Text({ minLength: 1, maxLength: PICKUP_LIMITS.addressMax, description: 'The full address a shopper walks to' }),
  hours: Text({ minLength: 1, maxLength: PICKUP_LIMITS.hoursMax, description: 'Opening hours as shown, e.g. 每天 10:00-22:00' }),
  latitude: Type.Number({ minimum: -90, maximum: 90, description: 'degrees, GCJ-02 (what both map providers use)' }),
  longitude: Type.Number({ minimum: -180, maximum: 180, description: 'degrees, GCJ-02' })
}
export const PickupPoint = Type.Object({ id: Type.Integer(), ...PickupFields, active: Type.Boolean() })
export type PickupPoint = Static<typeof PickupPoint>
/** A point in a shopper's nearby list: metres in a straight line from where they are. */
export const PickupPointNear = Type.Object({ ...PickupPoint.properties, distance: Type.Number({ minimum: 0 }) })
export type PickupPointNear = Static<typeof PickupPointNear>

export const PickupNearbyRequest = Obj({
  latitude: Type.Number({ minimum: -90, maximum: 90 }),
  longitude: Type.Number({ minimum: -180, maximum: 180 }),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 }))
})
export type PickupNearbyRequest = Static<typeof PickupNearbyRequest>
export const PickupNearbyResult = Type.Object({
  list: Type.Array(PickupPointNear),
  total: Type.Integer({ minimum: 0 }),
  /** The radius searched, metres: 5000, or 50000 when no open point is that near. */
  radius: Type.Integer(),
  /** Which provider's driving route the app asks for (/api/driving or /api/amap_direction_driving); null: none configured. */
  routeProvider: Nullable(StringEnum(['tencentMap', 'amap'] as const)),
  /**
   * The web map the H5 app loads when the picker opens (Tencent's JavaScript API GL: the address of its
   * script, with the shop's browser key, which the provider restricts to the shop's domains); null:
   * none configured, and H5 shows the list and the route's steps without a map. The mini-program
   * always has WeChat's own map.
   */
  webMap: Nullable(Type.Object({ provider: Type.Literal('tencentMap'), script: Type.String() }))
})
export type PickupNearbyResult = Static<typeof PickupNearbyResult>

/**
 * Every open point by city (issue 48): what a shopper whose position is unknown chooses from (location
 * refused, no map provider, or none within reach). The city is read from the start of the address
 * ("北京市海淀区…" is 北京市); an address that names none is under city ''.
 */
export const PickupDirectory = Type.Object({
  cities: Type.Array(Type.Object({ city: Type.String(), list: Type.Array(PickupPoint) })),
  total: Type.Integer({ minimum: 0 })
})
export type PickupDirectory = Static<typeof PickupDirectory>

export const PickupPointSaveRequest = Obj({
  /** Absent: a new point; present: that point is changed. */
  id: Type.Optional(Id),
  ...PickupFields,
  /** false closes the point: shoppers no longer see it; shipments waiting there stay. */
  active: Type.Optional(Type.Boolean())
})
export type PickupPointSaveRequest = Static<typeof PickupPointSaveRequest>

/** POST /api/operator/pickupHand: the text of a prize's authenticity QR, scanned at the counter. */
export const PickupHandRequest = Obj({
  prizeId: Id,
  code: Type.String({ pattern: AFTER_DRAW_LIMITS.verifyCodePattern, description: 'The verify= code of the QR on the prize\'s packing slip' })
})
export type PickupHandRequest = Static<typeof PickupHandRequest>

export const Shipment = Type.Object({
  id: Type.Integer(),
  status: ShipmentStatus,
  /** A parcel: where it goes. A pickup: who collects it (name, phone) and the point's name and address. */
  address: Type.Object({ ...AddressFields }),
  /** A pickup (自提): the point it waits at; null for a parcel. */
  pickup: Nullable(PickupPoint),
  items: Type.Array(ShipmentItem),
  feeCents: Cents,
  /** Kuaidi100 carrier code (e.g. shunfeng, yuantong) and tracking number, once shipped. */
  carrier: Nullable(Type.String()),
  trackingNo: Nullable(Type.String()),
  createdAt: Timestamp,
  shippedAt: Nullable(Timestamp),
  receivedAt: Nullable(Timestamp),
  /** When an unconfirmed parcel counts as received (shipped + 10 days). */
  autoReceiveAt: Nullable(Timestamp),
  receivedBy: Nullable(StringEnum(['shopper', 'auto'] as const))
})
export type Shipment = Static<typeof Shipment>

export const ShipmentCreateRequest = Obj({
  prizeIds: PrizeIds,
  /** A parcel: the address it goes to. A pickup: the contact (name, phone) the counter asks for. */
  addressId: Id,
  /** Present: collected in person at this open point (自提), no fee; absent: a parcel to the address. */
  pickupPointId: Type.Optional(Id),
  idempotencyKey: IdempotencyKey
})
export type ShipmentCreateRequest = Static<typeof ShipmentCreateRequest>
export const ShipmentCreateResult = Type.Object({ shipment: Shipment, balance: WalletBalance })
export type ShipmentCreateResult = Static<typeof ShipmentCreateResult>
export const ShipmentListRequest = Obj({ ...PageFields, status: Type.Optional(ShipmentStatus) })
export type ShipmentListRequest = Static<typeof ShipmentListRequest>
export const ShipmentIdRequest = Obj({ shipmentId: Id })
export type ShipmentIdRequest = Static<typeof ShipmentIdRequest>

/** POST /generalOrder/deliver (operator): the parcel left with a carrier. */
export const DeliverRequest = Obj({
  shipmentId: Id,
  carrier: Type.String({ pattern: AFTER_DRAW_LIMITS.carrierCodePattern, description: 'Kuaidi100 carrier code, lower case (shunfeng, yuantong, zhongtong, ems, ...)' }),
  trackingNo: Type.String({ pattern: AFTER_DRAW_LIMITS.trackingNoPattern, description: '4-40 letters, digits or -' })
})
export type DeliverRequest = Static<typeof DeliverRequest>

/** 422: the shipment's status does not allow it (deliver twice, confirm before it was shipped). */
export const ShipmentStatusData = Type.Object({ status: ShipmentStatus })
export type ShipmentStatusData = Static<typeof ShipmentStatusData>

// ---- authenticity ---------------------------------------------------------------------------------

export const PrizeVerifyRequest = Obj({
  prizeId: Id,
  code: Type.String({ pattern: AFTER_DRAW_LIMITS.verifyCodePattern, description: 'The code printed in the QR of the packing slip' })
})
export type PrizeVerifyRequest = Static<typeof PrizeVerifyRequest>
export const PrizeVerifyResult = Type.Object({
  /** The code belongs to this prize: the figure in hand is the one drawn. */
  authentic: Type.Literal(true),
  prizeId: Type.Integer(),
  seriesTitle: I18nText,
  design: DesignInfo,
  /** 'case': drawn from a case (caseId, slot, proof); 'combine': made by combining (combineId, combineProof; caseId and slot 0). */
  origin: StringEnum(['case', 'combine'] as const),
  caseId: Type.Integer(),
  slot: Type.Integer(),
  combineId: Nullable(Type.Integer()),
  /** The draw's case, checkable: commitment, and the arrangement and salt once revealed (null for a combined prize). */
  proof: Nullable(Type.Object({
    commit: Type.String(),
    revealed: Type.Boolean(),
    arrangement: Type.Optional(Type.Array(Type.Integer())),
    salt: Type.Optional(Type.String())
  })),
  /** The combine's draw, checkable once its server seed is revealed (null for a prize from a case). */
  combineProof: Nullable(CombineProof),
  drawnAt: Timestamp,
  shippedAt: Nullable(Timestamp)
})
export type PrizeVerifyResult = Static<typeof PrizeVerifyResult>

/** What the packing slip prints: the address, and per prize its QR payload. */
export const PackingSlip = Type.Object({
  shipment: Shipment,
  /**
   * Per item: the text its QR encodes (a link to the prize check), and the proof of its draw the slip
   * prints: its case's commitment (caseCommit), or for a prize made by combining its combine's draw.
   */
  codes: Type.Array(Type.Object({
    prizeId: Type.Integer(),
    verifyUrl: Type.String(),
    caseCommit: Nullable(Type.String()),
    combineProof: Nullable(CombineProof)
  }))
})
export type PackingSlip = Static<typeof PackingSlip>

// ---- operator -------------------------------------------------------------------------------------

export const OperatorShipmentListRequest = Obj({ ...PageFields, status: Type.Optional(ShipmentStatus) })
export const OperatorShipment = Type.Object({
  ...Shipment.properties,
  userId: Type.Integer(),
  /** The shopper's e-mail address when they bound one (the operator's "mail the shopper"); null otherwise. */
  userEmail: Nullable(Type.String())
})
export type OperatorShipment = Static<typeof OperatorShipment>

export const ShopSettingsView = Type.Object({
  shipFreeFromItems: Type.Integer(),
  shipFeeCents: Cents,
  withdrawMinCents: Cents,
  withdrawDailyMaxCents: Cents,
  hintCardPriceCents: Cents,
  xrayCardPriceCents: Cents,
  aiDailyPerAccount: Type.Integer(),
  aiDailyPerShop: Type.Integer()
})
export const ShopSettingsUpdate = Obj({
  shipFreeFromItems: Type.Optional(Type.Integer({ minimum: 1, maximum: AFTER_DRAW_LIMITS.itemsPerRequestMax })),
  shipFeeCents: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
  withdrawMinCents: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000 })),
  withdrawDailyMaxCents: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })),
  hintCardPriceCents: Type.Optional(Type.Integer({ minimum: 0, maximum: 20000 })),
  xrayCardPriceCents: Type.Optional(Type.Integer({ minimum: 0, maximum: 20000 })),
  aiDailyPerAccount: Type.Optional(Type.Integer({ minimum: 0, maximum: AI_BUDGET.perAccountMax })),
  aiDailyPerShop: Type.Optional(Type.Integer({ minimum: 0, maximum: AI_BUDGET.perShopMax }))
}, { minProperties: 1 })
export type ShopSettingsUpdate = Static<typeof ShopSettingsUpdate>

// ---- the calls ------------------------------------------------------------------------------------

const addr = 'addresses'
export const addressRoutes = {
  list: route({ method: 'POST', url: '/api/addressList', auth: 'user', tag: addr, body: EmptyBody, data: Type.Array(Address), summary: 'The caller\'s addresses, the default first' }),
  save: route({
    method: 'POST', url: '/api/addressSave', auth: 'user', tag: addr, body: AddressSaveRequest, data: Address,
    summary: 'Add or change an address', description: `At most ${AFTER_DRAW_LIMITS.addressesMax} (422); isDefault: true makes it the one default. The first address is the default.`
  }),
  remove: route({ method: 'POST', url: '/api/addressDelete', auth: 'user', tag: addr, body: AddressIdRequest, data: Type.Null(), summary: 'Delete an address (the newest other one becomes the default)' }),
  setDefault: route({ method: 'POST', url: '/api/addressSetDefault', auth: 'user', tag: addr, body: AddressIdRequest, data: Address, summary: 'Make an address the default' })
}

const after = 'after the draw'
export const afterDrawRoutes = {
  collection: route({ method: 'POST', url: '/api/collectionSummary', auth: 'user', tag: after, body: EmptyBody, data: CollectionSummary, summary: 'Counts per status and set progress per series' }),
  prizeExport: route({
    method: 'POST', url: '/api/prizeExport', auth: 'user', tag: after, body: PrizeExportRequest, data: Type.Null(),
    raw: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', description: 'The caller\'s prizes as xlsx, with readable columns in the caller\'s language' },
    summary: 'Export the collection as a spreadsheet'
  }),
  recycle: route({
    method: 'POST', url: '/api/prizeRecycle', auth: 'user', tag: after, body: RecycleRequest, data: RecycleResult,
    summary: 'Exchange prizes in the warehouse for credit at their published recycle values',
    description: '409 with PrizeStateFailureData when a prize is not in the warehouse (nothing changes); a replay of the key answers the first result.'
  }),
  pickupNearby: route({
    method: 'POST', url: '/api/pickupPoints', auth: 'user', tag: after, body: PickupNearbyRequest, data: PickupNearbyResult,
    summary: 'Open pickup points near a point, nearest first',
    description: `Within ${PICKUP_LIMITS.nearbyRadius} m, or ${PICKUP_LIMITS.wideRadius} m when none is that near; ${PICKUP_LIMITS.pageSize} per page.`
  }),
  pickupDirectory: route({
    method: 'POST', url: '/api/pickupDirectory', auth: 'user', tag: after, body: EmptyBody, data: PickupDirectory,
    summary: 'Every open pickup point, grouped by city (for a shopper whose position is unknown)'
  }),
  shippingRule: route({ method: 'POST', url: '/api/shippingRule', auth: 'none', tag: after, body: EmptyBody, data: ShippingRule, summary: 'Free from N prizes, otherwise a fee' }),
  shipmentCreate: route({
    method: 'POST', url: '/api/shipmentCreate', auth: 'user', tag: after, body: ShipmentCreateRequest, data: ShipmentCreateResult,
    summary: 'Ship prizes in the warehouse to one of the caller\'s addresses',
    description: '409 with PrizeStateFailureData when a prize left the warehouse; 422 with InsufficientBalanceData when the fee is not covered; a replay of the key answers the first result.'
  }),
  shipmentList: route({ method: 'POST', url: '/api/shipmentList', auth: 'user', tag: after, body: ShipmentListRequest, data: PageResult(Shipment), summary: 'The caller\'s shipments, newest first' }),
  shipmentDetail: route({ method: 'POST', url: '/api/shipmentDetail', auth: 'user', tag: after, body: ShipmentIdRequest, data: Shipment, summary: 'One of the caller\'s shipments' }),
  confirm: route({
    method: 'POST', url: '/generalOrder/confirm', auth: 'user', tag: 'orders', body: ShipmentIdRequest, data: Shipment,
    summary: 'Confirm receipt of a shipment', description: 'shipping -> received (prizes too); confirming again answers the same; a parcel not yet shipped is a 422. Unconfirmed parcels count as received 10 days after shipping.'
  }),
  prizeVerify: route({
    method: 'POST', url: '/api/prizeVerify', auth: 'none', tag: after, body: PrizeVerifyRequest, data: PrizeVerifyResult,
    summary: 'Check a shipped prize by the code of its QR', description: 'Anyone holding the figure can check it; a wrong code is a 404 (nothing about the prize is told).'
  })
}

const op = 'operator'
export const operatorRoutes = {
  deliver: route({
    method: 'POST', url: '/generalOrder/deliver', auth: 'operator', tag: 'orders', body: DeliverRequest, data: OperatorShipment,
    summary: 'Enter the carrier and tracking number of a requested shipment (operator)', description: 'requested -> shipping; the same again answers the same; other numbers on a shipped parcel are a 422.'
  }),
  shipments: route({ method: 'POST', url: '/api/operator/shipments', auth: 'operator', tag: op, body: OperatorShipmentListRequest, data: PageResult(OperatorShipment), summary: 'The shipment queue (requested first, oldest first)' }),
  packingSlip: route({ method: 'POST', url: '/api/operator/packingSlip', auth: 'operator', tag: op, body: ShipmentIdRequest, data: PackingSlip, summary: 'What a packing slip prints, with each prize\'s QR link' }),
  settings: route({ method: 'POST', url: '/api/operator/settings', auth: 'operator', tag: op, body: EmptyBody, data: ShopSettingsView, summary: 'The shop settings' }),
  saveSettings: route({ method: 'POST', url: '/api/operator/settingsSave', auth: 'operator', tag: op, body: ShopSettingsUpdate, data: ShopSettingsView, summary: 'Change shop settings (audited)' }),
  pickupPoints: route({ method: 'POST', url: '/api/operator/pickupPoints', auth: 'operator', tag: op, body: EmptyBody, data: Type.Array(PickupPoint), summary: 'Every pickup point, open ones first' }),
  pickupPointSave: route({
    method: 'POST', url: '/api/operator/pickupPointSave', auth: 'operator', tag: op, body: PickupPointSaveRequest, data: PickupPoint,
    summary: 'Add or change a pickup point (audited)', description: `At most ${PICKUP_LIMITS.pointsMax} open points (422). A point is closed (active: false), never deleted.`
  }),
  pickupHand: route({
    method: 'POST', url: '/api/operator/pickupHand', auth: 'operator', tag: op, body: PickupHandRequest, data: OperatorShipment,
    summary: 'Hand a prize over at the pickup counter by scanning its authenticity QR (audited)',
    description: 'The prize must be in a pickup shipment that waits (requested); once every prize of it is handed, it is received. Scanning a handed prize again answers the same; a wrong code is a 404; a parcel or a received shipment is a 422.'
  })
}
