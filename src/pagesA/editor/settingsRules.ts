/**
 * What is wrong with the settings form: kept out of the component module so that React Fast
 * Refresh can update that module in place (test/unit/fast-refresh-boundaries.test.ts).
 */
import { AFTER_DRAW_LIMITS, AI_BUDGET, settingsConflicts, type ShopSettings } from '~types/limits'
import { t } from '@/stores/locale'
import type { MessageKey } from '@/locales/types'
import { formatCents, parseWhole, parseYuan } from '@/utils/format'

export type Key = keyof ShopSettings
/** Each setting: money in yuan (stored as cents) or a count; the largest value the server takes. */
export const FIELDS: Array<{ key: Key; label: MessageKey; money: boolean; min: number; max: number }> = [
  { key: 'shipFreeFromItems', label: 'opSettings.shipFreeFromItems', money: false, min: 1, max: AFTER_DRAW_LIMITS.itemsPerRequestMax },
  { key: 'shipFeeCents', label: 'opSettings.shipFeeCents', money: true, min: 0, max: 100000 },
  { key: 'withdrawMinCents', label: 'opSettings.withdrawMinCents', money: true, min: 1, max: 10_000_000 },
  { key: 'withdrawDailyMaxCents', label: 'opSettings.withdrawDailyMaxCents', money: true, min: 1, max: 100_000_000 },
  { key: 'hintCardPriceCents', label: 'opSettings.hintCardPriceCents', money: true, min: 0, max: 20000 },
  { key: 'xrayCardPriceCents', label: 'opSettings.xrayCardPriceCents', money: true, min: 0, max: 20000 },
  { key: 'aiDailyPerAccount', label: 'opSettings.aiDailyPerAccount', money: false, min: 0, max: AI_BUDGET.perAccountMax },
  { key: 'aiDailyPerShop', label: 'opSettings.aiDailyPerShop', money: false, min: 0, max: AI_BUDGET.perShopMax }
]
/** A bound as the hint shows it: money as the app writes money. */
const bound = (f: typeof FIELDS[number], v: number) => (f.money ? formatCents(v) : String(v))
/** Typed text to the stored value; a sign, an exponent or stray characters are refused (null), never dropped. */
const parse = (f: typeof FIELDS[number], text: string): number | null => (f.money ? parseYuan(text) : parseWhole(text, 6))

/**
 * Every problem of the form, each beside its field: each value alone (its range), then the values
 * together (settingsConflicts, the rule the server applies; a value out of range counts as saved).
 */
export function settingsProblems (saved: ShopSettings, draft: Record<Key, string>): { problems: Map<Key, string>; changes: Partial<ShopSettings> } {
  const problems = new Map<Key, string>()
  const changes: Partial<ShopSettings> = {}
  const next: ShopSettings = { ...saved }
  for (const f of FIELDS) {
    const v = parse(f, draft[f.key])
    if (v === null || v < f.min || v > f.max) {
      problems.set(f.key, t('opSettings.range', { min: bound(f, f.min), max: bound(f, f.max) }))
    } else {
      next[f.key] = v
      if (v !== saved[f.key]) changes[f.key] = v
    }
  }
  for (const c of settingsConflicts(next, Object.keys(changes) as Key[])) {
    if (!problems.has(c.field)) {
      problems.set(c.field, t(c.field === 'withdrawMinCents' ? 'opSettings.withdrawMinAboveDailyMax' : 'opSettings.withdrawDailyMaxBelowMin', { other: formatCents(c.otherCents) }))
    }
  }
  return { problems, changes }
}
