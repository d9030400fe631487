/**
 * After the draw: addresses and shipments, pickup points, props, places, express tracking, withdrawals.
 * Plain constants, no schema code (types/limits.ts re-exports them all).
 */
/** After the draw (issue 8). */
/**
 * A recipient's name (and each part of a region) needs at least one letter of some script: a Chinese
 * character or a Latin, Cyrillic... letter (Unicode general category L). "😀😀" or "123" names nobody a
 * courier can ask for (issue 48). Used with the `u` flag, alike by the server and the app.
 */
export const ADDRESS_NAME_LETTER = '\\p{L}'

export const AFTER_DRAW_LIMITS = {
  /** Prizes in one shipment, or in one recycle request. */
  itemsPerRequestMax: 50,
  /** A shipped parcel counts as received this long after it was shipped, if the shopper does not confirm. */
  autoReceiveDays: 10,
  /** Addresses per user. */
  addressesMax: 20,
  carrierCodePattern: '^[a-z0-9]{2,32}$',
  trackingNoPattern: '^[A-Za-z0-9-]{4,40}$',
  /** The authenticity code a packing slip's QR carries (the verify= of its link). */
  verifyCodePattern: '^[A-Za-z0-9_-]{16,32}$'
} as const

/** Pickup points (自提, issue 24; spec 9's location lists). */
export const PICKUP_LIMITS = {
  /** Points per page of the nearby list (spec 9: location lists of 20). */
  pageSize: 20,
  /** How far a shopper's nearby list reaches (spec 9: nearby radius 5000 m). */
  nearbyRadius: 5000,
  /** When none is that near: the widest search (spec 9: 50000 m for a keyword search). */
  wideRadius: 50000,
  /** Points an operator may keep open. */
  pointsMax: 200,
  nameMax: 50,
  addressMax: 200,
  hoursMax: 100
} as const

/** Props (issue 9): free shakes per China day, how long an X-ray card holds a slot, cards per purchase. */
export const PROP_LIMITS = {
  shakesPerDay: 3,
  reservationMinutes: 10,
  buyMax: 10
} as const

/**
 * Maps, places and parcels (spec 5, 9; types/geo.ts, types/express.ts). The app and the server both
 * check these, with the same message texts.
 */
export const GEO_LIMITS = {
  /** Nearby search radius when a `nearby(lat,lng)` boundary gives none (spec 7, 9), metres. */
  defaultNearbyRadius: 1000,
  /** The widest radius a nearby search may ask for (the keyword search of spec 9), metres. */
  maxNearbyRadius: 50000,
  minNearbyRadius: 10,
  /** Places per page of a nearby search (the provider's own maximum is 20). */
  placePageSizeMax: 20,
  placePageMax: 100,
  addressMax: 120,
  keywordMax: 96,
  ipMax: 45
} as const

/** Carriers whose tracking needs the phone number (or its last four digits) of the sender or receiver. */
export const EXPRESS_PHONE_CARRIERS = ['shunfeng', 'shunfengkuaiyun'] as const
export const EXPRESS_LIMITS = {
  /** The carrier codes and tracking numbers shipments store (AFTER_DRAW_LIMITS). */
  comPattern: AFTER_DRAW_LIMITS.carrierCodePattern,
  numPattern: AFTER_DRAW_LIMITS.trackingNoPattern,
  /** A whole phone number, or its last four digits (Kuaidi100 accepts both). */
  phonePattern: '^(\\d{4}|1[3-9]\\d{9}|0\\d{2,3}-?\\d{7,8})$',
  placeMax: 60
} as const

/** Withdrawals (issue 8). */
export const WITHDRAW_LIMITS = {
  /** The longest rejection reason. */
  reasonMax: 200,
  /** WeChat Pay refunds an order within a year of its payment: older orders are not used (a day's margin). */
  wechatRefundableDays: 364
} as const
