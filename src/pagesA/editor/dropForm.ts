/** The drop form's checks (DropsPanel): the same rules the server applies, in the operator's words. */
import type { SeriesDrops } from '~types/drop'
import { DROP_LIMITS } from '~types/limits'
import { t } from '@/stores/locale'
import { chinaClock } from '@/utils/travel'

/**
 * types/raffle.ts RAFFLE_LIMITS, copied: the app takes only types from a schema module (its values would
 * bring typebox into the bundle; test/unit/contract-imports.test.ts); test/unit/raffle-form.test.ts
 * holds the copy to the original.
 */
export const RAFFLE_FORM_LIMITS = { claimMinutesMin: 5, claimMinutesMax: 7 * 24 * 60, registerDaysMax: 30 } as const
const RAFFLE_LIMITS = RAFFLE_FORM_LIMITS

const CHINA_OFFSET_MS = 8 * 3_600_000
const DAY_MS = 86_400_000

/** "2026-12-01 20:00" in China time to an instant, or null. */
export function parseChinaTime (text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})$/.exec(text.trim())
  if (!m) return null
  const [y, mo, d, h, mi] = m.slice(1).map(Number)
  const ms = Date.UTC(y, mo - 1, d, h, mi) - CHINA_OFFSET_MS
  // a date that does not exist (2026-02-30) comes back as another one
  return chinaClock(new Date(ms).toISOString()) === `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}` ? ms : null
}

export type DropField = 'cases' | 'hiddenCases' | 'startsAt' | 'windowSeconds' | 'shoppersAtOnce' | 'minutesEach' | 'boxesPerAccount' | 'casesPerAccount' | 'accountHoursMin' | 'closesAt' | 'claimMinutes'
type Field = DropField

/** The form's problems in the operator's words, by field (the server checks the same and the stock again). */
export function dropProblems (form: Partial<Record<Field, string>> & Record<'cases' | 'hiddenCases' | 'startsAt', string>, s: SeriesDrops, now: number): Partial<Record<Field, string>> {
  const out: Partial<Record<Field, string>> = {}
  const whole = (v: string | undefined) => v === undefined ? null : /^\d+$/.test(v.trim()) ? Number(v.trim()) : null
  const cases = whole(form.cases)
  const hidden = whole(form.hiddenCases)
  if (cases === null || cases < 1 || cases > DROP_LIMITS.casesMax) out.cases = t('dropEditor.casesRange', { max: DROP_LIMITS.casesMax })
  else if (cases > s.casesFillable) out.cases = t('dropEditor.casesStock', { n: s.casesFillable })
  if (hidden === null) out.hiddenCases = t('dropEditor.hiddenWhole')
  else if (hidden > 0 && !s.hasHidden) out.hiddenCases = t('dropEditor.noHidden')
  else if (cases !== null && hidden > cases) out.hiddenCases = t('dropEditor.hiddenOver')
  else if (hidden > s.hiddenFree) out.hiddenCases = t('dropEditor.hiddenStock', { n: s.hiddenFree })
  // the waiting room (its fields are there only when it is on)
  const room: Array<[Field, number, number]> = [['windowSeconds', 0, DROP_LIMITS.windowSecondsMax], ['shoppersAtOnce', 1, DROP_LIMITS.shoppersAtOnceMax], ['minutesEach', 1, DROP_LIMITS.minutesEachMax]]
  for (const [f, min, max] of room) {
    if (form[f] === undefined) continue
    const n = whole(form[f])
    if (n === null || n < min || n > max) out[f] = t('dropEditor.range', { min, max })
  }
  // limits per account: blank is no limit
  const limits: Array<[Field, number]> = [['boxesPerAccount', DROP_LIMITS.boxesPerAccountMax], ['casesPerAccount', DROP_LIMITS.casesPerAccountMax], ['accountHoursMin', DROP_LIMITS.accountHoursMax]]
  for (const [f, max] of limits) {
    if (!form[f]?.trim()) continue
    const n = whole(form[f])
    if (n === null || n < 1 || n > max) out[f] = t('dropEditor.limitRange', { max })
  }
  const at = parseChinaTime(form.startsAt)
  if (at === null) out.startsAt = t('dropEditor.startFormat')
  else if (at < now - 5 * 60_000) out.startsAt = t('dropEditor.startPast')
  else if (at > now + DROP_LIMITS.startsAheadMaxDays * DAY_MS) out.startsAt = t('dropEditor.startLate', { days: DROP_LIMITS.startsAheadMaxDays })
  // a raffle (its fields are there only when it is chosen): the close after the start, within the
  // longest entry period; the winners' minutes; and the cap per account the places are counted from
  if (form.closesAt !== undefined) {
    const closes = parseChinaTime(form.closesAt)
    if (closes === null) out.closesAt = t('dropForm.closesFormat')
    else if (at !== null && closes <= at) out.closesAt = t('dropForm.closesBeforeStart')
    else if (at !== null && closes > at + RAFFLE_LIMITS.registerDaysMax * DAY_MS) out.closesAt = t('dropForm.closesTooLate', { days: RAFFLE_LIMITS.registerDaysMax })
    const claim = whole(form.claimMinutes)
    if (claim === null || claim < RAFFLE_LIMITS.claimMinutesMin || claim > RAFFLE_LIMITS.claimMinutesMax) {
      out.claimMinutes = t('dropForm.claimRange', { min: RAFFLE_LIMITS.claimMinutesMin, max: RAFFLE_LIMITS.claimMinutesMax })
    }
    if (!form.boxesPerAccount?.trim()) out.boxesPerAccount = t('dropForm.needsBoxCap')
  }
  return out
}
