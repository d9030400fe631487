/**
 * The pickup directory's search (issue 48): every open counter by city, narrowed to those whose name,
 * address or city holds each of the words typed (case, width and spaces aside). Kept out of the
 * component module so that React Fast Refresh can update that module in place.
 */
import type { PickupDirectory, PickupPoint } from '~types/afterDraw'

const fold = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, '')

/** The cities and points that match `query` (all of them for an empty one); cities left empty are dropped. */
export function filterDirectory (dir: PickupDirectory, query: string): Array<{ city: string; list: PickupPoint[] }> {
  const words = query.normalize('NFKC').toLowerCase().split(/\s+/).map(fold).filter(Boolean)
  if (!words.length) return dir.cities
  return dir.cities
    .map(c => ({ city: c.city, list: c.list.filter(p => { const text = fold(`${p.name} ${p.address} ${c.city}`); return words.every(w => text.includes(w)) }) }))
    .filter(c => c.list.length > 0)
}
