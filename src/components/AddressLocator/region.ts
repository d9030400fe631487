/**
 * How an address's region and a place read as text: kept out of the component module so that React Fast
 * Refresh can update that module in place (test/unit/fast-refresh-boundaries.test.ts).
 */
import type { Place, Region } from '~types/geo'

/** "广东省 深圳市 福田区": a municipality's city is written once. */
export function regionText (r: Region): string {
  return [r.province, r.city === r.province ? '' : r.city, r.district].filter(Boolean).join(' ')
}

/** Typed "省 市 区" back into its parts (spaces or commas between them). */
export function parseRegion (text: string): Region {
  const parts = text.split(/[\s,，、/]+/).filter(Boolean)
  if (parts.length === 2 && /市$/.test(parts[0])) return { province: parts[0], city: parts[0], district: parts[1] }
  return { province: parts[0] ?? '', city: parts[1] ?? '', district: parts.slice(2).join(' ') }
}

/** The detail line of a picked place: its address less the region, and its name when the address lacks it. */
export function placeDetail (p: Place): string {
  let rest = p.address
  for (const part of [p.region.province, p.region.city, p.region.district]) if (part && rest.startsWith(part)) rest = rest.slice(part.length)
  rest = rest.trim()
  return rest.includes(p.title) ? rest : [rest, p.title].filter(Boolean).join(' ')
}
