/**
 * What both region pickers share: their props and how a region reads ("广东省 深圳市 南山区"; a
 * municipality's city written once). Kept out of the component modules so that React Fast Refresh can
 * update those in place.
 */
import type { RegionParts } from '~types/regions'

export interface RegionPickerProps {
  /** The picked region; null: none yet (or an old address whose region was typed: `fallback` shows it). */
  value: RegionParts | null
  /** The region's text when it has no parts (an address saved before the picker). */
  fallback?: string
  /** The field shows as wrong (a red border). */
  invalid?: boolean
  onChange: (value: RegionParts) => void
}

export function regionPartsText (r: RegionParts): string {
  return [r.province, r.city === r.province ? '' : r.city, r.district].filter(Boolean).join(' ')
}
