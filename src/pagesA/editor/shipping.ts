/** The operator's delivery form: Kuaidi100 carrier codes and tracking numbers, checked like the server does. */
import { AFTER_DRAW_LIMITS } from '~types/limits'
import type { MessageKey } from '@/locales/types'

/** Kuaidi100 codes of the carriers a shop in mainland China uses most; any other code can be typed. */
export const COMMON_CARRIERS = ['shunfeng', 'yuantong', 'zhongtong', 'yunda', 'shentong', 'jtexpress', 'ems', 'jd'] as const
export type CommonCarrier = typeof COMMON_CARRIERS[number]

export const CARRIER_RE = new RegExp(AFTER_DRAW_LIMITS.carrierCodePattern)
export const TRACKING_NO_RE = new RegExp(AFTER_DRAW_LIMITS.trackingNoPattern)

export const isCommonCarrier = (code: string): code is CommonCarrier => (COMMON_CARRIERS as readonly string[]).includes(code)

/** The carrier's name in the current language for a common code, else the code itself. */
export const carrierKey = (code: CommonCarrier): MessageKey => `carriers.${code}`

/** A typed code as the server wants it: trimmed, lower case (Kuaidi100 codes are). */
export const normaliseCarrier = (input: string): string => input.trim().toLowerCase()
export const normaliseTrackingNo = (input: string): string => input.trim()

export function checkCarrier (code: string): MessageKey | null {
  if (!code) return 'shipments.carrierRequired'
  return CARRIER_RE.test(code) ? null : 'shipments.carrierInvalid'
}

export function checkTrackingNo (no: string): MessageKey | null {
  if (!no) return 'shipments.trackingRequired'
  return TRACKING_NO_RE.test(no) ? null : 'shipments.trackingInvalid'
}
