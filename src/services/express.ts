/**
 * Parcel tracking calls (types/express.ts expressRoutes), checked here first with the server's rule
 * and message (spec 5): shunfeng and shunfengkuaiyun need the phone, "必须提供手机号参数".
 */
import type { ExpressInquiryRequest, ExpressMapRequest, expressRoutes } from '~types/express'
import { EXPRESS_PHONE_CARRIERS } from '~types/limits'
import { t } from '@/stores/locale'
import { ApiError } from './errors'
import { postRoute } from './request'

type E = typeof expressRoutes

/** Whether the carrier answers only with the phone of the sender or receiver. */
export const needsPhone = (com: string) => (EXPRESS_PHONE_CARRIERS as readonly string[]).includes(com)

const phoneMissing = (com: string, phone: string | undefined) => needsPhone(com) && !phone?.trim()

export type InquiryInput = Omit<ExpressInquiryRequest, 'resultv2'>
export type MapInput = Omit<ExpressMapRequest, 'resultv2'>

const clean = <T extends { phone?: string }>(body: T): T => {
  const phone = body.phone?.trim()
  const { phone: _dropped, ...rest } = body
  return (phone ? { ...rest, phone } : rest) as T
}

export const expressApi = {
  /** The track of a parcel, newest event first (resultv2 4). */
  inquiry: (body: InquiryInput) =>
    phoneMissing(body.com, body.phone)
      ? Promise.reject(new ApiError(400, t('geo.phoneRequired'), { field: 'phone' }))
      : postRoute<E['inquiry']>('/api/expressInquiry', { ...clean(body), resultv2: 4 }),
  /** The track on a map (resultv2 5); a failure answers success false with a message. */
  map: (body: MapInput) =>
    phoneMissing(body.com, body.phone)
      ? Promise.reject(new ApiError(400, t('geo.phoneRequired'), { field: 'phone' }))
      : postRoute<E['map']>('/api/expressMap', { ...clean(body), resultv2: 5 })
}
