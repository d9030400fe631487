/**
 * What is wrong with an address draft: kept out of the component module so that React Fast
 * Refresh can update that module in place (test/unit/fast-refresh-boundaries.test.ts).
 */
import { ADDRESS_NAME_LETTER } from '~types/limits'
import type { RegionParts } from '~types/regions'
import { t } from '@/stores/locale'
import { normalizePhone } from '@/utils/validation'

/** `area`: the region picked (or imported); null with `region` set: an old address's typed region, kept as it is. */
export interface Draft { id?: number; name: string; phone: string; region: string; area: RegionParts | null; detail: string; isDefault: boolean }
export const FIELDS = ['name', 'phone', 'region', 'detail'] as const
export type Field = typeof FIELDS[number]
export type AddressProblems = Partial<Record<Field, string>>

const REQUIRED = { name: 'ship.nameRequired', phone: 'ship.phoneRequired', region: 'ship.regionRequired', detail: 'ship.detailRequired' } as const

const NAME_LETTER = new RegExp(ADDRESS_NAME_LETTER, 'u')

/** Every problem of an address form, by field, in the user's language (none: it may be saved); the server's rules. */
export function addressProblems (d: Draft): AddressProblems {
  const out: AddressProblems = {}
  for (const field of FIELDS) {
    if (field === 'region' ? !d.area && !d.region.trim() : !d[field].trim()) out[field] = t(REQUIRED[field])
  }
  if (!out.name && !NAME_LETTER.test(d.name)) out.name = t('ship.nameNoLetters')
  if (!out.phone && !normalizePhone(d.phone)) out.phone = t('ship.phoneInvalid')
  return out
}
