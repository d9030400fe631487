/**
 * Schema parts the shop's files share; types/shop.ts does not re-export them.
 */
import { Type } from 'typebox'
import { CASE_SIZE_MAX } from '../limits'

export const Ppm = Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'parts per million' })
export const SlotNumber = Type.Integer({ minimum: 1, maximum: CASE_SIZE_MAX, description: '1-based position in the case' })
