/**
 * How spending limits are read and checked: kept out of the component module so that React Fast
 * Refresh can update that module in place (test/unit/fast-refresh-boundaries.test.ts).
 */
import type { LimitKind } from '~types/security'
import { dailyAboveMonthly, MONEY_MAX_CENTS } from '~types/limits'
import { t } from '@/stores/locale'
import { formatCents, parseYuan } from '@/utils/format'

/** A limit typed in yuan: '' is no limit; anything else must be a plain amount. */
export function parseLimit (text: string): { ok: true; cents: number | null } | { ok: false } {
  if (!text.trim()) return { ok: true, cents: null }
  const cents = parseYuan(text)
  return cents === null ? { ok: false } : { ok: true, cents }
}

/**
 * The problems of the limits form, beside each field: an amount that is not one, one above the most a
 * limit may be (the server's schema maximum, MONEY_MAX_CENTS; checked here, before the lowering is
 * confirmed), and a daily limit above the monthly one (the server's rule, types/security.ts).
 */
export function limitProblems (daily: string, monthly: string): Partial<Record<LimitKind, string>> {
  const d = parseLimit(daily)
  const m = parseLimit(monthly)
  const out: Partial<Record<LimitKind, string>> = {}
  if (!d.ok) out.daily = t('security.limitInvalid')
  if (!m.ok) out.monthly = t('security.limitInvalid')
  const tooHigh = t('security.limitTooHigh', { max: formatCents(MONEY_MAX_CENTS) })
  if (d.ok && d.cents !== null && d.cents > MONEY_MAX_CENTS) out.daily = tooHigh
  if (m.ok && m.cents !== null && m.cents > MONEY_MAX_CENTS) out.monthly = tooHigh
  if (out.daily || out.monthly) return out
  if (d.ok && m.ok && dailyAboveMonthly(d.cents, m.cents)) out.daily = t('security.dailyAboveMonthly', { other: formatCents(m.cents!) })
  return out
}
