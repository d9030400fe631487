/**
 * Picked slots in a page's query: `slots=1,2,5` (1-based, as the server counts them). Shared by the
 * detail page (a selection kept across a login) and the purchase page.
 */
import type { CaseView } from '~types/shop'
import { CASE_SIZE_MAX } from '~types/limits'
import { buildQuery } from './navigation'

/** The detail page of a series, with a selection in its query. */
export const detailLink = (seriesId: number, caseId?: number, slots: number[] = []) =>
  `/pagesA/blind_box_detail/index${buildQuery({ seriesId, caseId, slots: slots.length ? slots.join(',') : undefined })}`

/** '1,2,5' (or '1%2C2%2C5') -> [1, 2, 5]: positive integers, each once, in order; anything else dropped. */
export function parseSlots (param: string | undefined | null): number[] {
  if (!param) return []
  let text = param
  try { text = decodeURIComponent(param) } catch { /* a stray % : read it as it is */ }
  const out = new Set<number>()
  for (const part of text.split(',')) {
    if (!/^\d{1,3}$/.test(part.trim())) continue
    const n = Number(part)
    if (n >= 1 && n <= CASE_SIZE_MAX) out.add(n)
  }
  return [...out].sort((a, b) => a - b)
}

export interface RestoredSelection {
  /** The slots picked again: those asked for that are still unsold in the case shown. */
  picked: number[]
  /** Asked for, but sold meanwhile (or no longer in the case). */
  gone: number[]
  /** The selection was made in another case than the one shown now: nothing restored. */
  otherCase: boolean
}

/** A selection remembered across a login, applied to the case the page shows now. */
export function restoreSelection (slots: number[], caseId: number | null, box: CaseView): RestoredSelection {
  if (!slots.length) return { picked: [], gone: [], otherCase: false }
  if (caseId !== null && caseId !== box.caseId) return { picked: [], gone: [], otherCase: true }
  const free = new Set(box.slots.filter(s => !s.sold).map(s => s.slot))
  return { picked: slots.filter(s => free.has(s)), gone: slots.filter(s => !free.has(s)), otherCase: false }
}
