/**
 * The shop's own calls: catalogue, cases and proofs, wallet, age gate, purchase, prizes, orders and
 * payment. Money is integer cents (CNY). Probabilities are parts per million (ppm, integers, rounded);
 * the server keeps the exact fractions. Every call answers the envelope of types/api.ts; errors use its
 * codes: 400 bad input (names the field), 401 not logged in, 404 unknown id, 409 conflict (slot sold,
 * idempotency key reused with another body), 422 business rule (balance, age, limit), 429 too many.
 *
 * The schemas live in types/shopParts/ by subject; this index re-exports them (and the shop's
 * limits), so an importer names only '~types/shop' (or ./shop).
 */
export {
  MAX_BOX_PRICE_CENTS, SHOP_LIMITS, TOPUP_MAX_CENTS, TOPUP_MIN_CENTS, TOPUP_PRODUCT_ID
} from './limits'
export * from './shopParts/basics'
export * from './shopParts/catalogue'
export * from './shopParts/wallet'
export * from './shopParts/age'
export * from './shopParts/purchase'
export * from './shopParts/prizes'
export * from './shopParts/orders'
export * from './shopParts/failures'
export * from './shopParts/routes'
