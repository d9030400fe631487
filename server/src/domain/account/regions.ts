/**
 * China's provinces, cities and districts (types/regions.ts), from server/src/domain/account/regions.json (code ->
 * name: GB/T 2260 as published in the MIT-licensed @vant/area-data 2.1.0). A province's code ends in
 * 0000, a city's in 00; a city's districts share its first four digits, a province's cities its first two.
 */
import type { RegionEntry, RegionParts } from '../../../../types/regions'
import { ADDRESS_NAME_LETTER } from '../../../../types/limits'
import { fail } from '../../core/errors'
import regions from './regions.json'

const ALL = Object.entries(regions as Record<string, string>).map(([code, name]) => ({ code, name }))
const PROVINCES = ALL.filter(r => r.code.endsWith('0000'))

/** The provinces (no parent), a province's cities or a city's districts; [] for a code of neither. */
export function regionChildren (parent?: string): RegionEntry[] {
  if (!parent) return PROVINCES
  if (parent.endsWith('0000')) return ALL.filter(r => r.code.startsWith(parent.slice(0, 2)) && r.code !== parent && r.code.endsWith('00'))
  if (parent.endsWith('00')) return ALL.filter(r => r.code.startsWith(parent.slice(0, 4)) && r.code !== parent)
  return []
}

const LETTER = new RegExp(ADDRESS_NAME_LETTER, 'u')

/**
 * A picked region's parts, trimmed; 422 on `area` for a part without a letter. Names are not checked
 * against the shop's list: WeChat's own picker and its address import carry WeChat's list, which may
 * hold a district newer than ours, and a real address must not be refused for that.
 */
export function cleanArea (area: RegionParts): RegionParts {
  const parts = { province: area.province.trim(), city: area.city.trim(), district: area.district.trim() }
  for (const v of Object.values(parts)) if (!LETTER.test(v)) throw fail.field('area', 'address.regionUnknown')
  return parts
}

/** The region's text: "广东省 深圳市 南山区"; a municipality's city is written once ("北京市 朝阳区"). */
export function areaText (a: RegionParts): string {
  return [a.province, a.city === a.province ? '' : a.city, a.district].filter(Boolean).join(' ')
}
