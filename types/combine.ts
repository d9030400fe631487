/**
 * Combine (issue 9, PRODUCT.md "Combine"): a series publishes recipes (N owned items of a rarity, or N
 * of one design, for one draw from a published pool with published odds); the draw is provably fair
 * (types/fair.ts) with the user's seeds, shown before and checkable after.
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { IDEMPOTENCY_KEY_PATTERN, RECIPE_LIMITS } from './limits'
import { EmptyBody, Id, Nullable, Obj, StringEnum, Text, Timestamp } from './schema'
import { CombineProof, DesignInfo, I18nText, PrizeItem, Rarity } from './shop'

export const CLIENT_SEED_PATTERN = '^[A-Za-z0-9_-]{1,64}$'

export const FairSeedView = Type.Object({
  /** SHA-256 (hex) of the active server seed, published before any draw with it. */
  serverSeedHash: Type.String(),
  clientSeed: Type.String(),
  /** The nonce of the next draw. */
  nonce: Type.Integer({ minimum: 0 })
})
export type FairSeedView = Static<typeof FairSeedView>

export const RevealedSeed = Type.Object({
  serverSeed: Type.String({ description: '64 hex digits: HMAC key of every draw made with it' }),
  serverSeedHash: Type.String(),
  clientSeed: Type.String(),
  /** Draws were made with nonces 0 .. nextNonce - 1. */
  nextNonce: Type.Integer({ minimum: 0 }),
  revealedAt: Timestamp
})
export type RevealedSeed = Static<typeof RevealedSeed>

export const RotateResult = Type.Object({ revealed: RevealedSeed, current: FairSeedView })
export type RotateResult = Static<typeof RotateResult>

export const ClientSeedRequest = Obj({ clientSeed: Type.String({ pattern: CLIENT_SEED_PATTERN, description: '1-64 letters, digits, _ or -' }) })
export type ClientSeedRequest = Static<typeof ClientSeedRequest>

export const PoolEntry = Type.Object({
  design: DesignInfo,
  weight: Type.Integer({ minimum: 1 }),
  /** weight / total, parts per million (rounded). */
  oddsPpm: Type.Integer({ minimum: 0, maximum: 1_000_000 })
})
export type PoolEntry = Static<typeof PoolEntry>

export const Recipe = Type.Object({
  id: Type.Integer(),
  seriesId: Type.Integer(),
  seriesTitle: I18nText,
  name: I18nText,
  input: Type.Object({
    kind: StringEnum(['rarity', 'same_design'] as const),
    /** For kind rarity: the rarity every input must have. */
    rarity: Nullable(Rarity),
    count: Type.Integer({ minimum: 2 })
  }),
  /** The output pool in its published order: the draw picks by these weights. */
  pool: Type.Array(PoolEntry),
  totalWeight: Type.Integer({ minimum: 1 }),
  /** The least rare design the pool can give (the guarantee). */
  guaranteedRarity: Rarity
})
export type Recipe = Static<typeof Recipe>

export const RecipeListRequest = Obj({ seriesId: Type.Optional(Id) })
export type RecipeListRequest = Static<typeof RecipeListRequest>

export const CombineRequest = Obj({
  recipeId: Id,
  prizeIds: Type.Array(Id, { minItems: 2, maxItems: 20 }),
  idempotencyKey: Type.String({ pattern: IDEMPOTENCY_KEY_PATTERN })
})
export type CombineRequest = Static<typeof CombineRequest>

/** The proof of a combine's draw (defined in types/shop.ts, beside the prize it made). */
export { CombineProof }

export const CombineResult = Type.Object({
  combineId: Type.Integer(),
  recipeId: Type.Integer(),
  inputPrizeIds: Type.Array(Type.Integer()),
  output: PrizeItem,
  proof: CombineProof,
  createdAt: Timestamp
})
export type CombineResult = Static<typeof CombineResult>

export const CombineIdRequest = Obj({ combineId: Id })
export type CombineIdRequest = Static<typeof CombineIdRequest>

const tag = 'combine'
export const combineRoutes = {
  seed: route({ method: 'POST', url: '/api/fairSeed', auth: 'user', tag, body: EmptyBody, data: FairSeedView, summary: 'The caller\'s seeds: the hash of the server seed, the client seed and the next nonce' }),
  clientSeed: route({ method: 'POST', url: '/api/fairClientSeed', auth: 'user', tag, body: ClientSeedRequest, data: FairSeedView, summary: 'Change the client seed (the nonce goes on)' }),
  rotate: route({ method: 'POST', url: '/api/fairRotate', auth: 'user', tag, body: EmptyBody, data: RotateResult, summary: 'Reveal the server seed and start a new one' }),
  recipes: route({ method: 'POST', url: '/api/combineRecipes', auth: 'none', tag, body: RecipeListRequest, data: Type.Array(Recipe), summary: 'Published recipes with their pools and odds' }),
  combine: route({
    method: 'POST', url: '/api/combine', auth: 'user', tag, body: CombineRequest, data: CombineResult,
    summary: 'Combine prizes in the warehouse by a recipe: one provably fair draw from its pool',
    description: '409 with PrizeStateFailureData when an input left the warehouse (the same item in two parallel combines: one wins); 422 when the inputs do not fit the recipe; a replay of the key answers the first result.'
  }),
  detail: route({ method: 'POST', url: '/api/combineDetail', auth: 'user', tag, body: CombineIdRequest, data: CombineResult, summary: 'One of the caller\'s combines with its proof (the server seed once revealed)' })
}

// ---- operator -------------------------------------------------------------------------------------

export const RecipeSaveRequest = Obj({
  /** Absent: a new recipe; present: that recipe is changed. */
  id: Type.Optional(Id),
  seriesId: Id,
  name: Obj({ zh: Text({ minLength: 1, maxLength: RECIPE_LIMITS.nameMax }), en: Text({ minLength: 1, maxLength: RECIPE_LIMITS.nameMax }) }),
  inputKind: StringEnum(['rarity', 'same_design'] as const),
  inputRarity: Nullable(Rarity),
  inputCount: Type.Integer({ minimum: RECIPE_LIMITS.inputCountMin, maximum: RECIPE_LIMITS.inputCountMax }),
  /** The pool in its published order: designs of the series, positive integer weights. */
  pool: Type.Array(Obj({ designId: Id, weight: Type.Integer({ minimum: 1, maximum: RECIPE_LIMITS.weightMax }) }), { minItems: 1, maxItems: RECIPE_LIMITS.poolMax }),
  status: StringEnum(['on', 'off'] as const)
})
export type RecipeSaveRequest = Static<typeof RecipeSaveRequest>
export const OperatorRecipe = Type.Object({ ...Recipe.properties, status: StringEnum(['on', 'off'] as const) })
export type OperatorRecipe = Static<typeof OperatorRecipe>

export const operatorCombineRoutes = {
  recipes: route({ method: 'POST', url: '/api/operator/recipes', auth: 'operator', tag: 'operator', body: RecipeListRequest, data: Type.Array(OperatorRecipe), summary: 'Every recipe, published or withdrawn' }),
  save: route({
    method: 'POST', url: '/api/operator/recipeSave', auth: 'operator', tag: 'operator', body: RecipeSaveRequest, data: OperatorRecipe,
    summary: 'Publish, change or withdraw a recipe (audited)', description: 'The pool\'s designs must be of the series (400 naming pool); a change of a published recipe applies to the next combine.'
  })
}
