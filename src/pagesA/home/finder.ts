/**
 * What the shopper is looking for on home (issue 27 item 2): the search text, the filters and the sort,
 * as page query params (so the state is in the URL on H5, in a shared page's path in the mini-program,
 * and comes back with the page) and as the seriesList request. Unknown or broken params are ignored:
 * a shared link never breaks the page.
 */
import type { Rarity, SeriesListRequest, SeriesSort } from '~types/shop'
import { SERIES_SEARCH } from '~types/limits'
import type { MessageKey } from '@/locales/types'

/** Price bands offered on home, in cents (min inclusive, max inclusive). */
export const PRICE_BANDS = {
  lt30: { max: 2999 },
  '30to60': { min: 3000, max: 5999 },
  '60to100': { min: 6000, max: 9999 },
  gt100: { min: 10000 }
} as const
export type PriceBand = keyof typeof PRICE_BANDS
export const PRICE_BAND_KEYS = Object.keys(PRICE_BANDS) as PriceBand[]

export const SORTS: readonly SeriesSort[] = ['new', 'popular', 'price_asc', 'price_desc']
export type HiddenChoice = 'yes' | 'no'

export interface FinderState {
  /** The search text as committed (typed text is committed on "search" or a suggestion). */
  q: string
  price: PriceBand | null
  rarity: Extract<Rarity, 'rare'> | null
  hidden: HiddenChoice | null
  tags: number[]
  /** null: the shop's own order (on sale first). */
  sort: SeriesSort | null
}

export const EMPTY_FINDER: FinderState = { q: '', price: null, rarity: null, hidden: null, tags: [], sort: null }

const one = <T extends string>(value: string | undefined, allowed: readonly T[]): T | null =>
  value !== undefined && (allowed as readonly string[]).includes(value) ? value as T : null

function decode (value: string | undefined): string {
  if (!value) return ''
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '))
  } catch {
    return value
  }
}

/** The state a page's query params describe (Taro's router params: values may still be URI-encoded). */
export function finderFromParams (params: Record<string, string | undefined>): FinderState {
  // eslint-disable-next-line no-control-regex
  const q = [...decode(params.q).replace(/[\u0000-\u001f\u007f]/g, '')].slice(0, SERIES_SEARCH.queryMax).join('').trim()
  const tags = [...new Set(decode(params.tags).split(',').map(Number).filter(n => Number.isInteger(n) && n > 0))]
    .slice(0, SERIES_SEARCH.tagFilterMax)
  return {
    q,
    price: one(params.price, PRICE_BAND_KEYS),
    rarity: one(params.rarity, ['rare'] as const),
    hidden: one(params.hidden, ['yes', 'no'] as const),
    tags,
    sort: one(params.sort, SORTS)
  }
}

/** The query params of a state (only what is set). */
export function finderParams (s: FinderState): Record<string, string> {
  const out: Record<string, string> = {}
  if (s.q) out.q = s.q
  if (s.price) out.price = s.price
  if (s.rarity) out.rarity = s.rarity
  if (s.hidden) out.hidden = s.hidden
  if (s.tags.length) out.tags = s.tags.join(',')
  if (s.sort) out.sort = s.sort
  return out
}

/** The query params the finder owns; any other param of the address is left as it is. */
export const FINDER_KEYS = ['q', 'price', 'rarity', 'hidden', 'tags', 'sort'] as const

/**
 * The address's query for a state: the params the finder does not own, as they were (a shared link's
 * own params, e.g. ?from=share), then the state's; "" when there are none.
 */
export function addressQuery (search: string, s: FinderState): string {
  const kept = new URLSearchParams(search)
  for (const k of FINDER_KEYS) kept.delete(k)
  return [kept.toString(), queryString(finderParams(s))].filter(Boolean).join('&')
}

/** "a=1&b=2", encoded. */
export const queryString = (params: Record<string, string>): string =>
  Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')

/** The seriesList request fields of a state (none: the plain list). */
export function finderRequest (s: FinderState): Omit<SeriesListRequest, 'page' | 'size'> {
  const band = s.price ? PRICE_BANDS[s.price] as { min?: number; max?: number } : null
  return {
    ...(s.q ? { q: s.q } : {}),
    ...(band?.min !== undefined ? { priceMinCents: band.min } : {}),
    ...(band?.max !== undefined ? { priceMaxCents: band.max } : {}),
    ...(s.rarity ? { rarity: s.rarity } : {}),
    ...(s.hidden ? { hasHidden: s.hidden === 'yes' } : {}),
    ...(s.tags.length ? { tagIds: s.tags } : {}),
    ...(s.sort ? { sort: s.sort } : {})
  }
}

/** How many filters are set (the search text and the sort aside). */
export const filterCount = (s: FinderState): number =>
  (s.price ? 1 : 0) + (s.rarity ? 1 : 0) + (s.hidden ? 1 : 0) + s.tags.length

export const finderKey = (s: FinderState): string => queryString(finderParams(s))

/** What the page calls each choice. */
export const SORT_LABELS: Record<SeriesSort, MessageKey> = {
  new: 'finder.sortNew', popular: 'finder.sortPopular', price_asc: 'finder.sortPriceAsc', price_desc: 'finder.sortPriceDesc'
}
export const BAND_LABELS: Record<PriceBand, MessageKey> = {
  lt30: 'finder.lt30', '30to60': 'finder.from30to60', '60to100': 'finder.from60to100', gt100: 'finder.gt100'
}
export const HIDDEN_LABELS: Record<HiddenChoice, MessageKey> = { yes: 'finder.hiddenYes', no: 'finder.hiddenNo' }
