/**
 * A carrier's name from its code: kept out of the component module so that React Fast
 * Refresh can update that module in place (test/unit/fast-refresh-boundaries.test.ts).
 */
import type { MessageKey } from '@/locales/types'
import { t } from '@/stores/locale'

const CARRIERS = ['shunfeng', 'shunfengkuaiyun', 'zhongtong', 'yuantong', 'yunda', 'shentong', 'jd', 'ems'] as const

/** The carrier's name in the current language; its code when the app does not know it. */
export function carrierName (com: string): string {
  return (CARRIERS as readonly string[]).includes(com) ? t(`tracking.carriers.${com}` as MessageKey) : com
}
