/**
 * What is wrong with an address draft: kept out of the component module so that React Fast
 * Refresh can update that module in place (test/unit/fast-refresh-boundaries.test.ts).
 */
import { t } from '@/stores/locale'
import { normalizePhone } from '@/utils/validation'

export interface Draft { id?: number; name: string; phone: string; region: string; detail: string; isDefault: boolean }
export const FIELDS = ['name', 'phone', 'region', 'detail'] as const
export type Field = typeof FIELDS[number]
export type AddressProblems = Partial<Record<Field, string>>

const REQUIRED = { name: 'ship.nameRequired', phone: 'ship.phoneRequired', region: 'ship.regionRequired', detail: 'ship.detailRequired' } as const

/** Every problem of an address form, by field, in the user's language (none: it may be saved). */
export function addressProblems (d: Draft): AddressProblems {
  const out: AddressProblems = {}
  for (const field of FIELDS) {
    if (!d[field].trim()) out[field] = t(REQUIRED[field])
  }
  if (!out.phone && !normalizePhone(d.phone)) out.phone = t('ship.phoneInvalid')
  return out
}
