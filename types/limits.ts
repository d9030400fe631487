/**
 * The limits of the contract as plain constants: the app imports them (forms, hints) without pulling
 * any schema code into its bundles; the schemas in types/ are built from them, so both sides agree.
 * They live in types/limitParts/ by subject; this index re-exports them all, so an importer names only
 * '~types/limits' (or ./limits).
 */
export * from './limitParts/wire'
export * from './limitParts/account'
export * from './limitParts/shop'
export * from './limitParts/afterDraw'
export * from './limitParts/operators'
export * from './limitParts/uploads'
export * from './limitParts/community'
export * from './limitParts/helpers'
