/**
 * Prizes, their proofs (case and combine) and the live feed of wins.
 */
import { Type, type Static } from 'typebox'
import { CASE_SIZE_MAX, SHOP_LIMITS } from '../limits'
import { Id, Nullable, Obj, PageFields, PageResult, StringEnum, Timestamp } from '../schema'
import { I18nText, Rarity } from './basics'
import { CaseProof, DesignInfo } from './catalogue'

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
