/**
 * The audit log's before and after, readable (the editor's audit tab): the fields that differ, each
 * named in the user's language and its values shown as people read them (money in yuan, odds in %,
 * roles, statuses and rarities translated, a bilingual name as its two texts).
 *
 * Nested objects are compared field by field (`name.zh`, `design.rarity`); a recipe's pool design by
 * design (only the weights that changed, each named by its design); other lists are compared whole and
 * shown as one value. A series' designs are compared design by design when it changed; when it was
 * created they are one value (the tab lists them, each with its image). Carriers are named, money is in
 * yuan, images are shown as images (`isImageField`), and keys a server writes for context are named too.
 */
import { localeStore, t } from '@/stores/locale'
import type { MessageKey } from '@/locales/types'
import { formatCents, formatPpm } from '@/utils/format'
import { carrierKey, isCommonCarrier } from './shipping'

export type DiffKind = 'changed' | 'added' | 'removed'
export interface DiffRow {
  path: string
  kind: DiffKind
  before: unknown
  after: unknown
  /** The field's name when its path does not say it (a pool entry: "Output pool · Star bunny"). */
  label?: string
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

interface PoolEntry { designId: number; weight: number; name?: unknown }
const isDesignList = (v: unknown): v is Array<Record<string, unknown>> =>
  Array.isArray(v) && v.length > 0 && v.every(x => isObject(x) && typeof x.id === 'number' && isObject(x.name))
const isPool = (v: unknown): v is PoolEntry[] =>
  Array.isArray(v) && v.length > 0 && v.every(x => isObject(x) && typeof x.designId === 'number' && typeof x.weight === 'number')

/**
 * Every leaf of a value by its dotted path (scalars and lists are leaves; the root scalar has path '');
 * a pool is one leaf per design, `pool[<designId>]`, its weight (the design's name kept in `names`).
 */
function leaves (v: unknown, prefix: string, out: Map<string, unknown>, names: Map<string, unknown>, whole = false): Map<string, unknown> {
  if (isObject(v) && Object.keys(v).length) {
    for (const [k, x] of Object.entries(v)) leaves(x, prefix ? `${prefix}.${k}` : k, out, names, whole)
  } else if (isDesignList(v) && !whole) {
    // a series' designs, design by design (designs.3.name.en: "Designs 4 · Name · English")
    v.forEach((x, i) => leaves(x, `${prefix}.${i}`, out, names))
  } else if (isPool(v)) {
    for (const e of v) {
      out.set(`${prefix}[${e.designId}]`, e.weight)
      if (e.name) names.set(`${prefix}[${e.designId}]`, e.name)
    }
  } else {
    out.set(prefix, v)
  }
  return out
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** The fields that differ between before and after, in the order they first appear. */
export function auditDiff (before: unknown, after: unknown): DiffRow[] {
  const names = new Map<string, unknown>()
  // a thing created or removed: its lists whole (a new series' designs are a list, not 80 rows)
  const whole = before === null || before === undefined || after === null || after === undefined
  const b = before === null || before === undefined ? new Map<string, unknown>() : leaves(before, '', new Map(), names, whole)
  const a = after === null || after === undefined ? new Map<string, unknown>() : leaves(after, '', new Map(), names, whole)
  const paths = [...new Set([...b.keys(), ...a.keys()])]
  const rows: DiffRow[] = []
  for (const path of paths) {
    const hasB = b.has(path)
    const hasA = a.has(path)
    if (hasB && hasA && same(b.get(path), a.get(path))) continue
    // a field that was empty and now holds something (a shipment's carrier) is added, not "— → x"
    const empty = (v: unknown) => v === null || v === undefined || v === ''
    const kind: DiffKind = hasB && hasA && !empty(b.get(path)) ? 'changed' : hasA ? 'added' : 'removed'
    const row: DiffRow = { path, kind, before: b.get(path), after: a.get(path) }
    const entry = /^(.*)\[(\d+)\]$/.exec(path)
    if (entry) row.label = `${fieldLabel(entry[1])} · ${names.has(path) ? formatAuditValue('name', names.get(path)) : `#${entry[2]}`}`
    rows.push(row)
  }
  return rows
}

const SETTINGS = ['shipFreeFromItems', 'shipFeeCents', 'withdrawMinCents', 'withdrawDailyMaxCents', 'hintCardPriceCents', 'xrayCardPriceCents']

/** A field's name in the user's language: `name.zh` is "Name · Chinese", a setting its editor label. */
export function fieldLabel (path: string): string {
  if (!path) return t('audit.field.status')
  const parts = path.split('.')
  const last = parts[parts.length - 1]
  // a field of a list's item: the item, then the field (designs.3.name.en: "Designs 4 · Name · English")
  const item = parts.findIndex(p => /^\d+$/.test(p))
  if (item > 0 && item < parts.length - 1) return `${fieldLabel(parts.slice(0, item + 1).join('.'))} · ${fieldLabel(parts.slice(item + 1).join('.'))}`
  if ((last === 'zh' || last === 'en') && parts.length > 1) return `${fieldLabel(parts.slice(0, -1).join('.'))} · ${t(`audit.lang.${last}`)}`
  if (/^\d+$/.test(last) && parts.length > 1) return `${fieldLabel(parts.slice(0, -1).join('.'))} ${Number(last) + 1}`
  if (SETTINGS.includes(last)) return t(`opSettings.${last}` as MessageKey).replace(/[（(][^）)]*[）)]$/, '').trim()
  const key = `audit.field.${last}`
  if (localeStore.has(key)) return t(key)
  // a key without a label yet: words, not an identifier ("someKey" reads "Some key")
  const words = last.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z])([A-Z][a-z])/g, '$1 $2').replace(/_/g, ' ').toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

