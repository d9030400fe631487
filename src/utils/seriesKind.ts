/**
 * The kind of each series this app has seen (types/shop.ts SeriesSummary.kind: 'case' or 'kuji'), so
 * that the series and purchase pages ask only the calls of its kind at once: a kuji series' set is never
 * asked for as a case (POST /api/caseCurrent holds or makes cases). A series not seen yet is asked for
 * first, then by its kind.
 */
export type SeriesKind = 'case' | 'kuji'

const kinds = new Map<number, SeriesKind>()

export function rememberKind (seriesId: number, kind: SeriesKind | undefined): void {
  if (kind === 'case' || kind === 'kuji') kinds.set(seriesId, kind)
}

export const knownKind = (seriesId: number): SeriesKind | null => kinds.get(seriesId) ?? null
