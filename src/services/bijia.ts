/**
 * Price comparison (types/bijia.ts): products by keyword, then the offers of one product. The payload
 * rules: the keyword is trimmed, its runs of white space become one space, control characters go, and
 * it is cut to PRICE_LIMITS.keywordMax characters (never in the middle of a character); the page is a
 * whole number from 1 to PRICE_LIMITS.pageMax; a spuId is the digits the search gave.
 */
import type { Offer, SpuGoodsResult, SpuSearchResult, bijiaRoutes } from '~types/bijia'
import { PRICE_LIMITS } from '~types/limits'
import { postRoute } from './request'

type R = typeof bijiaRoutes

/** The keyword as the server takes it; '' when nothing is left. */
export function normaliseKeyword (text: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim()
  return Array.from(clean).slice(0, PRICE_LIMITS.keywordMax).join('').trim()
}

const clampPage = (page: number) => Math.min(PRICE_LIMITS.pageMax, Math.max(1, Number.isFinite(page) ? Math.floor(page) : 1))

export const bijiaApi = {
  spuSearch: (keyword: string, page = 1): Promise<SpuSearchResult> => {
    const k = normaliseKeyword(keyword)
    const p = clampPage(page)
    return postRoute<R['spuSearch']>('/api/bijia_spu_search', p === 1 ? { keyword: k } : { keyword: k, page: p })
  },
  spuGoods: (spuId: string, keyword?: string): Promise<SpuGoodsResult> => {
    const k = keyword === undefined ? '' : normaliseKeyword(keyword)
    return postRoute<R['spuGoods']>('/api/bijia_spu_goods_search', k ? { spuId, keyword: k } : { spuId })
  }
}

/** What prize_detail shows: the market for one name, from its best-matching product. */
export interface MarketPrice {
  source: string
  asOf: string
  /** The product compared (the first the market answered). */
  product: string
  lowestCents: number
  medianCents: number
  count: number
  offers: Offer[]
}

/** The market price of a name: null when the market has no offer for it. */
export async function marketPrice (name: string): Promise<MarketPrice | null> {
  const keyword = normaliseKeyword(name)
  if (!keyword) return null
  const found = await bijiaApi.spuSearch(keyword)
  const spu = found.list[0]
  if (!spu) return null
  const goods = await bijiaApi.spuGoods(spu.spuId)
  if (!goods.offers.length || goods.lowestCents === null || goods.medianCents === null) return null
  return { source: goods.source, asOf: goods.asOf, product: spu.name, lowestCents: goods.lowestCents, medianCents: goods.medianCents, count: goods.offers.length, offers: goods.offers }
}