const IMAGE_FIELDS = new Set(['cover', 'image', 'photo', 'thumbnail'])
/** Whether a field holds an image's address (the tab shows the image, not its path). */
export function isImageField (path: string): boolean {
  return IMAGE_FIELDS.has(path.split('.').pop() ?? '')
}

/** A series' designs as the tab lists them (a series created: one line each, with its image). */
export interface AuditDesign { name: string; rarity: string; image: string | null; values: string }
export function designList (path: string, value: unknown): AuditDesign[] | null {
  if ((path.split('.').pop() ?? '') !== 'designs' || !Array.isArray(value) || !value.length || !value.every(isObject)) return null
  return value.map(d => ({
    name: formatAuditValue('name', d.name),
    rarity: typeof d.rarity === 'string' ? formatAuditValue('rarity', d.rarity) : '',
    image: typeof d.image === 'string' && d.image ? d.image : null,
    values: [d.referenceValueCents, d.recycleValueCents].every(v => typeof v === 'number')
      ? t('audit.designValues', { reference: formatCents(d.referenceValueCents as number), recycle: formatCents(d.recycleValueCents as number) })
      : ''
  }))
}

/** A value as people read it; `path` says what it is (money, odds, a role ...). */
export function formatAuditValue (path: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—'
  const last = path.split('.').pop() ?? ''
  if (typeof value === 'number') {
    if (/Cents$/.test(last)) return formatCents(value)
    if (/Ppm$/.test(last)) return formatPpm(value)
    // a case, a correction request...: by its number
    if (/(CaseId|Cases|correctionId|userId)$/.test(last)) return `#${value}`
    return String(value)
  }
  if (typeof value === 'string' && last === 'carrier') return isCommonCarrier(value) ? t(carrierKey(value)) : value
  if (typeof value === 'boolean') return value ? '✓' : '✗'
  if (typeof value === 'string') {
    const key = `audit.value.${value}`
    return localeStore.has(key) ? t(key) : value
  }
  if (Array.isArray(value)) {
    if (!value.length) return '—'
    // a recipe's pool: design and weight
    if (value.every(x => isObject(x) && typeof x.designId === 'number' && typeof x.weight === 'number')) {
      return value.map(x => `#${(x as { designId: number }).designId} × ${(x as { weight: number }).weight}`).join(', ')
    }
    return value.map(x => (isObject(x) && typeof x[localeStore.locale] === 'string'
      ? String(x[localeStore.locale])
      // a design (or anything else named): its name, never its JSON
      : isObject(x) && (typeof x.name === 'object' || typeof x.name === 'string')
        ? formatAuditValue('name', x.name)
        : isObject(x) ? '…' : formatAuditValue(path, x))).join(', ')
  }
  if (isObject(value)) {
    if (typeof value.zh === 'string' && typeof value.en === 'string') return String(value[localeStore.locale] || value.zh || value.en) || '—'
    // any other object: its fields, each named and read (never raw JSON)
    return Object.entries(value).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => `${fieldLabel(k)}: ${formatAuditValue(k, v)}`).join(' · ')
  }
  return String(value)
}

/** An action's name ("role.grant": "Operator role granted"), or the action itself when it has none yet. */
export function actionLabel (action: string): string {
  const key = `audit.action.${action}`
  return /^[a-z_]+\.[a-z_]+$/i.test(action) && localeStore.has(key) ? t(key) : action
}

export function entityLabel (entity: string): string {
  const key = `audit.entity.${entity}`
  return /^[a-z_]+$/.test(entity) && localeStore.has(key) ? t(key) : entity
}
