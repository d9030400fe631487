/**
 * The Shipments tab's paging and carrier names: kept out of the component module so that React Fast
 * Refresh can update that module in place (test/unit/fast-refresh-boundaries.test.ts).
 */
import { t } from '@/stores/locale'
import { carrierKey, isCommonCarrier } from './shipping'

export const SHIPMENTS_PAGE_SIZE = 10

export const carrierName = (code: string): string => (isCommonCarrier(code) ? t(carrierKey(code)) : code)
