/** The pickup point form's checks (the server's rules: types/afterDraw.ts PickupPointSaveRequest), in the operator's language. */
import type { PickupPoint, PickupPointSaveRequest } from '~types/afterDraw'
import { PICKUP_LIMITS } from '~types/limits'
import type { MessageKey } from '@/locales/types'
import { t } from '@/stores/locale'

export interface PickupDraft { id?: number; name: string; address: string; hours: string; latitude: string; longitude: string; active: boolean }
export type PickupField = 'name' | 'address' | 'hours' | 'latitude' | 'longitude'
export const PICKUP_FIELDS: PickupField[] = ['name', 'address', 'hours', 'latitude', 'longitude']
export const PICKUP_MAX: Record<PickupField, number> = { name: PICKUP_LIMITS.nameMax, address: PICKUP_LIMITS.addressMax, hours: PICKUP_LIMITS.hoursMax, latitude: 12, longitude: 13 }

export const EMPTY_PICKUP: PickupDraft = { name: '', address: '', hours: '', latitude: '', longitude: '', active: true }

export const draftOf = (p: PickupPoint): PickupDraft => ({
  id: p.id, name: p.name, address: p.address, hours: p.hours, latitude: String(p.latitude), longitude: String(p.longitude), active: p.active
})

/** The problems of a draft by field, or the request to send. */
export function checkPickup (d: PickupDraft): { problems: Partial<Record<PickupField, string>>; request?: PickupPointSaveRequest } {
  const problems: Partial<Record<PickupField, string>> = {}
  for (const f of ['name', 'address', 'hours'] as const) {
    if (!d[f].trim()) problems[f] = t('opPickup.required', { field: t(`opPickup.${f}` as MessageKey) })
  }
  const lat = Number(d.latitude.trim())
  const lng = Number(d.longitude.trim())
  if (!d.latitude.trim() || !Number.isFinite(lat) || Math.abs(lat) > 90) problems.latitude = t('opPickup.badLatitude')
  if (!d.longitude.trim() || !Number.isFinite(lng) || Math.abs(lng) > 180) problems.longitude = t('opPickup.badLongitude')
  if (Object.keys(problems).length) return { problems }
  return {
    problems,
    request: { ...(d.id ? { id: d.id } : {}), name: d.name.trim(), address: d.address.trim(), hours: d.hours.trim(), latitude: lat, longitude: lng, active: d.active }
  }
}
