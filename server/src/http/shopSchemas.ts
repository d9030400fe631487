/** Field schemas of the shop calls (types/shop.ts). */
import { Type } from 'typebox'
import { TOPUP_MAX_CENTS, TOPUP_MIN_CENTS } from '../../../types/shop'
import { IDEMPOTENCY_KEY_PATTERN } from '../domain/idempotency'
import { OP_ID_PATTERN } from '../domain/orders'
import { strict } from './schemas'

export const PAGE_SIZE_MAX = 100
/** The largest case (series_case_size_check). */
export const CASE_SIZE_MAX = 100

export const Id = Type.Integer({ minimum: 1 })
export const PageFields = {
  page: Type.Integer({ minimum: 1 }),
  size: Type.Integer({ minimum: 1, maximum: PAGE_SIZE_MAX })
}
export const PageBody = Type.Object(PageFields, strict)
export const EmptyBody = Type.Object({}, strict)
export const SeriesIdBody = Type.Object({ seriesId: Id }, strict)
export const OpId = Type.String({ pattern: OP_ID_PATTERN })
export const OpIdBody = Type.Object({ opId: OpId }, strict)
export const IdempotencyKey = Type.String({ pattern: IDEMPOTENCY_KEY_PATTERN })
export const PayChannelSchema = Type.Enum(['sandbox', 'wechat_jsapi', 'wechat_h5'])
export const TopupAmount = Type.Integer({ minimum: TOPUP_MIN_CENTS, maximum: TOPUP_MAX_CENTS })
export const PrizeStatusSchema = Type.Enum(['warehouse', 'shipping', 'received', 'combined', 'recycled'])
export const Slot = Type.Integer({ minimum: 1, maximum: CASE_SIZE_MAX })
