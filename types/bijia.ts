/**
 * Price comparison (spec 7 `/api/bijia_spu_search`, `/api/bijia_spu_goods_search`; the spec leaves the
 * payload open, issue 11 designs it). The market is asked through JD Union's open API (京东联盟开放平台,
 * jd.union.open.goods.query, signed with the app secret):
 *
 *  - bijia_spu_search {keyword, page?}: the products (SPUs) that match, each with its lowest offer and
 *    how many offers the answer held;
 *  - bijia_spu_goods_search {spuId, keyword?}: the offers of one product (shop, price in cents, link)
 *    and their lowest and median price.
 *
 * Every answer says its source and when it was asked (`asOf`): an answer kept on the server (up to
 * PRICE_LIMITS.cacheMs) keeps its first time. Prices are in cents (fen).
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { PRICE_LIMITS } from './limits'
import { Cents, Obj, Text, Timestamp } from './schema'

const Keyword = Text({ minLength: PRICE_LIMITS.keywordMin, maxLength: PRICE_LIMITS.keywordMax, description: 'What to look for, e.g. a design\'s name' })
const SpuId = Type.String({ pattern: PRICE_LIMITS.spuIdPattern, description: 'A product (JD spuId), from bijia_spu_search' })

export const SpuSearchRequest = Obj({
  keyword: Keyword,
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: PRICE_LIMITS.pageMax }))
})
export type SpuSearchRequest = Static<typeof SpuSearchRequest>

export const SpuGoodsRequest = Obj({
  spuId: SpuId,
  /** Narrows the offers to those whose title matches (optional). */
  keyword: Type.Optional(Keyword)
})
export type SpuGoodsRequest = Static<typeof SpuGoodsRequest>

const SourceFields = {
  /** The provider: 'jd' (JD Union). */
  source: Type.String(),
  /** When the market was asked (an answer kept on the server keeps its first time). */
  asOf: Timestamp
}

export const Spu = Type.Object({
  spuId: Type.String(),
  name: Type.String(),
  image: Type.String(),
  /** The lowest offer of this product in the answer. */
  lowestCents: Cents,
  /** How many offers of it the answer held. */
  offers: Type.Integer({ minimum: 1 })
})
export type Spu = Static<typeof Spu>

export const SpuSearchResult = Type.Object({
  ...SourceFields,
  page: Type.Integer(),
  /** How many goods the market has for the keyword (all pages). */
  total: Type.Integer({ minimum: 0 }),
  list: Type.Array(Spu)
})
export type SpuSearchResult = Static<typeof SpuSearchResult>

export const Offer = Type.Object({
  skuId: Type.String(),
  title: Type.String(),
  shop: Type.String(),
  priceCents: Cents,
  url: Type.String(),
  image: Type.String()
})
export type Offer = Static<typeof Offer>

export const SpuGoodsResult = Type.Object({
  ...SourceFields,
  spuId: Type.String(),
  /** Cheapest first. */
  offers: Type.Array(Offer),
  /** Over the offers listed; null when there are none. */
  lowestCents: Type.Union([Cents, Type.Null()]),
  medianCents: Type.Union([Cents, Type.Null()])
})
export type SpuGoodsResult = Static<typeof SpuGoodsResult>

const tag = 'helpers'
const described = `JD Union open API (JD_UNION_APP_KEY, JD_UNION_APP_SECRET); 422 "not configured" without them; ${PRICE_LIMITS.perMinute} a minute per account; an answer is kept ${PRICE_LIMITS.cacheMs / 60000} minutes; JD's refusal is a 422 with its message, an outage a 502.`
export const bijiaRoutes = {
  spuSearch: route({ method: 'POST', url: '/api/bijia_spu_search', auth: 'user', tag, body: SpuSearchRequest, data: SpuSearchResult, summary: 'Price comparison: the products that match a keyword, with their lowest offer', description: described }),
  spuGoods: route({ method: 'POST', url: '/api/bijia_spu_goods_search', auth: 'user', tag, body: SpuGoodsRequest, data: SpuGoodsResult, summary: 'Price comparison: the offers of one product (shop, price, link), lowest and median', description: described })
}
